// The dashboard follows a running crawl: the Pages table gains rows as the crawl fetches them, without a reload,
// and the tiles and the Sites panel move with it.
// @module-tag chromium
import { expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import { startTreeSite, type TreeSite } from '../fixtures/sites/tree-site';
import type { CrawlStatus } from '../../lib/app/protocol';
import { openDashboard } from './page-objects';
import { afterAll, beforeAll } from 'vitest';

let browser: Launched;
let site: TreeSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startTreeSite(200, 3);
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const status = (crawlId: number) => send<CrawlStatus>(browser.page, 'status', { crawlId });

it('shows new pages in the Pages table while the crawl runs, newest first at the top', async () => {
  // A politeness delay on one host keeps the crawl running for several seconds.
  const { crawlId } = await send<{ crawlId: number }>(browser.page, 'start', {
    name: 'Live tree', seeds: [`${site.origin}/p/0`], topic: { keywords: ['astronomy', 'planets'] },
    budget: { maxPages: 30 }, politeness: { delayMs: 250, concurrency: 1, robots: false },
  });
  await expect.poll(async () => (await status(crawlId)).crawl.stats.attempts, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(2);

  const { dash, errors } = await openDashboard(browser.context, browser.extensionId, `crawl=${crawlId}`);
  const rows = dash.getByTestId('page-row');
  await expect.poll(() => rows.count()).toBeGreaterThan(0);
  const first = await rows.count();
  const tile = async () => Number((await dash.getByTestId('detail-fetched').innerText()).replace(/\D/g, ''));
  const siteFetched = async () => Number((await dash.locator('[data-testid=site-row] td').nth(1).innerText().catch(() => '0')).replace(/\D/g, ''));
  const [tileAt, siteAt] = [await tile(), await siteFetched()];
  // The table opens newest first, as the order control says: the newest page at the top.
  expect(await dash.getByTestId('page-sort').inputValue()).toBe('newest');
  const seqs = () => rows.evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.seq)));
  const newest = async () => (await status(crawlId)).crawl.nextSeq - 1;
  const opened = await seqs();
  expect(opened[0]).toBe(Math.max(...opened));
  // Rows are added at the top as the crawl goes, with no reload and no click; the tiles and the Sites panel follow.
  const top = opened[0]!;
  await expect.poll(() => rows.count(), { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(first + 5);
  await expect.poll(async () => (await seqs())[0], { timeout: 30_000, interval: 200 }).toBeGreaterThan(top);
  await expect.poll(tile).toBeGreaterThan(tileAt);
  await expect.poll(siteFetched).toBeGreaterThan(siteAt);
  expect((await seqs())[0]).toBeLessThanOrEqual(await newest());

  // Oldest first, when asked: the first page at the top.
  await dash.getByTestId('page-sort').selectOption('oldest');
  await expect.poll(async () => (await seqs())[0]).toBe(1);
  await dash.getByTestId('page-sort').selectOption('newest');

  // Once finished, the table holds every page row and says so.
  await expect.poll(async () => (await status(crawlId)).crawl.state, { timeout: 60_000, interval: 200 }).toBe('finished');
  // Its page rows are seqs 1 to nextSeq - 1, newest first.
  const pages = await newest();
  await expect.poll(seqs).toEqual(Array.from({ length: pages }, (_, i) => pages - i));
  await expect.poll(() => dash.getByTestId('page-range').innerText()).toBe(`${pages} of ${pages} pages · ${pages} in all`);
  expect(errors).toEqual([]);
  await dash.close();
});
