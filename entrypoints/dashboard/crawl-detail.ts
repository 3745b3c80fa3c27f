// The selected crawl's header, counters and settings, updated in place from its crawl row; its topic and
// the frontier's last re-scoring; the harvest chart; the links it fetches next and the links the safety guard
// kept it from requesting, live. Each strategy shows the figures that measure it: a template crawl its records
// per page fetched and per site instead of a harvest rate, a multi-queue crawl its list pages read and refreshed.
import Dexie from 'dexie';
import type { CrawlerDB } from '@/lib/store/db';
import { frontierSize, type CrawlRecord, type RescoreReport } from '@/lib/records/rows.ts';
import type { FrontierEntry, Topic } from '@/lib/records/types.ts';
import { byId, errorText, fill, h, type Child } from '@/lib/platform/dom';
import {
  authorityText,
  formatBytes,
  formatCount,
  formatDateTime,
  formatDuration,
  formatPercent,
  formatRate,
  harvestRate,
  formatScore,
  pagesPerMinute,
} from '@/lib/ui/format';
import { identityText, scopeText } from '@/lib/ui/config-form';
import { strategyModule } from '@/lib/strategies/registry';
import { engineUrl } from '@/lib/records/template-config.ts';
import { queueWeight } from '@/lib/strategies/multi-queue/weights';
import { queueLoads } from '@/lib/store/fifo-queues';
import { allTopics } from '@/lib/ui/label-queries';
import { readTemplateMeasures, templateMeasureChanges, type TemplateMeasures } from '@/lib/ui/template-measures';
import { keptFromRequesting, nextUp, queueChanges, skippedChanges, watch, watchThrottled, type KeptLink } from '@/lib/ui/queries';
import { HarvestChart } from './harvest-chart';
import { SitesPanel } from './sites-panel';
import './learning.css';

const NEXT_UP = 10;
/** Kept links shown; the total is counted past it. */
const KEPT_SHOWN = 200;

/** What the tiles count apart from the crawl row, from the page rows. */
interface RowCounts {
  /** Pages of the crawl the user labeled. */
  pageLabels: number;
  /** Page rows of URLs the crawl took and did not fetch (a redirect not followed, robots.txt). */
  skippedPages: number;
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
}

/** A template crawl (design E): measured by its records, not by a harvest rate. */
const isTemplate = (c: CrawlRecord): boolean => !!c.config.template;
const notTemplate = (c: CrawlRecord): boolean => !c.config.template;
/** A crawl that takes by FIFO queues and refreshes its list pages (design D). */
const isMultiQueue = (c: CrawlRecord): boolean => c.config.strategy.name === 'multi-queue';
const listReads = (c: CrawlRecord): number => c.stats.listPages ?? 0;
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

