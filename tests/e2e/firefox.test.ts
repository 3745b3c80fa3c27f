// The same extension in a real Firefox (Debian's firefox-esr, or FIREFOX_PATH), loaded as a temporary add-on over
// WebDriver BiDi by the command-line runner's Firefox path. What the servers saw is the evidence: the demo crawl
// finds every astronomy page and never requests the log-out, delete or robots-closed pages; a profile logged in to
// a hostile site keeps its session while redirects to unsafe, closed or off-scope targets are never requested; the
// exports read back as they do from Chromium.
// @module-tag firefox
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, ROOT } from '../../scripts/lib/browser';
import { firefoxPath, launchFirefoxWithExtension } from '../../scripts/lib/firefox';
import { openSession } from '../../scripts/lib/session';
import type { CrawlStatus } from '../../lib/app/protocol';
import type { LabeledLink, PageRecord } from '../../lib/records/types';
import { ON_TOPIC_PATHS, demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';
import { crawlTrustSite, namedNotWeb, type LogIn } from './trust-scenario';
import { crawlUntilSessionLost, expectResumedWithoutIt } from './session-scenario';
import { startHostileSite, type HostileSite } from '../fixtures/sites/hostile-site';
import { startSessionSite, type SessionSite } from '../fixtures/sites/session-site';
import { SCRIPT_MADE, startScriptSite, type ScriptSite } from '../fixtures/sites/script-site';
import { startNightSkySite } from './labeler-page';
import { httpPayload, parseWarc, unzip } from '../support/archive-readers';

describe('Focus in Firefox', () => {
  beforeAll(() => {
    firefoxPath();
    ensureBuilt(undefined, 'firefox');
  });

  describe('the demo site', () => {
    let site: DemoServer;
    beforeAll(async () => {
      site = await startDemoServer();
    });
    afterAll(() => site.close());

    it('finds every astronomy page, never requests the unsafe or robots-closed ones, and exports every format', async () => {
      const out = mkdtempSync(join(tmpdir(), 'focus-firefox-demo-'));
      const profileDir = mkdtempSync(join(tmpdir(), 'focus-firefox-demo-profile-'));
      const summary = await runCrawl({
        config: demoConfig(site.origin), out, profileDir, browser: 'firefox', log: () => {}, exports: ['warc', 'wacz', 'jsonl', 'csv', 'zip'],
      });
      if (process.env.FOCUS_SCREENSHOTS) await screenshotPages(profileDir, summary.crawlId);
      expect(summary.state).toBe('finished');
      for (const p of ON_TOPIC_PATHS) expect(site.hits.has(p), p).toBe(true);
      for (const p of ['/account/logout', '/account/delete', '/staff/rota']) expect(site.hits.has(p), p).toBe(false);

      const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as PageRecord & { text?: string });
      // The moved page's redirect was seen (webRequest) and passed the gate: recorded, not followed blind.
      const moved = lines.find((p) => p.url.endsWith('/old/telescope-guide'))!;
      expect(moved.redirects?.[0]?.status).toBe(301);
      expect(moved.error).toMatch(/^redirect to .*\/space\/telescopes not followed: the target was already fetched/);
      const fetched = lines.filter((p) => p.outcome === 'done' && p.status === 200);
      expect(fetched.length).toBe(summary.fetched);
      expect(fetched.every((p) => typeof p.text === 'string' && p.text.length > 0)).toBe(true);

      // WARC: every fetched page's payload exactly as the server sends it.
      const records = await parseWarc(readFileSync(join(out, 'crawl.warc.gz')));
      const responses = new Map(records.filter((r) => r.headers['WARC-Type'] === 'response').map((r) => [r.headers['WARC-Target-URI']!, r]));
      for (const p of fetched) {
        const sent = Buffer.from(await (await fetch(p.finalUrl)).arrayBuffer());
        expect(httpPayload(responses.get(p.finalUrl)!.content).equals(sent), p.finalUrl).toBe(true);
      }
      const wacz = await unzip(readFileSync(join(out, 'crawl.wacz')));
      expect(wacz.has('datapackage.json') && wacz.has('archive/data.warc.gz')).toBe(true);
      const csv = Papa.parse<Record<string, string>>(readFileSync(join(out, 'pages.csv'), 'utf8'), { header: true, skipEmptyLines: true });
      expect(csv.errors).toEqual([]);
      expect(csv.data.length).toBe(lines.length);
      expect((await unzip(readFileSync(join(out, 'pages.zip')))).size).toBe(fetched.length);
    });
  });

  describe('the trust site, logged in', () => {
    let site: HostileSite;
    beforeAll(async () => {
      site = await startHostileSite({ robotsOutages: 2, retryAfterSeconds: 3 });
    });
    afterAll(() => site.close());

    it('keeps the session and never requests an unsafe, robots-closed or off-scope redirect target', async () => {
      // The user logs in in a tab of the same profile, then the crawl runs in it.
      const logIn: LogIn = async (profileDir, hostRules) => {
        const first = await launchFirefoxWithExtension({ profileDir, hostRules });
        await (await first.browser.newPage()).goto('http://club.test/login');
        await first.close();
      };
      // Firefox's webRequest shows where a redirect to javascript:, data: or file: led, so the sentence names it.
      await crawlTrustSite(site, 'firefox', logIn, (target) => [namedNotWeb(target)]);
    });
  });

  describe('a site built by scripts', () => {
    let site: ScriptSite;
    beforeAll(async () => {
      site = await startScriptSite();
    });
    afterAll(() => site.close());

    // Firefox has no debugger: the rendering tab's requests are guarded by blocking webRequest keyed to that tab.
    it('renders the shell pages, follows the links their scripts made, and stops the page asking for /logout', async () => {
      const out = mkdtempSync(join(tmpdir(), 'focus-firefox-render-'));
      const summary = await runCrawl({
        config: {
          name: 'stars-firefox', seeds: [`${site.origin}/`], topic: { keywords: ['star', 'stars', 'constellation'] },
          budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 2 }, fetch: { render: 'auto' },
        },
        out, browser: 'firefox', log: () => {},
      });
      expect(summary.state).toBe('finished');
      const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as PageRecord);
      const fetched = lines.filter((l) => l.status === 200 && l.outcome === 'done').map((l) => new URL(l.finalUrl).pathname);
      for (const path of SCRIPT_MADE) expect(fetched, path).toContain(path);
      const home = lines.find((l) => new URL(l.finalUrl).pathname === '/')!;
      expect(home.render).toMatchObject({ rendered: true, settled: true, blocked: 1 });
      // The page's own fetch('/logout') never reached the server; its script and JSON calls did.
      expect(site.requests).not.toContain('/logout');
      expect(site.requests).toContain('/api/stars');
      // The tab names the crawl, as the crawl's own requests do: /app.js is asked for by the page's tab only.
      expect(site.agents.get('/app.js')).toMatch(/ FocusCrawler\/\d/);
    });

    it('presses a list\'s "load more" while it grows, and no other button', async () => {
      site.requests.length = 0;
      const out = mkdtempSync(join(tmpdir(), 'focus-firefox-more-'));
      await runCrawl({
        config: {
          name: 'more-firefox', seeds: [`${site.origin}/more`], topic: { keywords: ['star'] },
          budget: { maxPages: 1 }, politeness: { delayMs: 0 }, fetch: { render: 'auto' },
        },
        out, browser: 'firefox', log: () => {},
      });
      const [line] = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as PageRecord);
      expect(line!.render).toMatchObject({ rendered: true, pressed: 3, changed: 'rendering found 12 more links' });
      expect(site.requests).not.toContain('/pressed/subscribe');
    });

    it('reads an endless feed to its end with the default caps, and stops one without end at the cap on links', async () => {
      const feed = async (query: string, fetch: Record<string, unknown> = {}) => {
        const out = mkdtempSync(join(tmpdir(), 'focus-firefox-feed-'));
        await runCrawl({
          config: {
            name: 'feed-firefox', seeds: [`${site.origin}/feed${query}`], topic: { keywords: ['star'] },
            budget: { maxPages: 1 }, politeness: { delayMs: 0 }, fetch: { render: 'auto', ...fetch },
          },
          out, browser: 'firefox', log: () => {},
        });
        return (JSON.parse(readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n')[0]!) as PageRecord).render;
      };
      expect(await feed('?batches=12')).toMatchObject({ rendered: true, scrolled: 11, stopped: 'end', changed: 'rendering found 60 more links' });
      expect(await feed('?batches=1000', { renderGrowLinks: 23 })).toMatchObject({ scrolled: 4, stopped: 'links', changed: 'rendering found 25 more links' });
    });

    it("keeps the site's own service worker from installing, or from requesting what the guard refuses", async () => {
      // A worker the page would install is refused: rendering leaves none in the browser, and none calls /sw/logout.
      site.requests.length = 0;
      const out = mkdtempSync(join(tmpdir(), 'focus-firefox-worker-'));
      await runCrawl({
        config: {
          name: 'worker-firefox', seeds: [`${site.origin}/worker`], topic: { keywords: ['star'] },
          budget: { maxPages: 1 }, politeness: { delayMs: 0 }, fetch: { render: 'auto' },
        },
        out, browser: 'firefox', log: () => {},
      });
      const [line] = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as PageRecord);
      expect(line!.render).toMatchObject({ rendered: true, blocked: 1 });
      expect(site.requests).toContain('/app.js');
      for (const path of ['/sw.js', '/sw/logout']) expect(site.requests, path).not.toContain(path);

      // A worker the reader installed before the crawl fetches for the page and on its own, in no tab: its requests are
      // put to the same gate while the page renders.
      const session = await openSession('firefox', {});
      try {
        const tab = await session.firefox!.browser.newPage();
        await tab.goto(`${site.origin}/worker?install`);
        await tab.waitForFunction(() => document.body.textContent?.includes('Installed'), { timeout: 60_000 });
        await tab.close();
        site.requests.length = 0;
        const { crawlId } = await session.send<{ crawlId: number }>('start', {
          name: 'worker-installed', seeds: [`${site.origin}/worker`], topic: { keywords: ['star'] },
          budget: { maxPages: 1 }, politeness: { delayMs: 0 }, fetch: { render: 'auto' },
        });
        await expect.poll(async () => (await session.send<CrawlStatus>('status', { crawlId })).crawl.state, { timeout: 60_000, interval: 250 }).toBe('finished');
      } finally {
        await session.close();
      }
      // The worker read the page's list for it and its own /api/ call, and was kept from /sw/logout.
      expect(site.requests).toContain('/api/worker-items');
      expect(site.requests).not.toContain('/sw/logout');
    });
  });

  describe('a session the crawl ends', () => {
    let site: SessionSite;
    beforeAll(async () => {
      site = await startSessionSite();
    });
    afterAll(() => site.close());

    // Firefox shows Cookie and Set-Cookie to webRequest without Chrome's 'extraHeaders': the cookie trace is what
    // tells a request logged the user out.
    it('pauses on the request that ended the session (the command exits 3), and a resume never asks it again', async () => {
      const profileDir = mkdtempSync(join(tmpdir(), 'focus-firefox-session-'));
      const hostRules = `MAP *.test 127.0.0.1:${site.port}`;
      const login = async (session: Awaited<ReturnType<typeof openSession>>) => {
        const tab = await session.firefox!.browser.newPage();
        await tab.goto('http://shop.test/login?as=member');
        await tab.close();
      };
      const first = await openSession('firefox', { profileDir, hostRules });
      await login(first);
      await first.close();
      const crawlId = await crawlUntilSessionLost(site, 'firefox', profileDir, hostRules);

      // The user logs in again in the same profile and resumes; the crawl's database outlived the restart.
      const again = await openSession('firefox', { profileDir, hostRules });
      try {
        expect((await again.send<CrawlStatus>('status', { crawlId })).crawl.state).toBe('paused');
        await login(again);
        await again.send('resume', { crawlId });
        await expect.poll(async () => (await again.send<CrawlStatus>('status', { crawlId })).crawl.state, { timeout: 60_000, interval: 250 }).toBe('finished');
      } finally {
        await again.close();
      }
      expectResumedWithoutIt(site);
    });
  });

  describe('the background suspended mid-crawl', () => {
    let site: DemoServer;
    beforeAll(async () => {
      site = await startDemoServer();
    });
    afterAll(() => site.close());

    // Firefox's MV3 background is an event page, suspended after `extensions.background.idle.timeout` (30 s) without
    // an event or an extension API call. Here it is 1 s while the crawl waits 4 s between pages, so the page is
    // suspended mid-crawl; the resume alarm starts it again and the crawl goes on by itself.
    it('resumes by its alarm and fetches each page once', { timeout: 240_000 }, async () => {
      const ff = await launchFirefoxWithExtension({ prefs: { 'extensions.background.idle.timeout': 1000 } });
      try {
        const config = { ...demoConfig(site.origin), budget: { maxPages: 2 }, politeness: { delayMs: 4000, concurrency: 1 } };
        const reply = await ff.tab.evaluate((c) => (globalThis as unknown as Sender).browser.runtime.sendMessage({ type: 'start', data: c }), config);
        const crawlId = (reply as { result: { crawlId: number } }).result.crawlId;
        // Read IndexedDB from the extension's tab: unlike a message, that does not wake the background.
        const state = () => ff.tab.evaluate((id) => new Promise<string>((resolve, reject) => {
          const open = indexedDB.open('focus');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const get = open.result.transaction('crawls').objectStore('crawls').get(id);
            get.onsuccess = () => {
              open.result.close();
              resolve((get.result as { state: string }).state);
            };
          };
        }), crawlId);
        await expect.poll(state, { timeout: 200_000, interval: 1000 }).toBe('finished');
      } finally {
        await ff.close();
      }
      // The background lost its memory (robots.txt asked again after each start) and no page was asked twice.
      expect(site.hits.get('/robots.txt')).toBeGreaterThan(1);
      expect([...site.hits].filter(([p, n]) => p !== '/robots.txt' && n > 1)).toEqual([]);
      expect([...site.hits.keys()].filter((p) => p !== '/robots.txt')).toHaveLength(2);
    });
  });

  describe('the on-page labeler', () => {
    // Switched on by the popup's message; the content script is injected with scripting.executeScript, which the
    // host access granted at install allows on any page.
    it('marks the links of a page, stores a label given by key, and leaves the page as it was when switched off', async () => {
      const site = await startNightSkySite();
      const session = await openSession('firefox', {});
      try {
        const ff = session.firefox!;
        const page = await ff.browser.newPage();
        await page.goto(site.url);
        const before = await page.evaluate(() => document.documentElement.outerHTML);
        const tabs = await ff.tab.evaluate(() => (globalThis as unknown as Tabs).browser.tabs.query({}), null);
        const tabId = tabs.find((t) => t.url === site.url)!.id;
        const hosts = () => page.evaluate(() => document.querySelectorAll('focus-labeler').length);
        expect(await session.send('setLabeler', { tabId, on: true })).toEqual({ on: true });
        expect(await session.send('setLabeler', { tabId, on: true })).toEqual({ on: true });
        expect(await hosts()).toBe(1);
        if (process.env.FOCUS_SCREENSHOTS) {
          await page.setViewport({ width: 1100, height: 700 });
          await new Promise((r) => setTimeout(r, 1000));
          await page.screenshot({ path: join(screenshotDir(), 'labeler.png') });
          await page.setViewport({ width: 800, height: 600 });
        }

        await page.hover('a[href="/kitchen/lentil-soup"]');
        await page.keyboard.press('2');
        const userLabels = () => ff.tab.evaluate(() => new Promise<LabeledLink[]>((resolve, reject) => {
          const open = indexedDB.open('focus');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const all = open.result.transaction('labels').objectStore('labels').getAll();
            all.onsuccess = () => (open.result.close(), resolve(all.result as LabeledLink[]));
          };
        }), null);
        await expect.poll(async () => (await userLabels()).filter((l) => l.source === 'user').map(({ url, label, pageUrl }) => ({ url, label, pageUrl })))
          .toEqual([{ url: `${site.origin}/kitchen/lentil-soup`, label: 0, pageUrl: site.url }]);

        expect(await session.send('setLabeler', { tabId, on: false })).toEqual({ on: false });
        expect(await hosts()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.outerHTML)).toBe(before);
      } finally {
        await session.close();
        await site.close();
      }
    });
  });

  describe('without host access', () => {
    // A user can take the access back in Firefox's Extensions menu; the background then refuses to start a crawl,
    // saying where to give it, rather than retrying requests the browser refuses.
    it('refuses to start a crawl and says where to allow it; nothing is requested', async () => {
      const site = await startDemoServer();
      const session = await openSession('firefox', {});
      try {
        const removed = await session.firefox!.tab.evaluate(
          () => (globalThis as unknown as Permissions).browser.permissions.remove({ origins: ['<all_urls>'] }), null);
        expect(removed).toBe(true);
        await expect(session.send('start', demoConfig(site.origin))).rejects.toThrow(
          /^Focus may not read websites: allow "Access your data for all websites" for Focus in Firefox's Extensions menu/);
        expect(site.hits.size).toBe(0);
      } finally {
        await session.close();
        await site.close();
      }
    });
  });
});


type Sender = { browser: { runtime: { sendMessage(m: unknown): Promise<unknown> } } };
type Tabs = { browser: { tabs: { query(q: object): Promise<{ id: number; url?: string }[]> } } };

const screenshotDir = () => {
  const dir = join(ROOT, 'results', new Date().toISOString().slice(0, 10), 'firefox');
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** The dashboard and the popup of a finished crawl, in Firefox, opened again in the crawl's profile. */
async function screenshotPages(profileDir: string, crawlId: number): Promise<void> {
  const ff = await launchFirefoxWithExtension({ profileDir });
  try {
    for (const [name, path, width, height] of [['dashboard', `dashboard.html?crawl=${crawlId}`, 1280, 900], ['popup', 'popup.html', 380, 600]] as const) {
      const tab = await ff.openExtensionPage(path);
      await tab.page.setViewport({ width, height });
      await new Promise((r) => setTimeout(r, 2000)); // the live queries' first answer and the chart
      await tab.page.screenshot({ path: join(screenshotDir(), `${name}.png`) });
    }
  } finally {
    await ff.close();
  }
}
type Permissions = { browser: { permissions: { remove(p: { origins: string[] }): Promise<boolean> } } };
