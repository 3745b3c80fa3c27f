// A crawl's pace: pages fetched a minute of running time. Read over a window of its latest pages, so that it says how
// fast the crawl goes now, and counted in the intervals between pages: the first page comes at once, and "2 pages in
// 1.4 s" is one interval of a second, not 86 pages a minute. The crawl row keeps the running time at which each of its
// last pages was fetched (`CrawlRecord.pace`, written with the page's commit); the popup, the detail, the command line
// and summary.json all read the rate from it here.
import type { CrawlRecord, CrawlStats, Pace } from './rows';

export type { Pace } from './rows';

/** Pages the window holds: the last 30 follow a change of speed within a minute at one page a second. */
export const PACE_WINDOW = 30;
/** No rate before the window holds this many pages (nine intervals) ... */
export const PACE_MIN_PAGES = 10;
/** ... or spans this much running time (a slow crawl's few pages then say something). */
export const PACE_MIN_SPAN_MS = 30_000;


/** The pace after a commit that fetched `pages` pages at `activeMs` of running time. */
export function paceAfter(pace: Pace | undefined, pages: number, activeMs: number): Pace | undefined {
  if (pages <= 0) return pace;
  const recent = [...(pace?.recent ?? []), ...Array<number>(pages).fill(activeMs)].slice(-PACE_WINDOW);
  return { first: pace?.first ?? activeMs, recent };
}

/** Pages a minute from `pages` pages fetched over `spanMs` (pages - 1 intervals), or null until that means something. */
function rate(pages: number, spanMs: number): number | null {
  if (pages < 2 || spanMs <= 0) return null;
  if (pages < PACE_MIN_PAGES && spanMs < PACE_MIN_SPAN_MS) return null;
  return ((pages - 1) * 60_000) / spanMs;
}

type Paced = Pick<CrawlRecord, 'activeMs'> & { stats: Pick<CrawlStats, 'fetched'>; pace?: Pace };

/**
 * Pages a minute now: over the window of the crawl's last pages, or null until the window holds enough of them. A
 * crawl stored before rows kept a pace is read over its whole running time, its first page counted as no interval.
 */
export function pagesPerMinute(crawl: Paced): number | null {
  const recent = crawl.pace?.recent;
  if (!recent) return rate(crawl.stats.fetched, crawl.activeMs);
  return rate(recent.length, Math.max(...recent) - Math.min(...recent));
}

/** Pages a minute over the whole run, from its first page to its last (summary.json's figure), or null as above. */
export function runPagesPerMinute(crawl: Paced): number | null {
  const pace = crawl.pace;
  if (!pace) return rate(crawl.stats.fetched, crawl.activeMs);
  return rate(crawl.stats.fetched, Math.max(...pace.recent) - pace.first);
}
