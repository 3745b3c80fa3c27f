// The frontier: every URL a crawl knows, in all states (it is also the dedup set), taken best-first by host heads
// (host-heads.ts, heads-take.ts) under politeness, re-scored in the background. The only writer of the frontier
// table and its heads; CrawlStore's page commit writes through its helpers inside one transaction. Its parts: the
// one enqueue path (frontier-enqueue.ts), big seed lists fed as the crawl needs them (frontier-seeds.ts), the take
// (here), reclaiming a stopped worker's entries (frontier-reclaim.ts) and re-scoring (frontier-rescore.ts).
import Dexie from 'dexie';
import type { NextOrder } from '../strategies/types';
import type { EntryState, FrontierEntry } from '../records/types';
import { crawlRow, type CrawlerDB } from './db';
import type { CrawlRecord } from '../records/rows';
import { buildCounts, readNextHeads, takeFromQueues, type QueueTake } from './fifo-queues';
import { dropQueueHeads, loadQueueHeads, noteQueueWrites, queueHeads } from './queue-heads';
import type { Candidate } from '../ports';
import { applyHeads, forgetRows, headKey, headList, loadHeadList, planHeads, readHeads, rebuildHeads, recomputeHeads, type Position } from './host-heads';
import { takeByHeads } from './heads-take';
import { wroteRows } from './row-cache';
import { HIGH_WATER, PACK_ABOVE, shouldFeed } from './seed-lists';
import { admit } from './frontier-enqueue';
import { SeedFeed } from './frontier-seeds';
import { reclaimInFlight } from './frontier-reclaim';
import { rescoreQueued, rescoreReached, type QueuedRank, type Reach, type ReachedRank, type RescoreOptions } from './frontier-rescore';

export class FrontierStore {
  /** Crawls whose queue counters are rebuilt from the index at their next take (a take found nothing while URLs are queued). */
  private readonly recount = new Set<number>();
  /** Crawls whose host heads are rebuilt from the index at their next best-first take (likewise). */
  private readonly rebuild = new Set<number>();
  /** Per crawl, how many hosts its last best-first take read: the next reads as many at once (heads-take.ts). */
  private readonly readAhead = new Map<number, number>();
  /** Per crawl and FIFO queue, how many hosts its last take by queues read in that queue (fifo-queues.ts). */
  private readonly queueReadAhead = new Map<number, Map<number, number>>();
  /** Per crawl, its packed seeds as this context knows them, and the feed under way. */
  private readonly seeds: SeedFeed;
  /** Per crawl, its queued URLs (packed seeds aside) as its last take left them. */
  private readonly queuedSeen = new Map<number, number>();

  constructor(private readonly db: CrawlerDB) {
    this.seeds = new SeedFeed(db);
  }

  /**
   * Adds candidates (seeds or links found on a page), raising the score of queued ones found again. More than
   * PACK_ABOVE (a big seed list) are not all written as frontier rows: the first PACK_ABOVE are, the rest are stored
   * packed and fed to the frontier as the crawl needs them (seed-lists.ts).
   */
  async enqueue(crawlId: number, candidates: Candidate[], now: number): Promise<void> {
    if (candidates.length > PACK_ABOVE) return this.seeds.enqueuePacked(crawlId, candidates, now);
    // An async scope: Dexie keeps its transaction across native awaits only for one (a plain arrow commits too early).
    await this.db.transaction('rw', this.db.frontier, this.db.crawls, this.db.hostHeads, async () => {
      await admit(this.db, crawlId, candidates, now);
    });
  }

  /** Moves up to `max` packed seeds into the frontier (SeedFeed.feed); returns how many left the packed rows. */
  feed(crawlId: number, now: number, max?: number): Promise<number> {
    return this.seeds.feed(crawlId, now, max);
  }

