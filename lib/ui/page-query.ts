// The Pages table's reads: one window of pages matching the user's search and filters, in the order chosen,
// read from an index a chunk at a time from where the last window ended (keyset paging), never the whole
// crawl. The index is picked by the filters: [crawlId+site+kind+…] for one site and one kind of page,
// [crawlId+site+…] for one site, [crawlId+kind+…] for one kind, [crawlId+…] otherwise, each ending in seq (time
// order) or score+seq (score order). A search first looks its words up in the *terms index: a word few pages have
// names those pages, which are read by key; only a search of words most pages have walks the rows, and finds its
// matches close together.
import Dexie from 'dexie';
import type { CrawlerDB } from '../store/db';
import { searchTerms, TERM_LENGTH, termKey } from '../store/page-keys';
import type { LabelValue, PageKind, PageLabel, PageRecord } from '../records/types';

export type PageSort = 'oldest' | 'newest' | 'score-high' | 'score-low';
export type LabelFilter = 'any' | 'on' | 'off' | 'none';

export interface PageQuery {
  /**
   * Words the URL or title must contain, each starting where a word of it starts (`moon` finds "Moon landing"
   * and "moonrise", not "honeymoon"; case does not matter); empty for all pages.
   */
  search: string;
  /** A site (registrable domain, as the sites panel names it), or '' for every site. */
  site: string;
  kind: PageKind | 'all';
  label: LabelFilter;
  sort: PageSort;
}

export const ALL_PAGES: PageQuery = { search: '', site: '', kind: 'all', label: 'any', sort: 'oldest' };

/** What the Pages table opens on: every page, newest first, so a running crawl's new pages come in at the top. */
export const OPENING_QUERY: PageQuery = { ...ALL_PAGES, sort: 'newest' };

/** A row's place in the chosen order: [seq] or [score, seq]. */
export type PageKey = (number | string)[];

/**
 * Where a window starts: the first or last rows in the chosen order, just after / before a row, or at a row
 * (`from`, which a window the user paged to, or searched, keeps while the crawl adds pages, so it does not move
 * under the user; `hasPrev`, what the window said before, true unless given).
 */
export type PageCursor =
  | { at: 'start' }
  | { at: 'end' }
  | { after: PageKey }
  | { before: PageKey }
  | { from: PageKey; hasPrev?: boolean };

/**
 * What a window's rows can change with: new page rows in one index range (its rows' span, open at an edge the
 * window could still grow or move at), and labels of pages in a seq range. Undefined parts: the whole crawl.
 */
export interface WindowWatch {
  pages?: { index: string; lower: PageKey; upper: PageKey };
  labelSeqs?: [number, number];
}

export interface PageWindow {
  rows: PageRecord[];
  hasPrev: boolean;
  hasNext: boolean;
  /** The newest label of each page shown (user's or a training read's), by seq. */
  labels: Map<number, PageLabel>;
  watch: WindowWatch;
}

/** Rows read from the index in the first step while a search or label filter skips rows; each later step reads twice as many, up to MAX_CHUNK. */
const FIRST_CHUNK = 200;
const MAX_CHUNK = 4000;

const byScore = (sort: PageSort) => sort === 'score-high' || sort === 'score-low';
/** Whether the display order runs down the index (newest first, highest score first). */
const descending = (sort: PageSort) => sort === 'newest' || sort === 'score-high';

export const keyOf = (p: PageRecord, sort: PageSort): PageKey => (byScore(sort) ? [p.score, p.seq] : [p.seq]);

/** A search's words, lower-cased as typed (a page's URL or title contains each), and the index terms they start. */
interface Search {
  words: string[];
  terms: string[];
}

const searchOf = (search: string): Search => ({ words: search.toLowerCase().split(/\s+/).filter(Boolean), terms: searchTerms(search) });

/**
 * Whether a page matches: its URL or title contains every word, and each of the search's terms starts one of the
 * page's (so a match found by reading rows is one the *terms index finds too).
 */
