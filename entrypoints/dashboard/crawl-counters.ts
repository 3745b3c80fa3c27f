// The selected crawl's counter tiles, updated in place from its crawl row and, live, from its page rows. Its strategy's
// headline figures come first, as every place that sums a crawl up shows them (lib/ui/crawl-figures.ts): a harvest
// rate, a template crawl's records per page and per site, a multi-queue crawl's content and list pages and queues.
import Dexie from 'dexie';
import type { CrawlerDB } from '@/lib/store/db';
import { frontierSize, type CrawlRecord } from '@/lib/records/rows.ts';
import { fill, h } from '@/lib/platform/dom';
import { formatBytes, formatCount, formatDuration, formatRate, pagesPerMinute } from '@/lib/ui/format';
import { crawlFigures, crawlKind, figure, type FigureId, type RecordCounts } from '@/lib/ui/crawl-figures';
import { readTemplateMeasures, templateMeasureChanges, type TemplateMeasures } from '@/lib/ui/template-measures';
import { watch, watchThrottled } from '@/lib/ui/queries';
import { rowTally, rowTallyText } from '@/lib/ui/row-tally';

/** What the tiles count apart from the crawl row, from the page rows. */
interface RowCounts {
  /** Pages of the crawl the user labeled. */
  pageLabels: number;
  /** Page rows of URLs the crawl took and did not fetch (a redirect not followed, robots.txt). */
  skippedPages: number;
  /** The crawl's page rows, all kinds, once counted (the Pages table lists them). */
  rows?: number;
  /** A template crawl's records and sites, once read. */
  template?: TemplateMeasures;
}

interface Counter {
  label: string;
  testid: string;
  value: (c: CrawlRecord, rows: RowCounts) => string;
  /** A line under the value that says what it is made of. */
  parts?: (c: CrawlRecord, rows: RowCounts) => string;
  tone?: 'good' | 'bad';
  title?: string;
  /** Whether the crawl's strategy is measured by it; every crawl shows it when absent. */
  shows?: (c: CrawlRecord) => boolean;
  /** The headline figure it shows (its value is marked with it, as in the crawl list and the popup). */
  figure?: FigureId;
}

/** A template crawl (design E): measured by its records, not by a harvest rate. */
export const isTemplate = (c: CrawlRecord): boolean => crawlKind(c) === 'template';
const notTemplate = (c: CrawlRecord): boolean => !isTemplate(c);
/** A crawl that takes by FIFO queues and refreshes its list pages (design D). */
const isMultiQueue = (c: CrawlRecord): boolean => crawlKind(c) === 'multi-queue';
const rechecked = (c: CrawlRecord): number => (c.stats.changed ?? 0) + (c.stats.unchanged ?? 0);
/**
 * A crawl that asks pages again against stored copies: a template crawl that recrawls, a multi-queue crawl (its list
 * pages), or any crawl once it has (a recrawl of a finished one). Others would show "0 / 0" and "0 of 0" for good.
 */
const asksAgain = (c: CrawlRecord): boolean => isMultiQueue(c) || !!c.config.template?.recrawl || rechecked(c) + (c.stats.conditional ?? 0) > 0;
const measured = (rows: RowCounts, pick: (m: TemplateMeasures) => string): string => (rows.template ? pick(rows.template) : '—');

/**
 * "2 pages, 2 links kept from requesting": the crawl's skipped count is its skipped page rows (in the Pages
 * table) and the links it recorded as skipped without a request, which have no page row (unsafe links, and
 * redirect targets it would not follow).
 */
export function skippedParts(skipped: number, skippedPages: number): string {
  const links = Math.max(0, skipped - skippedPages);
  if (skipped === 0) return '';
  const pages = `${formatCount(skippedPages)} page${skippedPages === 1 ? '' : 's'}`;
  return links === 0 ? pages : `${pages}, ${formatCount(links)} link${links === 1 ? '' : 's'} kept from requesting`;
}

