// (b) The service worker is stopped mid-crawl (DevTools protocol); the crawl continues by itself (alarm)
// and finishes with each page fetched once.
// @module-tag chromium
import { expect, it } from 'vitest';
import { send } from '../../scripts/lib/browser';
import { useDemoBrowser } from './demo-browser';
import type { PageRecord } from '../../lib/records/types';

const env = useDemoBrowser();

/** Reads the crawl row straight from IndexedDB in an extension page: unlike a message, it does not wake the worker. */
async function attemptsInDb(crawlId: number): Promise<{ attempts: number; state: string }> {
  return env.browser.page.evaluate(
    (id) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('focus');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('crawls').objectStore('crawls').get(id);
          get.onsuccess = () => {
            open.result.close();
            resolve({ attempts: get.result.stats.attempts, state: get.result.state });
          };
        };
      }),
    crawlId,
  );
}

it('resumes after the worker is stopped and fetches every page once', async () => {
  const { page, context } = env.browser;
  const budget = 40;
  const { crawlId } = await send<{ crawlId: number }>(page, 'start', {
    name: 'kill test', seeds: [`${env.site.origin}/`], topic: { keywords: ['astronomy', 'planet', 'telescope'] },
    budget: { maxPages: budget }, politeness: { delayMs: 300, concurrency: 2, robots: false },
  });
  while ((await attemptsInDb(crawlId)).attempts < 5) await page.waitForTimeout(100);

  // The DevTools protocol reports the worker's running status: watch it stop, then start again by itself.
  const cdp = await context.newCDPSession(page);
  const statuses: string[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { runningStatus: string }[] }) => {
    for (const v of e.versions) if (statuses.at(-1) !== v.runningStatus) statuses.push(v.runningStatus);
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  while (!statuses.includes('stopped')) await page.waitForTimeout(50);
  const stoppedAt = (await attemptsInDb(crawlId)).attempts;
  expect(stoppedAt).toBeLessThan(budget / 2);
  // While the worker is down the crawl does not advance.
  await page.waitForTimeout(2000);
  expect((await attemptsInDb(crawlId)).attempts).toBe(stoppedAt);

  // Nobody talks to the extension now: only its alarm can start the worker again.
  const deadline = Date.now() + 90_000;
  let row = await attemptsInDb(crawlId);
  while (row.state !== 'finished' && Date.now() < deadline) {
    await page.waitForTimeout(1000);
    row = await attemptsInDb(crawlId);
  }
  // The worker was down and nothing woke it but its alarm; yet the crawl went on to its budget.
  expect(statuses.slice(statuses.indexOf('stopped'))).toContain('running');
  expect(row.state).toBe('finished');
  expect(row.attempts).toBe(budget);

  const pages = await send<PageRecord[]>(page, 'pages', { crawlId, afterSeq: 0, limit: 1000 });
  const crawled = pages.filter((p) => p.phase === 'crawl'); // robots is off: every crawl row is a request
  expect(crawled.length).toBe(budget);
  expect(new Set(crawled.map((p) => p.url)).size).toBe(budget);
  // A fetch cut by the stop may have reached the server before the worker died: at most the in-flight ones.
  // (A redirect's target can be reached by its old address too, and a redirect loop is followed to the limit.)
  const repeated = [...env.site.hits].filter(([path, n]) => n > 1 && path !== '/space/telescopes' && !path.startsWith('/loop/'));
  expect(repeated.length).toBeLessThanOrEqual(2);
});
