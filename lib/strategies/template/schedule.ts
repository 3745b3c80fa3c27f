// Design E.6 recrawl, made adaptive as StormCrawler's adaptive scheduler is: each record keeps its own interval,
// which doubles each time its page is found unchanged (up to 8x the template's period) and halves each time it
// changed (down to a quarter of it). The template is due again when its most pressing record is, never sooner
// than a quarter of its period after a cycle finished, and at its period when it has no record yet.

export const LONGEST = 8;
export const SHORTEST = 1 / 4;

/** A record's next interval after a check that found it changed or not. */
export function nextInterval(current: number, changed: boolean, everyMs: number): number {
  return changed ? Math.max(current / 2, everyMs * SHORTEST) : Math.min(current * 2, everyMs * LONGEST);
}

/** When the template is due again, from its records' last checks and intervals. */
export function nextRecrawlAt(records: { lastChecked: number; intervalMs: number }[], everyMs: number, finishedAt: number): number {
  if (records.length === 0) return finishedAt + everyMs;
  const due = Math.min(...records.map((r) => r.lastChecked + r.intervalMs));
  return Math.max(due, finishedAt + everyMs * SHORTEST);
}
