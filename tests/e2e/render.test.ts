// Pages built by scripts, crawled from the command line through the real extension in Chromium: a star catalogue
// whose every page the server sends as the same shell (tests/fixtures/sites/script-site.ts). With `render: auto` the
// crawl reads what a reader sees (a JSON-filled list, a delayed link, a shadow-root widget, a same-origin frame, a
// pushState-routed app) and the page's own `fetch('/logout')` is stopped before it reaches the server; with
// `render: never` it finds none of the script-made links. The server's log says what was requested.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, launchWithExtension, send, USER_EXTENSION_DIR, type Launched } from '../../scripts/lib/browser';
import type { CrawlStatus } from '../../lib/app/protocol';
import type { ExportFormat } from '../../lib/records/rows';
import { ITEMS_JSON, SCRIPT_MADE, STAR_PNG, startScriptSite, type ScriptSite } from '../fixtures/sites/script-site';
import { httpPayload, parseWarc, unzip } from '../support/archive-readers';
import { openDashboard } from './page-objects';

interface Line {
  url: string;
  finalUrl: string;
  status: number;
  outcome?: string;
  render?: {
    rendered: boolean; why: string; kind?: string; settled?: boolean; scrolled?: number; pressed?: number; stopped?: string; changed?: string; blocked?: number;
    error?: string; ms?: number; phases?: { load: number; settle: number; grow: number; read: number };
  };
}

let site: ScriptSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startScriptSite();
});
afterAll(() => site.close());

interface Hooks {
  onStarted?: (l: Launched) => Promise<void>;
  onFinished?: (l: Launched, crawlId: number) => Promise<void>;
}

interface More {
  seeds?: string[];
  maxPages?: number;
  fetch?: Record<string, unknown>;
  exports?: ExportFormat[];
}

async function crawl(render: 'auto' | 'never', hooks: Hooks = {}, more: More = {}) {
  site.requests.length = 0;
  const out = mkdtempSync(join(tmpdir(), `focus-render-${render}-`));
  const summary = await runCrawl({
    config: {
      name: `stars-${render}`, seeds: more.seeds ?? [`${site.origin}/`], topic: { keywords: ['star', 'stars', 'constellation'] },
      budget: { maxPages: more.maxPages ?? 40 }, politeness: { delayMs: 0, concurrency: 2 }, fetch: { render, ...more.fetch },
    },
    out, log: () => {}, ...hooks, ...(more.exports ? { exports: more.exports } : {}),
  });
  const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
  const fetched = lines.filter((l) => l.status === 200 && l.outcome === 'done').map((l) => new URL(l.finalUrl).pathname);
  return { summary, lines, fetched, out };
}

