// The popup lists the running crawls before the latest finished one, and unnamed crawls get names that say
// what they are, and one topic.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, send } from '../../scripts/lib/browser';
import type { CrawlStatus } from '../../lib/protocol';
import { useDemoBrowser } from './demo-browser';
import { DashboardPage, PopupPage } from './page-objects';

const env = useDemoBrowser();
const SHOTS = join(ROOT, 'docs', 'images');

const status = (crawlId: number) => send<CrawlStatus>(env.browser.page, 'status', { crawlId });
const start = (config: object) => send<{ crawlId: number }>(env.browser.page, 'start', config);

async function screenshot(popup: PopupPage, file: string): Promise<void> {
  if (!process.env.FOCUS_SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await popup.page.setViewportSize({ width: 380, height: 600 });
  await popup.page.screenshot({ path: join(SHOTS, file), fullPage: true });
}

it('shows the running crawl before a newer finished one, and pauses it', async () => {
  const slow = await start({ name: 'Sky section, slowly', seeds: [`${env.site.origin}/`], topic: { keywords: ['astronomy', 'planet', 'telescope'] }, budget: { maxPages: 40 }, politeness: { delayMs: 1500 } });
  await expect.poll(async () => (await status(slow.crawlId))?.crawl.stats.fetched, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  const quick = await start({ name: 'One page on the Moon', seeds: [`${env.site.origin}/space/moon`], topic: { keywords: ['moon'] }, budget: { maxPages: 1 }, politeness: { delayMs: 0 } });
  await expect.poll(async () => (await status(quick.crawlId))?.crawl.state, { timeout: 30_000 }).toBe('finished');

  const popup = await new PopupPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  await expect.poll(() => popup.crawls()).toEqual([
    { id: slow.crawlId, name: 'Sky section, slowly', state: 'running' },
    { id: quick.crawlId, name: 'One page on the Moon', state: 'finished' },
  ]);
  await screenshot(popup, 'popup-running-crawls.png');

  const running = popup.crawl(slow.crawlId);
  expect(await running.card().getByTestId('pause').isEnabled()).toBe(true);
  await running.press('pause');
  await running.waitFor(async () => /paused/i.test(await running.state()));
  // The paused crawl stays in the popup, to be resumed there, and stops fetching.
  const pausedAt = await running.number('fetched');
  await popup.page.waitForTimeout(2000);
  expect(await running.number('fetched')).toBe(pausedAt);
  expect((await popup.crawls()).map((c) => c.id)).toEqual([slow.crawlId, quick.crawlId]);
  expect(await running.card().getByTestId('resume').isEnabled()).toBe(true);
  await send(env.browser.page, 'stop', { crawlId: slow.crawlId });
  await popup.page.close();
});

it('gives two unnamed crawls distinct names that say what they are, and one topic', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  for (const path of ['/space/mars', '/space/jupiter']) {
    const before = await dashboard.page.getByTestId('crawl-item').count();
    await dashboard.startCrawl({ name: '', seeds: `${env.site.origin}${path}`, keywords: 'astronomy', maxPages: 2, delayMs: 0 });
    await expect.poll(() => dashboard.page.getByTestId('crawl-item').count()).toBe(before + 1);
    await expect.poll(() => dashboard.page.getByTestId('detail-state').innerText(), { timeout: 30_000 }).toMatch(/finished|failed/i);
  }
  const names = await dashboard.page.getByTestId('crawl-select').allInnerTexts();
  const described = names.filter((n) => n.startsWith('astronomy on '));
  expect(described).toHaveLength(2);
  expect(new Set(described).size).toBe(2);
  for (const name of described) expect(name).toMatch(/^astronomy on 127\.0\.0\.1, \d{1,2} [A-Z][a-z]{2}( \(2\))?$/);
  expect((await dashboard.topicChoices()).filter((c) => /^astronomy\b/.test(c))).toEqual(['astronomy (astronomy)']);
  await dashboard.page.close();
});
