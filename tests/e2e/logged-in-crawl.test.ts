// (a) A login-protected site is crawled with the session of a profile that logged in first,
// and the log-out link is never requested.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, launchWithExtension } from '../../scripts/lib/browser';
import { startMembersSite, type MembersSite } from '../fixtures/sites/members-site';

let site: MembersSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startMembersSite();
});
afterAll(() => site.close());

it('crawls members-only pages with the logged-in profile and never logs out', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-login-'));
  const hostRules = `MAP *.test 127.0.0.1:${site.port}`;
  // The user logs in once, in their own browser profile.
  const first = await launchWithExtension({ profileDir, hostRules });
  const tab = await first.context.newPage();
  await tab.goto('http://astro-society.test/login');
  await tab.click('#login');
  await tab.waitForURL('**/members/');
  await first.close();
  site.requests.length = 0;

  const out = mkdtempSync(join(tmpdir(), 'focus-out-'));
  const summary = await runCrawl({
    config: {
      name: 'members', seeds: ['http://astro-society.test/members/'],
      topic: { keywords: ['astronomy', 'telescope', 'planet', 'galaxy', 'star'] },
      budget: { maxPages: 20 }, politeness: { delayMs: 0 },
    },
    out, profileDir, hostRules, log: () => {},
  });
  const pages = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const fetched = pages.filter((p) => p.status === 200).map((p) => new URL(p.finalUrl).pathname).sort();
  expect(fetched).toEqual(['/members/', '/members/astro-0', '/members/astro-1', '/members/astro-2', '/members/astro-3']);
  expect(pages.every((p) => !p.finalUrl.endsWith('/login'))).toBe(true);
  expect(summary.state).toBe('finished');
  expect(summary.relevant).toBeGreaterThanOrEqual(4);
  const crawlRequests = site.requests.filter((r) => r.path !== '/robots.txt');
  expect(crawlRequests.length).toBeGreaterThan(0);
  expect(crawlRequests.every((r) => r.loggedIn)).toBe(true);
  expect(site.requests.some((r) => r.path === '/logout' || r.path === '/account/delete')).toBe(false);
});
