// Counts agree to the row on a finished crawl: the Pages table's total and its filters, the tiles, the popup,
// the export (its rows and its Sites list) and the database's own rows, checked against each other.
// @module-tag chromium
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';
import type { CrawlStatus } from '../../lib/app/protocol';
import { openDashboard, PopupPage } from './page-objects';

let browser: Launched;
let site: DemoServer;
beforeAll(async () => {
  ensureBuilt();
  site = await startDemoServer();
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const number = (text: string) => Number(text.replace(/[^\d]/g, ''));
/** "12 of 12 failed pages · 41 rows: 40 requests, 1 kept by robots.txt" -> [12, 12, 41]. */
const rangeNumbers = (text: string) => {
  const [head = '', tail = ''] = text.split(' · ');
  return [...[...head.matchAll(/[\d,]+/g)].map((m) => number(m[0])), ...[...tail.matchAll(/[\d,]+/g)].slice(0, 1).map((m) => number(m[0]))];
};

/** What the database holds for the crawl, read with IndexedDB itself from an extension page. */
function databaseRows(page: Page, crawlId: number) {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('focus');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = <T,>(store: string) => new Promise<T[]>((resolve) => {
      const req = db.transaction(store).objectStore(store).getAll();
      req.onsuccess = () => resolve(req.result as T[]);
    });
    const pages = (await all<{ crawlId: number; seq: number; outcome?: string; url: string; error?: string; redirects?: unknown[] }>('pages')).filter((p) => p.crawlId === id);
    const frontier = (await all<{ crawlId: number; url: string; state: string }>('frontier')).filter((e) => e.crawlId === id);
    const pageUrls = new Set(pages.map((p) => p.url));
    db.close();
    return {
      pages: pages.length,
      skippedPages: pages.filter((p) => p.outcome === 'skipped').length,
      // Rows of pages robots.txt kept the crawl from requesting: no request, so not in the budget.
      robotsPages: pages.filter((p) => !p.redirects && /robots\.txt/.test(p.error ?? '')).length,
      // Skipped entries with no page row: links recorded as skipped without a request.
      skippedLinks: frontier.filter((e) => e.state === 'skipped' && !pageUrls.has(e.url)).length,
    };
  }, crawlId);
}