const counters: Counter[] = [
  { label: 'Fetched', testid: 'detail-fetched', value: (c) => formatCount(c.stats.fetched) },
  { label: 'Relevant', testid: 'detail-relevant', value: (c) => formatCount(c.stats.relevant), tone: 'good', shows: notTemplate },
  { label: 'Harvest rate', testid: 'detail-harvest', value: (c) => formatPercent(harvestRate(c.stats)), shows: notTemplate },
  {
    label: 'Records', testid: 'detail-records', tone: 'good', shows: isTemplate,
    value: (_c, rows) => measured(rows, (m) => formatCount(m.records)),
    parts: (_c, rows) => (rows.template && rows.template.records > rows.template.fromThisCycle ? `${formatCount(rows.template.records - rows.template.fromThisCycle)} kept from earlier cycles` : ''),
    title: "The template's records: pages with at least one field found, as the Records view and its exports list them",
  },
  {
    label: 'Records / page', testid: 'detail-records-per-page', shows: isTemplate,
    value: (_c, rows) => measured(rows, (m) => (m.perPage === null ? '—' : m.perPage.toFixed(2))),
    parts: (c, rows) => (rows.template ? `${formatCount(rows.template.fromThisCycle)} from ${formatCount(c.stats.fetched)} pages fetched` : ''),
    title: 'Records this cycle found per page it fetched',
  },
  {
    label: 'Sites with a record', testid: 'detail-sites-with', shows: isTemplate,
    value: (_c, rows) => measured(rows, (m) => formatCount(m.sitesWith)),
  },
  {
    label: 'Sites without', testid: 'detail-sites-without', shows: isTemplate,
    value: (_c, rows) => measured(rows, (m) => formatCount(m.sitesWithout)),
    title: "Sites whose pages this cycle fetched and that gave no record (the search engine's own site aside)",
  },
  {
    label: 'List pages read', testid: 'detail-list-reads', shows: isMultiQueue, value: (c) => formatCount(listReads(c)),
    title: 'List pages fetched and mined for links, first visits and refreshes: not content, so not counted in Fetched',
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
  { label: 'Budget used', testid: 'detail-budget', value: (c) => `${formatCount(c.stats.attempts)} / ${formatCount(c.config.budget.maxPages)}` },
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

export class CrawlDetail {
  private readonly values = new Map<Counter, HTMLElement>();
  private readonly tiles = new Map<Counter, HTMLElement>();
  private readonly parts = new Map<Counter, HTMLElement>();
  private readonly chart: HarvestChart;
  private readonly sites: SitesPanel;
  private readonly nextUpList: HTMLElement;
  private readonly keptList: HTMLElement;
  private readonly keptCount: HTMLElement;
  private topics = new Map<number, Topic>();
  private crawl: CrawlRecord | undefined;
  private nextUpFor: number | undefined;
  private keptFor: number | undefined;
  private unwatchNextUp: (() => void) | undefined;
  private unwatchKept: (() => void) | undefined;
  private unwatchRowCounts: (() => void) | undefined;
  private rowCountsFor: number | undefined;
  private rowCounts: RowCounts = { pageLabels: 0, skippedPages: 0 };
  private unwatchTemplate: (() => void) | undefined;
  private templateFor: number | undefined;

  /** `db`: the page's database connection; one of its own when not given. */
  constructor(private readonly db: CrawlerDB) {
    this.chart = new HarvestChart(db);
    this.sites = new SitesPanel(db);
    this.nextUpList = h('ol', { class: 'next-up-list' });
    this.keptList = h('ul', { class: 'kept-list', 'data-testid': 'kept-list' });
    this.keptCount = h('small', { class: 'muted', 'data-testid': 'kept-count' });
    byId('crawl-detail').append(
      this.chart.root,
      h(
        'section',
        { class: 'learning-block', 'data-testid': 'next-up' },
        // The page cannot know a site's robots.txt before the crawl asks for it: a queued link is checked against
        // robots.txt, scope and safety when its turn comes, and may still be skipped then.
        h('h3', null, 'Next up ', h('small', { class: 'muted', 'data-testid': 'next-up-note' }, 'the best queued links, in the order the crawl takes them; each is checked against robots.txt when its turn comes, and may be skipped then')),
        this.nextUpList,
      ),
      h(
        'section',
        { class: 'learning-block', 'data-testid': 'kept' },
        h('h3', { title: 'Pages are fetched with your cookies: these links could log you out or act as you, so they were never requested' }, 'Kept from requesting ', this.keptCount),
        this.keptList,
      ),
      this.sites.root,
    );
    watch(
      () => allTopics(db),
      (rows) => {
        this.topics = new Map(rows.map((t) => [t.id!, t]));
        if (this.crawl) this.renderConfig(this.crawl);
      },
      () => {}, // the topic row then shows the id alone
    );
    fill(
      byId('counters'),
      ...counters.map((c) => {
        const value = h('span', { class: 'value', 'data-testid': c.testid });
        this.values.set(c, value);
        const parts = c.parts ? h('span', { class: 'muted small', 'data-testid': `${c.testid}-parts` }) : null;
        if (parts) this.parts.set(c, parts);
        const tile = h('div', { class: `counter ${c.tone ?? ''}`, title: c.title, 'data-testid': `${c.testid}-tile` }, value, h('span', { class: 'label' }, c.label), parts);
        this.tiles.set(c, tile);
        return tile;
      }),
    );
  }

  /** Shows the crawl, or the "select a crawl" placeholder when there is none. */
  render(crawl: CrawlRecord | undefined): void {
    this.crawl = crawl;
    byId('no-selection').hidden = !!crawl;
    byId('crawl-detail').hidden = !crawl;
    byId('pages-panel').hidden = !crawl;
    // A template crawl's measure is its records (the tiles and the Records view): its keyword judge calls every page relevant.
    this.chart.root.hidden = !!crawl && isTemplate(crawl);
    this.chart.show(crawl && !isTemplate(crawl) ? crawl : undefined);
    this.watchNextUp(crawl?.id);
    this.watchTemplate(crawl);
    this.watchKept(crawl?.id);
    this.watchRowCounts(crawl?.id);
    this.sites.show(crawl);
    if (!crawl) return;
    byId('detail-name').textContent = crawl.name;
    const state = byId('detail-state');
    state.textContent = crawl.state;
    state.className = `badge ${crawl.state}`;
    const message = byId('detail-message');
    message.hidden = !crawl.message;
    message.textContent = crawl.message ?? '';
    // A lost session is the one message the user must act on before anything else.
    message.classList.toggle('alert', !!crawl.sessionLost);
    message.setAttribute('role', crawl.sessionLost ? 'alert' : 'status');
    const ended = crawl.finishedAt ? ` · ended ${formatDateTime(crawl.finishedAt)}` : '';
    byId('detail-sub').textContent = `#${crawl.id} · started ${formatDateTime(crawl.createdAt)}${ended}`;
    for (const [counter, el] of this.tiles) el.hidden = counter.shows ? !counter.shows(crawl) : false;
    for (const [counter, el] of this.values) el.textContent = counter.value(crawl, this.rowCounts);
    for (const [counter, el] of this.parts) el.textContent = counter.parts!(crawl, this.rowCounts);
    this.renderConfig(crawl);
  }

  private renderConfig(crawl: CrawlRecord): void {
    const { config } = crawl;
    const scope = scopeText(config.scope);
    const p = config.politeness;
    const topic = this.topics.get(crawl.topicId);
    const rows: [string, Child][] = [
      ['Topic', h('a', { href: `?view=topics&topic=${crawl.topicId}`, 'data-testid': 'detail-topic', title: "The topic's labels, model and evaluation" }, topic ? topic.name : `#${crawl.topicId}`)],
      ['Seeds', crawl.seedsGiven ? `${formatCount(crawl.seedsGiven)} seeds given; the first of each host:\n${config.seeds.join('\n')}` : config.seeds.join('\n')],
      ['Keywords', keywordsRow(config.topic.keywords, topic)],
      ['Strategy', strategyText(config.strategy)],
      ...(config.template ? [['Template', templateText(config.template)] as [string, Child]] : []),
      ['Scope', scope],
      ['Limits', `${formatCount(config.budget.maxPages)} pages, depth ${config.budget.maxDepth}`],
      ['Politeness', `${p.delayMs} ms delay, ${p.concurrency} at once, robots.txt ${p.robots ? 'obeyed' : 'ignored'}`],
      ['User-Agent', h('span', { 'data-testid': 'detail-identify' }, identityText(config))],
      ['Safety', safetyText(config.safety)],
      // A template follows its filter layers: no link classifier to re-score with or to weigh authority in.
      ...(isTemplate(crawl) ? [] : [
        ['Re-scored', h('span', { 'data-testid': 'detail-rescore' }, rescoreText(crawl))],
        ['URL authority', h('span', { 'data-testid': 'detail-authority', title: 'How often the labeled pages that link to a URL are on topic, and what that does to its score' }, authorityText(crawl))],
      ] as [string, Child][]),
      ...linkGraphRows(crawl.strategyReport),
      ...queueRows(crawl),
    ];
    fill(byId('detail-config'), ...rows.flatMap(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
  }

  /** Follows the best queued links of the selected crawl (a few index reads when its queue changes, at most every REREAD_MS). */
  private watchNextUp(crawlId: number | undefined): void {
    if (crawlId === this.nextUpFor) return;
    this.nextUpFor = crawlId;
    this.unwatchNextUp?.();
    this.unwatchNextUp = undefined;
    fill(this.nextUpList);
    if (crawlId === undefined) return;
    this.unwatchNextUp = watchThrottled(
      () => queueChanges(this.db, crawlId),
      () => nextUp(this.db, crawlId, NEXT_UP),
      (entries) => this.renderNextUp(entries),
      (err) => fill(this.nextUpList, h('li', { class: 'error-text' }, `Could not read the frontier: ${errorText(err)}`)),
    );
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
      ]),
      ([pageLabels, skippedPages]) => {
        this.rowCounts = { ...this.rowCounts, pageLabels, skippedPages };
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

  /** Follows the links the safety guard kept the selected crawl from requesting. */
  private watchKept(crawlId: number | undefined): void {
    if (crawlId === this.keptFor) return;
    this.keptFor = crawlId;
    this.unwatchKept?.();
    this.unwatchKept = undefined;
    fill(this.keptList);
    this.keptCount.textContent = '';
    if (crawlId === undefined) return;
    this.unwatchKept = watchThrottled(
      () => skippedChanges(this.db, crawlId),
      () => keptFromRequesting(this.db, crawlId, KEPT_SHOWN),
      ({ links, total }) => this.renderKept(links, total),
      (err) => fill(this.keptList, h('li', { class: 'error-text' }, `Could not read the skipped links: ${errorText(err)}`)),
    );
  }

  private renderKept(links: KeptLink[], total: number): void {
    const all = `${formatCount(total)} ${total === 1 ? 'link' : 'links'}`;
    this.keptCount.textContent = total === 0 ? '' : total > links.length ? `the first ${formatCount(links.length)} of ${all}` : all;
    if (links.length === 0) {
      fill(this.keptList, h('li', { class: 'empty muted' }, 'No link was kept from being requested.'));
      return;
    }
    fill(
      this.keptList,
      ...links.map((l) =>
        h(
          'li',
          { 'data-testid': 'kept-item' },
          h('span', { class: 'kept-rule', title: `Matched: ${l.match}` }, l.rule),
          // Text, not a link: opening it here would send your cookies, the very request the guard held back.
          h(
            'span',
            { class: 'next-link' },
            h('span', { class: 'url', title: l.url }, l.url),
            h('span', { class: 'muted small' }, `${l.anchor ? `“${l.anchor}” · ` : ''}matched “${l.match}”`),
          ),
        ),
      ),
    );
  }

  private renderNextUp(entries: FrontierEntry[]): void {
    if (entries.length === 0) {
      fill(this.nextUpList, h('li', { class: 'empty muted' }, 'Nothing queued.'));
      return;
    }
    fill(
      this.nextUpList,
      ...entries.map((e) =>
        h(
          'li',
          { 'data-testid': 'next-up-item' },
          h('span', { class: 'score num', title: 'P(on topic) the link classifier gives the link' }, formatScore(e.score)),
          h(
            'span',
            { class: 'next-link' },
            h('span', { class: e.anchor ? 'anchor' : 'anchor muted' }, e.anchor || (e.parentUrl ? '(no anchor text)' : 'seed')),
            h('a', { class: 'url', href: /^https?:\/\//i.test(e.url) ? e.url : null, target: '_blank', rel: 'noopener noreferrer', title: e.url }, e.url),
          ),
          h('span', { class: 'depth muted small', title: 'Links followed from a seed' }, `depth ${e.depth}`),
        ),
      ),
    );
  }
}

/** "sparse-tunneling (longest tunnel 10, queue per unknown site 15, blacklist after 20)". */
function strategyText(strategy: CrawlRecord['config']['strategy']): string {
  const params = strategyModule(strategy.name)?.params ?? [];
  const shown = (v: unknown) => (Array.isArray(v) ? (v.length ? v.join(' ') : 'none') : String(v));
  const set = params.map((p) => `${p.label.toLowerCase()} ${shown(strategy[p.key] ?? p.default)}`);
  return set.length ? `${strategy.name} (${set.join(', ')})` : strategy.name;
}

/** A template in a few lines: where it searches, what it follows, what it extracts, how often (design E). */
function templateText(t: NonNullable<CrawlRecord['config']['template']>): string {
  return [
    `search ${t.search.keywords.map((k) => `"${k}"`).join(', ')} on ${new URL(engineUrl(t)).host}, ${t.search.pages} page(s) of ${t.search.perPage}${t.sampling ? ', sampled' : ''}`,
    ...t.filters.map((layer, i) => `layer ${i + 1}: ${layer.join(' / ')}`),
    `fields: ${Object.keys(t.fields).join(', ')}`,
    t.recrawl ? `recrawled every ${t.recrawl.every}, adapting to how often pages change` : 'recrawled when you ask',
  ].join('\n');
}

/**
 * Design D.3, when the crawl takes by FIFO queues: each queue's length and fetches in flight as the crawl row
 * counts them (live), and its weight with the iFactor the strategy reported last.
 */
function queueRows(crawl: CrawlRecord): [string, Child][] {
  const report = crawl.strategyReport;
  if (!crawl.queues || typeof report?.iFactor !== 'number' || typeof report.maxPriority !== 'number') return [];
  const max = report.maxPriority, iFactor = report.iFactor;
  const loads = queueLoads(crawl.queues).sort((a, b) => b.priority - a.priority);
  const reads = typeof report.listReads === 'number' ? report.listReads : 0;
  const learned = reads ? `learned from ${formatCount(reads)} list page${reads === 1 ? '' : 's'} read` : 'as configured, until a list page is read';
  return [
    ['iFactor', `${iFactor.toFixed(1)} (${learned})`],
    ['Queues', loads.length === 0 ? 'all empty' : h('table', { class: 'queues', 'data-testid': 'detail-queues' },
      h('thead', null, h('tr', null, h('th', null, 'Priority'), h('th', null, 'Queued'), h('th', null, 'In flight'), h('th', { title: 'len / iFactor^(max - priority) / (1 + in flight): the heaviest queue gives the next URL' }, 'Weight'))),
      h('tbody', null, ...loads.map((q) => h('tr', { 'data-testid': 'queue-row', 'data-priority': q.priority },
        h('td', null, String(q.priority)), h('td', null, formatCount(q.queued)), h('td', null, String(q.inFlight)),
        h('td', null, queueWeight(q, max, iFactor).toPrecision(3))))))],
  ];
}

/** HITS's best authorities and hubs (design C), when the crawl's strategy keeps a link graph. */
function linkGraphRows(report: CrawlRecord['strategyReport']): [string, Child][] {
  const list = (items: unknown, testid: string): Child => {
    const rows = Array.isArray(items) ? (items as { url: string; score: number }[]).slice(0, 5) : [];
    return h('ol', { class: 'graph-top', 'data-testid': testid }, ...rows.map((r) => h('li', { title: r.url }, h('span', { class: 'url' }, r.url), ` ${r.score.toFixed(3)}`)));
  };
  if (!report || !Array.isArray(report.authorities)) return [];
  const round = report.round as { nodes: number; edges: number; iterations: number; ms: number; at?: number; pages?: number } | undefined;
  const spent = report.spent as { rounds: number; ms: number } | undefined;
  const all = spent && spent.rounds > 1 ? `; ${formatCount(spent.rounds)} rounds since the crawl (re)started, ${Math.round(spent.ms)} ms in all` : '';
  // Rounds saved before they said when and over how many relevant pages show what they have.
  const over = round?.pages !== undefined ? `${formatCount(round.pages)} relevant pages linking ${formatCount(round.nodes)} URLs` : `${formatCount(round?.nodes ?? 0)} pages`;
  const when = round?.at !== undefined ? ` at ${formatDateTime(round.at)}` : '';
  return [
    ['Link graph', round ? `last HITS round${when} over ${over} by ${formatCount(round.edges)} links: ${round.iterations} iterations in ${Math.round(round.ms)} ms${all}` : ''],
    ['Top authorities', list(report.authorities, 'detail-authorities')],
    ['Top hubs', list(report.hubs, 'detail-hubs')],
  ];
}

/** "all rules on", or which are off, and the user's own words. */
function safetyText(safety: CrawlRecord['config']['safety']): string {
  // Crawls stored before rules had names have no disabledRules.
  const off = safety.disabledRules ?? [];
  const rules = off.length ? `rules off: ${off.join(', ')}` : 'all rules on';
  return safety.avoid.length ? `${rules}; also your words: ${safety.avoid.join(', ')}` : rules;
}

/** The crawl's keywords; a crawl started without any uses its topic's (which may have changed since). */
function keywordsRow(own: string[], topic: Topic | undefined): string {
  if (own.length) return own.join(', ');
  return topic?.keywords.length ? `${topic.keywords.join(', ')} (the topic's)` : '—';
}

/** "2026-11-22 14:05 (50 pages fetched): 340 queued links moved, of 1,200 frontier URLs read, in 85 ms". */
export function rescoreText(crawl: Pick<CrawlRecord, 'lastRescore' | 'config'>): string {
  const r: RescoreReport | undefined = crawl.lastRescore;
  if (!r) return strategyModule(crawl.config.strategy.name)?.followsModel ? 'not yet: the frontier is re-scored as the model learns' : `never (${crawl.config.strategy.name})`;
  const took = r.ms < 1000 ? `${Math.round(r.ms)} ms` : formatDuration(r.ms);
  const partial = r.complete === false ? '; stopped early when the crawl paused or ended, it goes on when the crawl resumes' : '';
  return `${formatDateTime(r.at)} (${r.why}): ${formatCount(r.changed)} queued links moved, of ${formatCount(r.scanned)} frontier URLs read, in ${took}${partial}`;
}
