// The frontier as one FIFO queue per priority value (SPEC D.3), for a strategy whose `next` is `queues`. The
// queues are the existing [crawlId+state+priority+order] index read one priority at a time: `order` is
// -(discovery sequence), so walking a priority's range downwards gives its URLs first in, first out. Each
// queue's length is a counter on the crawl row, kept by every transaction that moves an entry in or out of
// `queued` or `inflight`, so choosing a queue reads no entry, whatever the frontier's size.
import Dexie from 'dexie';
import type { QueueLoad } from '../strategies/types';
import type { FrontierEntry } from '../types';
import type { CrawlRecord, QueueCounts } from '../records';
import type { CrawlerDB } from './db';


type Counted = Pick<FrontierEntry, 'state' | 'priority'>;

function bump(queues: QueueCounts, e: Counted | undefined, by: number): void {
  if (!e || (e.state !== 'queued' && e.state !== 'inflight')) return;
  const key = String(e.priority);
  const q = (queues[key] ??= { queued: 0, inFlight: 0 });
  if (e.state === 'queued') q.queued += by;
  else q.inFlight += by;
  if (q.queued <= 0 && q.inFlight <= 0) delete queues[key];
}

/**
 * Counts the frontier rows a transaction writes: each moves from what it was (`before`, absent for a new URL)
 * to what it is now. Does nothing for a crawl whose counters were never built (it does not take by queues).
 */
export function countWrites(crawl: CrawlRecord, writes: readonly Counted[], before: (i: number) => Counted | undefined): void {
  const queues = crawl.queues;
  if (!queues) return;
  writes.forEach((e, i) => {
    bump(queues, before(i), -1);
    bump(queues, e, 1);
  });
}

/**
 * Builds a crawl's counters from the frontier index (the first time it is taken from by queues, and after a
 * take found nothing while URLs are queued): per state, the highest priority left, then its count, then the
 * next one below: two index reads per queue, not one per URL.
 */
export async function buildCounts(db: CrawlerDB, crawlId: number): Promise<QueueCounts> {
  const queues: QueueCounts = {};
  const index = db.frontier.where('[crawlId+state+priority+order]');
  for (const state of ['queued', 'inflight'] as const) {
    let below: unknown = Dexie.maxKey;
    for (;;) {
      const top = await index.between([crawlId, state, Dexie.minKey, Dexie.minKey], [crawlId, state, below, Dexie.minKey], true, false).last();
      if (!top) break;
      const n = await index.between([crawlId, state, top.priority, Dexie.minKey], [crawlId, state, top.priority, Dexie.maxKey]).count();
      bump(queues, { state, priority: top.priority }, n);
      below = top.priority;
    }
  }
  return queues;
}

export const queueLoads = (queues: QueueCounts): QueueLoad[] =>
  Object.entries(queues).map(([p, q]) => ({ priority: Number(p), queued: q.queued, inFlight: q.inFlight }));

/** Per priority: the highest `order` that can still hold a queued URL (see FrontierStore.queuedTop). */
export type QueueTops = Map<number, { at: number; inclusive: boolean }>;

export interface QueueTake {
  entries: FrontierEntry[];
  waitMs: number;
  waitingOn?: FrontierEntry;
}

/**
 * Inside a read-write transaction over frontier and crawls: takes up to `max` ready URLs, each from the first
 * queue in `rank`'s order that has one, re-ranking after each (lengths and fetches in flight change). In a
 * queue, a URL whose host is not ready is passed over for the next one (SPEC D.4), up to `scanLimit` URLs per
 * queue; a queue with nothing ready gives way to the next. Updates the counters and `tops`; the caller writes.
 */
export async function takeFromQueues(
  db: CrawlerDB, crawl: CrawlRecord, tops: QueueTops, rank: (queues: QueueLoad[]) => QueueLoad[],
  reserve: (e: FrontierEntry) => number, now: number, max: number, scanLimit: number,
): Promise<QueueTake> {
  const crawlId = crawl.id!;
  const queues = (crawl.queues ??= await buildCounts(db, crawlId));
  /** Per queue, this take's walk: the last order read, entries read, and the first left queued. */
  const walks = new Map<number, { after?: number; scanned: number; done: boolean; firstSkipped?: number; lastTaken?: number }>();
  const out: QueueTake = { entries: [], waitMs: Infinity };

  const nextReady = async (priority: number): Promise<FrontierEntry | undefined> => {
    const walk = walks.get(priority) ?? { scanned: 0, done: false };
    walks.set(priority, walk);
    const top = tops.get(priority);
    const upper = walk.after !== undefined ? walk.after : top ? top.at : Dexie.maxKey;
    const inclusive = walk.after !== undefined ? false : top ? top.inclusive : true;
    let found: FrontierEntry | undefined;
    await db.frontier.where('[crawlId+state+priority+order]')
      .between([crawlId, 'queued', priority, Dexie.minKey], [crawlId, 'queued', priority, upper], true, inclusive)
      .reverse()
      .until(() => found !== undefined || walk.scanned >= scanLimit)
      .each((e) => {
        walk.scanned++;
        walk.after = e.order;
        const w = e.notBefore !== undefined && e.notBefore > now ? e.notBefore - now : reserve(e);
        if (w === 0) {
          found = e;
          walk.lastTaken = e.order;
          return;
        }
        if (w < out.waitMs) out.waitingOn = e;
        out.waitMs = Math.min(out.waitMs, w);
        walk.firstSkipped ??= e.order;
      });
    if (!found && walk.scanned < scanLimit) walk.done = true; // read to its end
    return found;
  };

  while (out.entries.length < max) {
    const open = queueLoads(queues).filter((q) => q.queued > 0 && !walks.get(q.priority)?.done && (walks.get(q.priority)?.scanned ?? 0) < scanLimit);
    if (open.length === 0) break;
    let taken: FrontierEntry | undefined;
    for (const q of rank(open)) {
      taken = await nextReady(q.priority);
      if (taken) break;
    }
    if (!taken) break;
    out.entries.push(taken);
    const inflight = { ...taken, state: 'inflight' as const };
    countWrites(crawl, [inflight], () => taken);
  }
  // As FrontierStore.take does for the whole frontier: above the first URL left queued in a queue, or above
  // the last one taken from it, nothing is queued any more.
  for (const [priority, walk] of walks) {
    if (walk.firstSkipped !== undefined) tops.set(priority, { at: walk.firstSkipped, inclusive: true });
    else if (walk.lastTaken !== undefined) tops.set(priority, { at: walk.lastTaken, inclusive: false });
  }
  return out;
}
