// A template crawl is measured by its records (design E), not by a harvest rate: its detail shows the records found,
// records per page fetched and the sites with and without a record, and these agree with the records export; the
// popup's card says the same. Crawled for real through the command-line runner, in Chromium, against a search
// engine and a few company sites on loopback, one of which has no contact details a record could hold.
// @module-tag chromium
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, ROOT } from '../../scripts/lib/browser';
import { companies, companyConfig, startCompanyWorld, type CompanyWorld } from '../fixtures/sites/company-sites';

let world: CompanyWorld;
beforeAll(async () => {
  ensureBuilt();
  world = await startCompanyWorld(companies(8));
  // shop01's contact page has a table of details, none of which is an e-mail address or a phone number.
  Object.assign(world.sites.get('shop01')!, { email: 'ask in the shop', phone: 'ring the bell' });
});
afterAll(() => world.close());

/** Every tile of the crawl detail shown, by its label, with its value. */
const tiles = (page: Page) => page.locator('#counters .counter:not([hidden])').evaluateAll((els) =>
  Object.fromEntries(els.map((el) => [el.querySelector('.label')!.textContent!, el.querySelector('.value')!.textContent!])));

it("shows a finished template crawl's records per page and per site, no harvest rate, agreeing with its export", async () => {
  const out = mkdtempSync(join(tmpdir(), 'focus-out-'));
  let shown: Record<string, string> = {};
  let card: string[] = [];
  let chartHidden = false;
  let sites: { heads: string[]; rows: Record<string, string> } = { heads: [], rows: {} };
  let settings: Record<string, string> = {};
  const summary = await runCrawl({
    config: companyConfig('shops detail'), out, profileDir: mkdtempSync(join(tmpdir(), 'focus-template-detail-')),
    hostRules: `MAP *.test 127.0.0.1:${world.port}`, log: () => {},
    onFinished: async (launched, crawlId) => {
      const page = await launched.context.newPage();
      for (const width of [1280, 800]) {
        await page.setViewportSize({ width, height: 1000 });
        await page.goto(`chrome-extension://${launched.extensionId}/dashboard.html?crawl=${crawlId}`);
        await expect.poll(() => page.getByTestId('detail-records').innerText()).toMatch(/^\d+$/);
        await page.getByTestId('record-row').first().waitFor();
        if (process.env.FOCUS_SCREENSHOTS) {
          mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
          await page.getByTestId('detail-name').scrollIntoViewIfNeeded();
          await page.locator('#crawl-detail').screenshot({ path: join(ROOT, 'docs', 'images', `template-detail-${width}.png`) });
        }
      }
      shown = await tiles(page);
      settings = await page.locator('#detail-config').evaluate((dl) => Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) =>
        [dt.textContent!, (dt.nextElementSibling as HTMLElement).innerText.trim()])));
      chartHidden = await page.getByTestId('harvest-chart').isHidden();
      const table = page.getByTestId('sites');
      await expect.poll(() => table.getByTestId('site-row').count()).toBe(8);
      sites = {
        heads: await table.locator('th').allInnerTexts(),
        rows: Object.fromEntries(await table.getByTestId('site-row').evaluateAll((rows) => rows.map((r) => [
          r.getAttribute('data-site')!, `${r.querySelector('[data-testid=site-records]')?.textContent} ${r.querySelector('[data-testid=site-state]')?.textContent}`]))),
      };
      const popup = await launched.context.newPage();
      await popup.goto(`chrome-extension://${launched.extensionId}/popup.html?crawl=${crawlId}`);
      const stats = popup.getByTestId('popup-crawl').locator('.stat:not([hidden])');
      await expect.poll(() => popup.getByTestId('records').innerText()).toMatch(/^\d+$/);
      card = await stats.allInnerTexts();
      await popup.close();
      await page.close();
    },
  });
  expect(summary.state, summary.message ?? '').toBe('finished');

  const records = readFileSync(join(out, 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { site: string });
  const sitesWith = new Set(records.map((r) => r.site));
  expect(records.length).toBeGreaterThan(0);
  expect(sitesWith.has('shop01.test')).toBe(false);
  expect(shown).toMatchObject({
    Records: String(records.length),
    'Records / page': (records.length / summary.fetched).toFixed(2),
    'Sites with a record': String(sitesWith.size),
    // shop01 gave none; the search engine's own site is not counted.
    'Sites without': '1',
    Fetched: String(summary.fetched),
  });
  // No harvest rate, no relevant count, no harvest chart: the keyword judge calls every page of a template crawl relevant.
  expect(Object.keys(shown)).not.toContain('Harvest rate');
  expect(Object.keys(shown)).not.toContain('Relevant');
  expect(chartHidden).toBe(true);
  // Its settings say what applies to a template crawl: its search's results, not seeds it never had; no row empty.
  expect(settings).not.toHaveProperty('Seeds');
  expect(settings).not.toHaveProperty('Re-scored');
  expect(Object.entries(settings).filter(([, v]) => v === '' || v === '—')).toEqual([]);
  expect(settings.Search).toMatch(/^\d+ results? from \d+ result pages?; every one crawled$/);
  expect(settings.Scope).toBe("the hosts of the search's results, and the engine's");
  // The Sites panel: each site's records where a topic crawl has relevant and off-topic pages.
  expect(sites.heads.map((t) => t.toLowerCase())).not.toContain('relevant');
  const perSite = Object.fromEntries([...sitesWith].map((site) => [site, `${records.filter((r) => r.site === site).length} has a record`]));
  expect(sites.rows).toEqual({ ...perSite, 'shop01.test': '0 no record' });
  // The popup's card: records and records per page where other crawls show relevant and a harvest rate.
  const cardText = card.join(' | ').replace(/\s+/g, ' ').toLowerCase(); // the labels are upper case by CSS
  expect(cardText).toContain(`${records.length} records`);
  expect(cardText).toContain(`${(records.length / summary.fetched).toFixed(2)} records / page`);
  expect(cardText).not.toMatch(/harvest|relevant/);
});
