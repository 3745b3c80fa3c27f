// The popup lists the running crawls before the latest finished one, starts a crawl of the site in the tab
// it is about ("Crawl this site"), and unnamed crawls get names that say what they are, and one topic.
// @module-tag chromium
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, send } from '../../scripts/lib/browser';
import type { CrawlStatus } from '../../lib/app/protocol';
import { useDemoBrowser } from './demo-browser';
import { DashboardPage, PopupPage } from './page-objects';

const env = useDemoBrowser();
const SHOTS = join(ROOT, 'docs', 'images');

const status = (crawlId: number) => send<CrawlStatus>(env.browser.page, 'status', { crawlId });
const start = (config: object) => send<{ crawlId: number }>(env.browser.page, 'start', config);

async function tabIdOf(url: string): Promise<number> {
  const tabs = await env.browser.page.evaluate(() =>
    (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).chrome.tabs.query({}),
  );
  const tab = tabs.find((t) => t.url === url);
  if (tab?.id === undefined) throw new Error(`no tab shows ${url}`);
  return tab.id;
}

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

it('offers what can be done with an ended crawl: open it, crawl it again, delete it; no dead buttons', async () => {
  const first = await start({ name: 'Moon once', seeds: [`${env.site.origin}/space/moon`], topic: { keywords: ['moon'] }, budget: { maxPages: 1 }, politeness: { delayMs: 0 } });
  await expect.poll(async () => (await status(first.crawlId))?.crawl.state, { timeout: 30_000 }).toBe('finished');
  const popup = await new PopupPage(await env.browser.context.newPage(), env.browser.extensionId).open(`crawl=${first.crawlId}`);
  const buttons = () => popup.card().locator('button').evaluateAll((bs) => bs
    .filter((b) => !b.closest('[hidden]'))
    .map((b) => `${b.textContent}${(b as HTMLButtonElement).disabled ? ' (disabled)' : ''}`));
  await expect.poll(buttons).toEqual(['Moon once', 'Open', 'Crawl again', 'Delete']);
  await screenshot(popup, 'popup-ended-crawl.png');

  const opened = (id: number) => env.browser.context.waitForEvent('page', (p) => p.url().includes(`/dashboard.html?crawl=${id}`));
  // Open: the dashboard, on this crawl.
  const dashboard = opened(first.crawlId);
  await popup.card().getByTestId('open').click();
  await (await dashboard).close();
  // Crawl again: a new crawl with the same seeds and settings, for the same topic, shown in the dashboard.
  const again = env.browser.context.waitForEvent('page', (p) => /\/dashboard\.html\?crawl=\d+/.test(p.url()) && !p.url().endsWith(`=${first.crawlId}`));
  await popup.card().getByTestId('again').click();
  const next = await again;
  const nextId = Number(new URL(next.url()).searchParams.get('crawl'));
  const [was, now] = [(await status(first.crawlId)).crawl, (await status(nextId)).crawl];
  expect(nextId).toBeGreaterThan(first.crawlId);
  expect({ name: now.name, topicId: now.topicId, seeds: now.config.seeds, budget: now.config.budget.maxPages })
    .toEqual({ name: was.name, topicId: was.topicId, seeds: was.config.seeds, budget: was.config.budget.maxPages });
  await next.close();
  // Delete: the first click asks, on the button; the second deletes.
  await popup.card().getByTestId('delete').click();
  expect(await popup.card().getByTestId('delete').innerText()).toBe('Delete it and its pages?');
  expect(await status(first.crawlId)).not.toBeNull();
  await popup.card().getByTestId('delete').click();
  await expect.poll(() => status(first.crawlId)).toBeNull();
  await expect.poll(() => popup.page.getByTestId('no-crawl').innerText()).toMatch(`There is no crawl #${first.crawlId}`);
  await popup.page.close();
});

