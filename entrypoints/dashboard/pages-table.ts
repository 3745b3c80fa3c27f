// The selected crawl's pages, 100 a window, found by search, site, verdict and label, in time or score order;
// read from the indexes a window at a time (lib/ui/page-query.ts), never the whole crawl, and read again while
// the crawl runs when a page lands in the window's range. Each fetched
// page can be labeled on or off topic beside the judge's verdict (the worker does the labeling).
import Dexie from 'dexie';
import type { CrawlerDB } from '@/lib/store/db';
import type { PageKind, PageLabel, PageRecord } from '@/lib/records/types.ts';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatScore, keptText, priorityText, shortReason } from '@/lib/ui/format';
import { pageRowCount, REREAD_MS, watchThrottled } from '@/lib/ui/queries';
import { renderTag } from '@/lib/ui/render-note';
import { rowTally, rowTallyText } from '@/lib/ui/row-tally';
import {
  ALL_PAGES,
  OPENING_QUERY,
  keyOf,
  matchingCount,
  busiestSites,
  pageSites,
  pageWindow,
  windowChanges,
  type LabelFilter,
  type PageCursor,
  type PageQuery,
  type PageSort,
  type PageWindow,
  type WindowWatch,
} from '@/lib/ui/page-query';
import { PAGE_LABEL_HELP, PageLabelCell } from './page-label-cell';
import { SHOW_SITE_PAGES } from './sites-panel';
import { urlLine } from './url-line';
import './learning.css';
import './pages-table.css';

export const PAGE_SIZE = 100;
const COLUMNS = 5;
/** A read that takes longer than this says how many pages it has read so far. */
const PROGRESS_AFTER_MS = 400;
/** How often the site filter's counts are read again while the crawl runs, at most. */
const SITES_EVERY_MS = 2000;
/** How long typing pauses before the search runs. */
const SEARCH_DELAY_MS = 250;

/** The filters' choices, the query's values typed: what the selects offer, in their order (OPENING_QUERY: the default). */
const KIND_CHOICES: readonly [PageKind | 'all', string][] = [
  ['all', 'Any verdict'], ['relevant', 'Relevant'], ['irrelevant', 'Not relevant'], ['unjudged', 'No verdict'], ['failed', 'Failed'], ['skipped', 'Skipped'],
];
const LABEL_CHOICES: readonly [LabelFilter, string][] = [['any', 'Any label'], ['on', 'Labeled on topic'], ['off', 'Labeled off topic'], ['none', 'Not labeled']];
const SORT_CHOICES: readonly [PageSort, string][] = [
  ['newest', 'Newest first'], ['oldest', 'Oldest first'], ['score-high', 'Highest score first'], ['score-low', 'Lowest score first'],
];
const options = (choices: readonly [string, string][]) => choices.map(([value, text]) => h('option', { value }, text));

const KIND_WORDS: Record<PageKind | 'all', string> = {
  all: '', relevant: 'relevant', irrelevant: 'not relevant', unjudged: 'without a verdict', duplicate: 'duplicate', failed: 'failed', skipped: 'skipped',
};

export class PagesTable {
  private crawlId: number | undefined;
  private query: PageQuery = { ...OPENING_QUERY };
  private window: PageWindow | undefined;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeCounts: (() => void) | undefined;
  /**
   * Pages matching the query (null: not counted, or not countable by index), pages in the crawl, and what those are
   * when some are no request the budget counts ("41 rows: 40 requests, 1 kept by robots.txt").
   */
  private counts: { matching: number | null; total: number; tally: string | null } | undefined;
  private countsKey = '';
  private unsubscribeSites: (() => void) | undefined;
  /** The crawl whose site list shows page counts. */
  private sitesCounted: number | undefined;
  private renderedKey = '';
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly search = byId<HTMLInputElement>('page-search');
  private readonly site = byId<HTMLSelectElement>('page-site');
  private readonly kind = byId<HTMLSelectElement>('page-kind');
  private readonly label = byId<HTMLSelectElement>('page-label');
  private readonly sort = byId<HTMLSelectElement>('page-sort');
  /** The label cells of the rows shown, by seq: updated in place when a page's label changes. */
  private labelCells = new Map<number, PageLabelCell>();

