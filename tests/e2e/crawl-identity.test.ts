// The crawl names itself, in real Chromium with the built extension: the server's log, not the crawler's
// records, says which User-Agent each request carried. Two crawls run at once, one with the setting off (started
// from the dashboard's form), while the user opens a page of the first crawl's site in a tab.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import type { Page } from 'playwright-core';
import type { CrawlStatus } from '../../lib/app/protocol';
import { DashboardPage } from './page-objects';

interface Seen {
  host: string;
  path: string;
  ua: string;
  at: number;
}

const seen: Seen[] = [];
const mossPage = (n: number) =>
  `<html><head><title>Moss ${n}</title></head><body><h1>Moss and lichen ${n}</h1><p>Moss grows on stones; lichen on bark.</p>` +
  [1, 2, 3, 4, 5, 6, 7, 8].map((k) => `<a href="/moss-${k}">moss ${k}</a>`).join(' ') + '</body></html>';

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  seen.push({ host: (req.headers.host ?? '').replace(/:\d+$/, ''), path, ua: req.headers['user-agent'] ?? '', at: Date.now() });
  if (path === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(mossPage(Number(/\d+/.exec(path)?.[0] ?? 0)));
});

let site: { origin: string; close(): Promise<void> };
let browser: Launched | undefined;
const launch = async (profileDir?: string) =>
  (browser = await launchWithExtension({ profileDir, hostRules: `MAP *.test 127.0.0.1:${new URL(site.origin).port}` }));
beforeAll(async () => {
  ensureBuilt();
  site = await listenOnLoopback(server);
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function finished(page: Page, crawlId: number): Promise<void> {
  await expect.poll(async () => (await send<CrawlStatus>(page, 'status', { crawlId }))?.crawl.state, { timeout: 90_000, interval: 250 })
    .toBe('finished');
}
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

it("sends FocusCrawler in the crawl's requests and robots.txt reads, not in the user's tab nor in a crawl that turned it off", async () => {
  const { context, extensionId, page, worker } = await launch();
  const userAgent = await worker.evaluate(() => navigator.userAgent);
  const named = `${userAgent} FocusCrawler/${version}`;

  // The crawl that opts out is started as a user does, from the form with the box unticked.
  const dash = new DashboardPage(await context.newPage(), extensionId);
  await dash.open();
  await dash.startCrawl({ name: 'quiet', seeds: 'http://quiet.test/', keywords: 'moss, lichen', maxPages: 6, delayMs: 500, identify: false });
  let quietId = 0;
  await expect.poll(async () => (quietId = (await send<CrawlStatus>(page, 'status', {}))?.crawl.id ?? 0)).toBeGreaterThan(0);
  const { crawlId: namedId } = await send<{ crawlId: number }>(page, 'start', {
    name: 'named', seeds: ['http://named.test/'], topic: { keywords: ['moss', 'lichen'] },
    training: { linkSources: ['http://named.test/links'] }, budget: { maxPages: 6 }, politeness: { delayMs: 500 },
  });
  // While both crawl, the user opens a page of the named crawl's site.
  await expect.poll(() => seen.filter((r) => r.host === 'named.test').length, { timeout: 30_000 }).toBeGreaterThan(1);
  const tab = await context.newPage();
  await tab.goto('http://named.test/from-tab');
  await Promise.all([finished(page, namedId), finished(page, quietId)]);

  // The tab's requests: the page and the favicon the browser asks for it.
  const byTab = (r: Seen) => r.path === '/from-tab' || r.path === '/favicon.ico';
  const of = (host: string) => seen.filter((r) => r.host === host && !byTab(r));
  const namedReqs = of('named.test');
  const quietReqs = of('quiet.test');
  expect(namedReqs.map((r) => r.path)).toEqual(expect.arrayContaining(['/robots.txt', '/links', '/']));
  for (const r of namedReqs) expect(r.ua, r.path).toBe(named);
  expect(quietReqs.map((r) => r.path)).toEqual(expect.arrayContaining(['/robots.txt', '/']));
  for (const r of quietReqs) expect(r.ua, r.path).toBe(userAgent);
  const fromTab = seen.filter(byTab);
  expect(fromTab.map((r) => r.path)).toContain('/from-tab');
  for (const r of fromTab) expect(r.ua).not.toContain('FocusCrawler');
  // The crawls overlapped: the named crawl kept its name while the quiet one ran.
  const [qFirst, qLast] = [quietReqs[0]!.at, quietReqs.at(-1)!.at];
  expect(namedReqs.some((r) => r.at > qFirst && r.at < qLast)).toBe(true);

  // Once no crawl runs, the extension's rule is gone.
  type Dnr = { chrome: { declarativeNetRequest: { getSessionRules(): Promise<unknown[]> } } };
  await expect.poll(() => worker.evaluate(() => (globalThis as unknown as Dnr).chrome.declarativeNetRequest.getSessionRules())).toEqual([]);

  // The quiet crawl's details say it does not name itself.
  await dash.page.goto(`chrome-extension://${extensionId}/dashboard.html?crawl=${quietId}`);
  await expect.poll(() => dash.page.getByTestId('detail-identify').textContent()).toMatch(/does not name itself/);
  await browser!.close();
  browser = undefined;
});

it('names the crawl again after the browser restarts in its middle (session rules do not outlive the browser)', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-identity-'));
  const first = await launch(profileDir);
  const { crawlId } = await send<{ crawlId: number }>(first.page, 'start', {
    name: 'restart', seeds: ['http://restart.test/'], topic: { keywords: ['moss', 'lichen'] }, budget: { maxPages: 8 }, politeness: { delayMs: 600 },
  });
  await expect.poll(() => seen.filter((r) => r.host === 'restart.test').length, { timeout: 30_000 }).toBeGreaterThan(2);
  await first.close();
  const reopenedAt = Date.now();

  const second = await launch(profileDir);
  const userAgent = await second.worker.evaluate(() => navigator.userAgent);
  await finished(second.page, crawlId);
  const after = seen.filter((r) => r.host === 'restart.test' && r.at > reopenedAt);
  expect(after.length).toBeGreaterThan(0);
  for (const r of after) expect(r.ua, r.path).toBe(`${userAgent} FocusCrawler/${version}`);
});
