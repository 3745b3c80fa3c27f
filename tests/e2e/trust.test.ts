// Trust with the user's session, in real Chromium with the built extension: a profile logged in to a hostile
// site is crawled. The server's log, not the crawler's records, says what was requested, with the session or
// not, and whether the session still holds at the end.
// @module-tag chromium
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, launchWithExtension, ROOT, send } from '../../scripts/lib/browser';
import { openDashboard } from './page-objects';
import { crawlTrustSite, namedNotWeb, type LogIn } from './trust-scenario';
import { startTreeSite } from '../fixtures/sites/tree-site';
import { mulberry32 } from '../../lib/records/random';
import type { CrawlStatus } from '../../lib/app/protocol';
import { KEPT_READS, NEVER_REQUESTED, startHostileSite, type HostileSite } from '../fixtures/sites/hostile-site';

let site: HostileSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startHostileSite({ robotsOutages: 2, retryAfterSeconds: 3 });
});
afterAll(() => site.close());

it('never requests an unsafe, robots-closed or off-scope redirect target; waits out outages; keeps the session', async () => {
  const logIn: LogIn = async (profileDir, hostRules) => {
    const first = await launchWithExtension({ profileDir, hostRules });
    await (await first.context.newPage()).goto('http://club.test/login');
    await first.close();
  };
  // Chromium refuses to follow javascript:, data: and file: without naming where they led (ERR_UNSAFE_REDIRECT).
  await crawlTrustSite(site, 'chromium', logIn, (target) => [namedNotWeb(target), 'redirect not followed: not a web address (the browser refused to follow it), never requested']);
});

it('fails a crawl whose only seed cannot be fetched, saying why', async () => {
  const out = mkdtempSync(join(tmpdir(), 'focus-trust-404-'));
  const summary = await runCrawl({
    config: { name: 'gone', seeds: ['http://club.test/no-such-page'], topic: { keywords: ['astronomy'] }, politeness: { delayMs: 0 } },
    out, hostRules: `MAP *.test 127.0.0.1:${site.port}`, log: () => {},
  });
  expect(summary.state).toBe('failed');
  expect(summary.message).toMatch(/no page could be fetched \(http:\/\/club\.test\/no-such-page: HTTP 404\)/);
  expect(summary.pagesPerMinute).toBeNull();
});

it('crawls a generated tree in Chromium at concurrency 4 to 8 with random latencies, each page once, every run', async () => {
  const tree = await startTreeSite();
  const rand = mulberry32(5);
  tree.setLatency(() => Math.floor(rand() * 40));
  const launched = await launchWithExtension();
  try {
    for (const concurrency of [4, 6, 8]) {
      tree.hits.clear();
      const { crawlId } = await send<{ crawlId: number }>(launched.page, 'start', {
        name: `tree ${concurrency}`, seeds: [`${tree.origin}/p/0`], topic: { keywords: ['astronomy', 'planets'] },
        budget: { maxPages: 1000 }, politeness: { delayMs: 0, concurrency, perHost: concurrency, robots: false },
        learning: { rescoreEveryPages: 20 },
      });
      let status: CrawlStatus | null = null;
      for (let i = 0; i < 600; i++) {
        status = await send<CrawlStatus | null>(launched.page, 'status', { crawlId });
        if (status && !['running', 'training'].includes(status.crawl.state)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(status!.crawl.message, `concurrency ${concurrency}`).toMatch(/frontier empty/);
      expect(tree.hits.size, `concurrency ${concurrency}`).toBe(tree.size);
      expect([...tree.hits.values()].every((n) => n === 1), `concurrency ${concurrency}`).toBe(true);
    }
  } finally {
    await launched.close();
    await tree.close();
  }
});

// The user decides at the edge: in the dashboard's "Kept from requesting" list, a link kept though it only reads can
// be allowed (after a second click); the crawl then requests it, once, and the allowance is shown with its time.
it('lets the user allow a kept link from the dashboard, and the crawl then requests it', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-trust-allow-'));
  const hostRules = `MAP *.test 127.0.0.1:${site.port}`;
  const launched = await launchWithExtension({ profileDir, hostRules });
  try {
    await (await launched.context.newPage()).goto('http://club.test/login');
    site.requests.length = 0;
    const { crawlId } = await send<{ crawlId: number }>(launched.page, 'start', {
      name: 'club', seeds: ['http://club.test/members'], topic: { keywords: ['astronomy', 'telescope', 'planet', 'galaxy'] },
      budget: { maxPages: 30 }, politeness: { delayMs: 0, concurrency: 2 },
    });
    const state = async () => (await send<CrawlStatus>(launched.page, 'status', { crawlId })).crawl.state;
    await expect.poll(state, { timeout: 60_000, interval: 250 }).toBe('finished');
    for (const p of KEPT_READS) expect(site.requests.filter((r) => r.path === p), p).toHaveLength(0);

    const { dash, errors } = await openDashboard(launched.context, launched.extensionId, `crawl=${crawlId}`);
    const item = dash.getByTestId('kept-item').filter({ hasText: 'http://club.test/vote/2024' });
    // The machine may be busy: the dashboard gets time to read, the assertions stay the same.
    const soon = { timeout: 15_000 };
    await expect.poll(() => item.count(), soon).toBe(1);
    expect(await item.getByTestId('kept-why').innerText()).toBe('never requested, it could change or end your session');
    const shoot = async (name: string) => {
      if (!process.env.FOCUS_SCREENSHOTS) return;
      await dash.getByTestId('kept').scrollIntoViewIfNeeded();
      await item.scrollIntoViewIfNeeded();
      await dash.getByTestId('kept').screenshot({ path: join(ROOT, 'docs', 'images', name) });
    };
    await shoot('kept-from-requesting.png');
    await item.getByTestId('kept-allow').click();
    await shoot('kept-allow-confirm.png');
    await item.getByTestId('kept-allow-url').click();
    await expect.poll(() => dash.getByTestId('kept-note').innerText(), soon).toBe('Allowed by you: http://club.test/vote/2024, queued again; the crawl requests it next.');
    await expect.poll(() => dash.getByTestId('kept-item').filter({ hasText: 'http://club.test/vote/2024' }).count(), soon).toBe(0);
    await expect.poll(() => dash.getByTestId('detail-safety').innerText(), soon).toMatch(/^all rules on; allowed by you: http:\/\/club\.test\/vote\/2024 \(/);

    // The crawl had finished: it starts again for what was allowed, and finishes once it is requested.
    await expect.poll(async () => site.requests.filter((r) => r.path === '/vote/2024').length, { timeout: 60_000, interval: 250 }).toBe(1);
    await expect.poll(state, { timeout: 60_000, interval: 250 }).toBe('finished');
    // The server's log: the allowed page once, with the session; the other kept page and every unsafe one never.
    expect(site.requests.filter((r) => r.path === '/vote/2024')).toEqual([expect.objectContaining({ withSession: true })]);
    expect(site.requests.filter((r) => r.path === '/vote/2023')).toHaveLength(0);
    for (const p of NEVER_REQUESTED) expect(site.requests.filter((r) => r.path === p), p).toHaveLength(0);
    expect(site.sessionValid()).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await launched.close();
  }
});
