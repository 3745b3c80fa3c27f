// The frontier as one FIFO queue per priority value (design D.3), for a strategy whose `next` is `queues`. A queue
// is the frontier's queued URLs of one priority, first in, first out (`order` is -(discovery sequence)), walked by
// its hosts' heads (queue-heads.ts) and each host's URLs through the host index. Each queue's length is a counter
// on the crawl row, kept by every transaction that moves an entry in or out of `queued` or `inflight`, so choosing a
// queue reads no entry, whatever the frontier's size.
import Dexie from 'dexie';
import type { QueueLoad } from '../strategies/types';
import type { FrontierEntry } from '../records/types';
import type { CrawlRecord, QueueCounts } from '../records/rows';
import type { CrawlerDB } from './db';
import { hostInQueue, splitQueueKey, type QueueHeadList } from './queue-heads';


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

export interface QueueTake {
  entries: FrontierEntry[];
  waitMs: number;
  waitingOn?: FrontierEntry;
  /** Per queue and host this take took from, its new head row (null: nothing left), where the take read it. */
  heads: Map<string, FrontierEntry | null>;
  /** The others: the last URL taken of each, whose next in the queue is the new head (see readNextHeads). */
  after: { key: string; last: FrontierEntry }[];
}

/**
 * The new heads of the queues and hosts a take left `after` (strictly below the last URL it took, so the read does not
 * depend on the take's writes: it may go with them rather than after them).
 */
export function readNextHeads(db: CrawlerDB, crawlId: number, after: QueueTake['after']): Promise<[string, FrontierEntry | null][]> {
  // Dexie's own promises: awaited later in the transaction, a settled native one would lose it (Dexie's zone).
  return Dexie.Promise.all(after.map(({ key, last }) => hostInQueue(db, crawlId, last.site ?? '', last.host, last.priority, last.order, false, 1)
    .then(([next]) => [key, next ?? null] as [string, FrontierEntry | null])));
}

/** One host in a queue's walk: its URLs in the queue read so far, first in first, and how far the take has gone in them. */
interface HostWalk {
  key: string;
  site: string;
  host: string;
  rows: FrontierEntry[];
  at: number;
  /** The host's URLs in the queue end with `rows` (the last read returned fewer than it asked for). */
  ended: boolean;
  took: number;
  /** Its head row was held in memory: no read. */
  kept: boolean;
  /** The first URL the take passed and left queued: the host's new head in the queue. */
  left?: FrontierEntry;
}

/** One queue in the take: its hosts by head (an index into the heads list), the hosts open, the URLs asked about. */
interface QueueWalk {
  priority: number;
  next: number;
  open: HostWalk[];
  asked: number;
  done: boolean;
  /**
   * How many hosts' URLs to read at once: as many as the crawl's last take opened in this queue, and more each time a
   * host is passed (a take past busy hosts would otherwise read one after the other, a round trip each).
   */
  ahead: number;
  /** Hosts whose URLs this take read (not those whose head row was held). */
  opened: number;
  hosts: HostWalk[];
  reads: Map<number, { limit: number; rows: Promise<FrontierEntry[]> }>;
}

/**
 * Inside a read-write transaction over frontier and crawls: takes up to `max` ready URLs, each from the first
 * queue in `rank`'s order that has one, re-ranking after each (lengths and fetches in flight change). A queue is
 * walked first in, first out by its hosts' heads (queue-heads.ts): a host that is not ready is passed at its head in
 * one step, its other URLs in the queue waiting with it (design D.4), and a ready one gives its URLs while they come
 * before the next host's head. A URL due later (`notBefore`) is passed alone. `scanLimit` bounds the URLs asked
 * about per queue, a passed host counting as one; a queue with nothing ready gives way to the next. What is taken is
 * what walking every queued URL of each queue in order would take, asking `reserve` of each in turn, when `reserve`
 * answers for a host. Updates the counters and `readAhead` (per queue, the hosts read); the caller writes.
 */
