// Design E end to end, in Chromium through the command-line runner: a search engine and a score of company sites
// on loopback; the template's first crawl, then the sites change (some edited, one gone, one new) and the
// recrawl in the same profile brings the records in line with them.
// @module-tag chromium
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, launchWithExtension } from '../../scripts/lib/browser';
import { companies, companyAt, companyConfig, contactUrl, expectedRecords, startCompanyWorld, type CompanyWorld } from '../fixtures/sites/company-sites';

/** Set FOCUS_SCREENSHOTS=1 to keep the Records view's screenshots under results/. */
const SHOTS = join(import.meta.dirname, '..', '..', 'results', '2026-11-24', 'template');
let world: CompanyWorld;
beforeAll(async () => {
  ensureBuilt();
  world = await startCompanyWorld(companies(20));
});
afterAll(() => world.close());

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const recordMap = (out: string) =>
  Object.fromEntries(lines(join(out, 'records.jsonl')).map((r: { url: string; fields: { email: string; phone: string } }) => [r.url, { email: r.fields.email, phone: r.fields.phone }]));
const now = () => Object.fromEntries(expectedRecords(world.order.map((n) => world.sites.get(n)!)));

it('crawls the template, then recrawls after the sites changed: the records match the sites', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-template-'));
  const hostRules = `MAP *.test 127.0.0.1:${world.port}`;
  const config = companyConfig();

  const first = mkdtempSync(join(tmpdir(), 'focus-out-'));
  const s1 = await runCrawl({ config, out: first, profileDir, hostRules, log: () => {} });
  expect(s1.state, s1.message ?? '').toBe('finished');
  expect(recordMap(first)).toEqual(now());
  expect(s1.template).toMatchObject({ cycle: 1, searchResults: 20, seedsCrawled: 20, records: 21 });
  expect(lines(join(first, 'changes.jsonl')).every((c: { change: string }) => c.change === 'new')).toBe(true);
  // What the server saw: result pages by offset, every contact page once, and nothing the template does not lead to.
  const seen1 = [...world.seen];
  expect(seen1.filter((s) => s.startsWith('engine.test/search'))).toEqual([0, 5, 10, 15, 20].map((o) => `engine.test/search?q=telescope+shop&first=${o}`));
  for (const url of Object.keys(now())) expect(seen1.filter((s) => `http://${s}` === url), url).toHaveLength(1);
  const hosts = new Set(seen1.map((s) => s.split('/')[0]));
  for (const h of ['sponsor.test', 'social.test', 'account.test', 'help.enginecorp.test', 'legal.enginecorp.test']) expect(hosts.has(h), h).toBe(false);
  expect(seen1.filter((s) => /\/(products|news|privacy)$|\/cache/.test(s))).toEqual([]);

  // The world moves on: two sites edit their contact details, one closes, a new one opens.
  world.sites.get('shop02')!.email = 'orders@shop02.test';
  world.sites.get('shop06')!.phone = '+44 20 7946 9999'; // the GBK site
  world.order.splice(world.order.indexOf('shop03'), 1);
  world.sites.delete('shop03');
  const added = companyAt(30);
  world.sites.set(added.name, added);
  world.order.push(added.name);
  world.seen.length = 0;

  const second = mkdtempSync(join(tmpdir(), 'focus-out-'));
  let shown: { rows: number; shop02: string[] } | undefined;
  const s2 = await runCrawl({
    config, out: second, profileDir, hostRules, recrawl: true, log: () => {},
    // The Records view as the user sees it after the recrawl.
    onFinished: async (launched, crawlId) => {
      const page = await launched.context.newPage();
      await page.setViewportSize({ width: 1400, height: 1000 });
      await page.goto(`chrome-extension://${launched.extensionId}/dashboard.html?crawl=${crawlId}`);
      const logs: string[] = [];
      page.on('console', (m) => logs.push(m.text()));
      page.on('pageerror', (e) => logs.push(String(e)));
      try {
        await page.getByTestId('record-row').nth(20).waitFor({ timeout: 60_000 });
      } catch (err) {
        await page.screenshot({ path: '/tmp/template-debug.png', fullPage: true });
        console.log(logs.join('\n'));
        throw err;
      }
      const row = page.getByTestId('record-row').filter({ hasText: 'shop02.test' });
      shown = { rows: await page.getByTestId('record-row').count(), shop02: (await row.locator('td').allTextContents()).map((t) => t.trim()) };
      if (process.env.FOCUS_SCREENSHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.getByTestId('records-panel').screenshot({ path: join(SHOTS, 'records-view.png') });
      }
      await page.close();
    },
  });
  expect(shown?.rows).toBe(21);
  expect(shown?.shop02.slice(1, 4)).toEqual(['orders@shop02.test', '+44 20 7946 1001', 'changed']);
  expect(s2.state, s2.message ?? '').toBe('finished');
  expect(recordMap(second)).toEqual(now());
  const changes = lines(join(second, 'changes.jsonl')) as { change: string; url: string }[];
  const of = (kind: string) => changes.filter((c) => c.change === kind).map((c) => c.url).sort();
  expect(of('new')).toEqual([contactUrl(added)]);
  expect(of('changed')).toEqual(['http://shop02.test/contact', 'http://shop06.test/contact']);
  expect(of('deleted')).toEqual(['http://shop03.test/contact']);
  expect(of('unchanged')).toHaveLength(Object.keys(now()).length - 3);
  expect(s2.template).toMatchObject({ cycle: 2, records: 21, changes: { new: 1, changed: 2, deleted: 1, unchanged: 18 } });
  // The recrawl searched again and never went to the closed site, which no result names any more.
  expect(world.seen.filter((s) => s.startsWith('engine.test/search'))).toHaveLength(5);
  expect(world.seen.filter((s) => s.startsWith('shop03.test'))).toEqual([]);
});

it('starts a template crawl from the dashboard form, refusing a bad template beside its field first', async () => {
  const launched = await launchWithExtension({ hostRules: `MAP *.test 127.0.0.1:${world.port}` });
  try {
    const p = await launched.context.newPage();
    await p.goto(`chrome-extension://${launched.extensionId}/dashboard.html`);
    await p.getByTestId('form-template-box').locator('summary').click();
    const template = companyConfig().template;
    await p.getByTestId('form-template').fill(JSON.stringify({ ...template, search: { ...template.search, url: 'http://engine.test/search?q=x' } }));
    await p.getByTestId('form-delay').fill('0');
    await p.getByTestId('start').click();
    const refusal = p.getByTestId('field-error');
    await refusal.waitFor();
    expect(await refusal.innerText()).toMatch(/^Template: template\.search\.url must contain \{query\}/);
    expect(await p.getByTestId('form-template').getAttribute('aria-invalid')).toBe('true');
    // Fixed: no seeds, no keywords, and the crawl's records appear in the Records view.
    await p.getByTestId('form-template').fill(JSON.stringify(template, null, 2));
    await p.getByTestId('form-name').fill('shops from the form');
    if (process.env.FOCUS_SCREENSHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await p.getByTestId('form-template-box').screenshot({ path: join(SHOTS, 'new-crawl-template.png') });
    }
    await p.getByTestId('start').click();
    await p.getByTestId('record-row').nth(20).waitFor({ timeout: 60_000 });
    expect(await p.getByTestId('records-summary').innerText()).toMatch(/^21 records · cycle 1 · 20 search results, 20 crawled/);
  } finally {
    await launched.close();
  }
});
