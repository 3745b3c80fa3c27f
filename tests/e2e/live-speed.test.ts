// How much an open dashboard or popup slows the crawl it shows: the tree site crawled on loopback in headless
// Chromium, each time in a fresh profile, once with no extension page but the protocol's, once with the
// dashboard open on the crawl from its start, once with the popup open. A measurement, run on demand
// (FOCUS_LIVE_SPEED=1; pages with FOCUS_LIVE_SPEED_PAGES, default 2,000): it prints the rates and fails if an open
// view costs the crawl more than 40% of its pages per second (the dashboard once cost it 60%: every view re-read
// after each page; the popup cost it 55%: its recent errors were looked for among the last 5,000 page rows).
// @module-tag chromium
import { expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, send } from '../../scripts/lib/browser';
import { startTreeSite } from '../fixtures/sites/tree-site';
import type { CrawlStatus } from '../../lib/app/protocol';

const PAGES = Number(process.env.FOCUS_LIVE_SPEED_PAGES ?? 2000);

/** Page rows per second of the crawl's own running time. */
async function pagesPerSecond(view: 'none' | 'dashboard' | 'popup'): Promise<number> {
  const site = await startTreeSite(PAGES * 3, 3);
  const b = await launchWithExtension();
  try {
    const { crawlId } = await send<{ crawlId: number }>(b.page, 'start', {
      name: 'Tree', seeds: [`${site.origin}/p/0`], topic: { keywords: ['astronomy', 'planets'] },
      budget: { maxPages: PAGES }, politeness: { delayMs: 0, concurrency: 4, perHost: 4, robots: false },
    });
    if (view === 'dashboard') {
      const dash = await b.context.newPage();
      await dash.setViewportSize({ width: 1280, height: 900 });
      await dash.goto(`chrome-extension://${b.extensionId}/dashboard.html?crawl=${crawlId}`);
    }
    if (view === 'popup') await (await b.context.newPage()).goto(`chrome-extension://${b.extensionId}/popup.html`);
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

it('an open dashboard or popup keeps the crawl at 60% of its speed or better', { timeout: 900_000 }, async ({ skip }) => {
  skip(!process.env.FOCUS_LIVE_SPEED, 'a benchmark of several minutes: FOCUS_LIVE_SPEED=1 runs it');
  ensureBuilt();
  const closed = await pagesPerSecond('none');
  const dashboard = await pagesPerSecond('dashboard');
  const popup = await pagesPerSecond('popup');
  console.log(JSON.stringify({
    pages: PAGES, closed: +closed.toFixed(1), dashboard: +dashboard.toFixed(1), popup: +popup.toFixed(1),
    dashboardRatio: +(dashboard / closed).toFixed(2), popupRatio: +(popup / closed).toFixed(2),
  }));
  expect(dashboard / closed).toBeGreaterThan(0.6);
  expect(popup / closed).toBeGreaterThan(0.6);
});