export async function takeFromQueues(
  db: CrawlerDB, crawl: CrawlRecord, heads: QueueHeadList, rank: (queues: QueueLoad[]) => QueueLoad[],
  reserve: (e: FrontierEntry) => number, now: number, max: number, scanLimit: number, readAhead = new Map<number, number>(),
): Promise<QueueTake> {
  const crawlId = crawl.id!;
  const queues = (crawl.queues ??= await buildCounts(db, crawlId));
  const walks = new Map<number, QueueWalk>();
  const out: QueueTake = { entries: [], waitMs: Infinity, heads: new Map(), after: [] };
  const want = () => max - out.entries.length;

  const walkOf = (priority: number): QueueWalk => {
    let walk = walks.get(priority);
    if (!walk) walks.set(priority, (walk = { priority, next: heads.place([priority, Infinity]), open: [], asked: 0, done: false,
      ahead: Math.max(2, Math.min(64, readAhead.get(priority) ?? 2)), opened: 0, hosts: [], reads: new Map() }));
    return walk;
  };
  /** The i-th head of the list, if it is in `walk`'s queue. */
  const headOf = (walk: QueueWalk, i: number) => {
    const h = heads.at(i);
    return h && h.pos[0] === walk.priority ? h : undefined;
  };
  /** The URLs of the i-th head's host in the queue, with the next hosts' read in the same round trip. */
  const readHost = (walk: QueueWalk, i: number) => {
    for (let j = i; j < i + walk.ahead; j++) {
      const h = headOf(walk, j);
      if (!h) break;
      if (walk.reads.has(j) || heads.row(h.key)) continue;
      const { site, host } = splitQueueKey(h.key);
      // The first host may give several URLs; one read ahead is for its head and the URL after (to order it).
      const limit = j === i ? want() + 1 : 2;
      walk.reads.set(j, { limit, rows: hostInQueue(db, crawlId, site, host, walk.priority, h.pos[1], true, limit) });
    }
    return walk.reads.get(i)!;
  };

  /**
   * One step of a queue's walk: the next ready URL, none (the queue has nothing ready, or its scan limit is reached), or
   * a read to wait for before the next step. Only reads are awaited: a take of many URLs from hosts already read
   * awaits nothing else inside the transaction.
   */
  const step = (walk: QueueWalk): { entry?: FrontierEntry; read?: Promise<unknown> } => {
    while (walk.asked < scanLimit) {
      const head = headOf(walk, walk.next);
      let best: HostWalk | undefined;
      for (const w of walk.open) if (!best || w.rows[w.at]!.order > best.rows[best.at]!.order) best = w;
      if (!head && !best) {
        walk.done = true;
        return {};
      }
      if (head && (!best || head.pos[1] > best.rows[best.at]!.order)) {
        const { site, host } = splitQueueKey(head.key);
        const opened = (rows: FrontierEntry[], ended: boolean, kept = false) => {
          const h: HostWalk = { key: head.key, site, host, rows, at: 0, ended, took: 0, kept };
          walk.hosts.push(h);
          if (rows.length) walk.open.push(h);
        };
        const kept = heads.row(head.key);
        if (kept) {
          // Its head row as last read: a busy host is passed without a read.
          walk.next++;
          opened([kept], false, true);
          continue;
        }
        walk.opened++;
        const read = readHost(walk, walk.next++);
        return { read: read.rows.then((rows) => {
          if (rows[0]) heads.keep(head.key, rows[0]);
          opened(rows, rows.length < read.limit);
        }) };
      }
      const host = best!;
      const e = host.rows[host.at++]!;
      walk.asked++;
      const due = e.notBefore !== undefined && e.notBefore > now;
      const w = due ? e.notBefore! - now : reserve(e);
      let closed = false;
      if (w === 0) host.took++;
      else {
        host.left ??= e;
        if (w < out.waitMs) out.waitingOn = e;
        out.waitMs = Math.min(out.waitMs, w);
        if (!due) {
          closed = true; // the host is not ready: its other URLs in the queue wait with it
          if (!host.kept) walk.ahead = Math.min(64, 2 * walk.ahead);
        }
      }
      let read: Promise<unknown> | undefined;
      if (!closed && host.at >= host.rows.length) {
        // The URL that completes the take leaves its host's next URL unread: the write reads it (readNextHeads).
        if (host.ended || (w === 0 && want() === 1)) closed = true;
        else {
          // The host's next URLs in the queue, read before it is compared with the next head again.
          const limit = Math.max(2, want() + (w === 0 ? 0 : 1));
          walk.open.splice(walk.open.indexOf(host), 1);
          read = hostInQueue(db, crawlId, host.site, host.host, walk.priority, host.rows.at(-1)!.order, false, limit).then((more) => {
            host.rows.push(...more);
            host.ended = more.length < limit;
            if (more.length) walk.open.push(host);
          });
        }
      }
      if (closed) walk.open.splice(walk.open.indexOf(host), 1);
      if (w === 0) return { entry: e, read };
      if (read) return { read };
    }
    return {};
  };

  while (out.entries.length < max) {
    const open = queueLoads(queues).filter((q) => q.queued > 0 && !walks.get(q.priority)?.done && (walks.get(q.priority)?.asked ?? 0) < scanLimit);
    if (open.length === 0) break;
    let taken: FrontierEntry | undefined;
    for (const q of rank(open)) {
      const walk = walkOf(q.priority);
      for (;;) {
        const next = step(walk);
        if (next.read) await next.read;
        if (next.entry || !next.read) {
          taken = next.entry;
          break;
        }
      }
      if (taken) break;
    }
    if (!taken) break;
    out.entries.push(taken);
    const inflight = { ...taken, state: 'inflight' as const };
    countWrites(crawl, [inflight], () => taken);
  }
  for (const [priority, walk] of walks) {
    readAhead.set(priority, walk.opened);
    for (const h of walk.hosts) {
      if (h.took === 0) continue;
      const next = h.left ?? h.rows[h.at];
      if (next) out.heads.set(h.key, next);
      else if (h.ended) out.heads.set(h.key, null);
      else out.after.push({ key: h.key, last: h.rows[h.at - 1]! });
    }
  }
  return out;
}