it('the table, the tiles, the popup and the export count the same rows of a finished crawl', async () => {
  const { crawlId } = await send<{ crawlId: number }>(browser.page, 'start', {
    ...demoConfig(site.origin), name: 'Counted', budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 2, robots: true },
  });
  await expect.poll(async () => (await send<CrawlStatus>(browser.page, 'status', { crawlId })).crawl.state, { timeout: 90_000, interval: 250 })
    .toBe('finished');
  const { crawl } = await send<CrawlStatus>(browser.page, 'status', { crawlId });
  const truth = await databaseRows(browser.page, crawlId);
  // The demo site has a log-out link (kept from requesting), a moved page and a redirect loop (skipped) and a dead link (failed).
  expect(truth.skippedPages).toBeGreaterThan(0);
  expect(truth.skippedLinks).toBeGreaterThan(0);
  expect(crawl.stats.failed).toBeGreaterThan(0);
  expect(truth.pages).toBeLessThanOrEqual(100); // one window of the table holds them all

  const { dash, errors } = await openDashboard(browser.context, browser.extensionId, `crawl=${crawlId}`);
  const range = () => dash.getByTestId('page-range').innerText();
  const tile = async (id: string) => number(await dash.getByTestId(id).innerText());

  // The table: every row, and a total that is its rows.
  await expect.poll(() => dash.getByTestId('page-row').count()).toBe(truth.pages);
  // The budget counts the requests; the rows it does not count say why (robots.txt's staff page).
  expect(truth.pages).toBe(crawl.stats.attempts + truth.robotsPages);
  const told = `${truth.pages} rows: ${crawl.stats.attempts} requests, ${truth.robotsPages} kept by robots.txt`;
  await expect.poll(range).toBe(`${truth.pages} of ${truth.pages} pages · ${told}`);
  expect(await dash.getByTestId('detail-budget-parts').innerText()).toBe(told);
  const kindCount = async (kind: string) => {
    await dash.getByTestId('page-kind').selectOption(kind);
    const words = { relevant: 'relevant', irrelevant: 'not relevant', unjudged: 'without a verdict', failed: 'failed', skipped: 'skipped' }[kind]!;
    // Counted: "3 of 3 failed pages · 41 rows: ..." (before the count is in, "3 matching failed pages").
    let text = '';
    await expect.poll(async () => (text = await range()).includes(` ${words} page`) && rangeNumbers(text).length === 3).toBe(true);
    const [shown, matching, all] = rangeNumbers(text);
    expect([shown, all]).toEqual([matching, truth.pages]);
    expect(await dash.getByTestId('page-row').count()).toBe(matching === 0 ? 0 : matching);
    return matching!;
  };
  const table = {
    relevant: await kindCount('relevant'), irrelevant: await kindCount('irrelevant'), unjudged: await kindCount('unjudged'),
    failed: await kindCount('failed'), skipped: await kindCount('skipped'),
  };
  // A skipped redirect's verdict: its headline in the narrow column (three lines at most), the whole reason on hover.
  await dash.getByTestId('page-kind').selectOption('skipped');
  const verdicts = dash.getByTestId('page-verdict').locator('.error-text');
  await expect.poll(() => verdicts.count()).toBe(table.skipped);
  for (const width of [1280, 800]) {
    await dash.setViewportSize({ width, height: 900 });
    const shown = await verdicts.evaluateAll((spans) => spans.map((span) => ({
      text: span.textContent, title: span.getAttribute('title') ?? '',
      lines: Math.round(span.getBoundingClientRect().height / parseFloat(getComputedStyle(span).lineHeight)),
    })));
    const redirects = shown.filter((v) => /^Skipped: (\d{3} · )?redirect/.test(v.text ?? ''));
    expect(redirects.length, JSON.stringify(shown)).toBeGreaterThan(0);
    for (const v of redirects) {
      expect(v.lines, `${width} px: ${JSON.stringify(v)}`).toBeLessThanOrEqual(3);
      expect(v.title).toMatch(/^Skipped: (\d{3} · )?redirect to http:\/\/127\.0\.0\.1:\d+\/\S+ not followed: /);
    }
  }
  await dash.setViewportSize({ width: 1280, height: 900 });
  await dash.getByTestId('page-kind').selectOption('all');

  // The tiles: what they count is what the table lists, and the Skipped tile says which of its skipped are links.
  const tiles = {
    fetched: await tile('detail-fetched'), relevant: await tile('detail-relevant'), failed: await tile('detail-failed'),
    skipped: await tile('detail-skipped'), train: await tile('detail-train-pages'),
  };
  expect(tiles.relevant).toBe(table.relevant);
  expect(tiles.failed).toBe(table.failed);
  expect(tiles.fetched).toBe(table.relevant + table.irrelevant + table.unjudged - tiles.train);
  expect(tiles.skipped).toBe(truth.skippedPages + truth.skippedLinks);
  expect(table.skipped).toBe(truth.skippedPages);
  await expect.poll(() => dash.getByTestId('detail-skipped-parts').innerText())
    .toBe(`${truth.skippedPages} page${truth.skippedPages === 1 ? '' : 's'}, ${truth.skippedLinks} link${truth.skippedLinks === 1 ? '' : 's'} kept from requesting`);

  // The export: one line per row of the table; its Sites list counts the rows an export of each site holds.
  await dash.getByTestId('export-panel').locator('summary').click();
  await dash.getByTestId('export-format').selectOption('jsonl');
  const exportLines = async () => {
    const [d] = await Promise.all([dash.waitForEvent('download') as Promise<Download>, dash.getByTestId('export-start').click()]);
    return (await readFile((await d.path())!, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { outcome?: string });
  };
  const lines = await exportLines();
  expect(lines).toHaveLength(truth.pages);
  expect(lines.filter((l) => l.outcome === 'failed')).toHaveLength(tiles.failed);
  expect(lines.filter((l) => l.outcome === 'skipped')).toHaveLength(table.skipped);
  await expect.poll(() => dash.getByTestId('export-sites').locator('option').count()).toBeGreaterThan(0);
  const sites = await dash.getByTestId('export-sites').locator('option').evaluateAll((os) =>
    os.map((o) => ({ site: (o as HTMLOptionElement).value, pages: Number(/\(([\d,]+)\)$/.exec(o.textContent ?? '')?.[1]?.replace(/,/g, '')) })));
  expect(sites.reduce((n, s) => n + s.pages, 0)).toBe(truth.pages);
  await dash.getByTestId('export-sites').selectOption(sites[0]!.site);
  expect(await exportLines()).toHaveLength(sites[0]!.pages);
  // The table's site filter counts the same rows.
  await dash.getByTestId('page-site').selectOption(sites[0]!.site);
  await expect.poll(async () => rangeNumbers(await range())[1]).toBe(sites[0]!.pages);

  // The popup: the same numbers as the tiles.
  const popup = await new PopupPage(await browser.context.newPage(), browser.extensionId).open();
  await popup.waitFor(async () => (await popup.number('fetched')) > 0);
  expect({ fetched: await popup.number('fetched'), relevant: await popup.number('relevant'), failed: await popup.number('failed') })
    .toEqual({ fetched: tiles.fetched, relevant: tiles.relevant, failed: tiles.failed });
  expect(errors).toEqual([]);
  await popup.page.close();
  await dash.close();
});
