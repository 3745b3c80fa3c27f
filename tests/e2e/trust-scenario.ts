// The trust site crawled with a logged-in profile, the same scenario in every browser: the user logs in in a tab of
// the profile, the runner crawls in it, and the server's log says what was requested, with the session or not.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import type { BrowserName } from '../../scripts/lib/session';
import type { PageRecord } from '../../lib/records/types';
import { NEVER_REQUESTED, NOT_WEB, type HostileSite } from '../fixtures/sites/hostile-site';

/** Logs in to the club in a tab of the profile, then closes the browser. */
export type LogIn = (profileDir: string, hostRules: string) => Promise<void>;

/**
 * Crawls the hostile site logged in and checks what the server saw and what the user is told. `notWeb`: the reasons a
 * redirect to a non-web address may be recorded with in this browser (Chromium cannot always say where it led).
 */
export async function crawlTrustSite(site: HostileSite, browser: BrowserName, logIn: LogIn, notWeb: (target: string) => string[]): Promise<void> {
  const profileDir = mkdtempSync(join(tmpdir(), `focus-trust-${browser}-`));
  const hostRules = `MAP *.test 127.0.0.1:${site.port}`;
  await logIn(profileDir, hostRules);
  expect(site.sessionValid()).toBe(true);
  site.requests.length = 0;

  const out = mkdtempSync(join(tmpdir(), `focus-trust-${browser}-out-`));
  const summary = await runCrawl({
    config: {
      name: 'club', seeds: ['http://club.test/', 'http://flaky.test/'],
      topic: { keywords: ['astronomy', 'telescope', 'planet', 'galaxy', 'orbit'] },
      budget: { maxPages: 60 }, politeness: { delayMs: 0, concurrency: 4 }, fetch: { retryBaseMs: 500 },
    },
    out, profileDir, hostRules, browser, log: () => {},
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
  NOT_WEB.forEach((target, i) => {
    const path = `/away/${i}`;
    expect(site.requests.filter((r) => r.path === path), path).toHaveLength(1);
    const row = pages.find((p) => p.url === `http://club.test${path}`)!;
    expect(row.outcome, path).toBe('skipped');
    expect(notWeb(target), path).toContain(row.error);
  });
}

/** The reason a redirect to `target` is recorded with when the browser names where it led. */
export const namedNotWeb = (target: string) => `redirect to ${target} not followed: not a web address (${target.split(':')[0]}:), never requested`;