/** A template's records as its figures count them, once read. */
const recordsOf = (rows: RowCounts): RecordCounts | undefined =>
  rows.template && { all: rows.template.records, thisCycle: rows.template.fromThisCycle, sites: rows.template.sitesWith };

/**
 * A tile of one of the crawl's headline figures (lib/ui/crawl-figures.ts), shown when its strategy is measured by it:
 * the figures the crawl list, the popup, the command line and summary.json show.
 */
function figureTile(id: FigureId, testid: string, more: Partial<Counter> = {}): Counter {
  const spec = figure(id, null);
  const of = (c: CrawlRecord, rows: RowCounts) => crawlFigures(c, recordsOf(rows)).find((f) => f.id === id);
  return {
    label: spec.label[0]!.toUpperCase() + spec.label.slice(1), testid, figure: id, title: spec.title, ...(spec.tone ? { tone: spec.tone } : {}),
    value: (c, rows) => of(c, rows)?.text ?? '—', shows: (c) => crawlFigures(c).some((f) => f.id === id), ...more,
  };
}

/** "not requested: 212 by a learned rule, 25 by a canonical link", or nothing when the crawl skipped none. */
function notRequestedParts(stats: CrawlRecord['stats']): string {
  const parts = [
    stats.variantSkips ? `${formatCount(stats.variantSkips)} by a learned rule` : '',
    stats.canonicalSkips ? `${formatCount(stats.canonicalSkips)} by a canonical link` : '',
  ].filter(Boolean);
  return parts.length ? `not requested: ${parts.join(', ')}` : '';
}