function matchesSearch(p: PageRecord, s: Search): boolean {
  if (s.words.length === 0) return true;
  const text = `${p.url}\n${p.finalUrl}\n${p.title}`.toLowerCase();
  if (!s.words.every((w) => text.includes(w))) return false;
  const terms = p.terms ?? [];
  return s.terms.every((t) => {
    const key = termKey(p.crawlId, t);
    return terms.some((w) => w.startsWith(key));
  });
}

/** A search term in more than this many index entries is common: it narrows too little to read its pages by key. */
const RARE_TERM = 2000;

/** Candidates few enough to read by key and check: further terms are not looked up. */
const FEW = 100;

/**
 * The seqs of pages that may match: those with the search's rare terms, or null when no term is rare (the search
 * then walks the rows, where its matches are close together). Terms are looked up one at a time, each up to
 * RARE_TERM + 1 index entries, likeliest to be rare first (with digits, then longest), until the pages left are
 * few; every page read is then checked against the whole search (`matchesSearch`).
 */
async function searchCandidates(db: CrawlerDB, crawlId: number, s: Search): Promise<Set<number> | null> {
  const order = [...s.terms].sort((a, b) => Number(/\d/.test(b)) - Number(/\d/.test(a)) || b.length - a.length);
  let seqs = null as Set<number> | null;
  for (const t of order) {
    // A term as long as TERM_LENGTH may be the start of a longer word: it is matched as a prefix like any other.
    const key = termKey(crawlId, t.slice(0, TERM_LENGTH));
    const keys = await db.pages.where('terms').between(key, key + '\uffff', true, true).limit(RARE_TERM + 1).primaryKeys();
    if (keys.length > RARE_TERM) continue;
    const these = new Set(keys.map((k) => (k as [number, number])[1]));
    seqs = seqs === null ? these : intersection(seqs, these);
    if (seqs.size <= FEW) break;
  }
  return seqs;
}

const intersection = (a: Set<number>, b: Set<number>): Set<number> => new Set([...a].filter((x) => b.has(x)));

/** The newest label of every labeled page of a crawl, by seq (labels are few: read whole). */
export async function crawlPageLabels(db: CrawlerDB, crawlId: number): Promise<Map<number, PageLabel>> {
  const rows = await db.pageLabels.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
  const newest = new Map<number, PageLabel>();
  for (const r of rows) {
    const held = newest.get(r.seq);
    if (!held || r.createdAt > held.createdAt || (r.createdAt === held.createdAt && (r.id ?? 0) > (held.id ?? 0))) newest.set(r.seq, r);
  }
  return newest;
}

/** The index range the query walks: its name, the fixed leading values, and the other filters left to check. */
interface Walk {
  index: string;
  prefix: (number | string)[];
  check: (p: PageRecord) => boolean;
  exact: boolean;
}

function chooseWalk(crawlId: number, q: PageQuery, labels: Map<number, PageLabel>): Walk {
  const tail = byScore(q.sort) ? 'score+seq' : 'seq';
  const search = searchOf(q.search);
  const labelValue: LabelValue | null = q.label === 'on' ? 1 : q.label === 'off' ? 0 : null;
  const labelOk = (p: PageRecord) =>
    q.label === 'any' ? true : q.label === 'none' ? !labels.has(p.seq) : labels.get(p.seq)?.label === labelValue;
  const siteOk = (p: PageRecord) => !q.site || p.site === q.site;
  const kindOk = (p: PageRecord) => q.kind === 'all' || p.kind === q.kind;
  const exact = search.words.length === 0 && q.label === 'any';
  const check = (p: PageRecord) => siteOk(p) && kindOk(p) && labelOk(p) && matchesSearch(p, search);
  if (q.site && q.kind !== 'all') return { index: `[crawlId+site+kind+${tail}]`, prefix: [crawlId, q.site, q.kind], check, exact };
  if (q.site) return { index: `[crawlId+site+${tail}]`, prefix: [crawlId, q.site], check, exact };
  if (q.kind !== 'all') return { index: `[crawlId+kind+${tail}]`, prefix: [crawlId, q.kind], check, exact };
  return { index: `[crawlId+${tail}]`, prefix: [crawlId], check, exact };
}

