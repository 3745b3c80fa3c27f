// What a crawl's page rows are, told where they are counted (the Pages table, the Budget tile): the budget counts
// requests, and a crawl also keeps rows it made no request for, so "41 rows" beside "40 / 40" says which those are:
// "41 rows: 40 requests, 1 kept by robots.txt". Pure.
import type { CrawlRecord } from '../records/rows';
import { formatCount } from './format';

export interface RowTally {
  rows: number;
  /** Crawl-phase requests: what the budget counts. */
  requests: number;
  /**
   * Rows the requests made: fewer than the requests when a page took more than one (a redirect's hops, a retry, a
   * template's search pages, which have no row of their own).
   */
  requested: number;
  /** Pages training read before the crawl (outside the budget). */
  train: number;
  /** Pages judged from what training read, with no request of their own. */
  copies: number;
  /** Pages robots.txt kept the crawl from requesting. */
  robots: number;
  /** Any other rows without a request of their own (a seed out of scope or kept by the safety rules; older crawls' robots.txt rows). */
  other: number;
}

/** The tally of `rows` page rows of the crawl, from its counters. */
export function rowTally(crawl: Pick<CrawlRecord, 'stats'>, rows: number): RowTally {
  const s = crawl.stats;
  const [train, copies, robots] = [s.trainPages, s.copies ?? 0, s.robotsKept ?? 0];
  const rest = Math.max(0, rows - train - copies - robots);
  const requested = Math.min(rest, s.attempts);
  return { rows, requests: s.attempts, requested, train, copies, robots, other: rest - requested };
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * "41 rows: 40 requests, 1 kept by robots.txt", or null when every row is one the requests made (a row count then
 * needs no words). Rows with no request are named by what they are; rows fewer than the requests say so ("26 from 28
 * requests"), so the parts always add up to the rows.
 */
export function rowTallyText(t: RowTally): string | null {
  if (!t.train && !t.copies && !t.robots && !t.other) return null;
  const parts = [
    t.requested === t.requests ? plural(t.requests, 'request') : `${formatCount(t.requested)} from ${plural(t.requests, 'request')}`,
    ...(t.train ? [plural(t.train, 'training read')] : []),
    ...(t.copies ? [plural(t.copies, 'copy of a training read', 'copies of training reads')] : []),
    ...(t.robots ? [`${formatCount(t.robots)} kept by robots.txt`] : []),
    ...(t.other ? [`${formatCount(t.other)} not requested`] : []),
  ];
  return `${plural(t.rows, 'row')}: ${parts.join(', ')}`;
}
