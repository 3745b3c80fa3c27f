// Big seed lists: past a couple of thousand seeds the list is stored packed and fed to the frontier as the
// crawl needs it. What a user notices: the crawl starts at once, every seed is fetched exactly once (a seed given twice
// or found as a link first included), the budget holds, a crawl reopened mid-list goes on with what is left, the
// frontier size shown counts the seeds not fed yet, a blacklisted site's packed seeds are never requested, and deleting
// the crawl deletes them.
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { seedCandidates } from '../../lib/learning/children';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlService, seedsKept } from '../../lib/app/service';
import { realClock, type FetchPort } from '../../lib/net/fetcher';
import { frontierSize } from '../../lib/records/rows';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { PACK_ABOVE } from '../../lib/store/seed-lists';

const HOSTS = 16;
/** Seed i is on one of HOSTS hosts (of two sites: even hosts a.test, odd b.test). */
const seedUrl = (i: number) => `http://h${i % HOSTS}.${i % 2 ? 'b' : 'a'}.test/s/${i}`;

/** Every page links the seed `n / 2` further on: packed still when the page is fetched early. */
function seedSite(n: number) {
  const requested = new Map<string, number>();
  const fetchPort: FetchPort = async (url) => {
    requested.set(url, (requested.get(url) ?? 0) + 1);
    const path = new URL(url).pathname;
    const i = Number(path.split('/').pop());
    const links = `<a href="${seedUrl((i + n / 2) % n)}">further on</a>`;
    return new Response(`<!doctype html><title>page ${path}</title><p>a page about nothing in particular</p>${links}`, {
      headers: { 'content-type': 'text/html' },
    });
  };
  return { fetchPort, requested };
}

function freshDb() {
  const indexedDB = new IDBFactory();
  return { indexedDB, db: new CrawlerDB(`seeds${Math.random()}`, { indexedDB, IDBKeyRange }) };
}

const configOf = (seeds: string[], maxPages: number) => ({
  name: 'many seeds', seeds, topic: { keywords: ['telescope'] }, budget: { maxPages, maxDepth: 1 },
  politeness: { delayMs: 0, concurrency: 8, perHost: 8, robots: false },
});