/** The walk's rows past `from` (strictly, unless `inclusive`) in the index's own order (ascending or not), or all of them. */
function rangeOf(db: CrawlerDB, walk: Walk, from?: PageKey, ascending = true, inclusive = false) {
  const lo = [...walk.prefix, Dexie.minKey];
  const hi = [...walk.prefix, Dexie.maxKey];
  const where = db.pages.where(walk.index);
  if (!from) return where.between(lo, hi, true, true);
  return ascending ? where.between([...walk.prefix, ...from], hi, inclusive, true) : where.between(lo, [...walk.prefix, ...from], true, inclusive);
}

/** Told how many rows a search or filter has read so far, while it reads more than one chunk. */
export type ReadProgress = (read: number) => void;

/** Up to `want` matching rows past `from` (exclusive), in display order when `forward`, else reversed. */
async function readRun(
  db: CrawlerDB,
  walk: Walk,
  sort: PageSort,
  from: PageKey | undefined,
  forward: boolean,
  want: number,
  progress?: ReadProgress,
  inclusive = false,
): Promise<PageRecord[]> {
  const ascending = forward !== descending(sort);
  const out: PageRecord[] = [];
  let chunk = walk.exact ? want : Math.max(want, FIRST_CHUNK);
  for (let read = 0; ; chunk = walk.exact ? chunk : Math.min(2 * chunk, MAX_CHUNK), inclusive = false) {
    const range = rangeOf(db, walk, from, ascending, inclusive);
    const rows = await (ascending ? range : range.reverse()).limit(chunk).toArray();
    for (const p of rows) if (walk.exact || walk.check(p)) out.push(p);
    if (out.length >= want || rows.length < chunk) return out.slice(0, want);
    read += rows.length;
    progress?.(read);
    from = keyOf(rows[rows.length - 1]!, sort);
  }
}

/** One window of `size` pages of a crawl matching the query, in its order. */
export async function pageWindow(
  db: CrawlerDB,
  crawlId: number,
  q: PageQuery,
  cursor: PageCursor,
  size: number,
  progress?: ReadProgress,
): Promise<PageWindow> {
  const labels = await crawlPageLabels(db, crawlId);
  const walk = chooseWalk(crawlId, q, labels);
  const shown = (rows: PageRecord[], hasPrev: boolean, hasNext: boolean): PageWindow =>
    ({ rows, hasPrev, hasNext, labels: labelsOf(rows, labels), watch: watchOf(walk, q, rows, hasPrev, hasNext) });

  if (q.label === 'on' || q.label === 'off') {
    // Labeled pages are written before they are labeled: such a window changes with the labels alone.
    const want = q.label === 'on' ? 1 : 0;
    const seqs = [...labels.values()].filter((l) => l.label === want).map((l) => l.seq);
    const [rows, hasPrev, hasNext] = await keyedWindow(db, crawlId, q, walk, seqs, cursor, size);
    return { rows, hasPrev, hasNext, labels: labelsOf(rows, labels), watch: {} };
  }
  const found = q.search ? await searchCandidates(db, crawlId, searchOf(q.search)) : null;
  if (found) {
    // A new page with the search's words lands in the walk's index range, which the window watches as any other.
    const [rows, hasPrev, hasNext] = await keyedWindow(db, crawlId, q, walk, [...found], cursor, size);
    return shown(rows, hasPrev, hasNext);
  }
  if ('from' in cursor) {
    const rows = await readRun(db, walk, q.sort, cursor.from, true, size + 1, progress, true);
    if (rows.length === 0) return pageWindow(db, crawlId, q, { at: 'end' }, size, progress);
    // Matching rows added before a window that had none before it (newer pages, newest first) enable First and
    // Prev. Up to FIRST_CHUNK rows before it are checked; past that many, Prev may show the first window again.
    const before = cursor.hasPrev ?? true
      ? true
      : await (async () => {
        const rows = await rangeOf(db, walk, cursor.from, descending(q.sort)).limit(FIRST_CHUNK).toArray();
        return rows.length === FIRST_CHUNK || rows.some((p) => walk.exact || walk.check(p));
      })();
    return shown(rows.slice(0, size), before, rows.length > size);
  }
  if ('at' in cursor && cursor.at === 'start') {
    const rows = await readRun(db, walk, q.sort, undefined, true, size + 1, progress);
    return shown(rows.slice(0, size), false, rows.length > size);
  }
  if ('after' in cursor) {
    const rows = await readRun(db, walk, q.sort, cursor.after, true, size + 1, progress);
    // Paging forward past the last row shows the last full window instead of an empty one.
    if (rows.length === 0) return pageWindow(db, crawlId, q, { at: 'end' }, size, progress);
    return shown(rows.slice(0, size), true, rows.length > size);
  }
  const before = 'before' in cursor ? cursor.before : undefined;
  const rows = await readRun(db, walk, q.sort, before, false, size + 1, progress);
  // Paging back into the first rows shows a full first window rather than a short one.
  if (rows.length <= size && before) return pageWindow(db, crawlId, q, { at: 'start' }, size, progress);
  return shown(rows.slice(0, size).reverse(), rows.length > size, before !== undefined);
}

