// While a crawl runs, its topic's model is saved every 25 pages and 10 s, and saving may take at most a fiftieth of
// the crawl's time: a model that takes long to save (a large vocabulary) is saved less often.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { startTreeSite, type TreeSite } from '../fixtures/sites/tree-site';
import { VirtualClock } from '../support/virtual-clock';

let site: TreeSite;
beforeAll(async () => {
  site = await startTreeSite(400, 3);
});
afterAll(() => site.close());

/** Crawls 150 pages a second apart; each save of the model takes `saveMs` of the clock. Returns when each save began. */
async function saveTimes(saveMs: number): Promise<{ saves: number[]; began: number; ended: number }> {
  const store = new CrawlStore(new CrawlerDB(`saves${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const clock = new VirtualClock();
  const saves: number[] = [];
  const save = store.topics.saveModel.bind(store.topics);
  store.topics.saveModel = async (m) => {
    saves.push(clock.now());
    await clock.sleep(saveMs);
    await save(m);
  };
  const service = new CrawlService({ store, fetch: clock.hold((u, i) => fetch(u, i)), clock });
  const began = clock.now();
  const { crawlId } = await service.handlers.start({
    seeds: [`${site.origin}/p/0`], topic: { keywords: ['astronomy'] }, budget: { maxPages: 150 },
    politeness: { delayMs: 1000, concurrency: 1, perHost: 1, robots: false },
  });
  const done = service.settled(crawlId);
  await clock.runUntilIdle();
  await done;
  expect((await store.getCrawl(crawlId))!.state).toBe('finished');
  return { saves, began, ended: clock.now() };
}

it('saves a quick model every 25 pages, and one that takes 3 s to save at most once every 150 s', async () => {
  const quick = await saveTimes(0);
  const slow = await saveTimes(3000);
  // A page a second: 150 s of crawl, saved every 25 pages while it runs, and at its end.
  expect(quick.ended - quick.began).toBeGreaterThan(140_000);
  expect(quick.saves.length).toBeGreaterThanOrEqual(6);
  const gaps = (t: number[]) => t.slice(1).map((x, i) => x - t[i]);
  // Each save but the last (the crawl's end) waited for the 50 times 3 s after the one before.
  const slowGaps = gaps(slow.saves).slice(0, -1);
  for (const g of slowGaps) expect(g).toBeGreaterThanOrEqual(150_000);
  expect(slow.saves.length).toBeLessThanOrEqual(3);
  expect(slow.saves.length).toBeGreaterThanOrEqual(2);
});
