// A seed list of 50,000 in the real extension: the crawl starts on it, the dashboard's "In frontier" counts
// the seeds still packed, the crawl row keeps one seed per host, and deleting the crawl deletes the packed rows.
// @module-tag chromium
import { expect, it } from 'vitest';
import { send } from '../../scripts/lib/browser';
import { useDemoBrowser } from './demo-browser';
import { openDashboard } from './page-objects';

const env = useDemoBrowser();

interface Row { state: string; attempts: number; queued: number; packedSeeds: number; seeds: number; seedsGiven?: number; packedRows: number }

/** The crawl row, its config (a row of its own, schema v13) and its packed rows, read straight from IndexedDB in an extension page. */
function rowInDb(crawlId: number): Promise<Row> {
  return env.browser.page.evaluate(
    (id) =>
      new Promise<Row>((resolve, reject) => {
        const open = indexedDB.open('focus');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['crawls', 'crawlConfigs', 'seedLists']);
          const get = tx.objectStore('crawls').get(id);
          const config = tx.objectStore('crawlConfigs').get(id);
          const count = tx.objectStore('seedLists').count(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
          tx.oncomplete = () => {
            open.result.close();
            const c = get.result;
            resolve(c ? { state: c.state, attempts: c.stats.attempts, queued: c.stats.queued, packedSeeds: c.stats.packedSeeds ?? 0,
              seeds: config.result.config.seeds.length, seedsGiven: c.seedsGiven, packedRows: count.result }
              : { state: 'deleted', attempts: 0, queued: 0, packedSeeds: 0, seeds: 0, packedRows: count.result });
          };
        };
      }),
    crawlId,
  );
}

it('crawls a list of 50,000 seeds on its budget, counts the packed ones, and deletes them with the crawl', async () => {
  const { page, context, extensionId } = env.browser;
  const N = 50_000, budget = 30;
  const seeds = Array.from({ length: N }, (_, i) => `${env.site.origin}/space/telescopes?seed=${i}`);
  const { crawlId } = await send<{ crawlId: number }>(page, 'start', {
    name: 'big list', seeds, topic: { keywords: ['telescope'] }, budget: { maxPages: budget, maxDepth: 0 },
    politeness: { delayMs: 0, concurrency: 4, robots: false },
  });
  let row = await rowInDb(crawlId);
  const deadline = Date.now() + 90_000;
  while (row.state !== 'finished' && Date.now() < deadline) {
    await page.waitForTimeout(250);
    row = await rowInDb(crawlId);
  }
  expect(row.state).toBe('finished');
  expect(row.attempts).toBe(budget);
  // Seeds come first, in the order given: the first `budget` were fetched. (One host, slow to fill every slot: seeds
  // are fed up to HIGH_WATER queued, in case more would bring more hosts; the rest stay packed.)
  const fetched = await send<{ url: string }[]>(page, 'pages', { crawlId, afterSeq: 0, limit: 1000 });
  expect(fetched.map((p) => p.url).sort()).toEqual(seeds.slice(0, budget).sort());
  expect(row.packedSeeds).toBeGreaterThan(0);
  expect(row.packedRows).toBeGreaterThan(0);
  expect(row.queued + row.packedSeeds).toBe(N - budget);
  expect(row.seeds).toBe(1);
  expect(row.seedsGiven).toBe(N);

  const { dash } = await openDashboard(context, extensionId, `crawl=${crawlId}`);
  await expect.poll(() => dash.getByTestId('detail-frontier').innerText()).toContain((N - budget).toLocaleString('en'));
  await dash.close();

  await send(page, 'deleteCrawl', { crawlId });
  expect((await rowInDb(crawlId)).packedRows).toBe(0);
}, 180_000);
