// A logged-in shop whose sign-out link no guard can know (`/x7`, anchor "✕"), crawled from the command line through
// the real extension in Chromium: the request that expires the session pauses the crawl after that one request, the
// command exits 3 with the sentence, the popup and the dashboard say it, and a resume after logging in again never
// requests it again. The server's log says what was requested.
// @module-tag chromium
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CrawlStatus } from '../../lib/app/protocol';
import { ensureBuilt, launchWithExtension, ROOT, send } from '../../scripts/lib/browser';
import { startSessionSite, type SessionSite } from '../fixtures/sites/session-site';
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
