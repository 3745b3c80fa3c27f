// The frontier: every URL a crawl knows, in all states (it is also the dedup set), taken best-first by host heads
// (host-heads.ts, heads-take.ts) under politeness, re-scored in the background. The only writer of the frontier
// table and its heads; CrawlStore's page commit writes through its helpers inside one transaction.
import Dexie from 'dexie';
import type { NextOrder } from '../strategies/types';
import type { EntryState, FrontierEntry, PageRecord } from '../records/types';
import { crawlRow, type CrawlerDB, type PackedSeeds } from './db';
import type { CrawlRecord } from '../records/rows';
import { withListKeys } from './page-keys';
import { buildCounts, countWrites, readNextHeads, takeFromQueues, type QueueTake } from './fifo-queues';
import { dropQueueHeads, loadQueueHeads, noteQueueWrites, queueHeads } from './queue-heads';
import type { Candidate } from '../ports';
import { bestPerUrl, planUpserts } from '../run/commit-plan';
import { siteOf } from '../records/url';
import { applyHeads, candidateKeys, forgetRows, headKey, headList, loadHeadList, planHeads, readHeads, rebuildHeads, recomputeHeads, writeWithHeads, type Position } from './host-heads';
import { takeByHeads } from './heads-take';
import { dropRows, readRows, wroteRows } from './row-cache';
import { BLACKLISTED } from '../run/commit-plan';
import { BATCHES_PER_WRITE, FEED_SEEDS, HIGH_WATER, PACK_ABOVE, SEEDS_PER_BATCH, closedSites, firstPacked, nextBatch, packSeeds, restOf, shouldFeed, unpackSeeds } from './seed-lists';

const byUrl = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The frontier rows of `urls`, in that order (undefined where a URL is not known). Inside a transaction, the rows this
 * worker read or wrote last are answered from its copy of them (row-cache.ts), and only the others are read. The reads
 * are issued in key order and put back in the caller's: the links of a page (or a batch of seeds) lie all over the
 * primary key's B-tree, and Chromium's IndexedDB (LevelDB) answers a sorted run of reads from blocks it has just read.
 */
export function readEntries(db: CrawlerDB, crawlId: number, urls: readonly string[]): Promise<(FrontierEntry | undefined)[]> {
  return readRows(db, crawlId, urls);
}

/**
 * Writes frontier rows in key order (see readEntries); the last write of a URL wins, as in the order given. The worker's
 * copy of the rows (row-cache.ts) takes them once the transaction commits: the rows are not to be changed after.
 */
export function writeEntries(db: CrawlerDB, entries: readonly FrontierEntry[]): Promise<unknown> {
  if (entries.length === 0) return Promise.resolve();
  const last = new Map<string, FrontierEntry>();
  for (const e of entries) last.set(e.url, e);
  const rows = [...last.values()].sort((a, b) => byUrl(a.url, b.url));
  wroteRows(db, rows);
  return db.frontier.bulkPut(rows);
}

export class FrontierStore {
  /** Crawls whose queue counters are rebuilt from the index at their next take (a take found nothing while URLs are queued). */
  private readonly recount = new Set<number>();
  /** Crawls whose host heads are rebuilt from the index at their next best-first take (likewise). */
  private readonly rebuild = new Set<number>();
  /** Per crawl, how many hosts its last best-first take read: the next reads as many at once (heads-take.ts). */
  private readonly readAhead = new Map<number, number>();
  /** Per crawl and FIFO queue, how many hosts its last take by queues read in that queue (fifo-queues.ts). */
  private readonly queueReadAhead = new Map<number, Map<number, number>>();
  /** Per crawl, the feed of packed seeds under way (seed-lists.ts), and one that failed, told at the next take. */
  private readonly feeding = new Map<number, Promise<void>>();
  private readonly feedFailed = new Map<number, unknown>();
  /** Per crawl, the priority of its next packed seed (undefined: none is packed; absent: not read yet). */
  private readonly seedPriority = new Map<number, number | undefined>();
  /** Per crawl, about how many seeds are queued in the frontier (fed, less those taken): fewer than half a feed feeds more. */
  private readonly seedsQueued = new Map<number, number>();
  /** Per crawl, its queued URLs (packed seeds aside) as its last take left them. */
  private readonly queuedSeen = new Map<number, number>();


  constructor(private readonly db: CrawlerDB) {}

