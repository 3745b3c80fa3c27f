// The dashboard open on a large crawl holds about what it holds on an empty database: its views read windows and
// chunks and let them go. The harvest chart once read every page row inside a live query, and Dexie keeps what a
// live query read for as long as it is subscribed: 0.7 KB a page for as long as the page stayed open, which made
// the heap of an export of 100,000 pages 4.3x that of 10,000. 20,000 pages (FOCUS_DASHBOARD_MEMORY_N for more).
// @module-tag chromium
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, type Launched } from '../../scripts/lib/browser';
import { crawlOf, realisticPages, seedCrawl } from './pages-fixture';

const N = Number(process.env.FOCUS_DASHBOARD_MEMORY_N ?? 20_000);
/** What the dashboard may hold for a crawl's pages beyond an empty one's: its curve and a window of rows, not the rows. */
const ALLOWED_MIB = 4;

let browser: Launched;
beforeAll(async () => {
  ensureBuilt();
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
});

/** The page's JS heap after a full collection, in MiB: what it holds, not garbage waiting to be collected. */
async function heldMiB(page: Page): Promise<number> {
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return usedSize / 2 ** 20;
}

it(`holds no page rows of a crawl of ${N.toLocaleString('en-US')} pages once its views are drawn`, async () => {
  const now = Date.now();
  const pages = realisticPages({ crawlId: 1, count: N, start: now - N * 1500 });
  const dash = await browser.context.newPage();
  await dash.setViewportSize({ width: 1280, height: 900 });
  await dash.goto(`chrome-extension://${browser.extensionId}/dashboard.html`);
  await dash.getByTestId('harvest-chart').waitFor({ state: 'attached' });
  await new Promise((r) => setTimeout(r, 1000));
  const empty = await heldMiB(dash);

  const crawl = crawlOf(1, 'Night sky', pages, now);
  await seedCrawl(dash, crawl, pages);
  await dash.goto(`chrome-extension://${browser.extensionId}/dashboard.html?crawl=1`);
  await dash.getByTestId('page-row').first().waitFor();
  // The harvest curve has read every crawl-phase page fetched: the chart's views have read the whole crawl.
  const curvePages = pages.filter((p) => p.phase === 'crawl' && !p.error).length;
  await expect.poll(() => dash.getByTestId('harvest-chart').getAttribute('data-points'), { timeout: 120_000 }).toBe(String(curvePages));
  const open = await heldMiB(dash);
  console.log(`dashboard heap after collection: ${empty.toFixed(1)} MiB empty, ${open.toFixed(1)} MiB on ${N} pages`);
  expect(open - empty).toBeLessThan(ALLOWED_MIB);
}, 900_000);