  constructor(private readonly db: CrawlerDB) {
    byId('page-label-col').title = PAGE_LABEL_HELP;
    fill(this.kind, ...options(KIND_CHOICES));
    fill(this.label, ...options(LABEL_CHOICES));
    fill(this.sort, ...options(SORT_CHOICES));
    this.search.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => this.readControls(), SEARCH_DELAY_MS);
    });
    for (const select of [this.site, this.kind, this.label, this.sort]) select.addEventListener('change', () => this.readControls());
    // The site list's page counts are read when the user reaches for it (see watchSites).
    for (const reach of ['focus', 'pointerdown'] as const) {
      this.site.addEventListener(reach, () => {
        if (this.crawlId === undefined || this.sitesCounted === this.crawlId) return;
        this.sitesCounted = this.crawlId;
        this.watchSites();
      });
    }
    // A site's name in the sites panel shows that site's pages here.
    document.addEventListener(SHOW_SITE_PAGES, (e) => {
      const site = (e as CustomEvent<string>).detail;
      if (![...this.site.options].some((o) => o.value === site)) this.site.append(h('option', { value: site }, site));
      this.site.value = site;
      this.readControls();
      byId('pages-panel').scrollIntoView({ block: 'start', behavior: 'smooth' });
    });
    byId('page-first').addEventListener('click', () => this.go({ at: 'start' }));
    byId('page-last').addEventListener('click', () => this.go({ at: 'end' }));
    byId('page-prev').addEventListener('click', () => {
      const first = this.window?.rows[0];
      if (first) this.go({ before: keyOf(first, this.query.sort) });
    });
    byId('page-next').addEventListener('click', () => {
      const last = this.window?.rows.at(-1);
      if (last) this.go({ after: keyOf(last, this.query.sort) });
    });
  }

  /** Shows another crawl's pages from the start (or nothing), with the filters cleared. */
  show(crawlId: number | undefined): void {
    if (crawlId === this.crawlId) return;
    this.crawlId = crawlId;
    this.query = { ...OPENING_QUERY };
    this.search.value = '';
    this.site.value = '';
    this.kind.value = OPENING_QUERY.kind;
    this.label.value = OPENING_QUERY.label;
    this.sort.value = OPENING_QUERY.sort;
    this.unsubscribeSites?.();
    this.unsubscribeSites = undefined;
    this.go({ at: 'start' });
  }

  private readControls(): void {
    clearTimeout(this.searchTimer);
    const next: PageQuery = {
      search: this.search.value.trim(),
      site: this.site.value,
      kind: this.kind.value as PageKind | 'all',
      label: this.label.value as LabelFilter,
      sort: this.sort.value as PageSort,
    };
    if (JSON.stringify(next) === JSON.stringify(this.query)) return;
    this.query = next;
    this.go({ at: 'start' });
  }

  /**
   * The site filter's choices: the crawl's sites, most pages first (live: new sites appear as they are fetched).
   * Their names come from the site rows; their page counts, which walk every page row of the crawl (seconds at
   * 100,000 pages, and a filter changed meanwhile waits behind them), once the user reaches for the list.
   */
  private watchSites(): void {
    this.unsubscribeSites?.();
    this.unsubscribeSites = undefined;
    const id = this.crawlId;
    if (id === undefined) return;
    const counted = () => this.sitesCounted === id;
    this.unsubscribeSites = watchThrottled(
      // Every page commits its site's row: the list is read again as the crawl goes, at most every 2 s
      // (counted, it counts up to 300 sites' rows).
      () => this.db.sites.where('[crawlId+site]').between([id, Dexie.minKey], [id, Dexie.maxKey]).limit(1).toArray(),
      async () => (counted() ? pageSites(this.db, id) : (await busiestSites(this.db, id)).map((site) => ({ site, pages: null }))),
      (sites) => {
        const chosen = this.site.value;
        const text = (s: { site: string; pages: number | null }) => (s.pages === null ? s.site : `${s.site} (${formatCount(s.pages)})`);
        // A running crawl changes the counts with every page: the same sites in the same order keep their
        // options (an open list stays open), only their counts change.
        const held = [...this.site.options].slice(1);
        if (held.length === sites.length && held.every((o, i) => o.value === sites[i]!.site)) {
          held.forEach((o, i) => (o.textContent = text(sites[i]!)));
          return;
        }
        const options = sites.map((s) => h('option', { value: s.site }, text(s)));
        if (chosen && !sites.some((s) => s.site === chosen)) options.unshift(h('option', { value: chosen }, chosen));
        fill(this.site, h('option', { value: '' }, 'All sites'), ...options);
        this.site.value = chosen;
      },
      () => undefined,
      { everyMs: SITES_EVERY_MS, last: -Infinity },
    );
  }

  /**
   * Reads a window at `cursor` and follows it while the crawl runs: the window is read again (at most every
   * REREAD_MS) when a page row lands in the index range it can change in, or a label of one of its pages changes.
   * The first window takes new rows at its open edge (the newest at the top in newest-first order); a window the
   * user paged to, or a search's, stays where it starts, takes rows only at an open end, and its counts move.
   */
  private go(cursor: PageCursor): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    const id = this.crawlId;
    if (id === undefined) return;
    const query = this.query;
    // Counts of another query are not shown for this one: they are read again once its rows are up.
    if (countsKeyOf(id, query) !== this.countsKey) {
      this.unsubscribeCounts?.();
      this.unsubscribeCounts = undefined;
      this.counts = undefined;
    }
    const started = performance.now();
    // A search that matches little reads many rows before it has a window to show: say how far it has got
    // (the first time only: a live re-read of the same window keeps the rows shown meanwhile).
    let shown = false;
    const progress = (read: number) => {
      if (!shown && performance.now() - started > PROGRESS_AFTER_MS) byId('page-range').textContent = `Searching… ${formatCount(read)} pages read`;
    };
    // One pace for the window's reads, whichever range they watch: a window that moves watches a new range.
    const pace = { everyMs: REREAD_MS, last: -Infinity };
    const follow = (at: PageCursor, watched: WindowWatch | undefined) => {
      this.unsubscribe?.();
      this.unsubscribe = watchThrottled(
        () => windowChanges(this.db, id, watched),
        () => pageWindow(this.db, id, query, at, PAGE_SIZE, progress),
        (window) => {
          const ms = performance.now() - started;
          shown = true;
          this.render(window, ms);
          // Counted once the rows are up: IndexedDB answers a database's requests in turn, and a count of a
          // broad filter walks tens of thousands of index entries. So is the site filter's list (counted, it
          // walks every page row of the crawl: at 100,000 pages the first window waited 4 s behind it).
          this.watchCounts(id, query);
          if (!this.unsubscribeSites) this.watchSites();
          // Past the first window, or with a search, the window keeps its first row while pages are added
          // before it: the rows the user is reading do not move, the counts do.
          const first = window.rows[0];
          const next: PageCursor = (window.hasPrev || query.search) && first
            ? { from: keyOf(first, query.sort), hasPrev: window.hasPrev }
            : { at: 'start' };
          if (JSON.stringify([next, window.watch]) !== JSON.stringify([at, watched])) follow(next, window.watch);
        },
        (err) => this.renderError(errorText(err)),
        pace,
      );
    };
    follow(cursor, undefined);
  }

  /**
   * The counts under the table, read apart from the rows: counting walks an index range (tens of thousands of
   * entries for a broad filter), and the rows must not wait for it. Read again when the crawl row changes (every
   * page it commits), at most every REREAD_MS.
   */
  private watchCounts(id: number, query: PageQuery): void {
    const key = countsKeyOf(id, query);
    if (this.unsubscribeCounts && this.countsKey === key) return;
    this.unsubscribeCounts?.();
    this.countsKey = key;
    this.counts = undefined;
    this.unsubscribeCounts = watchThrottled(
      () => this.db.crawls.get(id),
      async () => {
        const crawl = await this.db.crawls.get(id);
        // An unfiltered table needs no count: the crawl row gives its rows (counting 100,000 index entries
        // would hold up the next read).
        const total = crawl ? await pageRowCount(this.db, crawl) : 0;
        const unfiltered = countsKeyOf(id, query) === countsKeyOf(id, ALL_PAGES);
        const tally = crawl ? rowTallyText(rowTally(crawl, total)) : null;
        return { matching: unfiltered ? total : await matchingCount(this.db, id, query), total, tally };
      },
      (counts) => {
        this.counts = counts;
        if (this.window) byId('page-range').textContent = this.rangeText(this.window);
      },
      () => undefined,
    );
  }

  private render(window: PageWindow, ms: number): void {
    this.window = window;
    const { rows } = window;
    byId<HTMLButtonElement>('page-first').disabled = !window.hasPrev;
    byId<HTMLButtonElement>('page-prev').disabled = !window.hasPrev;
    byId<HTMLButtonElement>('page-next').disabled = !window.hasNext;
    byId<HTMLButtonElement>('page-last').disabled = !window.hasNext;
    const range = byId('page-range');
    range.textContent = this.rangeText(window);
    range.dataset.ms = String(Math.round(ms));
    // Page rows never change once written: when the same rows are shown, keep the DOM (and a pending click).
    // Labels do change: their cells are updated in place.
    const key = `${this.crawlId}:${JSON.stringify(this.query)}:${rows.map((p) => p.seq).join(',')}`;
    if (key !== this.renderedKey) {
      this.renderedKey = key;
      this.labelCells = new Map();
      const filtered = JSON.stringify(this.query) !== JSON.stringify({ ...ALL_PAGES, sort: this.query.sort });
      fill(
        byId('pages-body'),
        ...(rows.length
          ? rows.map((p) => this.pageRow(p))
          : [h('tr', null, h('td', { colspan: COLUMNS, class: 'empty' }, filtered ? 'No pages match.' : 'No pages fetched yet.'))]),
      );
    }
    for (const [seq, cell] of this.labelCells) cell.show(window.labels.get(seq));
  }

  /**
   * "100 of 2,431 relevant pages · 100,000 in all", or "100 matching pages · 100,000 in all" while the count is not
   * known; the total says what its rows are when some are no request: "41 of 41 pages · 41 rows: 40 requests, 1 kept
   * by robots.txt".
   */
  private rangeText({ rows, hasPrev, hasNext }: PageWindow): string {
    const { matching = null, total = null, tally = null } = this.counts ?? {};
    if (total === 0 && rows.length === 0) return 'No pages yet';
    const kind = KIND_WORDS[this.query.kind];
    const what = `${kind ? `${kind} ` : ''}page${matching === 1 || (matching === null && rows.length === 1) ? '' : 's'}${this.query.site ? ` on ${this.query.site}` : ''}`;
    const all = total === null ? '' : ` · ${tally ?? `${formatCount(total)} in all`}`;
    if (matching !== null) return `${formatCount(rows.length)} of ${formatCount(matching)} ${what}${all}`;
    const more = hasPrev || hasNext ? ' (more before or after)' : '';
    return `${formatCount(rows.length)} matching ${what}${more}${all}`;
  }

  private renderError(message: string): void {
    this.renderedKey = '';
    this.labelCells = new Map();
    fill(byId('pages-body'), h('tr', null, h('td', { colspan: COLUMNS, class: 'empty error' }, `Could not read pages: ${message}`)));
  }

  private pageRow(p: PageRecord): HTMLTableRowElement {
    const row = pageRow(p);
    // Only a page that was fetched has a text to judge; a failed fetch has nothing to label.
    row.append(p.error ? h('td', { class: 'page-label' }) : this.labelCell(p));
    return row;
  }

  private labelCell(p: PageRecord): HTMLTableCellElement {
    const cell = new PageLabelCell(p.crawlId, p.seq);
    this.labelCells.set(p.seq, cell);
    return cell.td;
  }
}

