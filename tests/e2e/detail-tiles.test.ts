// The crawl detail's tiles at 800 and 1,280 px: no value is ever broken over lines ("52 min 0 s" once wrapped as
// "52 min 0" over "s"), and none runs out of its tile. Also keeps screenshots of a running crawl of the demo site.
// @module-tag chromium
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { launchWithExtension, ROOT } from '../../scripts/lib/browser';
import { useDemoBrowser } from './demo-browser';
import { DashboardPage, openDashboard } from './page-objects';
import { sampleFixture, seedDatabase } from './ui-fixtures';

const env = useDemoBrowser();

/** The sample's crawls, and one with long values in every tile: a big recrawl that used most of a big budget. */
function fixture() {
  const f = sampleFixture();
  const big = structuredClone(f.crawls.find((c) => c.id === 1)!);
  Object.assign(big, { id: 4, name: 'Long numbers', state: 'finished', activeMs: 23 * 3_600_000 + 59 * 60_000 });
  big.config.budget.maxPages = 10_000_000;
  Object.assign(big.stats, {
    attempts: 1_234_567, fetched: 1_198_765, relevant: 876_543, failed: 35_802, skipped: 123_456, queued: 9_876_543,
    bytes: 98.7 * 1024 ** 3, changed: 123_456, unchanged: 654_321, notModified: 543_210, conditional: 777_777, bytesSaved: 87.6 * 1024 ** 3,
  });
  f.crawls.push(big);
  // A multi-queue crawl of a forum: measured by its list pages read and refreshed, beside its harvest rate.
  const forum = structuredClone(f.crawls.find((c) => c.id === 3)!);
  Object.assign(forum, { id: 5, name: 'Forum boards' });
  forum.config.strategy = { name: 'multi-queue' };
  Object.assign(forum.stats, { listPages: 1_234, contentPages: 55, changed: 456, unchanged: 321 });
  forum.queues = { 5: { queued: 12, inFlight: 1 }, 4: { queued: 30, inFlight: 0 }, 3: { queued: 0, inFlight: 0 } };
  f.crawls.push(forum);
  return f;
}

/** Each shown tile whose value takes more than one line or runs out of its tile, with its label. */
const brokenTiles = (page: Page) => page.locator('#counters .counter:not([hidden])').evaluateAll((tiles) => tiles.flatMap((tile) => {
  const value = tile.querySelector('.value')!;
  const range = document.createRange();
  range.selectNodeContents(value);
  const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  const box = tile.getBoundingClientRect(), text = range.getBoundingClientRect();
  const out = text.left < box.left || text.right > box.right;
  const label = tile.querySelector('.label')!.textContent;
  return lines > 1 || out ? [`${label}: "${value.textContent}" (${lines} lines${out ? ', out of its tile' : ''})`] : [];
}));

for (const width of [800, 1280]) {
  it(`at ${width} px, every tile shows its value on one line, inside the tile`, async () => {
    const { dash, errors } = await openDashboard(env.browser.context, env.browser.extensionId, 'crawl=1', { width, height: 900 });
    await seedDatabase(dash, fixture());
    // Seeded after the page opened on no crawl: open it again on the running one.
    await dash.goto(dash.url().replace(/\?.*$/, '') + '?crawl=1');
    await expect.poll(() => dash.getByTestId('detail-active').innerText()).toBe('52 min 0 s');
    expect(await brokenTiles(dash)).toEqual([]);
    // A first crawl that has asked nothing again shows no "0 / 0" of rechecks.
    expect(await dash.getByTestId('detail-rechecked-tile').isHidden()).toBe(true);
    expect(await dash.getByTestId('detail-not-modified-tile').isHidden()).toBe(true);
    await dash.goto(dash.url().replace(/\?.*$/, '?crawl=4'));
    await expect.poll(() => dash.getByTestId('detail-active').innerText()).toBe('23 h 59 min');
    expect(await dash.getByTestId('detail-not-modified').innerText()).toBe('543,210 of 777,777, 87.6 GB saved');
    expect(await dash.getByTestId('detail-rechecked-tile').isVisible()).toBe(true);
    expect(await brokenTiles(dash)).toEqual([]);
    // A multi-queue crawl's own figures: content pages, list pages read and their refreshes (in place of Changed /
    // unchanged), and its queues; not a harvest rate.
    await dash.goto(dash.url().replace(/\?.*$/, '?crawl=5'));
    await expect.poll(() => dash.getByTestId('detail-list-reads').innerText()).toBe('1,234');
    expect(await dash.getByTestId('detail-content-pages').innerText()).toBe('55');
    expect(await dash.getByTestId('detail-queue-count').innerText()).toBe('2');
    expect(await dash.getByTestId('detail-list-refreshes').innerText()).toBe('777');
    expect(await dash.getByTestId('detail-list-refreshes-parts').innerText()).toBe('456 changed, 321 unchanged');
    expect(await dash.getByTestId('detail-rechecked-tile').isHidden()).toBe(true);
    expect(await dash.getByTestId('detail-harvest-tile').isHidden()).toBe(true);
    expect(await brokenTiles(dash)).toEqual([]);
    // The tiles stay within the detail: none is wider than the page.
    expect(await dash.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
    expect(errors).toEqual([]);
    await dash.close();
  });
}

it('keeps screenshots of a running crawl at 1,280 and 800 px (FOCUS_SCREENSHOTS=1)', async ({ skip }) => {
  skip(!process.env.FOCUS_SCREENSHOTS, 'writes docs/images: FOCUS_SCREENSHOTS=1 runs it');
  // A profile of its own: the list shows this crawl alone, not the fixtures above.
  const launched = await launchWithExtension();
  try {
    const dashboard = await new DashboardPage(await launched.context.newPage(), launched.extensionId).open();
    const page = dashboard.page;
    await page.setViewportSize({ width: 1280, height: 1000 });
    await dashboard.startCrawl({ name: 'Astronomy', seeds: `${env.site.origin}/`, keywords: 'astronomy, planet, telescope, galaxy', maxPages: 80, delayMs: 400 });
    await expect.poll(async () => Number(await page.getByTestId('detail-fetched').innerText()), { timeout: 60_000 }).toBeGreaterThanOrEqual(15);
    mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.getByTestId('detail-name').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(600);
      await page.screenshot({ path: join(ROOT, 'docs', 'images', `running-crawl-${width}.png`) });
      expect(await brokenTiles(page)).toEqual([]);
    }
    expect(await page.getByTestId('detail-state').innerText()).toMatch(/running/i);
  } finally {
    await launched.close();
  }
});
