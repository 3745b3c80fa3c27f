// A crawl of the test shop (tests/fixtures/sites/catalog-shop.ts) in real Chromium with the built extension, started
// from the dashboard's form with its sitemaps box ticked, as a user does: the shop's server, not the crawler's rows,
// says what was spent on content already held, and the crawl detail says what was found and learned.
// @module-tag chromium
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import type { CrawlStatus } from '../../lib/app/protocol';
import { startCatalogShop, uniquePages, type CatalogShop } from '../fixtures/sites/catalog-shop';
import { shopSpend } from '../support/shop-measure';
import { DashboardPage } from './page-objects';

let shop: CatalogShop;
let browser: Launched | undefined;
beforeAll(async () => {
  ensureBuilt();
  shop = await startCatalogShop();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

it('spends at most 5% of a budget of twice the unique pages on content held, finds every on-topic page, and says so', { timeout: 600_000 }, async () => {
  browser = await launchWithExtension({ hostRules: `MAP *.test 127.0.0.1:${shop.port}` });
  const { context, extensionId, page } = browser;
  const budget = 2 * uniquePages().length;
  const dash = new DashboardPage(await context.newPage(), extensionId);
  await dash.open();
  await dash.startCrawl({ name: 'shop', seeds: 'http://shop.test/', keywords: 'telescope, astronomy, eyepiece, observing, galaxy, stars', maxPages: budget, delayMs: 0, sitemaps: true });
  let crawlId = 0;
  await expect.poll(async () => (crawlId = (await send<CrawlStatus>(page, 'status', {}))?.crawl.id ?? 0)).toBeGreaterThan(0);
  await expect.poll(async () => (await send<CrawlStatus>(page, 'status', { crawlId }))?.crawl.state, { timeout: 540_000, interval: 500 }).toBe('finished');

  const spend = shopSpend(shop.seen);
  expect(spend.duplicates / budget).toBeLessThanOrEqual(0.05);
  expect(spend.onTopic).toBe(spend.onTopicAll);
  expect(spend.sitemapOnlyFound).toBe(spend.sitemapOnlyAll);

  // The crawl detail: its duplicates as the server counted them, what it did not request, its sitemaps, what it learned.
  const crawl = (await send<CrawlStatus>(page, 'status', { crawlId }))!.crawl;
  const d = dash.page;
  await d.goto(`chrome-extension://${extensionId}/dashboard.html?crawl=${crawlId}`);
  await expect.poll(() => d.getByTestId('detail-duplicates').innerText()).toBe(String(spend.duplicates));
  expect(await d.getByTestId('detail-duplicates-parts').innerText()).toMatch(/^not requested: [\d,]+ by a learned rule, [\d,]+ by a canonical link$/);
  expect(await d.getByTestId('detail-sitemaps').innerText()).toBe(`4 files read: ${crawl.stats.sitemapQueued} URLs queued, ${crawl.stats.sitemapFetched} fetched`);
  expect(await d.getByTestId('detail-learned').innerText()).toMatch(/^on shop\.test, (?=.*`sort`)(?=.*`view`)(?!.*`ref=).* do not change content: [\d,]+ URLs not requested$/);
  console.log(`shop in Chromium, budget ${budget}: ${JSON.stringify({ ...spend, duplicateKinds: undefined })}; stats ${JSON.stringify(crawl.stats)}`);
});