  /**
   * Adds candidates (seeds or links found on a page), raising the score of queued ones found again. More than
   * PACK_ABOVE (a big seed list) are not all written as frontier rows: the first PACK_ABOVE are, the rest are stored
   * packed and fed to the frontier as the crawl needs them (seed-lists.ts).
   */
  async enqueue(crawlId: number, candidates: Candidate[], now: number): Promise<void> {
    if (candidates.length > PACK_ABOVE) return this.enqueuePacked(crawlId, candidates, now);
    // An async scope: Dexie keeps its transaction across native awaits only for one (a plain arrow commits too early).
    await this.db.transaction('rw', this.db.frontier, this.db.crawls, this.db.hostHeads, async () => {
      await this.admit(crawlId, candidates, now);
    });
  }

  /**
   * Inside the caller's transaction: each candidate is first added as a new row: for a URL not known yet that is one
   * request, where reading it and then writing it were two (the read is the dedup check). The adds that meet a known
   * URL fail alone, and only those URLs are read and planned as known ones. A URL found known leaves a gap in the
   * discovery order, which only orders. `patch` changes the crawl row before it is written with the counters.
   */
  private async admit(crawlId: number, candidates: Candidate[], now: number, patch?: (crawl: CrawlRecord) => void): Promise<void> {
    const unique = bestPerUrl(candidates);
    const [crawl, heads] = await Promise.all([crawlRow(this.db, crawlId), readHeads(this.db, crawlId, candidateKeys(unique, siteOf))]);
    patch?.(crawl);
    const fresh: FrontierEntry[] = [];
    planUpserts(crawl, unique, [], now, fresh); // one new row per candidate, in their order
    const known = await this.addNew(fresh);
    const added = fresh.filter((_, i) => !known.has(i));
    const again = unique.filter((_, i) => known.has(i));
    const before = await readEntries(this.db, crawlId, again.map((c) => c.url));
    const puts: FrontierEntry[] = [];
    const delta = planUpserts(crawl, again, before, now, puts);
    const was = new Map(before.flatMap((k) => (k ? [[k.url, k] as const] : [])));
    countWrites(crawl, added, () => undefined);
    countWrites(crawl, puts, (i) => was.get(puts[i]!.url));
    for (const e of added) crawl.stats[e.state === 'queued' ? 'queued' : 'skipped']++;
    crawl.stats.queued += delta.queued;
    crawl.stats.skipped += delta.skipped;
    await writeWithHeads(this.db, crawlId, [...added, ...puts], [...added.map(() => undefined), ...puts.map((e) => was.get(e.url))], heads,
      () => Promise.all([writeEntries(this.db, puts), this.db.crawls.put({ ...crawl, updatedAt: now })]));
  }

  /**
   * A big seed list: its first PACK_ABOVE candidates go to the frontier and the rest are packed, BATCHES_PER_WRITE
   * rows to a transaction, each with the crawl row's count of packed seeds. The first transaction carries the
   * frontier's rows, so the crawl can start on them.
   */
  private async enqueuePacked(crawlId: number, candidates: Candidate[], now: number): Promise<void> {
    const db = this.db;
    let rows: PackedSeeds[] = [];
    const packed = (part: PackedSeeds[]) => part.reduce((n, r) => n + r.urls.length, 0);
    await db.transaction('rw', [db.frontier, db.crawls, db.hostHeads, db.seedLists], async () => {
      rows = packSeeds(crawlId, await nextBatch(db, crawlId), candidates.slice(PACK_ABOVE));
      const part = rows.slice(0, BATCHES_PER_WRITE);
      await Promise.all([
        db.seedLists.bulkAdd(part),
        this.admit(crawlId, candidates.slice(0, PACK_ABOVE), now, (crawl) => (crawl.stats.packedSeeds = (crawl.stats.packedSeeds ?? 0) + packed(part))),
      ]);
    });
    if (this.seedPriority.get(crawlId) === undefined && rows[0]) this.seedPriority.set(crawlId, rows[0].shared.priority);
    this.seedsQueued.set(crawlId, (this.seedsQueued.get(crawlId) ?? 0) + PACK_ABOVE);
    for (let i = BATCHES_PER_WRITE; i < rows.length; i += BATCHES_PER_WRITE) {
      const part = rows.slice(i, i + BATCHES_PER_WRITE);
      await db.transaction('rw', db.crawls, db.seedLists, async () => {
        const crawl = await crawlRow(db, crawlId);
        crawl.stats.packedSeeds = (crawl.stats.packedSeeds ?? 0) + packed(part);
        await Promise.all([db.seedLists.bulkAdd(part), db.crawls.put({ ...crawl, updatedAt: now })]);
      });
    }
  }