  /**
   * Takes up to `max` of the best queued entries that may be fetched now, in one transaction, and marks them in
   * flight. `reserve(entry)` returns 0 after reserving a slot for the entry's host (so later entries of the
   * same host see it), else how long it must wait; it answers for the host, whose other entries wait with the one
   * asked (best first walks hosts by their heads, heads-take.ts). Entries whose `notBefore` lies ahead are left
   * queued. Asks about at most `scanLimit` entries (a host passed counts as one); when fewer than `max` are ready,
   * also returns the shortest wait seen (Infinity when nothing queued was seen at all). `next` is the strategy's
   * order: best first, or by FIFO queues (fifo-queues.ts, which walk each queue by its hosts' heads likewise;
   * `scanLimit` then holds per queue). `max` may be a function, read once the
   * transaction runs: a take waits behind the page commits before it (they write the same tables), and the crawl
   * loop's slots that free meanwhile are filled by this take instead of the next one.
   */
  async take(
    crawlId: number,
    reserve: (entry: FrontierEntry) => number,
    now: number,
    wanted: number | (() => number),
    scanLimit = 2000,
    next: NextOrder = 'priority',
  ): Promise<{ entries: FrontierEntry[]; waitMs: number; waitingOn?: FrontierEntry }> {
    await this.seeds.fed(crawlId);
    const entries: FrontierEntry[] = [];
    const left = () => (typeof wanted === 'number' ? wanted : wanted()) - entries.length;
    let fedBelow = false;
    for (;;) {
      // While seeds are packed, a URL ranked below them is not taken: they are fed first (seed-lists.ts). Not past
      // HIGH_WATER queued: the seeds queued then are busy hosts', and feeding more of them would not fill a slot.
      const guard = next === 'priority' && (this.queuedSeen.get(crawlId) ?? 0) < HIGH_WATER;
      const seedPriority = guard ? await this.seeds.nextSeedPriority(crawlId) : undefined;
      let below = false;
      const guarded = seedPriority === undefined ? reserve : (e: FrontierEntry) => (e.priority < seedPriority ? ((below = true), 1) : reserve(e));
      const { taken, seen } = await this.takeOnce(crawlId, guarded, now, left, scanLimit, next);
      entries.push(...taken.entries);
      this.queuedSeen.set(crawlId, seen.queued);
      this.seeds.took(crawlId, taken.entries.filter((e) => e.parentUrl === null && e.depth === 0).length);
      const result = { ...taken, entries };
      if (!seen.packedSeeds) return result;
      // Nothing queued could be taken: feed and take again until something is, or nothing is packed.
      // Only URLs below the packed seeds were ready: feed once and take again.
      const empty = taken.entries.length === 0 && taken.waitMs === Infinity;
      if (empty || (below && !fedBelow && left() > 0)) {
        fedBelow ||= !empty;
        await this.seeds.feed(crawlId, now);
        continue;
      }
      if (shouldFeed({ queued: seen.queued, seedsLow: this.seeds.low(crawlId), short: left() > 0 })) this.seeds.feedSoon(crawlId, now);
      return result;
    }
  }

