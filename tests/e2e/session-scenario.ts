// The shop whose sign-out no guard can know (`/x7`, "✕"), crawled from the command line a user types, in any
// browser: the command exits 3 with the sentence after the one request that ended the session, and after logging in
// again and resuming, that request is never made again. The server's log is the evidence.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../../scripts/lib/browser';
import type { BrowserName } from '../../scripts/lib/session';
import type { SessionSite } from '../fixtures/sites/session-site';

export const SESSION_LOST_SENTENCE = 'paused: requesting http://shop.test/x7 ended your session on shop.test (the site cleared the cookie "shop_sid"). ' +
  'Log in to shop.test again in this browser, then resume: that URL will not be requested again';

/**
 * Runs `npm run crawl` on the shop in a logged-in profile (or from `seeds` that log in); checks it stopped on /x7 at
 * once. Returns the crawl's id.
 */
export async function crawlUntilSessionLost(site: SessionSite, browser: BrowserName, profileDir: string, hostRules: string, seeds = ['http://shop.test/']): Promise<number> {
  site.requests.length = 0;
  const dir = mkdtempSync(join(tmpdir(), `focus-session-${browser}-out-`));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({
    name: 'shop', seeds, topic: { keywords: ['astronomy', 'telescopes', 'galaxies'] },
    budget: { maxPages: 30 }, politeness: { delayMs: 0, concurrency: 2 },
  }));
  // Run apart, not synchronously: the site answers from this process.
  const cli = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const args = ['tsx', 'scripts/crawl.ts', '--browser', browser, '--config', configFile, '--out', join(dir, 'out'), '--profile', profileDir, '--host-rules', hostRules];
    const child = spawn('npx', args, { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
  expect(cli.status, cli.stderr).toBe(3);
  expect(cli.stderr).toContain(`focus: ${SESSION_LOST_SENTENCE}`);

  // What the server saw: the one request, carrying the session, and at most the other one already in flight after it.
  const at = site.requests.findIndex((r) => r.path === '/x7');
  expect(at).toBeGreaterThan(0);
  expect(site.requests[at].withSession).toBe(true);
  expect(site.requests.length - 1 - at).toBeLessThanOrEqual(1);
  expect(site.sessionValid()).toBe(false);
  return (JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8')) as { crawlId: number }).crawlId;
}

/** After logging in again and resuming to the end: /x7 was asked once in all, every page once, with the session. */
export function expectResumedWithoutIt(site: SessionSite): void {
  expect(site.requests.filter((r) => r.path === '/x7')).toHaveLength(1);
  for (let i = 0; i < 6; i++) expect(site.requests.filter((r) => r.path === `/p/${i}`), `/p/${i}`).toHaveLength(1);
  expect(site.requests.filter((r) => r.path.startsWith('/p/')).every((r) => r.withSession)).toBe(true);
  expect(site.sessionValid()).toBe(true);
}