  /**
   * Moves up to `max` packed seeds, in their order, into the frontier through the one enqueue path, and deletes (or
   * shortens) the rows they came from in the same transaction. A seed whose site was closed meanwhile (by the user's
   * Blacklist or the strategy) is recorded skipped, as it would have been dropped had it been queued. Returns how
   * many seeds left the packed rows (0: none was left).
   */
  async feed(crawlId: number, now: number, max = FEED_SEEDS): Promise<number> {
    const db = this.db;
    return db.transaction('rw', [db.frontier, db.crawls, db.hostHeads, db.seedLists, db.sites], async () => {
      const rows = await firstPacked(db, crawlId, Math.ceil(max / SEEDS_PER_BATCH) + 1);
      const seeds: Candidate[] = [];
      const emptied: [number, number][] = [];
      let rest: PackedSeeds | undefined;
      for (const row of rows) {
        const n = Math.min(row.urls.length, max - seeds.length);
        if (n <= 0) break;
        seeds.push(...unpackSeeds(row, 0, n));
        if (n === row.urls.length) emptied.push([crawlId, row.batch]);
        else rest = restOf(row, n);
      }
      const next = rest ?? rows[emptied.length];
      this.seedPriority.set(crawlId, next?.shared.priority);
      const closed = await closedSites(db, crawlId, seeds);
      let dropped = 0;
      for (const s of seeds) {
        const why = closed.get(s.site!);
        if (why) (s.skip = `${BLACKLISTED}: ${why}`), dropped++;
      }
      await Promise.all([
        emptied.length ? db.seedLists.bulkDelete(emptied) : undefined,
        rest ? db.seedLists.put(rest) : undefined,
        this.admit(crawlId, seeds, now, (crawl) => {
          crawl.stats.packedSeeds = next ? Math.max(0, (crawl.stats.packedSeeds ?? 0) - seeds.length) : 0;
          if (dropped) crawl.dropped = { ...crawl.dropped, [BLACKLISTED]: (crawl.dropped?.[BLACKLISTED] ?? 0) + dropped };
        }),
      ]);
      this.seedsQueued.set(crawlId, (this.seedsQueued.get(crawlId) ?? 0) + seeds.length - dropped);
      return seeds.length;
    });
  }

  /** Feeds packed seeds without holding up the take that asked: the next take of the crawl waits for it. */
  private feedSoon(crawlId: number, now: number): void {
    if (this.feeding.has(crawlId)) return;
    const fed = this.feed(crawlId, now).then(
      () => undefined,
      (err: unknown) => void this.feedFailed.set(crawlId, err),
    ).finally(() => this.feeding.delete(crawlId));
    this.feeding.set(crawlId, fed);
  }

  /** A feed started after the last take is done; one that failed fails this take (the crawl pauses, saying why). */
  private async fed(crawlId: number): Promise<void> {
    await this.feeding.get(crawlId);
    const err = this.feedFailed.get(crawlId);
    if (err === undefined) return;
    this.feedFailed.delete(crawlId);
    throw err;
  }

  /** The priority of a crawl's next packed seed (read from its first row once per crawl in this context); undefined: none is packed. */
  private async nextSeedPriority(crawlId: number): Promise<number | undefined> {
    if (!this.seedPriority.has(crawlId)) {
      const [row] = await firstPacked(this.db, crawlId, 1);
      this.seedPriority.set(crawlId, row?.shared.priority);
    }
    return this.seedPriority.get(crawlId);
  }

