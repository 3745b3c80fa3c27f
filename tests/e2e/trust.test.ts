// Trust with the user's session, in real Chromium with the built extension: a profile logged in to a hostile
// site is crawled. The server's log, not the crawler's records, says what was requested, with the session or
// not, and whether the session still holds at the end.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, launchWithExtension, send } from '../../scripts/lib/browser';
import { startTreeSite } from '../fixtures/sites/tree-site';
import { mulberry32 } from '../../lib/random';
import type { CrawlStatus } from '../../lib/protocol';
import { NEVER_REQUESTED, NOT_WEB, startHostileSite, type HostileSite } from '../fixtures/sites/hostile-site';
import type { PageRecord } from '../../lib/types';

let site: HostileSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startHostileSite({ robotsOutages: 2, retryAfterSeconds: 3 });
});
afterAll(() => site.close());

it('never requests an unsafe, robots-closed or off-scope redirect target; waits out outages; keeps the session', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-trust-'));
  const hostRules = `MAP *.test 127.0.0.1:${site.port}`;
  const first = await launchWithExtension({ profileDir, hostRules });
  const tab = await first.context.newPage();
  await tab.goto('http://club.test/login');
  await first.close();
  expect(site.sessionValid()).toBe(true);
  site.requests.length = 0;

  const out = mkdtempSync(join(tmpdir(), 'focus-trust-out-'));
  const summary = await runCrawl({
    config: {
      name: 'club', seeds: ['http://club.test/', 'http://flaky.test/'],
      topic: { keywords: ['astronomy', 'telescope', 'planet', 'galaxy', 'orbit'] },
      budget: { maxPages: 60 }, politeness: { delayMs: 0, concurrency: 4 }, fetch: { retryBaseMs: 500 },
    },
    out, profileDir, hostRules, log: () => {},
  });
  const pages = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as PageRecord);

  // What the server saw.
  const paths = site.requests.map((r) => r.path);
  for (const p of NEVER_REQUESTED) expect(paths, p).not.toContain(p);
  expect(site.requests.some((r) => r.host === 'elsewhere.test')).toBe(false);
  expect(site.sessionValid()).toBe(true);
  const clubPages = site.requests.filter((r) => r.host === 'club.test' && r.path !== '/robots.txt');
  expect(clubPages.length).toBeGreaterThan(5);
  expect(clubPages.every((r) => r.withSession && r.sessionValid)).toBe(true);
  expect(site.requests.filter((r) => r.path === '/robots.txt').every((r) => !r.withSession)).toBe(true);
  expect(site.requests.filter((r) => r.path === '/notes')).toHaveLength(1); // three spellings, one request
  expect(site.requests.filter((r) => r.path === '/busy')).toHaveLength(2); // 503 + Retry-After, then the page
  expect(site.requests.filter((r) => r.host === 'flaky.test' && r.path === '/robots.txt')).toHaveLength(3);
  for (const [host, path] of [['club.test', '/notes/orbits'], ['flaky.test', '/'], ['flaky.test', '/dome']]) {
    expect(site.requests.filter((r) => r.host === host && r.path === path), `${host}${path}`).toHaveLength(1);
  }

  // What the user is told.
  expect(summary.state).toBe('finished');
  const go1 = pages.find((p) => p.url === 'http://club.test/go/1')!;
  expect(go1.redirects).toEqual([{ url: 'http://club.test/go/1', status: 302 }]);
  expect(go1.error).toMatch(/^redirect to http:\/\/club\.test\/signout\?next=\/ not followed: unsafe link/);
  expect(pages.find((p) => p.url === 'http://club.test/go/3')!.error).toMatch(/robots\.txt/);
  expect(pages.find((p) => p.url === 'http://club.test/go/4')!.error).toMatch(/outside the crawl's scope/);
  expect(summary.failed).toBe(pages.filter((p) => p.outcome === 'failed').length);
  // A redirect to javascript:, data:, file: or chrome: is recorded as not followed at once, never asked again.
  // Chromium refuses to follow the first three without naming where they led (ERR_UNSAFE_REDIRECT).
  NOT_WEB.forEach((target, i) => {
    const path = `/away/${i}`;
    expect(site.requests.filter((r) => r.path === path), path).toHaveLength(1);
    const row = pages.find((p) => p.url === `http://club.test${path}`)!;
    expect(row.outcome, path).toBe('skipped');
    expect([
      `redirect to ${target} not followed: not a web address (${target.split(':')[0]}:), never requested`,
      'redirect not followed: not a web address (the browser refused to follow it), never requested',
    ], path).toContain(row.error);
  });
});

it('fails a crawl whose only seed cannot be fetched, saying why', async () => {
  const out = mkdtempSync(join(tmpdir(), 'focus-trust-404-'));
  const summary = await runCrawl({
    config: { name: 'gone', seeds: ['http://club.test/no-such-page'], topic: { keywords: ['astronomy'] }, politeness: { delayMs: 0 } },
    out, hostRules: `MAP *.test 127.0.0.1:${site.port}`, log: () => {},
  });
  expect(summary.state).toBe('failed');
  expect(summary.message).toMatch(/no page could be fetched \(http:\/\/club\.test\/no-such-page: HTTP 404\)/);
  expect(summary.pagesPerMinute).toBe(0);
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
