// Frontier rows read and written in key order. The links of a page (or a batch of seeds) lie all over the primary
// key's B-tree, and Chromium's IndexedDB (LevelDB) answers a sorted run of reads or writes from blocks it has just
// touched: every bulk access here is issued sorted by URL and answered in the caller's order.
import Dexie from 'dexie';
import type { FrontierEntry } from '../records/types';
import type { CrawlerDB } from './db';
import { readRows, wroteRows } from './row-cache';

const byUrl = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The frontier rows of `urls`, in that order (undefined where a URL is not known). Inside a transaction, the rows this
 * worker read or wrote last are answered from its copy of them (row-cache.ts), and only the others are read.
 */
export function readEntries(db: CrawlerDB, crawlId: number, urls: readonly string[]): Promise<(FrontierEntry | undefined)[]> {
  return readRows(db, crawlId, urls);
}

/**
 * Writes frontier rows in key order; the last write of a URL wins, as in the order given. The worker's copy of the rows
 * (row-cache.ts) takes them once the transaction commits: the rows are not to be changed after.
 */
export function writeEntries(db: CrawlerDB, entries: readonly FrontierEntry[]): Promise<unknown> {
  if (entries.length === 0) return Promise.resolve();
  const last = new Map<string, FrontierEntry>();
  for (const e of entries) last.set(e.url, e);
  const rows = [...last.values()].sort((a, b) => byUrl(a.url, b.url));
  wroteRows(db, rows);
  return db.frontier.bulkPut(rows);
}

/** Adds rows whose URLs may be known already; answers the positions (in `rows`) of those that were, and left as they are. */
export async function addNewEntries(db: CrawlerDB, rows: readonly FrontierEntry[]): Promise<Set<number>> {
  const order = rows.map((_, i) => i).sort((i, j) => byUrl(rows[i]!.url, rows[j]!.url));
  try {
    await db.frontier.bulkAdd(order.map((i) => rows[i]!));
    return new Set();
  } catch (err) {
    if (!(err instanceof Dexie.BulkError)) throw err;
    const known = new Set<number>();
    for (const [pos, e] of Object.entries(err.failuresByPos)) {
      if (e.name !== 'ConstraintError') throw err; // not a known key: the transaction must not go on
      known.add(order[Number(pos)]!);
    }
    return known;
  }
}
