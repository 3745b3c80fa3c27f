// A logged-in shop whose sign-out link no guard can know (`/x7`, anchor "✕"), crawled from the command line through
// the real extension in Chromium: the request that expires the session pauses the crawl after that one request, the
// command exits 3 with the sentence, the popup and the dashboard say it, and a resume after logging in again never
// requests it again. The server's log says what was requested.
// @module-tag chromium
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CrawlStatus } from '../../lib/app/protocol';
import { ensureBuilt, launchWithExtension, ROOT, send } from '../../scripts/lib/browser';
import { startSessionSite, type SessionSite } from '../fixtures/sites/session-site';
import { startQuietLogoutSite } from '../fixtures/sites/quiet-logout-site';
import { openDashboard, PopupPage } from './page-objects';
import { crawlUntilSessionLost, expectResumedWithoutIt, SESSION_LOST_SENTENCE } from './session-scenario';

let site: SessionSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startSessionSite();
});
afterAll(() => site.close());

it('pauses on the request that ended the session, says so everywhere, and a resume never asks it again', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-session-'));
  const hostRules = `MAP *.test 127.0.0.1:${site.port}`;
  const login = async () => {
    const l = await launchWithExtension({ profileDir, hostRules });
    await (await l.context.newPage()).goto('http://shop.test/login?as=member');
    await l.close();
  };
  await login();
  // The command a user types.
  const crawlId = await crawlUntilSessionLost(site, 'chromium', profileDir, hostRules);
  const sentence = SESSION_LOST_SENTENCE;

  const again = await launchWithExtension({ profileDir, hostRules });
  try {
    // The popup and the dashboard say it, as an alert.
    const popup = await new PopupPage(await again.context.newPage(), again.extensionId).open();
    const message = popup.page.getByTestId('message');
    await expect.poll(() => message.innerText()).toBe(sentence);
    expect(await message.getAttribute('class')).toContain('alert');
    expect((await popup.state()).toLowerCase()).toBe('paused');
    if (process.env.FOCUS_SCREENSHOTS) {
      mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
      await popup.page.setViewportSize({ width: 380, height: 560 });
      await popup.page.screenshot({ path: join(ROOT, 'docs', 'images', 'popup-session-lost.png') });
    }
    const { dash, errors } = await openDashboard(again.context, again.extensionId, `crawl=${crawlId}`);
    await expect.poll(() => dash.getByTestId('detail-message').innerText()).toBe(sentence);
    const kept = dash.getByTestId('kept-item').filter({ hasText: 'http://shop.test/x7' });
    await expect.poll(() => kept.count()).toBe(1);
    expect(await kept.innerText()).toContain('ended your session');
    expect(errors).toEqual([]);

    // The user logs in again and resumes.
    await (await again.context.newPage()).goto('http://shop.test/login?as=member');
    await send(again.page, 'resume', { crawlId });
    await expect.poll(async () => (await send<CrawlStatus>(again.page, 'status', { crawlId })).crawl.state, { timeout: 60_000, interval: 250 }).toBe('finished');
    const done = (await send<CrawlStatus>(again.page, 'status', { crawlId })).crawl;
    expect(done.sessionLost).toBeUndefined();
    await expect.poll(() => message.getAttribute('class')).not.toContain('alert');
  } finally {
    await again.close();
  }
  expectResumedWithoutIt(site);
});

// In Chrome the crawl observes cookies only of the hosts the browser holds cookies for: a session that begins while the
// crawl runs (here its seed is the link that logs in) must be observed from its first request on.
it('notices the end of a session that began while the crawl ran', async () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-session-begun-'));
  const hostRules = `MAP *.test 127.0.0.1:${site.port}`;
  await crawlUntilSessionLost(site, 'chromium', profileDir, hostRules, ['http://shop.test/login?as=member']);
  expect(site.requests.find((r) => r.path === '/login')).toEqual({ path: '/login', withSession: false });
});

// A forum that ends the session on its side and goes on answering with the pages a visitor who is not logged in sees:
// no cookie cleared, no redirect. The crawl learns the forum's logged-in signs from its pages and pauses once they
// vanish; the server's own log shows at most two requests reached it after it ended the session.
it('pauses within two requests of a host whose pages stop showing the user logged in, and names the page after which', async () => {
  const forum = await startQuietLogoutSite({ endAfter: 7 });
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-quiet-logout-'));
  const hostRules = `MAP *.test 127.0.0.1:${forum.port}`;
  try {
    const login = await launchWithExtension({ profileDir, hostRules });
    await (await login.context.newPage()).goto('http://forum.test/login?as=member');
    await login.close();
    forum.requests.length = 0;
    const dir = mkdtempSync(join(tmpdir(), 'focus-quiet-logout-out-'));
    const configFile = join(dir, 'config.json');
    writeFileSync(configFile, JSON.stringify({
      name: 'forum', seeds: ['http://forum.test/'], topic: { keywords: ['astronomy', 'telescopes', 'planets', 'galaxies'] },
      budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 4, perHost: 4 },
    }));
    const cli = await runCli(['--config', configFile, '--out', join(dir, 'out'), '--profile', profileDir, '--host-rules', hostRules]);
    expect(cli.status, cli.stderr).toBe(3);
    const summary = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8')) as { crawlId: number; sessionLost: { url: string; by: string; after: string } };
    expect(summary.sessionLost).toMatchObject({ by: 'signs' });
    const { url, after } = summary.sessionLost;
    const sentence = `paused: your session on forum.test has ended after ${after}, the last page that showed you logged in: ${url} came back as ` +
      'a visitor who is not logged in sees it (no sign-out link, no menu of yours, a sign-in link). Log in to forum.test again in this browser, then resume';
    expect(cli.stderr).toContain(`focus: ${sentence}`);
    // The server's log: every request carried the session, and no more than two reached the forum after it ended it.
    const ended = forum.endedAt();
    expect(ended).not.toBeNull();
    expect(forum.requests.slice(0, ended!).filter((r) => r.path !== '/robots.txt').every((r) => r.withSession)).toBe(true);
    expect(forum.requests.length - ended!).toBeLessThanOrEqual(2);
    expect(forum.requests.map((r) => r.path)).not.toContain('/session/end');

    // The dashboard says it, as an alert.
    const again = await launchWithExtension({ profileDir, hostRules });
    try {
      const { dash, errors } = await openDashboard(again.context, again.extensionId, `crawl=${summary.crawlId}`);
      const message = dash.getByTestId('detail-message');
      await expect.poll(() => message.innerText()).toBe(sentence);
      expect(await message.getAttribute('class')).toContain('alert');
      if (process.env.FOCUS_SCREENSHOTS) {
        await message.scrollIntoViewIfNeeded();
        await dash.screenshot({ path: join(ROOT, 'docs', 'images', 'dashboard-session-ended.png') });
      }
      expect(errors).toEqual([]);
    } finally {
      await again.close();
    }
  } finally {
    await forum.close();
  }
});

/** `npm run crawl` in Chromium, apart from this process (the site answers from it). */
function runCli(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'scripts/crawl.ts', '--browser', 'chromium', ...args], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}
