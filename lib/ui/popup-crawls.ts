// What the toolbar popup shows: every crawl that runs, then those paused (each waits for the user's Resume or
// Stop), then the newest crawl that ended; each with what it is fetching and its latest failures.
import type { CrawlRecord } from '../records/rows';
import type { CrawlerDB } from '../store/db';
import type { PageRecord } from '../records/types';
import { recentErrors } from './queries';

export interface PopupCrawl {
  crawl: CrawlRecord;
  /** The URLs it is fetching now. */
  inFlight: string[];
  errors: PageRecord[];
  /**
   * A template crawl's records (its measure, where other crawls have a harvest rate): all the template holds, and
   * those this crawl's pages gave; absent for other crawls.
   */
  records?: { all: number; thisCycle: number };
}

/** A crawl that is working now: the popup's controls matter most for these. */
export const isActive = (c: Pick<CrawlRecord, 'state'>): boolean => c.state === 'running' || c.state === 'training';

/**
 * The crawls the popup lists, in its order: the running ones, newest first; the paused ones (a crawl paused in
 * the popup stays there to be resumed); then the newest crawl that ended (finished, stopped or failed).
 */
export function popupOrder(newestFirst: readonly CrawlRecord[]): CrawlRecord[] {
  const ended = newestFirst.find((c) => !isActive(c) && c.state !== 'paused');
  return [...newestFirst.filter(isActive), ...newestFirst.filter((c) => c.state === 'paused'), ...(ended ? [ended] : [])];
}

/**
 * The popup's crawls (or the one of `?crawl=ID`), each with its fetches in flight and its latest failures. What an
 * active crawl fetches now is asked of the worker that runs it (`fetchingNow`, the protocol's message of that name).
 */
export async function popupCrawls(db: CrawlerDB, fetchingNow: (crawlId: number) => Promise<string[]>, crawlId?: number): Promise<PopupCrawl[]> {
  const rows = crawlId === undefined
    ? popupOrder(await db.crawls.orderBy('createdAt').reverse().toArray())
    : [await db.crawls.get(crawlId)].filter((c): c is CrawlRecord => c !== undefined);
  // Inside the popup's live query: the message is no database read (it re-runs nothing), and every read below starts
  // before anything is awaited, so the live query still sees each of them.
  return Promise.all(rows.map(async (crawl) => {
    const [flying, errors, records] = await Promise.all([
      isActive(crawl) ? fetchingNow(crawl.id!).catch(() => []) : [], recentErrors(db, crawl, 5),
      crawl.config.template ? templateRecords(db, crawl) : undefined,
    ]);
    return { crawl, inFlight: flying, errors, ...(records === undefined ? {} : { records }) };
  }));
}

async function templateRecords(db: CrawlerDB, crawl: CrawlRecord): Promise<{ all: number; thisCycle: number }> {
  const rows = await db.records.where('crawlName').equals(crawl.name).toArray();
  return { all: rows.length, thisCycle: rows.filter((r) => r.lastCrawlId === crawl.id).length };
}