/** Counts do not depend on the order. */
const countsKeyOf = (id: number, query: PageQuery): string => JSON.stringify({ id, ...query, sort: '' });

function pageRow(p: PageRecord): HTMLTableRowElement {
  const kind = p.error ? 'failed' : p.relevant === true ? 'relevant' : p.relevant === false ? 'irrelevant' : '';
  return h(
    'tr',
    { class: kind, 'data-testid': 'page-row', 'data-seq': p.seq },
    h('td', { class: 'num seq-cell' },
      h('span', null, p.seq),
      p.phase === 'train' ? h('span', { class: 'phase-tag', title: 'Read while training, before the crawl (not counted in the budget)' }, 'train') : null,
      p.copyOf !== undefined ? h('span', { class: 'phase-tag', 'data-testid': 'page-copy', title: `Judged from what training read (page ${p.copyOf}), with no request of its own; its time is that read's` }, 'copy') : null,
      renderCell(p),
      h('time', { class: 'fetched-at', dateTime: new Date(p.fetchedAt).toISOString(), title: new Date(p.fetchedAt).toLocaleString() }, clock(p.fetchedAt))),
    h('td', { class: 'page-cell' },
      h('div', { class: p.title ? 'page-title' : 'page-title none', 'data-testid': 'page-title' }, p.title || '(no title)'),
      urlLine(p.url, 'page-url'),
      p.finalUrl && p.finalUrl !== p.url ? h('div', { class: 'redirect' }, '→ ', urlLine(p.finalUrl, 'page-final-url')) : null,
      keptLine(p),
      // Design D.1-D.2: what a multi-queue crawl took the URL for, and the queue it came from.
      p.urlClass ? h('div', { class: 'page-class', title: 'What the strategy took the URL for, and the priority (queue) it was taken from' },
        h('span', { 'data-testid': 'page-class' }, p.urlClass), ' · ', h('span', { 'data-testid': 'page-priority' }, priorityText(p.priority))) : null),
    h('td', { class: 'num', 'data-testid': 'page-score' }, formatScore(p.score)),
    h('td', { class: `verdict ${kind}`, 'data-testid': 'page-verdict' }, verdictOf(p)),
  );
}