const counters: Counter[] = [
  figureTile('fetched', 'detail-fetched'),
  figureTile('relevant', 'detail-relevant'),
  figureTile('harvestRate', 'detail-harvest'),
  figureTile('records', 'detail-records', {
    parts: (_c, rows) => (rows.template && rows.template.records > rows.template.fromThisCycle ? `${formatCount(rows.template.records - rows.template.fromThisCycle)} kept from earlier cycles` : ''),
  }),
  figureTile('recordsPerPage', 'detail-records-per-page', {
    parts: (c, rows) => (rows.template ? `${formatCount(rows.template.fromThisCycle)} from ${formatCount(c.stats.fetched)} pages fetched` : ''),
  }),
  figureTile('sitesWithRecord', 'detail-sites-with'),
  figureTile('contentPages', 'detail-content-pages'),
  figureTile('listPages', 'detail-list-reads'),
  figureTile('queues', 'detail-queue-count', { parts: (c) => (c.stats.queued ? `${formatCount(c.stats.queued)} URLs queued` : '') }),
  {
    label: 'Sites without', testid: 'detail-sites-without', shows: isTemplate,
    value: (_c, rows) => measured(rows, (m) => formatCount(m.sitesWithout)),
    title: "Sites whose pages this cycle fetched and that gave no record (the search engine's own site aside)",
  },
  {
    label: 'List refreshes', testid: 'detail-list-refreshes', shows: isMultiQueue, value: (c) => formatCount(rechecked(c)),
    parts: (c) => (rechecked(c) ? `${formatCount(c.stats.changed ?? 0)} changed, ${formatCount(c.stats.unchanged ?? 0)} unchanged` : ''),
    title: 'List pages asked for again after their refresh interval: found changed, or unchanged by a 304 or the same bytes',
  },
  {
    label: 'In frontier', testid: 'detail-frontier', value: (c) => formatCount(frontierSize(c.stats)),
    parts: (c) => (c.stats.packedSeeds ? `${formatCount(c.stats.packedSeeds)} seeds not queued yet` : ''),
  },
  { label: 'Pages / min', testid: 'detail-ppm', value: (c) => formatRate(pagesPerMinute(c)) },
  { label: 'Failed', testid: 'detail-failed', value: (c) => formatCount(c.stats.failed), tone: 'bad' },
  {
    label: 'Skipped', testid: 'detail-skipped', value: (c) => formatCount(c.stats.skipped),
    parts: (c, rows) => skippedParts(c.stats.skipped, rows.skippedPages),
    title: 'URLs the crawl chose not to fetch. Pages: taken but not fetched (robots.txt, a redirect not followed), listed in the Pages table. Links kept from requesting: unsafe links and redirect targets recorded without a request, with no page row',
  },
  {
    label: 'Duplicates', testid: 'detail-duplicates', shows: notTemplate, value: (c) => formatCount(c.stats.duplicates ?? 0),
    parts: (c) => notRequestedParts(c.stats),
    title: 'Pages fetched whose content the crawl already held under another URL (not judged again), and URLs it did not request because a rule it learned of their site, or a canonical link, made them a page it held (docs/duplicates.md)',
  },
  {
    label: 'Budget used', testid: 'detail-budget', value: (c) => `${formatCount(c.stats.attempts)} / ${formatCount(c.config.budget.maxPages)}`,
    // The Pages table lists rows the budget does not count: said here, where the budget is read.
    parts: (c, rows) => (rows.rows === undefined ? '' : rowTallyText(rowTally(c, rows.rows)) ?? ''),
    title: 'Requests made in the crawl, out of its page budget. Page rows it made no request for (training reads, pages robots.txt kept it from requesting) are not counted',
  },
  { label: 'Training pages', testid: 'detail-train-pages', value: (c) => formatCount(c.stats.trainPages), shows: notTemplate },
  {
    label: 'From training reads', testid: 'detail-copies', value: (c) => formatCount(c.stats.copies ?? 0), shows: notTemplate,
    title: 'Pages the crawl reached that training had already read: judged from that copy, with no request and not counted in the budget',
  },
  { label: 'Labeled links', testid: 'detail-labels', shows: notTemplate, title: 'Links this crawl learned from: training pages\' links to labeled pages, and links to pages the judge has judged', value: (c) => formatCount(c.stats.labels) },
  { label: 'Labeled pages', testid: 'detail-page-labels', title: 'Pages of this crawl you labeled on or off topic', value: (_c, rows) => formatCount(rows.pageLabels) },
  { label: 'Downloaded', testid: 'detail-bytes', value: (c) => formatBytes(c.stats.bytes) },
  {
    label: 'Changed / unchanged', testid: 'detail-rechecked', shows: (c) => !isMultiQueue(c) && asksAgain(c), value: (c) => `${formatCount(c.stats.changed ?? 0)} / ${formatCount(c.stats.unchanged ?? 0)}`,
    title: 'Pages asked for again that the crawl had a stored copy of (a recrawl, a list page\'s refresh): found changed, or unchanged by a 304 or the same bytes',
  },
  {
    label: 'Not modified (304)', testid: 'detail-not-modified', shows: asksAgain,
    value: (c) => `${formatCount(c.stats.notModified ?? 0)} of ${formatCount(c.stats.conditional ?? 0)}, ${formatBytes(c.stats.bytesSaved ?? 0)} saved`,
    title: 'Requests asked with the stored copy\'s ETag / Last-Modified, those the server answered 304 with no body, and the stored copies\' size not downloaded again',
  },
  { label: 'Running time', testid: 'detail-active', value: (c) => formatDuration(c.activeMs) },
];

export class CrawlCounters {
  private readonly values = new Map<Counter, HTMLElement>();
  private readonly tiles = new Map<Counter, HTMLElement>();
  private readonly parts = new Map<Counter, HTMLElement>();
  private crawl: CrawlRecord | undefined;
  private unwatchRowCounts: (() => void) | undefined;
  private rowCountsFor: number | undefined;
  private rowCounts: RowCounts = { pageLabels: 0, skippedPages: 0 };
  private unwatchTemplate: (() => void) | undefined;
  private templateFor: number | undefined;

