// The FIFO queues' heads by host: for a crawl taken by queues (fifo-queues.ts), each host's first queued
// URL in each queue, held in memory as one HeadList keyed by queue and host, at the URL's [priority, order]. Sorted
// best first, a queue's heads lie together, first in first (`order` is -(discovery sequence)), so a take walks a
// queue by its hosts and passes a busy host in one step, however many of its URLs the queue holds.
//
// The list is built from the frontier's host index at a crawl's first take by queues in this context (a few reads
// per host and queue, not one per URL) and changed by every frontier write after it, in the write's transaction
// (host-heads.ts calls noteQueueWrites); a transaction that aborts drops it, and the next take builds it again. A
// crawl taken best first never builds it, and its writes pay nothing for it. Nothing is stored: the worker that
// takes is the frontier's only writer, and a new worker builds the list once.
import Dexie from 'dexie';
import type { FrontierEntry } from '../records/types';
import type { CrawlerDB } from './db';
import { HeadList, HOST_INDEX, inTransaction } from './head-list';

type Placed = Pick<FrontierEntry, 'site' | 'host' | 'url' | 'state' | 'priority' | 'order'>;

/** The key of a host's head in one queue (priorities, sites and hosts hold no spaces). */
export const queueHeadKey = (priority: number, site: string, host: string) => `${priority} ${site} ${host}`;
const keyOf = (e: Pick<FrontierEntry, 'priority' | 'site' | 'host'>) => queueHeadKey(e.priority, e.site ?? '', e.host);

export function splitQueueKey(key: string): { priority: number; site: string; host: string } {
  const [p, site, host] = key.split(' ') as [string, string, string];
  return { priority: Number(p), site, host };
}

/** A host's queued entries in one queue, first in first, at or below order `upper` (inclusive or not; null: from the first), at most `limit`. */
export function hostInQueue(db: CrawlerDB, crawlId: number, site: string, host: string, priority: number, upper: number | null, inclusive: boolean, limit: number): Promise<FrontierEntry[]> {
  const lo = [crawlId, site, 'queued', host, priority, Dexie.minKey];
  const hi = [crawlId, site, 'queued', host, priority, upper ?? Dexie.maxKey];
  return db.frontier.where(HOST_INDEX).between(lo, hi, true, upper === null ? true : inclusive).reverse().limit(limit).toArray();
}

/** The queue heads, with the head rows the takes read (HeadList keeps them). */
export type QueueHeadList = HeadList;

const lists = new WeakMap<CrawlerDB, Map<number, QueueHeadList>>();

/** A crawl's queue heads, if this context holds them. */
export const queueHeads = (db: CrawlerDB, crawlId: number): QueueHeadList | undefined => lists.get(db)?.get(crawlId);

/** Drops a crawl's queue heads: its next take by queues builds them again from the index. */
export function dropQueueHeads(db: CrawlerDB, crawlId: number): void {
  lists.get(db)?.delete(crawlId);
}

/**
 * Builds a crawl's queue heads from the host index (inside the take's transaction): host by host, its best queued
 * URL names its first queue, then the best one below that queue names the next, and so on.
 */
export async function loadQueueHeads(db: CrawlerDB, crawlId: number): Promise<QueueHeadList> {
  const list = new HeadList();
  const index = db.frontier.where(HOST_INDEX);
  let from: unknown[] = [crawlId, Dexie.minKey];
  let open = true;
  for (;;) {
    const e: FrontierEntry | undefined = await index.between(from, [crawlId, Dexie.maxKey], open, true).first();
    if (!e) break;
    const site: string = e.site ?? '';
    if (e.state < 'queued') [from, open] = [[crawlId, site, 'queued'], true];
    else if (e.state > 'queued') [from, open] = [[crawlId, site, Dexie.maxKey], false];
    else {
      // The host's queues, highest first: each read gives the first URL of the next queue down.
      let below: unknown = Dexie.maxKey;
      for (;;) {
        const top: FrontierEntry | undefined = await index
          .between([crawlId, site, 'queued', e.host, Dexie.minKey], [crawlId, site, 'queued', e.host, below], true, false).last();
        if (!top) break;
        list.set(keyOf(top), [top.priority, top.order]);
        below = top.priority;
      }
      [from, open] = [[crawlId, site, 'queued', e.host, Dexie.maxKey], false];
    }
  }
  let byCrawl = lists.get(db);
  if (!byCrawl) lists.set(db, (byCrawl = new Map()));
  byCrawl.set(crawlId, list);
  return list;
}

/**
 * Keeps a crawl's queue heads (when this context holds them) in step with frontier writes, inside their transaction,
 * once the writes are done; answers the reads it issued, if any. `rows` written (the last write of a URL wins),
 * `was[i]` what rows[i] was before (absent: a new URL). A queue's host whose head left, with nothing of the batch at
 * or above it, is read again from the index, unless `known` gives its new head row (null: none left; a take that read
 * the host's next URL). Every other change is known here. Queued URLs join a queue at its end, so most writes change
 * no head.
 */
export function noteQueueWrites(
  db: CrawlerDB, crawlId: number, rows: readonly Placed[], was: readonly (Placed | undefined)[], known?: ReadonlyMap<string, FrontierEntry | null>,
): Promise<unknown> | undefined {
  if (!queueHeads(db, crawlId)) return;
  const list = changing(db, crawlId);
  if (!list) return;
  const last = new Map<string, { row: Placed; was: Placed | undefined }>();
  rows.forEach((row, i) => last.set(row.url, { row, was: last.get(row.url)?.was ?? was[i] }));
  const groups = new Map<string, { raised?: number; lost: boolean }>();
  const group = (k: string) => {
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { lost: false }));
    return g;
  };
  for (const { row, was: before } of last.values()) {
    if (row.state === 'queued') {
      const g = group(keyOf(row));
      if (g.raised === undefined || row.order > g.raised) g.raised = row.order;
    }
    if (before?.state !== 'queued') continue;
    const k = keyOf(before);
    if (row.state === 'queued' && keyOf(row) === k && row.order >= before.order) continue;
    const head = list.get(k);
    // The head left (or a row the list did not know of left: heal by reading the index).
    if (!head || head[1] === before.order) group(k).lost = true;
  }
  const recompute: string[] = [];
  for (const [k, g] of groups) {
    list.forget(k);
    const given = known?.get(k);
    if (given !== undefined) {
      if (given === null) list.delete(k);
      else {
        list.set(k, [given.priority, given.order]);
        list.keep(k, given);
      }
      continue;
    }
    const head = list.get(k);
    if (g.lost && !(g.raised !== undefined && head && g.raised >= head[1])) recompute.push(k);
    else if (g.raised !== undefined && (!head || g.raised > head[1])) list.set(k, [splitQueueKey(k).priority, g.raised]);
  }
  if (recompute.length === 0) return undefined;
  // Dexie's own promises, or nothing: the caller goes on in its transaction after them (see readNextHeads).
  return Dexie.Promise.all(recompute.map((k) => {
    const { priority, site, host } = splitQueueKey(k);
    return hostInQueue(db, crawlId, site, host, priority, null, true, 1).then(([first]) => {
      if (first) {
        list.set(k, [first.priority, first.order]);
        list.keep(k, first);
      } else list.delete(k);
    });
  }));
}

/** The list of a crawl about to change in this transaction: dropped if the transaction aborts. */
function changing(db: CrawlerDB, crawlId: number): QueueHeadList | undefined {
  if (!inTransaction(`queues ${crawlId}`, () => dropQueueHeads(db, crawlId))) dropQueueHeads(db, crawlId);
  return queueHeads(db, crawlId);
}
