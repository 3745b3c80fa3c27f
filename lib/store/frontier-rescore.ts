// Re-scoring the queue: every queued link after the model was retrained, in chunks that leave the crawl its share of
// the database, and at once the few entries a user's answer reaches.
import Dexie from 'dexie';
import type { FrontierEntry } from '../records/types';
import { crawlRow, type CrawlerDB } from './db';
import { countWrites } from './fifo-queues';
import { writeWithHeads } from './host-heads';
import { wroteRows } from './row-cache';

/** A queued entry's new rank; null leaves it as it is. */
export type QueuedRank = (e: FrontierEntry) => { score: number; priority: number; inlinks?: FrontierEntry['inlinks'] } | null;
/** As QueuedRank, and `skip` takes the entry out of the queue, saying why. */
export type ReachedRank = (e: FrontierEntry) => { score: number; priority: number; inlinks?: FrontierEntry['inlinks']; skip?: string } | null;
export interface RescoreOptions {
  chunk?: number;
  epsilon?: number;
  pause?: (chunkMs: number) => Promise<boolean>;
}
/** The queued entries an answer reaches: `urls` by key, and every queued entry `where` accepts. */
export interface Reach {
  urls: readonly string[];
  where?: (e: FrontierEntry) => boolean;
}

/**
 * Re-scores every queued link of a crawl with `rank` (after the model was retrained), in transactions of
 * `chunk` entries walked in URL order, so that the crawl's own takes and commits run between them. After
 * each chunk it waits `pause(chunkMs)`: the crawl's transactions queued meanwhile go first, so the crawl
 * keeps a share of the database instead of waiting behind every chunk. A pause that resolves to false
 * stops the walk there (`complete: false`): a paused or finishing crawl does not wait for it. `rank` returns null to leave an
 * entry as it is (seeds); a priority that moves less than `epsilon` is not rewritten (the write, with its
 * index updates, is the whole cost).
 */
export async function rescoreQueued(
  db: CrawlerDB,
  crawlId: number,
  rank: QueuedRank,
  now: number,
  opts: RescoreOptions = {},
): Promise<{ scanned: number; changed: number; complete: boolean }> {
  const chunk = opts.chunk ?? 500, epsilon = opts.epsilon ?? 0;
  let after: string | null = null;
  let scanned = 0, changed = 0;
  for (;;) {
    const lower: unknown[] = after === null ? [crawlId, Dexie.minKey] : [crawlId, after];
    const first: boolean = after === null;
    const started = Date.now();
    const batch: { rows: number; last: string | null; changed: number } = await db.transaction('rw', db.frontier, db.crawls, db.hostHeads, async () => {
      const rows: FrontierEntry[] = await db.frontier.where('[crawlId+url]').between(lower, [crawlId, Dexie.maxKey], first, true).limit(chunk).toArray();
      const puts: FrontierEntry[] = [];
      const before: FrontierEntry[] = [];
      for (const e of rows) {
        if (e.state !== 'queued') continue;
        const r = rank(e);
        if (!r || Math.abs(r.priority - e.priority) <= epsilon) continue;
        puts.push({ ...e, score: r.score, priority: r.priority, updatedAt: now, ...(r.inlinks ? { inlinks: r.inlinks } : {}) });
        before.push(e);
      }
      if (puts.length) {
        // A crawl taken by queues counts its queues' lengths: a moved entry changes queue.
        const crawl = await db.crawls.get(crawlId);
        if (crawl?.queues) {
          countWrites(crawl, puts, (i) => before[i]);
          await db.crawls.put(crawl);
        }
        wroteRows(db, puts);
        await writeWithHeads(db, crawlId, puts, before, new Map(), () => db.frontier.bulkPut(puts));
      }
      return { rows: rows.length, last: rows.at(-1)?.url ?? null, changed: puts.length };
    });
    scanned += batch.rows;
    changed += batch.changed;
    if (batch.rows < chunk || batch.last === null) return { scanned, changed, complete: true };
    after = batch.last;
    if ((await opts.pause?.(Date.now() - started)) === false) return { scanned, changed, complete: false };
  }
}

/**
 * Re-scores only the queued entries an answer reaches, at once (a label acts before the next
 * question): `urls` by key, and, with `where`, every queued entry it accepts (one read of the queue; only the
 * entries it accepts are ranked). `rank` is the one a full re-score uses, so a reached entry ends where
 * `rescoreQueued` would put it; it may return `skip` to take the entry out of the queue (a page the user said
 * is off topic). Reads the `top` best queued URLs before and after, so the answer's effect on what is fetched
 * next can be shown: `enteredTop` of them were not there before.
 */
export async function rescoreReached(
  db: CrawlerDB,
  crawlId: number,
  reach: Reach,
  rank: ReachedRank,
  now: number,
  opts: { epsilon?: number; top?: number } = {},
): Promise<{ reached: number; changed: number; skipped: number; enteredTop: number }> {
  const epsilon = opts.epsilon ?? 0, top = opts.top ?? 100;
  // Read in bulk (getAll), not by cursor: a cursor step is a round trip of its own.
  const bestQueued = async () => {
    const rows = await db.frontier.where('[crawlId+state+priority+order]')
      .between([crawlId, 'queued', Dexie.minKey, Dexie.minKey], [crawlId, 'queued', Dexie.maxKey, Dexie.maxKey])
      .reverse().limit(top).toArray();
    return new Set(rows.filter((e) => e.state === 'queued').map((e) => e.url));
  };
  return db.transaction('rw', db.frontier, db.crawls, db.hostHeads, async () => {
    const before = await bestQueued();
    const byUrl = new Map<string, FrontierEntry>();
    for (const e of await db.frontier.bulkGet(reach.urls.map((u) => [crawlId, u] as [number, string]))) if (e?.state === 'queued') byUrl.set(e.url, e);
    if (reach.where) {
      const where = reach.where;
      for (const e of await db.frontier.where('[crawlId+state]').equals([crawlId, 'queued']).toArray()) {
        if (e.state === 'queued' && !byUrl.has(e.url) && where(e)) byUrl.set(e.url, e);
      }
    }
    const puts: FrontierEntry[] = [];
    const was: FrontierEntry[] = [];
    let skipped = 0;
    for (const e of byUrl.values()) {
      const r = rank(e);
      if (!r) continue;
      if (r.skip !== undefined) {
        puts.push({ ...e, state: 'skipped', reason: r.skip, notBefore: undefined, updatedAt: now });
        was.push(e);
        skipped++;
        continue;
      }
      if (Math.abs(r.priority - e.priority) <= epsilon) continue;
      puts.push({ ...e, score: r.score, priority: r.priority, updatedAt: now, ...(r.inlinks ? { inlinks: r.inlinks } : {}) });
      was.push(e);
    }
    if (puts.length) {
      const crawl = await crawlRow(db, crawlId);
      countWrites(crawl, puts, (i) => was[i]);
      crawl.stats.queued -= skipped;
      crawl.stats.skipped += skipped;
      wroteRows(db, puts);
      await writeWithHeads(db, crawlId, puts, was, new Map(),
        () => Promise.all([db.frontier.bulkPut(puts), db.crawls.put({ ...crawl, updatedAt: now })]));
    }
    const after = await bestQueued();
    let enteredTop = 0;
    for (const url of after) if (!before.has(url)) enteredTop++;
    return { reached: byUrl.size, changed: puts.length, skipped, enteredTop };
  });
}