const packedRows = (db: CrawlerDB, crawlId: number) => db.seedLists.where('[crawlId+batch]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).count();

describe('a seed list of thousands', () => {
  it('is fetched whole, each seed once (a repeated seed and one found as a link first too), on a budget that holds across a reopened store', async () => {
    const N = 5_000;
    // Seed 3,500 is given twice, once early and once in its place: it is fetched once.
    const seeds = Array.from({ length: N }, (_, i) => seedUrl(i));
    seeds.splice(10, 0, seedUrl(3_500));
    const site = seedSite(N);
    const { indexedDB, db } = freshDb();
    const store = new CrawlStore(db);
    const service = new CrawlService({ store, fetch: site.fetchPort, clock: realClock });
    const { crawlId } = await service.handlers.start(configOf(seeds, 2_500));
    await service.settled(crawlId);
    const half = (await store.getCrawl(crawlId))!;
    // The crawl row, written with every page, keeps one seed per host (all scope reads) and says how many were given.
    expect(half.config.seeds).toHaveLength(HOSTS);
    expect(half.seedsGiven).toBe(N + 1);
    expect(half.state).toBe('finished');
    expect(half.message).toMatch(/budget/);
    expect(half.stats.attempts).toBe(2_500);
    expect(site.requested.size).toBe(2_500);
    // What the popup shows: every seed not fetched yet, queued or still packed.
    const unfetched = seeds.filter((u) => !site.requested.has(u));
    expect(new Set(unfetched).size).toBe(N - 2_500);
    expect(half.stats.packedSeeds).toBeGreaterThan(0);
    // A seed found as a link before it was fed is counted twice until it is fed: at most the pages fetched.
    expect(frontierSize(half.stats)).toBeGreaterThanOrEqual(N - 2_500);
    expect(frontierSize(half.stats)).toBeLessThanOrEqual(N);

    // The worker stops; a new one opens the database and the user resumes the crawl, its budget extended.
    db.close();
    const again = new CrawlStore(new CrawlerDB(db.name, { indexedDB, IDBKeyRange }));
    const resumed = new CrawlService({ store: again, fetch: site.fetchPort, clock: realClock });
    await again.updateCrawl(crawlId, { config: { ...half.config, budget: { ...half.config.budget, maxPages: 10_000 } } });
    await resumed.handlers.resume({ crawlId });
    await resumed.settled(crawlId);
    const end = (await again.getCrawl(crawlId))!;
    expect(end.message).toMatch(/frontier empty/);
    for (const u of seeds) expect(site.requested.get(u), u).toBe(1);
    for (const [u, n] of site.requested) expect(n, u).toBe(1);
    expect(site.requested.size).toBe(N);
    expect(end.stats.attempts).toBe(N);
    expect(end.stats.packedSeeds).toBe(0);
    expect(frontierSize(end.stats)).toBe(0);
    expect(await packedRows(again.db, crawlId)).toBe(0);
  }, 900_000);

  it('starts the crawl at once: an enqueue of 100,000 seeds writes a couple of thousand frontier rows, and the first take gets the first seed', async () => {
    const { db } = freshDb();
    const store = new CrawlStore(db);
    const seeds = Array.from({ length: 100_000 }, (_, i) => seedUrl(i));
    const config = parseConfig(configOf(seeds, 10));
    const topic = await store.topics.createTopic('t', ['telescope'], Date.now());
    const crawlId = await store.createCrawl(config, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    // Counted in rows written, not time: one frontier row is one IndexedDB request.
    expect(await db.frontier.count()).toBe(PACK_ABOVE);
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.stats.queued).toBe(PACK_ABOVE);
    expect(frontierSize(crawl.stats)).toBe(100_000);
    const { entries } = await store.frontier.take(crawlId, () => 0, Date.now(), 1);
    expect(entries.map((e) => e.url)).toEqual([seedUrl(0)]);
  });

  it('never requests a site the user blacklisted while its seeds were packed, and records them skipped', async () => {
    const N = 5_000;
    const seeds = Array.from({ length: N }, (_, i) => seedUrl(i));
    const site = seedSite(N);
    const { db } = freshDb();
    const store = new CrawlStore(db);
    const config = parseConfig({ ...configOf(seeds, N), budget: { maxPages: N, maxDepth: 0 }, scope: { mode: 'seed-sites' } });
    const topic = await store.topics.createTopic('t', ['telescope'], Date.now());
    const crawlId = await store.createCrawl({ ...config, seeds: seedsKept(seeds) }, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    await store.setSiteBlacklisted(crawlId, 'b.test', true, Date.now());
    const service = new CrawlService({ store, fetch: site.fetchPort, clock: realClock });
    await service.handlers.resume({ crawlId });
    await service.settled(crawlId);
    const requested = [...site.requested.keys()];
    expect(requested.filter((u) => u.includes('.b.test/'))).toEqual([]);
    expect(requested.length).toBe(N / 2);
    const late = await store.frontier.getEntry(crawlId, seedUrl(N - 1));
    expect(late?.state).toBe('skipped');
    expect(late?.reason).toMatch(/site blacklisted/);
    const end = (await store.getCrawl(crawlId))!;
    expect(end.dropped?.['site blacklisted']).toBe(N / 2);
    expect(frontierSize(end.stats)).toBe(0);
  });

  it('does not hold a ready host back behind a busy host whose seeds are packed', async () => {
    const { db } = freshDb();
    const store = new CrawlStore(db);
    // 30,000 seeds of one host, busy (a politeness wait), and one link of another host ranked below them, ready.
    const seeds = Array.from({ length: 30_000 }, (_, i) => `http://busy.test/s/${i}`);
    const config = parseConfig(configOf(seeds, 10));
    const topic = await store.topics.createTopic('t', ['telescope'], Date.now());
    const crawlId = await store.createCrawl({ ...config, seeds: seedsKept(seeds) }, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    await store.frontier.enqueue(crawlId, [{ url: 'http://ready.test/', host: 'ready.test', score: 0.5, priority: 0, depth: 1, parentUrl: seeds[0]!, anchor: '', context: '' }], Date.now());
    const reserve = (e: { host: string }) => (e.host === 'busy.test' ? 1000 : 0);
    let takes = 0;
    let got: string[] = [];
    while (got.length === 0 && takes < 50) {
      takes++;
      got = (await store.frontier.take(crawlId, reserve, Date.now(), 4)).entries.map((e) => e.url);
    }
    expect(got).toEqual(['http://ready.test/']);
    // Seeds are fed while they might bring a ready host, up to HIGH_WATER queued: then the take goes below them.
    expect(takes).toBeLessThanOrEqual(25);
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.stats.packedSeeds).toBeGreaterThan(0);
    expect(frontierSize(crawl.stats)).toBe(30_000);
  });

  it('feeds a multi-queue crawl (a take by FIFO queues) its packed seeds too, each fetched once', async () => {
    const N = PACK_ABOVE + 500;
    const seeds = Array.from({ length: N }, (_, i) => seedUrl(i));
    const site = seedSite(N);
    const { db } = freshDb();
    const store = new CrawlStore(db);
    const service = new CrawlService({ store, fetch: site.fetchPort, clock: realClock });
    const { crawlId } = await service.handlers.start({ ...configOf(seeds, N), budget: { maxPages: N + 10, maxDepth: 0 }, strategy: { name: 'multi-queue' } });
    await service.settled(crawlId);
    const end = (await store.getCrawl(crawlId))!;
    expect(end.message).toMatch(/frontier empty/);
    expect(site.requested.size).toBe(N);
    for (const [u, n] of site.requested) expect(n, u).toBe(1);
    expect(frontierSize(end.stats)).toBe(0);
  });

  it('is deleted with its crawl', async () => {
    const { db } = freshDb();
    const store = new CrawlStore(db);
    const seeds = Array.from({ length: 20_000 }, (_, i) => seedUrl(i));
    const config = parseConfig(configOf(seeds, 10));
    const topic = await store.topics.createTopic('t', ['telescope'], Date.now());
    const crawlId = await store.createCrawl(config, topic.id!, Date.now());
    const other = await store.createCrawl(config, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    await store.frontier.enqueue(other, seedCandidates(config), Date.now());
    expect(await packedRows(db, crawlId)).toBeGreaterThan(0);
    await store.deleteCrawl(crawlId);
    expect(await packedRows(db, crawlId)).toBe(0);
    expect((await store.getCrawl(other))!.stats.packedSeeds).toBe(20_000 - PACK_ABOVE);
    expect(await packedRows(db, other)).toBeGreaterThan(0);
  });
});