  /** One take in one transaction; `seen` is what it read of the crawl: its queued and packed counts after it, and the slots asked. */
  private async takeOnce(
    crawlId: number, reserve: (entry: FrontierEntry) => number, now: number, wanted: number | (() => number), scanLimit: number, next: NextOrder,
  ): Promise<{ taken: { entries: FrontierEntry[]; waitMs: number; waitingOn?: FrontierEntry }; seen: { queued: number; packedSeeds: number; max: number } }> {
    const seen = { queued: 0, packedSeeds: 0, max: 0 };
    let seenStats: CrawlRecord['stats'] | undefined;
    const work = this.db.transaction('rw', this.db.frontier, this.db.crawls, this.db.hostHeads, async () => {
      const crawl = await crawlRow(this.db, crawlId);
      const max = typeof wanted === 'number' ? wanted : wanted();
      seenStats = crawl.stats; // the take lowers its queued count as it takes
      seen.max = max;
      if (max <= 0) return { entries: [], waitMs: 0 };
      if (next !== 'priority') {
        const counted = crawl.queues !== undefined && !this.recount.delete(crawlId);
        if (!counted) crawl.queues = await buildCounts(this.db, crawlId);
        // The host heads too: the take's write reads them from memory, and so do the crawl's page commits.
        if (this.rebuild.delete(crawlId)) await rebuildHeads(this.db, crawlId);
        if (!headList(this.db, crawlId)) await loadHeadList(this.db, crawlId);
        const heads = queueHeads(this.db, crawlId) ?? (await loadQueueHeads(this.db, crawlId));
        const readAhead = this.queueReadAhead.get(crawlId) ?? new Map<number, number>();
        this.queueReadAhead.set(crawlId, readAhead);
        const taken = await takeFromQueues(this.db, crawl, heads, next.rank, reserve, now, max, scanLimit, readAhead);
        return this.markTaken(crawl, taken, now, max, !counted, undefined, [], taken);
      }
      if (this.rebuild.delete(crawlId)) await rebuildHeads(this.db, crawlId);
      // The heads in memory are read after the crawl row: by then every earlier transaction that wrote them has committed.
      const list = headList(this.db, crawlId) ?? (await loadHeadList(this.db, crawlId));
      const taken = await takeByHeads(this.db, crawlId, list, reserve, now, max, scanLimit, this.readAhead.get(crawlId));
      this.readAhead.set(crawlId, taken.opened);
      const out = await this.markTaken(crawl, taken, now, max, false, taken.heads, taken.recompute);
      // The rows the take read and left queued stay in the list: the next takes from those hosts read none.
      for (const [k, q] of taken.queues) headList(this.db, crawlId)?.keepQueue(k, q.rows, q.whole);
      return out;
    });
    let taken;
    try {
      taken = await work;
    } catch (err) {
      this.forgetQueues(crawlId); // an aborted take changed nothing in the database
      throw err;
    }
    if (seenStats) Object.assign(seen, { queued: seenStats.queued, packedSeeds: seenStats.packedSeeds ?? 0 });
    return { taken, seen };
  }

  /** Inside the take: the entries taken go in flight (and queue counters this take built are kept). */
  private async markTaken(
    crawl: CrawlRecord, taken: { entries: FrontierEntry[]; waitMs: number; waitingOn?: FrontierEntry }, now: number, max: number, counted = false,
    heads?: Map<string, Position | null>, recompute: string[] = [], fifo?: Pick<QueueTake, 'heads' | 'after'>,
  ) {
    const { entries, waitMs, waitingOn } = taken;
    if (entries.length === 0) {
      await Promise.all([counted ? this.db.crawls.put(crawl) : undefined, recompute.length ? recomputeHeads(this.db, crawl.id!, recompute) : undefined]);
      return { entries, waitMs, waitingOn };
    }
    const was = entries.map((e) => ({ ...e }));
    // Issued before the writes, and independent of them (fifo-queues.ts).
    const nextHeads = fifo?.after.length ? readNextHeads(this.db, crawl.id!, fifo.after) : undefined;
    for (const e of entries) Object.assign(e, { state: 'inflight', attempts: e.attempts + 1, updatedAt: now });
    crawl.stats.queued -= entries.length;
    const current = await readHeads(this.db, crawl.id!, heads ? [] : entries.map((e) => headKey(e.site ?? '', e.host)));
    forgetRows(this.db, crawl.id!, entries);
    const plan = planHeads(crawl.id!, entries, was, current, heads ?? undefined);
    plan.recompute.push(...recompute);
    wroteRows(this.db, entries.map((e) => ({ ...e }))); // copies: the caller goes on with the entries taken
    await applyHeads(this.db, crawl.id!, plan, Promise.all([this.db.frontier.bulkPut(entries), this.db.crawls.put(crawl)]));
    const noted = noteQueueWrites(this.db, crawl.id!, entries, was, fifo && new Map([...fifo.heads, ...(nextHeads ? await nextHeads : [])]));
    if (noted) await noted;
    return { entries, waitMs: entries.length < max ? waitMs : 0, waitingOn };
  }

