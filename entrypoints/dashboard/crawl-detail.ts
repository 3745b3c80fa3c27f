// The selected crawl's header, counters and settings, updated in place from its crawl row.
import type { CrawlRecord } from '@/lib/store/db';
import { byId, fill, h } from '@/lib/ui/dom';
import {
  formatBytes,
  formatCount,
  formatDateTime,
  formatDuration,
  formatPercent,
  formatRate,
  harvestRate,
  pagesPerMinute,
} from '@/lib/ui/format';

interface Counter {
  label: string;
  testid: string;
  value: (c: CrawlRecord) => string;
  tone?: 'good' | 'bad';
  title?: string;
}

const counters: Counter[] = [
  { label: 'Fetched', testid: 'detail-fetched', value: (c) => formatCount(c.stats.fetched) },
  { label: 'Relevant', testid: 'detail-relevant', value: (c) => formatCount(c.stats.relevant), tone: 'good' },
  { label: 'Harvest rate', testid: 'detail-harvest', value: (c) => formatPercent(harvestRate(c.stats)) },
  { label: 'In frontier', testid: 'detail-frontier', value: (c) => formatCount(c.stats.queued) },
  { label: 'Pages / min', testid: 'detail-ppm', value: (c) => formatRate(pagesPerMinute(c)) },
  { label: 'Failed', testid: 'detail-failed', value: (c) => formatCount(c.stats.failed), tone: 'bad' },
  { label: 'Skipped', testid: 'detail-skipped', value: (c) => formatCount(c.stats.skipped), title: 'URLs dropped before fetching: out of scope, robots.txt, too deep, unsafe' },
  { label: 'Budget used', testid: 'detail-budget', value: (c) => `${formatCount(c.stats.attempts)} / ${formatCount(c.config.budget.maxPages)}` },
  { label: 'Training pages', testid: 'detail-train-pages', value: (c) => formatCount(c.stats.trainPages) },
  { label: 'Labeled links', testid: 'detail-labels', value: (c) => formatCount(c.stats.labels) },
  { label: 'Downloaded', testid: 'detail-bytes', value: (c) => formatBytes(c.stats.bytes) },
  { label: 'Running time', testid: 'detail-active', value: (c) => formatDuration(c.activeMs) },
];

export class CrawlDetail {
  private readonly values = new Map<Counter, HTMLElement>();

  constructor() {
    fill(
      byId('counters'),
      ...counters.map((c) => {
        const value = h('span', { class: 'value', 'data-testid': c.testid });
        this.values.set(c, value);
        return h('div', { class: `counter ${c.tone ?? ''}`, title: c.title }, value, h('span', { class: 'label' }, c.label));
      }),
    );
  }

  /** Shows the crawl, or the "select a crawl" placeholder when there is none. */
  render(crawl: CrawlRecord | undefined): void {
    byId('no-selection').hidden = !!crawl;
    byId('crawl-detail').hidden = !crawl;
    byId('pages-panel').hidden = !crawl;
    if (!crawl) return;
    byId('detail-name').textContent = crawl.name;
    const state = byId('detail-state');
    state.textContent = crawl.state;
    state.className = `badge ${crawl.state}`;
    const message = byId('detail-message');
    message.hidden = !crawl.message;
    message.textContent = crawl.message ?? '';
    const ended = crawl.finishedAt ? ` · ended ${formatDateTime(crawl.finishedAt)}` : '';
    byId('detail-sub').textContent = `#${crawl.id} · started ${formatDateTime(crawl.createdAt)}${ended}`;
    for (const [counter, el] of this.values) el.textContent = counter.value(crawl);
    this.renderConfig(crawl);
  }

  private renderConfig({ config }: CrawlRecord): void {
    const scope =
      config.scope.mode === 'listed-sites' ? `listed sites: ${config.scope.sites.join(', ')}`
      : config.scope.mode === 'seed-sites' ? "the seeds' sites"
      : 'anywhere';
    const p = config.politeness;
    const rows: [string, string][] = [
      ['Seeds', config.seeds.join('\n')],
      ['Keywords', config.topic.keywords.join(', ') || '—'],
      ['Strategy', config.strategy.name],
      ['Scope', scope],
      ['Limits', `${formatCount(config.budget.maxPages)} pages, depth ${config.budget.maxDepth}`],
      ['Politeness', `${p.delayMs} ms delay, ${p.concurrency} at once, robots.txt ${p.robots ? 'obeyed' : 'ignored'}`],
    ];
    fill(byId('detail-config'), ...rows.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
  }
}
