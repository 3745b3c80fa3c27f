// The queue is re-scored every `rescoreEveryPages` pages, but a re-score may take at most a third of the crawl's time:
// one that took long (a large queue) is followed by the next only twice its time after it ended.
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

/** Crawls 150 pages a second apart, re-scoring every 10 pages; each re-score takes `rescoreMs` of the clock. */
async function rescores(rescoreMs: number): Promise<{ began: number; ended: number }[]> {
  const store = new CrawlStore(new CrawlerDB(`pace${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const clock = new VirtualClock();
  const runs: { began: number; ended: number }[] = [];
  const rescore = store.frontier.rescoreQueued.bind(store.frontier);
  store.frontier.rescoreQueued = async (...args: Parameters<typeof rescore>) => {
    const began = clock.now();
    await clock.sleep(rescoreMs);
    const r = await rescore(...args);
    runs.push({ began, ended: clock.now() });
    return r;
  };
  const service = new CrawlService({ store, fetch: clock.hold((u, i) => fetch(u, i)), clock });
  const { crawlId } = await service.handlers.start({
    seeds: [`${site.origin}/p/0`], topic: { keywords: ['astronomy'] }, budget: { maxPages: 150 },
    politeness: { delayMs: 1000, concurrency: 1, perHost: 1, robots: false }, learning: { rescoreEveryPages: 10 },
  });
  const done = service.settled(crawlId);
  await clock.runUntilIdle();
  await done;
  expect((await store.getCrawl(crawlId))!.state).toBe('finished');
  return runs;
}

it('re-scores every 10 pages when a re-score is quick, and leaves twice its time after one that takes 20 s', async () => {
  const quick = await rescores(0);
  // A page a second for 150 s: about one re-score every 10 pages.
  expect(quick.length).toBeGreaterThanOrEqual(12);
  const slow = await rescores(20_000);
  for (let i = 1; i < slow.length; i++) {
    const took = slow[i - 1]!.ended - slow[i - 1]!.began;
    expect(slow[i]!.began - slow[i - 1]!.ended).toBeGreaterThanOrEqual(2 * took);
  }
  // 150 s of crawl, each re-score 20 s and 40 s of rest after it: a third of the time at most.
  expect(slow.length).toBeGreaterThanOrEqual(2);
  expect(slow.length).toBeLessThanOrEqual(3);
});
