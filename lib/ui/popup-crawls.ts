// What the toolbar popup shows: every crawl that runs, then those paused (each waits for the user's Resume or
// Stop), then the newest crawl that ended; each with what it is fetching and its latest failures.
import type { CrawlRecord } from '../records/rows';
import type { CrawlerDB } from '../store/db';
import type { PageRecord } from '../records/types';
import { recentErrors } from './queries';
import { recordCounts, type RecordCounts } from './crawl-figures';
import { describedParts } from '../records/crawl-name';

export interface PopupCrawl {
  crawl: CrawlRecord;
  /** The URLs it is fetching now. */
  inFlight: string[];
  errors: PageRecord[];
  /**
   * A template crawl's records (its measure, where other crawls have a harvest rate): all the template holds, those
   * this crawl's pages gave, and their sites; absent for other crawls.
   */
  records?: RecordCounts;
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

async function templateRecords(db: CrawlerDB, crawl: CrawlRecord): Promise<RecordCounts> {
  return recordCounts(await db.records.where('crawlName').equals(crawl.name).toArray(), crawl.id!);
}

/** How an ended crawl is started again: the message, and what its button says. */
export interface CrawlAgain {
  label: string;
  title: string;
  /** A template's next cycle (design E.6). */
  recrawl?: { name: string };
  /** A topic crawl's config, as it was, for its topic. */
  start?: Record<string, unknown>;
}

/**
 * Starting an ended crawl again: a template's next cycle, which keeps its records current; any other crawl once more
 * with its settings and topic (a described name is described anew, with today's day). None for a crawl whose seed list
 * was packed, since its row keeps only the first seed of each host.
 */
export function crawlAgain(crawl: Pick<CrawlRecord, 'name' | 'config' | 'topicId' | 'seedsGiven' | 'state'>): CrawlAgain | null {
  if (crawl.state === 'running' || crawl.state === 'training' || crawl.state === 'paused') return null;
  if (crawl.config.template) {
    return { label: 'Recrawl', title: 'The next cycle of this template: its search again, changed pages re-read, its records kept current', recrawl: { name: crawl.name } };
  }
  if (crawl.seedsGiven) return null;
  const { name, ...config } = crawl.config;
  return {
    label: 'Crawl again',
    title: 'A new crawl with the same seeds and settings, for the same topic (which has learned since)',
    start: { ...config, ...(describedParts(name) ? {} : { name }), topic: { ...config.topic, id: crawl.topicId } },
  };
}
