// Under the counters: where the crawl's "relevant" verdicts come from (the keyword judge, or the judge trained on
// labeled pages) and, once the user has labeled pages of the crawl, how often the judge agreed with them, so the
// harvest rate is read for what it is.
import { byId } from '@/lib/platform/dom';
import type { CrawlerDB } from '@/lib/store/db';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import { formatCount, formatPercent } from '@/lib/ui/format';
import { verdictCheck, watch } from '@/lib/ui/queries';

let watching: { id: number; stop: () => void } | null = null;

export function showVerdictLine(db: CrawlerDB, crawl: CrawlRecord | undefined): void {
  const el = byId('verdict-line');
  // A template crawl shows no relevant count to explain: it is measured by its records.
  if (!crawl || crawl.config.template) {
    watching?.stop();
    watching = null;
    el.textContent = '';
    return;
  }
  const { fetched } = crawl.stats;
  const byKeywords = Math.min(fetched, crawl.stats.keywordVerdicts ?? 0);
  const source = fetched === 0
    ? ''
    : crawl.stats.keywordVerdicts === undefined
      ? 'Relevant means the page judge said so.'
      : byKeywords === fetched
        ? `Relevant means the keyword judge said so (for all ${formatCount(fetched)} pages): it reads the keywords in a page's title and prose, and is a first guess until you label pages on and off topic.`
        : byKeywords === 0
          ? `Relevant means the judge trained on your labeled pages said so (for all ${formatCount(fetched)} pages).`
          : `Relevant means a judge said so: the keyword judge for the first ${formatCount(byKeywords)} pages, then the judge trained on your labeled pages for ${formatCount(fetched - byKeywords)}.`;
  el.dataset.source = source;
  el.textContent = `${source} ${el.dataset.check ?? ''}`.trim();
  if (watching?.id === crawl.id) return;
  // The labeled pages are watched live: labeling a page in the table below updates the line at once.
  watching?.stop();
  delete el.dataset.check;
  const id = crawl.id!;
  watching = {
    id,
    stop: watch(() => verdictCheck(db, id), (c) => {
      el.dataset.check = c.labeled === 0
        ? 'Label a few pages in the table below to see how far to trust it.'
        : `On the ${formatCount(c.labeled)} page${c.labeled === 1 ? '' : 's'} you labeled, it agreed with you on ${formatCount(c.agree)}` +
          (c.calledRelevant ? `; of the ${formatCount(c.calledRelevant)} it called relevant, ${formatCount(c.rightRelevant)} are (precision ${formatPercent(c.rightRelevant / c.calledRelevant)}).` : '.');
      el.textContent = `${el.dataset.source ?? ''} ${el.dataset.check}`.trim();
    }, () => undefined),
  };
}
