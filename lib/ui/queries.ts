// The reads the popup and the dashboard make from the crawler's database. Pages only read: the service
// worker is the one writer of these tables, and asks are sent to it as messages.
import Dexie, { liveQuery } from 'dexie';
import type { CrawlRecord, CrawlerDB } from '../store/db';
import type { FrontierEntry, PageRecord } from '../types';

/** The crawl with this id, or the newest one when no id is given. */
export async function crawlOrNewest(db: CrawlerDB, crawlId?: number): Promise<CrawlRecord | undefined> {
  if (crawlId !== undefined) return db.crawls.get(crawlId);
  return db.crawls.orderBy('createdAt').last();
}

/** All crawls, newest first. Rows are small (counters and config), so listing them all is fine. */
export const allCrawls = (db: CrawlerDB): Promise<CrawlRecord[]> => db.crawls.orderBy('createdAt').reverse().toArray();

/** Frontier entries being fetched right now. */
export const inFlight = (db: CrawlerDB, crawlId: number): Promise<FrontierEntry[]> =>
  db.frontier.where('[crawlId+state]').equals([crawlId, 'inflight']).toArray();

/** How far back from the newest page to look for failures, so a crawl of 100k good pages is not scanned whole. */
const ERROR_LOOKBACK = 5000;

/** The newest failed fetches (pages rows with `error`), newest first. */
export function recentErrors(db: CrawlerDB, crawl: CrawlRecord, limit = 5): Promise<PageRecord[]> {
  const id = crawl.id!;
  const from = Math.max(0, crawl.nextSeq - ERROR_LOOKBACK);
  return db.pages
    .where('[crawlId+seq]')
    .between([id, from], [id, Dexie.maxKey])
    .reverse()
    .filter((p) => !!p.error)
    .limit(limit)
    .toArray();
}

export type PageFilter = 'all' | 'relevant' | 'irrelevant' | 'failed';

export const pageFilters: Record<PageFilter, (p: PageRecord) => boolean> = {
  all: () => true,
  relevant: (p) => !p.error && p.relevant === true,
  irrelevant: (p) => !p.error && p.relevant === false,
  failed: (p) => !!p.error,
};

/** Where a page of the table starts: the first or last rows, or just after / before a seq. */
export type PageCursor = { at: 'start' } | { at: 'end' } | { after: number } | { before: number };

export interface PageWindow {
  rows: PageRecord[];
  hasPrev: boolean;
  hasNext: boolean;
}

/** One page of `size` rows matching the filter, in seq order, read by key range (never the whole table). */
export async function pageWindow(
  db: CrawlerDB,
  crawlId: number,
  filter: PageFilter,
  cursor: PageCursor,
  size: number,
): Promise<PageWindow> {
  const match = pageFilters[filter];
  const bySeq = db.pages.where('[crawlId+seq]');
  if ('at' in cursor && cursor.at === 'start') {
    const rows = await bySeq.between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).filter(match).limit(size + 1).toArray();
    return { rows: rows.slice(0, size), hasPrev: false, hasNext: rows.length > size };
  }
  if ('after' in cursor) {
    const rows = await bySeq
      .between([crawlId, cursor.after], [crawlId, Dexie.maxKey], false, true)
      .filter(match)
      .limit(size + 1)
      .toArray();
    // Paging forward past the last row shows the last full page instead of an empty one.
    if (rows.length === 0) return pageWindow(db, crawlId, filter, { at: 'end' }, size);
    return { rows: rows.slice(0, size), hasPrev: true, hasNext: rows.length > size };
  }
  const upper = 'before' in cursor ? cursor.before : Dexie.maxKey;
  const rows = await bySeq
    .between([crawlId, Dexie.minKey], [crawlId, upper], true, false)
    .reverse()
    .filter(match)
    .limit(size + 1)
    .toArray();
  // Paging back into the first rows shows a full first page rather than a short one.
  if (rows.length <= size && 'before' in cursor) return pageWindow(db, crawlId, filter, { at: 'start' }, size);
  return { rows: rows.slice(0, size).reverse(), hasPrev: rows.length > size, hasNext: 'before' in cursor };
}

/** Number of page rows of a crawl, counted on the index. */
export const pageCount = (db: CrawlerDB, crawlId: number): Promise<number> =>
  db.pages.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).count();

/** Reads every page row of a crawl in seq order, `chunk` rows at a time, so memory holds one chunk of rows. */
export async function forEachPageChunk(
  db: CrawlerDB,
  crawlId: number,
  chunk: number,
  onChunk: (rows: PageRecord[]) => void,
): Promise<number> {
  let total = 0;
  let lower: unknown = Dexie.minKey;
  let includeLower = true;
  for (;;) {
    const rows = await db.pages
      .where('[crawlId+seq]')
      .between([crawlId, lower], [crawlId, Dexie.maxKey], includeLower, true)
      .limit(chunk)
      .toArray();
    if (rows.length === 0) return total;
    onChunk(rows);
    total += rows.length;
    lower = rows[rows.length - 1].seq;
    includeLower = false;
  }
}

/**
 * Runs `query` now and again whenever the rows it read change (Dexie liveQuery; the worker's writes reach
 * the pages), handing each result to `render`. Returns the unsubscribe function.
 */
export function watch<T>(query: () => Promise<T>, render: (value: T) => void, onError: (err: unknown) => void): () => void {
  const sub = liveQuery(query).subscribe({ next: render, error: onError });
  return () => sub.unsubscribe();
}