it('crawls the site of the tab it is about: its address, its host, the page\'s topical words as keywords', async () => {
  const site = await env.browser.context.newPage();
  const url = `${env.site.origin}/space/telescopes`;
  await site.goto(url);
  const popup = await new PopupPage(await env.browser.context.newPage(), env.browser.extensionId).open(`tab=${await tabIdOf(url)}`);
  expect(await popup.page.getByTestId('site-host').innerText()).toBe(new URL(url).host);
  await popup.page.getByTestId('crawl-site').click();
  const keywords = popup.page.getByTestId('site-keywords');
  // "Choosing a first telescope": the page's subject and what its text says around its links, best first; no
  // "choosing" or "first", nothing of the site's navigation.
  await expect.poll(() => keywords.inputValue()).toBe('telescope, reflector, refractors, lenses, mirrors, aperture');
  await keywords.fill('telescope, refractor, reflector');
  expect(await popup.page.getByTestId('site-topic').inputValue()).toBe(''); // a new topic
  await popup.page.getByTestId('site-open-dashboard').check();
  await screenshot(popup, 'popup-crawl-this-site.png');

  const dashboardOpens = env.browser.context.waitForEvent('page', (p) => p.url().includes('/dashboard.html'));
  await popup.page.getByTestId('site-start-button').click();
  const dashboard = await dashboardOpens;
  const crawlId = Number(new URL(dashboard.url()).searchParams.get('crawl'));
  expect(crawlId).toBeGreaterThan(0);
  const { crawl } = (await status(crawlId))!;
  expect(crawl.config.seeds).toEqual([url]);
  expect(crawl.config.scope.mode).toBe('seed-hosts');
  expect(crawl.config.topic.keywords).toEqual(['telescope', 'refractor', 'reflector']);
  expect(crawl.config.budget.maxPages).toBe(100);
  expect(crawl.name).toMatch(/^telescope, refractor, reflector on 127\.0\.0\.1, \d{1,2} [A-Z][a-z]{2}$/);
  // The dashboard shows it, and the popup lists it first while it runs.
  await expect.poll(() => dashboard.getByTestId('detail-name').innerText()).toBe(crawl.name);
  await expect.poll(async () => (await popup.crawls())[0]).toEqual({ id: crawlId, name: crawl.name, state: 'running' });
  await send(env.browser.page, 'stop', { crawlId });
  await Promise.all([site.close(), dashboard.close()]);

  // Not for a page that is not a web page: it says why, and offers no Start.
  await popup.open(`tab=${await tabIdOf(popup.page.url())}`);
  await popup.page.getByTestId('crawl-site').click();
  await expect.poll(() => popup.page.getByTestId('site-problem').innerText()).toMatch(/chrome-extension: page; Focus crawls web sites \(http and https addresses\) only/);
  expect(await popup.page.getByTestId('site-start-button').isVisible()).toBe(false);
  await popup.page.close();
});

it('gives two unnamed crawls distinct names that say what they are, and one topic', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  const described = async () => (await dashboard.page.getByTestId('crawl-select').allInnerTexts()).filter((n) => n.startsWith('astronomy on '));
  for (const [i, path] of ['/space/mars', '/space/jupiter'].entries()) {
    await dashboard.startCrawl({ name: '', seeds: `${env.site.origin}${path}`, keywords: 'astronomy', maxPages: 2, delayMs: 0 });
    // A loaded machine can take more than the poll's default second to list it.
    await expect.poll(async () => (await described()).length, { timeout: 20_000 }).toBe(i + 1);
    await expect.poll(() => dashboard.page.getByTestId('detail-state').innerText(), { timeout: 30_000 }).toMatch(/finished|failed/i);
  }
  const names = await described();
  expect(new Set(names).size).toBe(2);
  for (const name of names) expect(name).toMatch(/^astronomy on 127\.0\.0\.1, \d{1,2} [A-Z][a-z]{2}( \(2\))?$/);
  expect((await dashboard.topicChoices()).filter((c) => /^astronomy\b/.test(c))).toEqual(['astronomy']);
  await dashboard.page.close();
});