/**
 * The index range a window's rows can change in. Page rows are only ever added: a row lands in the window when
 * its key falls between the first and last rows shown, or past an edge where the window is open (the first
 * window before its top row, the last one after its bottom row). New pages of a crawl come in at the newest
 * end, so a full first window in time order, or any window in the middle, is not re-read as the crawl goes on.
 * A search's first window keeps its rows (a `from` cursor) but watches above them until a row comes in there,
 * so that First and Prev then offer it.
 */
function watchOf(walk: Walk, q: PageQuery, rows: readonly PageRecord[], hasPrev: boolean, hasNext: boolean): WindowWatch {
  const first = rows[0], last = rows.at(-1);
  // An edge of the display order: the row there, or open (null).
  const top = hasPrev && first ? keyOf(first, q.sort) : null;
  const bottom = hasNext && last ? keyOf(last, q.sort) : null;
  const low: PageKey = [Dexie.minKey as number], high: PageKey = [Dexie.maxKey as string];
  // In the index's own order: a descending display runs from the high end down.
  const [lower, upper] = descending(q.sort) ? [bottom ?? low, top ?? high] : [top ?? low, bottom ?? high];
  const seqs = rows.map((p) => p.seq);
  return {
    pages: { index: walk.index, lower: [...walk.prefix, ...lower], upper: [...walk.prefix, ...upper] },
    // A label changes the rows shown with a label filter; otherwise only the shown rows' label cells.
    ...(q.label === 'any' && seqs.length ? { labelSeqs: [Math.min(...seqs), Math.max(...seqs)] as [number, number] } : {}),
  };
}

/**
 * Reads one row of each range a window watches, all started at once: liveQuery records the ranges a query
 * reads through Dexie's async context, which does not outlive every await, so a watched read must not wait
 * behind another. The window itself is read again apart (`pageWindow`), when one of these ranges changes.
 */
export function windowChanges(db: CrawlerDB, crawlId: number, watch: WindowWatch | undefined): Promise<unknown> {
  const pages = watch?.pages
    ? db.pages.where(watch.pages.index).between(watch.pages.lower, watch.pages.upper, true, true)
    : db.pages.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey], true, true);
  const [from, to] = watch?.labelSeqs ?? [Dexie.minKey, Dexie.maxKey];
  const labels = db.pageLabels.where('[crawlId+seq]').between([crawlId, from], [crawlId, to], true, true);
  return Promise.all([pages.limit(1).toArray(), labels.limit(1).toArray()]);
}

/**
 * How many pages match the query, when an index count gives it exactly (no search, no label filter, not both
 * a site and a kind); else null. Counting walks the index range, so the table asks for it apart from the rows.
 */