  /**
   * Forgets what this store keeps of a crawl's queue in memory, and rebuilds its host heads from the index at its next
   * take (the crawl loop asks when a take found nothing while URLs are queued).
   */
  forgetBound(crawlId: number): void {
    this.forgetQueues(crawlId);
    this.rebuild.add(crawlId);
  }

  /** Forgets the FIFO queues' heads and counters: the next take by queues builds them again from the index. */
  private forgetQueues(crawlId: number): void {
    dropQueueHeads(this.db, crawlId);
    this.recount.add(crawlId);
  }

  /** `take` of a single entry, for callers that want one. */
  async takeNext(crawlId: number, reserve: (entry: FrontierEntry) => number, now: number, scanLimit = 2000): Promise<{ entry?: FrontierEntry; waitMs: number }> {
    const { entries, waitMs } = await this.take(crawlId, reserve, now, 1, scanLimit);
    return { entry: entries[0], waitMs };
  }

  /**
   * After a stopped worker: entries left in flight go back to the queue, and those in flight at `maxReclaims` stops
   * fail (frontier-reclaim.ts).
   */
  reclaimInFlight(crawlId: number, now: number, maxReclaims = 3): Promise<{ requeued: number; failed: number }> {
    // The queues are counted again; their heads follow the reclaim's writes like any others (a build at 100,000 URLs
    // takes seconds).
    this.recount.add(crawlId);
    return reclaimInFlight(this.db, crawlId, now, maxReclaims);
  }

  async countByState(crawlId: number, state: EntryState): Promise<number> {
    return this.db.frontier.where('[crawlId+state]').equals([crawlId, state]).count();
  }

  /**
   * The queued URLs counted by priority: `edges.length + 1` counts, the first below `edges[0]`, each next from its edge
   * up to the next one, the last at or above the last edge. Counted through the frontier's index, reading no row (in
   * one read transaction, so the counts agree with each other).
   */
  async countQueuedByPriority(crawlId: number, edges: readonly number[]): Promise<number[]> {
    const index = this.db.frontier.where('[crawlId+state+priority+order]');
    const bounds = [Dexie.minKey, ...edges, Dexie.maxKey];
    return this.db.transaction('r', this.db.frontier, () => Promise.all(bounds.slice(1).map((hi, i) =>
      index.between([crawlId, 'queued', bounds[i], Dexie.minKey], [crawlId, 'queued', hi, Dexie.minKey], true, false).count())));
  }

  /** The URLs of a crawl's queued entries, keys only: what the learner's reach index lists (lib/learning/reach-index.ts). */
  async queuedUrls(crawlId: number): Promise<string[]> {
    const keys = await this.db.frontier.where('[crawlId+state]').equals([crawlId, 'queued']).primaryKeys();
    return keys.map((k) => (k as unknown as [number, string])[1]);
  }

  /** Entries by URL, undefined where there is none. */
  entries(crawlId: number, urls: readonly string[]): Promise<(FrontierEntry | undefined)[]> {
    return this.db.frontier.bulkGet(urls.map((u) => [crawlId, u] as [number, string]));
  }

  getEntry(crawlId: number, url: string): Promise<FrontierEntry | undefined> {
    return this.db.frontier.get([crawlId, url]);
  }

  /**
   * Re-scores every queued link of a crawl with `rank` (after the model was retrained), in chunks that let the crawl's
   * own takes and commits run between them (frontier-rescore.ts).
   */
  rescoreQueued(crawlId: number, rank: QueuedRank, now: number, opts: RescoreOptions = {}): Promise<{ scanned: number; changed: number; complete: boolean }> {
    return rescoreQueued(this.db, crawlId, rank, now, opts);
  }

  /** Re-scores only the queued entries an answer reaches, at once (frontier-rescore.ts). */
  rescoreReached(
    crawlId: number, reach: Reach, rank: ReachedRank, now: number, opts: { epsilon?: number; top?: number } = {},
  ): Promise<{ reached: number; changed: number; skipped: number; enteredTop: number }> {
    return rescoreReached(this.db, crawlId, reach, rank, now, opts);
  }
}
