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

it('shows new pages in the Pages table while the crawl runs, oldest first and newest first', async () => {
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
  // Rows are added as the crawl goes, with no reload and no click; the tiles and the Sites panel follow.
  await expect.poll(() => rows.count(), { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(first + 5);
  await expect.poll(tile).toBeGreaterThan(tileAt);
  await expect.poll(siteFetched).toBeGreaterThan(siteAt);

  // Newest first: the newest page is at the top, and the top moves as pages come in.
  await dash.getByTestId('page-sort').selectOption('newest');
  const topSeq = async () => Number(await rows.first().getAttribute('data-seq'));
  await expect.poll(topSeq).toBeGreaterThan(0);
  const top = await topSeq();
  await expect.poll(topSeq, { timeout: 30_000, interval: 200 }).toBeGreaterThan(top);

  // Once finished, the table holds every page row and says so.
  await expect.poll(async () => (await status(crawlId)).crawl.state, { timeout: 60_000, interval: 200 }).toBe('finished');
  // Its page rows are seqs 1 to nextSeq - 1, newest first.
  const pages = (await status(crawlId)).crawl.nextSeq - 1;
  await expect.poll(async () => (await rows.evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLElement).dataset.seq)))))
    .toEqual(Array.from({ length: pages }, (_, i) => pages - i));
  await expect.poll(() => dash.getByTestId('page-range').innerText()).toBe(`${pages} of ${pages} pages · ${pages} in all`);
  expect(errors).toEqual([]);
  await dash.close();
});