export async function matchingCount(db: CrawlerDB, crawlId: number, q: PageQuery): Promise<number | null> {
  const walk = chooseWalk(crawlId, q, new Map());
  return walk.exact ? rangeOf(db, walk).count() : null;
}

/**
 * A window of a few pages known by seq (those labeled on or off topic, those with a search's rare words): they
 * are read by key, filtered and ordered in memory, and the window cut from them at the cursor.
 */
async function keyedWindow(
  db: CrawlerDB,
  crawlId: number,
  q: PageQuery,
  walk: Walk,
  seqs: number[],
  cursor: PageCursor,
  size: number,
): Promise<[PageRecord[], boolean, boolean]> {
  const pages = (await db.pages.bulkGet(seqs.map((seq) => [crawlId, seq] as [number, number]))).filter((p): p is PageRecord => !!p && walk.check(p));
  const sign = descending(q.sort) ? -1 : 1;
  const order = (a: PageRecord, b: PageRecord) => sign * compareKeys(keyOf(a, q.sort), keyOf(b, q.sort));
  pages.sort(order);
  const position = (key: PageKey) => pages.findIndex((p) => sign * compareKeys(keyOf(p, q.sort), key) > 0);
  let start = 0;
  if ('after' in cursor) start = Math.min(Math.max(0, pages.length - size), position(cursor.after) < 0 ? pages.length : position(cursor.after));
  else if ('before' in cursor) {
    const end = pages.findIndex((p) => sign * compareKeys(keyOf(p, q.sort), cursor.before) >= 0);
    start = Math.max(0, (end < 0 ? pages.length : end) - size);
  } else if ('from' in cursor) {
    const at = pages.findIndex((p) => sign * compareKeys(keyOf(p, q.sort), cursor.from) >= 0);
    start = Math.min(Math.max(0, pages.length - size), at < 0 ? pages.length : at);
  } else if (cursor.at === 'end') start = Math.max(0, pages.length - size);
  return [pages.slice(start, start + size), start > 0, start + size < pages.length];
}

function compareKeys(a: PageKey, b: PageKey): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

function labelsOf(rows: readonly PageRecord[], labels: Map<number, PageLabel>): Map<number, PageLabel> {
  const shown = new Map<number, PageLabel>();
  for (const p of rows) {
    const l = labels.get(p.seq);
    if (l) shown.set(p.seq, l);
  }
  return shown;
}

/**
 * The sites of a crawl with pages, most pages first, at most `limit` (the site filter's and the export's
 * choices), each with its page rows counted on the [crawlId+site+seq] index: the rows the Pages table shows
 * for that site and an export of it holds (failed, skipped and training reads included). The site rows'
 * counters pick which sites to count when there are more than `limit`.
 */
export async function pageSites(db: CrawlerDB, crawlId: number, limit = 300): Promise<{ site: string; pages: number }[]> {
  const chosen = await busiestSites(db, crawlId, limit);
  // One site at a time: a count walks its site's index entries (all of them, over the sites, every page row of the
  // crawl), and IndexedDB answers a database's requests in turn, so a read the user is waiting for (the Pages
  // table's window) waits behind one count, not all of them.
  const counts: number[] = [];
  for (const site of chosen) counts.push(await db.pages.where('[crawlId+site+seq]').between([crawlId, site, Dexie.minKey], [crawlId, site, Dexie.maxKey]).count());
  return chosen
    .map((site, i) => ({ site, pages: counts[i]! }))
    .filter((s) => s.pages > 0)
    .sort((a, b) => b.pages - a.pages || a.site.localeCompare(b.site));
}

/** The sites of a crawl with the most requests (the site rows' counters), most first, at most `limit`: no page row is read. */
export async function busiestSites(db: CrawlerDB, crawlId: number, limit = 300): Promise<string[]> {
  const rows = await db.sites.where('[crawlId+site]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
  return rows
    .sort((a, b) => b.fetched + b.failed - (a.fetched + a.failed) || a.site.localeCompare(b.site))
    .slice(0, limit)
    .map((s) => s.site);
}