/** The page's links the guard kept from requesting, each with the link that named it and the other names it had here. */
function keptLine(p: PageRecord): HTMLElement | null {
  if (!p.kept?.length) return null;
  const more = (p.keptLinks ?? p.kept.length) - p.kept.length;
  return h('div', { class: 'page-kept muted', 'data-testid': 'page-kept' },
    'Kept from requesting: ',
    ...p.kept.flatMap((k, i) => [i > 0 ? '; ' : '', h('span', { 'data-testid': 'page-kept-link', title: `${k.rule} "${k.match}"` }, keptText(k))]),
    more > 0 ? ` and ${formatCount(more)} more` : '');
}

/** fetch.render: whether the page was read from the DOM its scripts built, and why (lib/ui/render-note.ts). */
function renderCell(p: PageRecord): HTMLElement | null {
  const tag = renderTag(p.render);
  return tag && h('span', { class: 'phase-tag', 'data-testid': 'page-render', title: tag.title }, tag.text);
}

function verdictOf(p: PageRecord): Node | string {
  if (p.error) {
    const status = p.status && !p.error.includes(String(p.status)) ? `${p.status} · ` : '';
    const skipped = p.outcome === 'skipped' ? 'Skipped: ' : '';
    // The column is narrow: the reason's headline, its whole text (with the URLs it names) on hover.
    return h('span', { class: 'error-text', title: `${skipped}${status}${p.error}` }, `${skipped}${status}${shortReason(p.error)}`);
  }
  const verdict = p.relevant === null ? 'no verdict' : `${p.relevant ? 'relevant' : 'not relevant'}${p.relevance === null ? '' : ` (${formatScore(p.relevance)})`}`;
  return p.status && p.status !== 200 ? `${verdict} · HTTP ${p.status}` : verdict;
}

const clock = (ms: number): string => new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

