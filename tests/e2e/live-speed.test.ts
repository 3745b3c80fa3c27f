// How much an open dashboard slows the crawl it shows: the tree site crawled on loopback twice in headless
// Chromium, each time in a fresh profile, once with no extension page but the protocol's, once with the
// dashboard open on the crawl from its start. A measurement, run on demand (FOCUS_LIVE_SPEED=1; pages with
// FOCUS_LIVE_SPEED_PAGES, default 2,000): it prints both rates and fails if the open dashboard costs the crawl
// more than 40% of its pages per second (the dashboard once cost it 60%: every view re-read after each page).
import { expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, send } from '../../scripts/lib/browser';
import { startTreeSite } from '../fixtures/sites/tree-site';
import type { CrawlStatus } from '../../lib/protocol';

const PAGES = Number(process.env.FOCUS_LIVE_SPEED_PAGES ?? 2000);

/** Page rows per second of the crawl's own running time. */
async function pagesPerSecond(dashboardOpen: boolean): Promise<number> {
  const site = await startTreeSite(PAGES * 3, 3);
  const b = await launchWithExtension();
  try {
    const { crawlId } = await send<{ crawlId: number }>(b.page, 'start', {
      name: 'Tree', seeds: [`${site.origin}/p/0`], topic: { keywords: ['astronomy', 'planets'] },
      budget: { maxPages: PAGES }, politeness: { delayMs: 0, concurrency: 4, perHost: 4, robots: false },
    });
    if (dashboardOpen) {
      const dash = await b.context.newPage();
      await dash.setViewportSize({ width: 1280, height: 900 });
      await dash.goto(`chrome-extension://${b.extensionId}/dashboard.html?crawl=${crawlId}`);
    }
    let crawl: CrawlStatus['crawl'];
    do {
      await new Promise((r) => setTimeout(r, 500));
      crawl = (await send<CrawlStatus>(b.page, 'status', { crawlId })).crawl;
    } while (crawl.state !== 'finished');
    return (crawl.nextSeq - 1) / (crawl.activeMs / 1000);
  } finally {
    await b.close();
    await site.close();
  }
}

it.skipIf(!process.env.FOCUS_LIVE_SPEED)('an open dashboard keeps the crawl at 60% of its speed or better', { timeout: 900_000 }, async () => {
  ensureBuilt();
  const closed = await pagesPerSecond(false);
  const open = await pagesPerSecond(true);
  console.log(JSON.stringify({ pages: PAGES, closed: +closed.toFixed(1), open: +open.toFixed(1), ratio: +(open / closed).toFixed(2) }));
  expect(open / closed).toBeGreaterThan(0.6);
});
