// A sparse-tunneling crawl through the command-line runner and the real extension: design B's defaults, a
// summary that reports blacklisted sites and dropped links, and the dashboard's Sites panel with Blacklist.
// @module-tag chromium
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt } from '../../scripts/lib/browser';
import { startTrapSite, type TrapSite } from '../fixtures/sites/trap-site';

let site: TrapSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startTrapSite();
});
afterAll(() => site.close());

it('runs with the defaults of design B and reports blacklisted sites and dropped links', async () => {
  const out = mkdtempSync(join(tmpdir(), 'focus-sparse-'));
  let sitesShown: string[] = [];
  const summary = await runCrawl({
    config: {
      name: 'sky', seeds: ['http://sky.test/'], topic: { keywords: ['astronomy', 'planets', 'telescope', 'galaxies'] },
      strategy: { name: 'sparse-tunneling' }, scope: { mode: 'anywhere' }, budget: { maxPages: 200 },
      politeness: { delayMs: 0, concurrency: 4, perHost: 2 },
    },
    out, hostRules: `MAP *.test 127.0.0.1:${site.port}`, log: () => {},
    onFinished: async (launched, crawlId) => {
      const dash = await launched.context.newPage();
      await dash.goto(`chrome-extension://${launched.extensionId}/dashboard.html?crawl=${crawlId}`);
      await dash.getByTestId('site-row').first().waitFor();
      sitesShown = await dash.getByTestId('site-row').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-site')}: ${r.querySelector('[data-testid=site-state]')?.textContent}`));
      // Blacklist by hand: the row says so.
      await dash.locator('[data-site="sky.test"] [data-testid=site-toggle]').click();
      await expect.poll(() => dash.locator('[data-site="sky.test"] [data-testid=site-state]').textContent()).toMatch(/blacklisted \(blacklisted by you\)/);
    },
  });
  expect(summary.state).toBe('finished');
  expect(summary.message).toMatch(/frontier empty/);
  // K = 10: the calendar costs at most 11 fetches; junk.test is closed after P = 20 off-topic pages.
  const from = (host: string) => site.requests.filter((r) => r.host === host && r.path !== '/robots.txt').length;
  expect(from('cal.test')).toBeLessThanOrEqual(11);
  expect(from('junk.test')).toBeLessThanOrEqual(21 + 4);
  expect(summary.blacklistedSites).toBeGreaterThanOrEqual(1);
  expect(summary.dropped['tunnel too long']).toBeGreaterThan(0);
  expect(summary.dropped['unknown site full']).toBeGreaterThan(0);
  expect(sitesShown).toContain('sky.test: on topic');
  expect(sitesShown.some((s) => /^junk\.test: blacklisted/.test(s))).toBe(true);
});