  /** Adds rows whose URLs may be known already; answers the positions (in `rows`) of those that were, and left as they are. */
  private async addNew(rows: readonly FrontierEntry[]): Promise<Set<number>> {
    const order = rows.map((_, i) => i).sort((i, j) => byUrl(rows[i]!.url, rows[j]!.url));
    try {
      await this.db.frontier.bulkAdd(order.map((i) => rows[i]!));
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
    await this.fed(crawlId);
    const entries: FrontierEntry[] = [];
    const left = () => (typeof wanted === 'number' ? wanted : wanted()) - entries.length;
    let fedBelow = false;
    for (;;) {
      // While seeds are packed, a URL ranked below them is not taken: they are fed first (seed-lists.ts). Not past
      // HIGH_WATER queued: the seeds queued then are busy hosts', and feeding more of them would not fill a slot.
      const guard = next === 'priority' && (this.queuedSeen.get(crawlId) ?? 0) < HIGH_WATER;
      const seedPriority = guard ? await this.nextSeedPriority(crawlId) : undefined;
      let below = false;
      const guarded = seedPriority === undefined ? reserve : (e: FrontierEntry) => (e.priority < seedPriority ? ((below = true), 1) : reserve(e));
      const { taken, seen } = await this.takeOnce(crawlId, guarded, now, left, scanLimit, next);
      entries.push(...taken.entries);
      this.queuedSeen.set(crawlId, seen.queued);
      const seeds = taken.entries.filter((e) => e.parentUrl === null && e.depth === 0).length;
      this.seedsQueued.set(crawlId, Math.max(0, (this.seedsQueued.get(crawlId) ?? 0) - seeds));
      const result = { ...taken, entries };
      if (!seen.packedSeeds) return result;
      // Nothing queued could be taken: feed and take again until something is, or nothing is packed.
      // Only URLs below the packed seeds were ready: feed once and take again.
      const empty = taken.entries.length === 0 && taken.waitMs === Infinity;
      if (empty || (below && !fedBelow && left() > 0)) {
        fedBelow ||= !empty;
        await this.feed(crawlId, now);
        continue;
      }
      const seedsLow = (this.seedsQueued.get(crawlId) ?? 0) < FEED_SEEDS / 2;
      if (shouldFeed({ queued: seen.queued, seedsLow, short: left() > 0 })) this.feedSoon(crawlId, now);
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
   * After a stopped worker: entries left in flight go back to the queue (Crawlee's "reclaim"). One that was in
   * flight at `maxReclaims` stops is failed instead, with a page row saying so: a page that kills the worker
   * (or that the worker keeps dying on) is not retried forever.
   */
  async reclaimInFlight(crawlId: number, now: number, maxReclaims = 3): Promise<{ requeued: number; failed: number }> {
    // The queues are counted again; their heads follow the reclaim's writes like any others (a build at 100,000 URLs
    // takes seconds).
    this.recount.add(crawlId);
    const db = this.db;
    return db.transaction('rw', [db.frontier, db.crawls, db.pages, db.hostHeads], async () => {
      dropRows(db, crawlId); // rare: read again rather than followed
      const stuck = await db.frontier.where('[crawlId+state]').equals([crawlId, 'inflight']).toArray();
      if (stuck.length === 0) return { requeued: 0, failed: 0 };
      const crawl = await crawlRow(this.db, crawlId);
      const puts: FrontierEntry[] = [];
      const pages: PageRecord[] = [];
      for (const e of stuck) {
        const reclaims = (e.reclaims ?? 0) + 1;
        if (reclaims < maxReclaims) {
          puts.push({ ...e, state: 'queued', reclaims, updatedAt: now });
          crawl.stats.queued++;
          continue;
        }
        const error = `was being fetched each of the ${reclaims} times the service worker stopped: not tried again`;
        puts.push({ ...e, state: 'failed', reclaims, reason: error, updatedAt: now });
        crawl.stats.failed++;
        crawl.stats.attempts++;
        pages.push({
          crawlId, seq: crawl.nextSeq++, url: e.url, finalUrl: e.url, status: 0, phase: 'crawl', depth: e.depth, parentUrl: e.parentUrl,
          score: e.score, relevant: null, relevance: null, title: '', textLength: 0, contentType: '', bytes: 0, truncated: false,
          linkCount: 0, fetchedAt: now, durationMs: 0, error, outcome: 'failed',
        });
      }
      countWrites(crawl, puts, (i) => stuck[i]);
      await writeWithHeads(db, crawlId, puts, stuck, new Map(), () =>
        Promise.all([db.frontier.bulkPut(puts), pages.length ? db.pages.bulkAdd(pages.map((p) => withListKeys(p))) : undefined, db.crawls.put(crawl)]));
      return { requeued: stuck.length - pages.length, failed: pages.length };
    });
  }

  async countByState(crawlId: number, state: EntryState): Promise<number> {
    return this.db.frontier.where('[crawlId+state]').equals([crawlId, state]).count();
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
   * Re-scores every queued link of a crawl with `rank` (after the model was retrained), in transactions of
   * `chunk` entries walked in URL order, so that the crawl's own takes and commits run between them. After
   * each chunk it waits `pause(chunkMs)`: the crawl's transactions queued meanwhile go first, so the crawl
   * keeps a share of the database instead of waiting behind every chunk. A pause that resolves to false
   * stops the walk there (`complete: false`): a paused or finishing crawl does not wait for it. `rank` returns null to leave an
   * entry as it is (seeds); a priority that moves less than `epsilon` is not rewritten (the write, with its
   * index updates, is the whole cost).
   */
  async rescoreQueued(
    crawlId: number,
    rank: (e: FrontierEntry) => { score: number; priority: number; inlinks?: FrontierEntry['inlinks'] } | null,
    now: number,
    opts: { chunk?: number; epsilon?: number; pause?: (chunkMs: number) => Promise<boolean> } = {},
  ): Promise<{ scanned: number; changed: number; complete: boolean }> {
    const chunk = opts.chunk ?? 500, epsilon = opts.epsilon ?? 0;
    let after: string | null = null;
    let scanned = 0, changed = 0;
    for (;;) {
      const lower: unknown[] = after === null ? [crawlId, Dexie.minKey] : [crawlId, after];
      const first: boolean = after === null;
      const started = Date.now();
      const batch: { rows: number; last: string | null; changed: number } = await this.db.transaction('rw', this.db.frontier, this.db.crawls, this.db.hostHeads, async () => {
        const rows: FrontierEntry[] = await this.db.frontier.where('[crawlId+url]').between(lower, [crawlId, Dexie.maxKey], first, true).limit(chunk).toArray();
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
          const crawl = await this.db.crawls.get(crawlId);
          if (crawl?.queues) {
            countWrites(crawl, puts, (i) => before[i]);
            await this.db.crawls.put(crawl);
          }
          wroteRows(this.db, puts);
          await writeWithHeads(this.db, crawlId, puts, before, new Map(), () => this.db.frontier.bulkPut(puts));
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
  async rescoreReached(
    crawlId: number,
    reach: { urls: readonly string[]; where?: (e: FrontierEntry) => boolean },
    rank: (e: FrontierEntry) => { score: number; priority: number; inlinks?: FrontierEntry['inlinks']; skip?: string } | null,
    now: number,
    opts: { epsilon?: number; top?: number } = {},
  ): Promise<{ reached: number; changed: number; skipped: number; enteredTop: number }> {
    const epsilon = opts.epsilon ?? 0, top = opts.top ?? 100;
    // Read in bulk (getAll), not by cursor: a cursor step is a round trip of its own.
    const bestQueued = async () => {
      const rows = await this.db.frontier.where('[crawlId+state+priority+order]')
        .between([crawlId, 'queued', Dexie.minKey, Dexie.minKey], [crawlId, 'queued', Dexie.maxKey, Dexie.maxKey])
        .reverse().limit(top).toArray();
      return new Set(rows.filter((e) => e.state === 'queued').map((e) => e.url));
    };
    return this.db.transaction('rw', this.db.frontier, this.db.crawls, this.db.hostHeads, async () => {
      const before = await bestQueued();
      const byUrl = new Map<string, FrontierEntry>();
      for (const e of await this.db.frontier.bulkGet(reach.urls.map((u) => [crawlId, u] as [number, string]))) if (e?.state === 'queued') byUrl.set(e.url, e);
      if (reach.where) {
        const where = reach.where;
        for (const e of await this.db.frontier.where('[crawlId+state]').equals([crawlId, 'queued']).toArray()) {
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
        const crawl = await crawlRow(this.db, crawlId);
        countWrites(crawl, puts, (i) => was[i]);
        crawl.stats.queued -= skipped;
        crawl.stats.skipped += skipped;
        wroteRows(this.db, puts);
        await writeWithHeads(this.db, crawlId, puts, was, new Map(),
          () => Promise.all([this.db.frontier.bulkPut(puts), this.db.crawls.put({ ...crawl, updatedAt: now })]));
      }
      const after = await bestQueued();
      let enteredTop = 0;
      for (const url of after) if (!before.has(url)) enteredTop++;
      return { reached: byUrl.size, changed: puts.length, skipped, enteredTop };
    });
  }
}
