// The Pages table in real Chromium, on a crawl with many hosts, long paths and long titles: URLs read as host
// and path, titles wrap, and search, a site filter, a label filter and a score order show the right pages.
// @module-tag chromium
import type { Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, ROOT, type Launched } from '../../scripts/lib/browser';
import { crawlOf, realisticPages, seedCrawl } from './pages-fixture';

let browser: Launched;
beforeAll(async () => {
  ensureBuilt();
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
});

/** Set FOCUS_SCREENSHOTS=1 to keep screenshots of the table under results/. */
async function shoot(page: Page, name: string): Promise<void> {
  if (!process.env.FOCUS_SCREENSHOTS) return;
  const dir = join(ROOT, 'results', '2026-11-24', 'ui');
  mkdirSync(dir, { recursive: true });
  await page.locator('#pages-panel').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(dir, name), fullPage: false });
}

const rows = (page: Page) => page.getByTestId('page-row');
/** The table's rows as a user reads them: host, path, title, score, verdict. */
const shown = (page: Page) =>
  rows(page).evaluateAll((trs) =>
    trs.map((tr) => ({
      seq: Number((tr as HTMLElement).dataset.seq),
      host: tr.querySelector('[data-testid=page-url] .host')?.textContent ?? '',
      path: tr.querySelector('[data-testid=page-url] .path')?.textContent ?? '',
      title: tr.querySelector('[data-testid=page-title]')?.textContent ?? '',
      score: Number(tr.querySelector('[data-testid=page-score]')?.textContent),
      verdict: tr.querySelector('[data-testid=page-verdict]')?.textContent ?? '',
    })),
  );