  /** Builds the tiles in `root`, hidden ones included (a strategy's tiles show when its crawl is selected). */
  constructor(private readonly db: CrawlerDB, root: HTMLElement) {
    fill(
      root,
      ...counters.map((c) => {
        const value = h('span', { class: 'value', 'data-testid': c.testid, ...(c.figure ? { 'data-figure': c.figure } : {}) });
        this.values.set(c, value);
        const parts = c.parts ? h('span', { class: 'muted small', 'data-testid': `${c.testid}-parts` }) : null;
        if (parts) this.parts.set(c, parts);
        const tile = h('div', { class: `counter ${c.tone ?? ''}`, title: c.title, 'data-testid': `${c.testid}-tile` }, value, h('span', { class: 'label' }, c.label), parts);
        this.tiles.set(c, tile);
        return tile;
      }),
    );
  }

  /** Shows the crawl's counts (none: the tiles keep the last, hidden with the detail) and follows its page rows. */
  show(crawl: CrawlRecord | undefined): void {
    this.crawl = crawl;
    this.watchTemplate(crawl);
    this.watchRowCounts(crawl?.id);
    if (crawl) this.render(crawl);
  }

  private render(crawl: CrawlRecord): void {
    for (const [counter, el] of this.tiles) el.hidden = counter.shows ? !counter.shows(crawl) : false;
    for (const [counter, el] of this.values) el.textContent = counter.value(crawl, this.rowCounts);
    for (const [counter, el] of this.parts) el.textContent = counter.parts!(crawl, this.rowCounts);
  }

  /**
   * The page labels of the crawl and its skipped page rows, counted live: labeling a page in the table moves the
   * Labeled pages counter; the Skipped tile says how many of its skipped are page rows. Both counts are started
   * together (see watchThrottled on why a watched read must not wait behind another).
   */
  private watchRowCounts(crawlId: number | undefined): void {
    if (crawlId === this.rowCountsFor) return;
    this.rowCountsFor = crawlId;
    this.unwatchRowCounts?.();
    this.rowCounts = { pageLabels: 0, skippedPages: 0 };
    if (crawlId === undefined) return;
    this.unwatchRowCounts = watch(
      () => Promise.all([
        this.db.pageLabels.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).count(),
        this.db.pages.where('[crawlId+kind+seq]').between([crawlId, 'skipped', Dexie.minKey], [crawlId, 'skipped', Dexie.maxKey]).count(),
        this.db.crawls.get(crawlId),
        this.db.pages.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).first(),
      ]),
      ([pageLabels, skippedPages, crawl, first]) => {
        // Page rows are seqs from the first row's to nextSeq - 1 (lib/ui/queries.ts pageRowCount).
        const rows = crawl && first ? crawl.nextSeq - first.seq : 0;
        this.rowCounts = { ...this.rowCounts, pageLabels, skippedPages, rows };
        if (this.crawl?.id === crawlId) this.render(this.crawl);
      },
      () => {}, // the counters then show the crawl row's counts alone
    );
  }

  /** Follows a template crawl's records and the sites it fetched (the Records and Sites tiles). */
  private watchTemplate(crawl: CrawlRecord | undefined): void {
    const id = crawl && isTemplate(crawl) ? crawl.id : undefined;
    if (id === this.templateFor) return;
    this.templateFor = id;
    this.unwatchTemplate?.();
    this.unwatchTemplate = undefined;
    if (id === undefined || !crawl) return;
    this.unwatchTemplate = watchThrottled(
      () => templateMeasureChanges(this.db, crawl),
      () => this.db.crawls.get(id).then((row) => readTemplateMeasures(this.db, row ?? crawl)),
      (template) => {
        this.rowCounts = { ...this.rowCounts, template };
        if (this.crawl?.id === id) this.render(this.crawl);
      },
      () => {}, // the tiles then show "—"
    );
  }
}
