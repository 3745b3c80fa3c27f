// The popup's "Fetching now" of a real crawl: the worker that runs the crawl says what it fetches (the popup no longer
// reads the frontier's in-flight rows, whose index range grows with every URL ever taken). A tree site answers each
// page after 400 ms, so a request is in flight nearly all the time.
// @module-tag chromium
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CrawlStatus } from '../../lib/app/protocol';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import { startTreeSite, type TreeSite } from '../fixtures/sites/tree-site';
import { PopupPage } from './page-objects';

let site: TreeSite;
let browser: Launched;
beforeAll(async () => {
  ensureBuilt();
  site = await startTreeSite(60, 3);
  site.setLatency(() => 400);
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it('lists what the running crawl fetches now, and nothing once it is paused', async () => {
  const { crawlId } = await send<{ crawlId: number }>(browser.page, 'start', {
    name: 'Slow tree', seeds: [`${site.origin}/p/0`], topic: { keywords: ['astronomy', 'planets'] },
    budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 2, perHost: 2, robots: false },
  });
  const popup = await new PopupPage(await browser.context.newPage(), browser.extensionId).open();
  // Page paths the site serves: /p/N (the list shows the URL without its scheme).
  await expect.poll(async () => (await popup.inFlight()).some((t) => /\/p\/\d+$/.test(t)), { timeout: 30_000 }).toBe(true);
  await send(browser.page, 'pause', { crawlId });
  await expect.poll(async () => (await send<CrawlStatus>(browser.page, 'status', { crawlId })).crawl.state).toBe('paused');
  await expect.poll(() => popup.card().getByTestId('inflight').isHidden()).toBe(true);
});
