// Feeding a big seed list to the frontier (seed-lists.ts says when and why): packing it at enqueue, moving packed
// seeds into the frontier through the one enqueue path, and what this context remembers of each crawl's packed
// seeds so that a take knows when to feed without reading them.
import type { Candidate } from '../ports';
import type { PackedSeeds } from './db';
import { crawlRow, type CrawlerDB } from './db';
import { admit } from './frontier-enqueue';
import { BLACKLISTED } from '../run/commit-plan';
import { BATCHES_PER_WRITE, FEED_SEEDS, PACK_ABOVE, SEEDS_PER_BATCH, closedSites, firstPacked, nextBatch, packSeeds, restOf, unpackSeeds } from './seed-lists';

export class SeedFeed {
  /** Per crawl, the feed of packed seeds under way, and one that failed, told at the next take. */
  private readonly feeding = new Map<number, Promise<void>>();
  private readonly feedFailed = new Map<number, unknown>();
  /** Per crawl, the priority of its next packed seed (undefined: none is packed; absent: not read yet). */
  private readonly seedPriority = new Map<number, number | undefined>();
  /** Per crawl, about how many seeds are queued in the frontier (fed, less those taken): fewer than half a feed feeds more. */
  private readonly seedsQueued = new Map<number, number>();

  constructor(private readonly db: CrawlerDB) {}

  /**
   * A big seed list: its first PACK_ABOVE candidates go to the frontier and the rest are packed, BATCHES_PER_WRITE
   * rows to a transaction, each with the crawl row's count of packed seeds. The first transaction carries the
   * frontier's rows, so the crawl can start on them.
   */
  async enqueuePacked(crawlId: number, candidates: Candidate[], now: number): Promise<void> {
    const db = this.db;
    let rows: PackedSeeds[] = [];
    const packed = (part: PackedSeeds[]) => part.reduce((n, r) => n + r.urls.length, 0);
    await db.transaction('rw', [db.frontier, db.crawls, db.hostHeads, db.seedLists], async () => {
      rows = packSeeds(crawlId, await nextBatch(db, crawlId), candidates.slice(PACK_ABOVE));
      const part = rows.slice(0, BATCHES_PER_WRITE);
      await Promise.all([
        db.seedLists.bulkAdd(part),
        admit(db, crawlId, candidates.slice(0, PACK_ABOVE), now, (crawl) => (crawl.stats.packedSeeds = (crawl.stats.packedSeeds ?? 0) + packed(part))),
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
        admit(db, crawlId, seeds, now, (crawl) => {
          crawl.stats.packedSeeds = next ? Math.max(0, (crawl.stats.packedSeeds ?? 0) - seeds.length) : 0;
          if (dropped) crawl.dropped = { ...crawl.dropped, [BLACKLISTED]: (crawl.dropped?.[BLACKLISTED] ?? 0) + dropped };
        }),
      ]);
      this.seedsQueued.set(crawlId, (this.seedsQueued.get(crawlId) ?? 0) + seeds.length - dropped);
      return seeds.length;
    });
  }

  /** Feeds packed seeds without holding up the take that asked: the next take of the crawl waits for it. */
  feedSoon(crawlId: number, now: number): void {
    if (this.feeding.has(crawlId)) return;
    const fed = this.feed(crawlId, now).then(
      () => undefined,
      (err: unknown) => void this.feedFailed.set(crawlId, err),
    ).finally(() => this.feeding.delete(crawlId));
    this.feeding.set(crawlId, fed);
  }

  /** A feed started after the last take is done; one that failed fails this take (the crawl pauses, saying why). */
  async fed(crawlId: number): Promise<void> {
    await this.feeding.get(crawlId);
    const err = this.feedFailed.get(crawlId);
    if (err === undefined) return;
    this.feedFailed.delete(crawlId);
    throw err;
  }

  /** The priority of a crawl's next packed seed (read from its first row once per crawl in this context); undefined: none is packed. */
  async nextSeedPriority(crawlId: number): Promise<number | undefined> {
    if (!this.seedPriority.has(crawlId)) {
      const [row] = await firstPacked(this.db, crawlId, 1);
      this.seedPriority.set(crawlId, row?.shared.priority);
    }
    return this.seedPriority.get(crawlId);
  }

  /** A take took `n` seeds out of the frontier. */
  took(crawlId: number, n: number): void {
    this.seedsQueued.set(crawlId, Math.max(0, (this.seedsQueued.get(crawlId) ?? 0) - n));
  }

  /** Fewer than half a feed's seeds are queued. */
  low(crawlId: number): boolean {
    return (this.seedsQueued.get(crawlId) ?? 0) < FEED_SEEDS / 2;
  }
}