it('shows host, path and whole titles, and finds pages by search, site, label and score, window after window', async () => {
  const now = Date.now();
  const pages = realisticPages({ crawlId: 1, count: 600, start: now - 3_600_000 });
  const dash = await browser.context.newPage();
  await dash.setViewportSize({ width: 1280, height: 900 });
  const errors: string[] = [];
  dash.on('pageerror', (e) => errors.push(e.message));
  await dash.goto(`chrome-extension://${browser.extensionId}/dashboard.html`);
  await seedCrawl(dash, crawlOf(1, 'Night sky', pages, now), pages, { bodies: true });
  await dash.goto(`chrome-extension://${browser.extensionId}/dashboard.html?crawl=1`);
  await expect.poll(() => rows(dash).count()).toBe(100);
  // The rows the crawl made no request for are said for what they are: its training reads.
  const train = pages.filter((p) => p.phase === 'train').length;
  const told = train ? `600 rows: ${600 - train} requests, ${train} training read${train === 1 ? '' : 's'}` : '600 in all';
  await expect.poll(() => dash.getByTestId('page-range').innerText()).toBe(`100 of 600 pages · ${told}`);

  // Newest first. Every URL reads as its host and its whole path; no title or path is cut short at 1,280 px.
  const first = await shown(dash);
  expect(first.slice(0, 3).map((r) => `https://${r.host}${r.path}`)).toEqual(pages.slice(-3).reverse().map((p) => p.url));
  const clipped = () =>
    dash.locator('[data-testid=page-title], [data-testid=page-url] .path').evaluateAll((els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis').length,
    );
  expect(await clipped()).toBe(0);
  const titleLines = await dash.locator('[data-testid=page-title]').first().evaluate((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
  expect(titleLines).toBeGreaterThan(0.9);
  await shoot(dash, 'pages-table-1280.png');

  // Highest score first, across windows: Next goes on where the first window ended, Prev comes back.
  await dash.getByTestId('page-sort').selectOption('score-high');
  const byScore = [...pages].sort((a, b) => b.score - a.score || b.seq - a.seq).map((p) => p.seq);
  await expect.poll(async () => (await shown(dash)).map((r) => r.seq)).toEqual(byScore.slice(0, 100));
  await dash.getByTestId('page-next').click();
  await expect.poll(async () => (await shown(dash)).map((r) => r.seq)).toEqual(byScore.slice(100, 200));
  await dash.getByTestId('page-prev').click();
  await expect.poll(async () => (await shown(dash)).map((r) => r.seq)).toEqual(byScore.slice(0, 100));
  await dash.getByTestId('page-sort').selectOption('oldest');

  // Search: every word in the URL or title, any case.
  await dash.getByTestId('page-search').fill('saturn CROSSING');
  const saturn = pages.filter((p) => /saturn/i.test(p.title + p.url) && /crossing/i.test(p.title + p.url));
  await expect.poll(async () => (await shown(dash)).map((r) => r.seq)).toEqual(saturn.slice(0, 100).map((p) => p.seq));
  await expect.poll(() => dash.getByTestId('page-range').innerText()).toMatch(new RegExp(`^\\d+ matching pages · ${told}$`));

  // A site: the pages of both NASA hosts, and only those.
  await dash.getByTestId('page-search').fill('');
  await dash.getByTestId('page-site').selectOption('nasa.gov');
  const nasa = pages.filter((p) => p.site === 'nasa.gov');
  await expect.poll(() => dash.getByTestId('page-range').innerText()).toBe(`${Math.min(100, nasa.length)} of ${nasa.length} pages on nasa.gov · ${told}`);
  expect(new Set((await shown(dash)).map((r) => r.host))).toEqual(new Set(['www.nasa.gov', 'science.nasa.gov']));

  // Highest score first, within the site and the relevant pages.
  await dash.getByTestId('page-kind').selectOption('relevant');
  await dash.getByTestId('page-sort').selectOption('score-high');
  const best = nasa.filter((p) => p.relevant === true).sort((a, b) => b.score - a.score || b.seq - a.seq);
  await expect.poll(async () => (await shown(dash)).map((r) => r.seq)).toEqual(best.slice(0, 100).map((p) => p.seq));
  for (const r of await shown(dash)) expect(r.verdict).toMatch(/^relevant/);

  // Label one on topic; the label filter then shows it alone.
  const target = (await shown(dash))[2]!;
  await rows(dash).nth(2).getByTestId('page-on').click();
  await expect.poll(() => rows(dash).nth(2).getByTestId('page-label-note').innerText()).not.toBe('…');
  await expect.poll(() => rows(dash).nth(2).getByTestId('page-on').getAttribute('aria-pressed')).toBe('true');
  await dash.getByTestId('page-label-filter').selectOption('on');
  await expect.poll(async () => (await shown(dash)).map((r) => r.seq)).toEqual([target.seq]);

  // A site's name in the sites panel shows that site's pages.
  await dash.getByTestId('page-label-filter').selectOption('any');
  await dash.getByTestId('page-kind').selectOption('all');
  await dash.locator('[data-testid=site-row][data-site="bbc.co.uk"]').getByTestId('site-pages').click();
  await expect.poll(() => dash.getByTestId('page-site').inputValue()).toBe('bbc.co.uk');
  await expect.poll(async () => new Set((await shown(dash)).map((r) => r.host))).toEqual(new Set(['www.bbc.co.uk']));

  // Narrow: the same table at 800 px still shows hosts, paths and titles whole.
  await dash.getByTestId('page-label-filter').selectOption('any');
  await dash.getByTestId('page-site').selectOption('');
  await dash.getByTestId('page-kind').selectOption('all');
  await dash.getByTestId('page-sort').selectOption('oldest');
  await expect.poll(() => rows(dash).count()).toBe(100);
  await dash.setViewportSize({ width: 800, height: 900 });
  await shoot(dash, 'pages-table-800.png');
  await expect.poll(clipped).toBe(0);
  const overflow = () => dash.getByTestId('pages-table').evaluate((t) => t.getBoundingClientRect().right - document.documentElement.clientWidth);
  await expect.poll(overflow).toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
  await dash.close();
});