it('with render: auto, reads what a reader sees and stops the page asking for /logout', async () => {
  let userTabFocused = true;
  let tags: { text: string; title: string | null }[] = [];
  let leftOpen: string[] = [];
  const { summary, lines, fetched } = await crawl('auto', {
    onStarted: async ({ context }) => {
      // The user's own tab stays in front while pages render in the background.
      const mine = await context.newPage();
      await mine.goto('about:blank');
      await mine.bringToFront();
      const start = Date.now();
      while (Date.now() - start < 3000) {
        userTabFocused &&= await mine.evaluate(() => document.visibilityState === 'visible');
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    onFinished: async ({ context, extensionId }, crawlId) => {
      // Every render tab was closed when its page was read.
      leftOpen = context.pages().map((p) => p.url()).filter((u) => u.startsWith(site.origin));
      // The Pages table tags each rendered page, and says why in its title.
      const { dash } = await openDashboard(context, extensionId, `crawl=${crawlId}`);
      const tag = dash.getByTestId('page-render');
      await expect.poll(() => tag.count()).toBeGreaterThan(5);
      tags = await Promise.all((await tag.all()).map(async (t) => ({ text: (await t.textContent()) ?? '', title: await t.getAttribute('title') })));
    },
  });
  expect(summary.state).toBe('finished');
  for (const path of SCRIPT_MADE) expect(fetched, path).toContain(path);
  // /app/item/8 is linked only from item 7 as the app draws it: fetched, item 7 is the shell.
  expect(fetched).toContain('/app/item/8');

  const home = lines.find((l) => new URL(l.finalUrl).pathname === '/')!;
  expect(home.render).toMatchObject({ rendered: true, settled: true, blocked: 1 });
  expect(home.render!.why).toContain('empty application root (#root)');
  expect(home.render!.changed).toMatch(/rendering found \d+ more links/);
  // Where the tab's time went: settling takes half a second of quiet at least, and the phases add up to the whole.
  const { load, settle, grow, read } = home.render!.phases!;
  expect(settle).toBeGreaterThanOrEqual(500);
  expect(load + settle + grow + read).toBe(home.render!.ms);
  // Every page the server sends is the shell, an app's item too: each is rendered, whatever its kind showed.
  const item = lines.find((l) => new URL(l.finalUrl).pathname === '/app/item/7')!;
  expect(item.render).toMatchObject({ rendered: true, why: 'an empty application root (#root)', kind: 'shells like /app/item/{n} running /app.js' });
  expect(lines.every((l) => l.status !== 200 || l.render?.rendered)).toBe(true);

  // The page's own fetch('/logout') never reached the server; its script and JSON calls did.
  expect(site.requests).not.toContain('/logout');
  expect(site.requests).toContain('/api/stars');
  // The tab names the crawl, as the crawl's own requests do: /app.js is asked for by the page's tab only.
  expect(site.agents.get('/app.js')).toMatch(/ FocusCrawler\/\d/);
  expect(userTabFocused).toBe(true);
  expect(leftOpen).toEqual([]);
  expect(tags.every((t) => t.text === 'rendered')).toBe(true);
  expect(tags.map((t) => t.title)).toContainEqual(expect.stringContaining('Rendered in a background tab: an empty application root (#root).'));
  expect(tags.map((t) => t.title)).toContainEqual(expect.stringContaining('1 request of the page stopped by the guard'));
});

it('reads a page that never settles at the time limit, does not read a page that sent its tab away, and goes on', async () => {
  const seeds = [`${site.origin}/busy`, `${site.origin}/moved`];
  const { summary, lines, fetched } = await crawl('auto', {}, { seeds, fetch: { renderTimeoutMs: 3000 } });
  expect(summary.state).toBe('finished');
  const busy = lines.find((l) => new URL(l.finalUrl).pathname === '/busy')!;
  expect(busy.render).toMatchObject({ rendered: true, settled: false });
  // Its link, drawn by the script, was read and followed.
  expect(fetched).toContain('/star/1');
  // /moved is read as the server sent it, with the reason: what the tab showed was /star/2.
  const moved = lines.find((l) => new URL(l.finalUrl).pathname === '/moved')!;
  expect(moved.render).toMatchObject({ rendered: false, error: `the page sent its tab to ${site.origin}/star/2` });
});

it('scrolls an endless feed to its end while it grows, within its caps on steps, time and links', async () => {
  // The feed alone is crawled (a budget of one page): its row says how many links rendering found, and what stopped it.
  const feed = async (fetch: Record<string, unknown> = {}, query = '') => {
    const { lines } = await crawl('auto', {}, { seeds: [`${site.origin}/feed${query}`], maxPages: 1, fetch });
    return lines.find((l) => new URL(l.finalUrl).pathname === '/feed')!.render;
  };
  // Four batches of five: three scrolls made it grow, the fourth found the end.
  expect(await feed()).toMatchObject({ rendered: true, scrolled: 3, stopped: 'end', changed: 'rendering found 20 more links' });
  expect(await feed({ renderScrolls: 1 })).toMatchObject({ rendered: true, scrolled: 1, stopped: 'steps', changed: 'rendering found 10 more links' });
  const still = await feed({ renderScrolls: 0 });
  expect(still).toMatchObject({ rendered: true, changed: 'rendering found 5 more links' });
  expect(still).not.toHaveProperty('stopped');
  // Twelve batches: the defaults read all 60 entries, eleven steps, and stop when a step adds nothing.
  const long = await feed({}, '?batches=12');
  expect(long).toMatchObject({ rendered: true, scrolled: 11, stopped: 'end', changed: 'rendering found 60 more links' });
  // A feed without end: stopped by the cap on links (25 links once 23 are passed), or by the time cap.
  expect(await feed({ renderGrowLinks: 23 }, '?batches=1000')).toMatchObject({ scrolled: 4, stopped: 'links', changed: 'rendering found 25 more links' });
  const timed = await feed({ renderGrowMs: 2500 }, '?batches=1000');
  expect(timed).toMatchObject({ stopped: 'time' });
  expect(timed!.scrolled).toBeLessThan(20);
});

it('presses a list\'s "load more" while it grows, up to its own cap, and no other button', async () => {
  const more = async (fetch: Record<string, unknown> = {}) => {
    const { lines } = await crawl('auto', {}, { seeds: [`${site.origin}/more`], maxPages: 1, fetch });
    return lines.find((l) => new URL(l.finalUrl).pathname === '/more')!.render;
  };
  // Three links, then three more at each of three presses; the fourth finds the button gone.
  expect(await more()).toMatchObject({ rendered: true, pressed: 3, stopped: 'end', changed: 'rendering found 12 more links' });
  expect(site.requests).not.toContain('/pressed/subscribe');
  expect(await more({ renderClicks: 1 })).toMatchObject({ rendered: true, pressed: 1, stopped: 'steps', changed: 'rendering found 6 more links' });
  expect(site.requests.filter((p) => p === '/api/more')).toHaveLength(2);
  // Presses have a cap of their own: a page scrolled no more is still pressed.
  expect(await more({ renderScrolls: 0 })).toMatchObject({ rendered: true, pressed: 3 });
  // Five a press, twelve batches: the defaults press eleven times, to the list's end.
  const { lines } = await crawl('auto', {}, { seeds: [`${site.origin}/more?batches=12&size=5`], maxPages: 1 });
  expect(lines[0]!.render).toMatchObject({ rendered: true, pressed: 11, stopped: 'end', changed: 'rendering found 60 more links' });
});

it('archives what a rendered page loaded, as the server sent it, beside the page, and indexes it in the WACZ', async () => {
  const { lines, out } = await crawl('auto', {}, { seeds: [`${site.origin}/items`], maxPages: 1, exports: ['warc', 'wacz'] });
  const page = lines.find((l) => new URL(l.finalUrl).pathname === '/items')!;
  expect(page.render).toMatchObject({ rendered: true, settled: true });

  const records = await parseWarc(readFileSync(join(out, 'crawl.warc.gz')));
  const response = (path: string) => records.find((r) => r.headers['WARC-Type'] === 'response' && r.headers['WARC-Target-URI'] === `${site.origin}${path}`);
  const items = response('/api/items.json');
  expect(items, 'the JSON call the page made').toBeDefined();
  // The body the server sent, decoded of its gzip as every payload of the archive is; the header says how it came.
  expect(httpPayload(items!.content).toString()).toBe(ITEMS_JSON);
  expect(items!.content.toString('latin1', 0, items!.content.indexOf('\r\n\r\n'))).toMatch(/^x-archive-orig-content-encoding: gzip$/im);
  expect(httpPayload(response('/img/star.png')!.content).equals(STAR_PNG)).toBe(true);
  expect(httpPayload(response('/app.js')!.content).toString()).toContain("path === '/items'");
  // Dated as the page, so a replay of the page finds them; the page's own response is written once.
  const pageDate = response('/items')!.headers['WARC-Date'];
  expect(items!.headers['WARC-Date']).toBe(pageDate);
  expect(records.filter((r) => r.headers['WARC-Type'] === 'response' && r.headers['WARC-Target-URI'] === `${site.origin}/items`)).toHaveLength(1);

  // The WACZ's index lands on each of them.
  const wacz = await unzip(readFileSync(join(out, 'crawl.wacz')));
  const warc = wacz.get('archive/data.warc.gz')!.data;
  const indexed = new Map<string, { offset: string; length: string; mime: string }>();
  for (const line of wacz.get('indexes/index.cdxj')!.data.toString().trim().split('\n')) {
    const j = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string; mime: string };
    indexed.set(j.url, j);
  }
  const entry = indexed.get(`${site.origin}/api/items.json`);
  expect(entry).toMatchObject({ mime: 'application/json' });
  const [record] = await parseWarc(warc.subarray(Number(entry!.offset), Number(entry!.offset) + Number(entry!.length)));
  expect(httpPayload(record!.content).toString()).toBe(ITEMS_JSON);
  expect(indexed.has(`${site.origin}/img/star.png`)).toBe(true);

  // With no bytes to keep, the archive has the page and its rendered DOM only.
  const none = await crawl('auto', {}, { seeds: [`${site.origin}/items`], maxPages: 1, exports: ['warc'], fetch: { renderCaptureBytes: 0 } });
  const kept = (await parseWarc(readFileSync(join(none.out, 'crawl.warc.gz')))).filter((r) => r.headers['WARC-Type'] === 'response');
  expect(kept.map((r) => new URL(r.headers['WARC-Target-URI']!).pathname)).toEqual(['/items']);
});

it("keeps the site's own service worker from installing, or from requesting what the guard refuses", async () => {
  const { lines } = await crawl('auto', {}, { seeds: [`${site.origin}/worker`], maxPages: 1 });
  const page = lines.find((l) => new URL(l.finalUrl).pathname === '/worker')!;
  expect(page.render).toMatchObject({ rendered: true });
  // The worker fetches on its own behalf, out of the tab's guard: the rendered page may not install or reach it, so
  // it neither calls /sw/logout nor is left installed in the user's browser.
  expect(site.requests).toContain('/app.js');
  for (const path of ['/sw.js', '/sw/logout', '/api/sw-read']) expect(site.requests, path).not.toContain(path);

  // A worker the reader installed before the crawl neither answers the rendered page nor hears from it.
  const launched = await launchWithExtension();
  try {
    const mine = await launched.context.newPage();
    await mine.goto(`${site.origin}/worker?install`);
    await mine.getByText('Installed').waitFor({ timeout: 60_000 });
    await mine.close();
    site.requests.length = 0;
    const { crawlId } = await send<{ crawlId: number }>(launched.page, 'start', {
      name: 'worker-installed', seeds: [`${site.origin}/worker`], topic: { keywords: ['star'] },
      budget: { maxPages: 1 }, politeness: { delayMs: 0 }, fetch: { render: 'auto' },
    });
    await expect.poll(async () => (await send<CrawlStatus>(launched.page, 'status', { crawlId })).crawl.state, { timeout: 30_000 }).toBe('finished');
  } finally {
    await launched.close();
  }
  expect(site.requests).toContain('/app.js');
  expect(site.requests).not.toContain('/sw/logout');
});

it('closes the tabs a stopped worker left behind when it starts again', async () => {
  const launched = await launchWithExtension();
  try {
    const { context, page } = launched;
    await send(page, 'start', {
      name: 'orphans', seeds: [`${site.origin}/busy`], topic: { keywords: ['star'] },
      budget: { maxPages: 1 }, politeness: { delayMs: 0 }, fetch: { render: 'always', renderTimeoutMs: 60_000 },
    });
    const renderTab = (): Page | undefined => context.pages().find((p) => p.url() === `${site.origin}/busy`);
    await expect.poll(() => renderTab() !== undefined).toBe(true);
    const orphan = renderTab()!;
    const cdp = await context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await new Promise((r) => setTimeout(r, 1000));
    // A message starts the worker again; its start closes what the last one left.
    await send(page, 'status', {});
    await expect.poll(() => orphan.isClosed()).toBe(true);
  } finally {
    await launched.close();
  }
});

it('with render: never, finds none of the script-made links', async () => {
  const { summary, fetched, lines } = await crawl('never');
  expect(summary.state).toBe('finished');
  expect(fetched).toEqual(['/']);
  for (const path of [...SCRIPT_MADE, '/app/item/8']) expect(site.requests).not.toContain(path);
  expect(site.requests).not.toContain('/app.js');
  expect(lines.every((l) => l.render === undefined)).toBe(true);
});

it("in the build users install, asks for the debugger only when a crawl renders; without it reads pages as sent and says why", async () => {
  ensureBuilt(undefined, 'chromium-user');
  // Chrome's install prompt does not name the debugger: it is asked for when the user starts a crawl that renders.
  const manifest = JSON.parse(readFileSync(join(USER_EXTENSION_DIR, 'manifest.json'), 'utf8')) as { permissions: string[]; optional_permissions?: string[] };
  expect(manifest.permissions).not.toContain('debugger');
  expect(manifest.optional_permissions).toEqual(['debugger']);
  site.requests.length = 0;
  const launched = await launchWithExtension({ extensionDir: USER_EXTENSION_DIR });
  try {
    const { page } = launched;
    const { crawlId } = await send<{ crawlId: number }>(page, 'start', {
      name: 'no-debugger', seeds: [`${site.origin}/`], topic: { keywords: ['star'] },
      budget: { maxPages: 5 }, politeness: { delayMs: 0 }, fetch: { render: 'auto' },
    });
    await expect.poll(async () => (await send<CrawlStatus>(page, 'status', { crawlId })).crawl.state, { timeout: 30_000 }).toBe('finished');
    const rows = await page.evaluate((id) => new Promise<{ url: string; render?: Line['render'] }[]>((resolve, reject) => {
      const open = indexedDB.open('focus');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('pages').objectStore('pages').getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
        all.onsuccess = () => (open.result.close(), resolve(all.result as { url: string; render?: Line['render'] }[]));
      };
    }), crawlId);
    const home = rows.find((r) => new URL(r.url).pathname === '/')!;
    expect(home.render).toMatchObject({ rendered: false, error: expect.stringMatching(/^rendering needs Chrome's debugger permission, which was not given/) });
  } finally {
    await launched.close();
  }
  // Nothing was rendered: the page's script was never asked for.
  expect(site.requests).toEqual(['/robots.txt', '/']);
});
