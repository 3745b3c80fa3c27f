// `render: auto` on a site of mixed kinds, through the real extension in Chromium and in Firefox: a magazine of whole
// articles with seven pages built by scripts, each leading to a few articles only a reader of the built page finds
// (tests/fixtures/sites/mixed-site.ts). `auto` must find what `always` finds while rendering far fewer pages, and say
// on each row what it measured; `never` finds none of the script-made pages. On the demo's static site `auto` opens
// no tab: the browser's own tabs and windows, and the server's log, say so.
// @module-tag chromium
// @module-tag firefox
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlStatus } from '../../lib/app/protocol';
import type { PageRecord } from '../../lib/records/types';
import { openSession, type BrowserName, type ExtensionSession } from '../../scripts/lib/session';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';
import { MIXED_PAGES, SCRIPT_BUILT, SCRIPT_MADE, SCRIPT_MADE_ARTICLES, startMixedSite, type MixedSite } from '../fixtures/sites/mixed-site';

type Mode = 'auto' | 'always' | 'never';

/** `always` renders some 70 pages, two at a time: about two minutes on a loaded machine, given twice that and more. */
const CRAWL_MS = 300_000;

interface Crawled {
  rows: PageRecord[];
  /** Paths fetched whole (200, done). */
  fetched: string[];
  /** Tabs the browser opened while the crawl ran, and its windows at the end besides those it had before. */
  tabsOpened: number;
  windowsAdded: number;
}

/** Tabs the browser opens from now on, whoever opens them: Chromium's pages of the context, Firefox's targets. */
function countTabs(session: ExtensionSession): () => number {
  let opened = 0;
  if (session.chromium) session.chromium.context.on('page', () => opened++);
  else session.firefox!.browser.on('targetcreated', (t) => void (t.type() === 'page' && opened++));
  return () => opened;
}

/** The browser's windows, as the extension's own API lists them. */
async function windowCount(session: ExtensionSession): Promise<number> {
  const page = await session.openExtensionPage('dashboard.html');
  try {
    return await page.evaluate(async () => {
      type Windows = { windows: { getAll(): Promise<unknown[]> } };
      const g = globalThis as unknown as { browser?: Windows; chrome?: Windows };
      return (await (g.browser ?? g.chrome)!.windows.getAll()).length;
    }, null);
  } finally {
    await page.close();
  }
}

async function crawlIn(browser: BrowserName, config: Record<string, unknown>): Promise<Crawled> {
  const session = await openSession(browser, {});
  try {
    const windowsBefore = await windowCount(session);
    const tabs = countTabs(session);
    const { crawlId } = await session.send<{ crawlId: number }>('start', config);
    await expect.poll(async () => (await session.send<CrawlStatus>('status', { crawlId })).crawl.state, { timeout: CRAWL_MS, interval: 500 }).toBe('finished');
    const rows = await session.send<PageRecord[]>('pages', { crawlId, afterSeq: 0, limit: 1000 });
    const tabsOpened = tabs();
    const windowsAdded = (await windowCount(session)) - windowsBefore;
    const fetched = rows.filter((r) => r.status === 200 && r.outcome === 'done').map((r) => new URL(r.finalUrl).pathname);
    return { rows, fetched, tabsOpened, windowsAdded };
  } finally {
    await session.close();
  }
}

const rowOf = (c: Crawled, path: string) => c.rows.find((r) => new URL(r.finalUrl).pathname === path)!;
const isArticle = (r: PageRecord) => new URL(r.finalUrl).pathname.startsWith('/news/');

/** Each row's count of what pages of its kind showed holds against the crawl's own rows. */
function expectReasonsTrue(rows: PageRecord[]): void {
  const ofKind = (kind: string) => rows.filter((r) => r.render?.kind === kind && r.render.rendered);
  for (const row of rows) {
    const why = row.render?.why ?? '';
    const same = row.render?.kind ? ofKind(row.render.kind) : [];
    const unchanged = /: (\d+) rendered, none changed/.exec(why);
    if (unchanged) expect(same.filter((r) => !r.render!.changed).length, `${row.url}: ${why}`).toBeGreaterThanOrEqual(Number(unchanged[1]));
    const changed = /: (\d+) of (\d+) rendered changed/.exec(why);
    if (changed) {
      expect(same.filter((r) => r.render!.changed).length, `${row.url}: ${why}`).toBeGreaterThanOrEqual(Number(changed[1]));
      expect(same.length, `${row.url}: ${why}`).toBeGreaterThanOrEqual(Number(changed[2]));
    }
  }
}

for (const browser of ['chromium', 'firefox'] as const) {
  describe(`render: auto in ${browser}`, () => {
    let site: MixedSite;
    const crawls = new Map<Mode, Crawled & { requests: string[] }>();
    beforeAll(async () => {
      site = await startMixedSite();
    });
    afterAll(() => site.close());

    const crawlMixed = async (render: Mode) => {
      site.requests.length = 0;
      const crawled = await crawlIn(browser, {
        name: `mixed-${render}`, seeds: [`${site.origin}/`], topic: { keywords: ['star', 'stars', 'nebulae', 'galaxies', 'constellation', 'telescope'] },
        budget: { maxPages: 150 }, politeness: { delayMs: 0, concurrency: 2 }, fetch: { render },
      });
      crawls.set(render, { ...crawled, requests: [...site.requests] });
      return crawls.get(render)!;
    };

    it('with always, finds every page of the site, the script-made ones too', { timeout: CRAWL_MS + 60_000 }, async () => {
      const always = await crawlMixed('always');
      expect([...always.fetched].sort()).toEqual([...MIXED_PAGES].sort());
      expect(always.rows.filter((r) => r.status === 200).every((r) => r.render?.rendered)).toBe(true);
    });

    it('with auto, finds what always finds, rendering the script-built kinds to the end and few articles', { timeout: CRAWL_MS + 60_000 }, async () => {
      const auto = await crawlMixed('auto');
      expect([...auto.fetched].sort()).toEqual([...crawls.get('always')!.fetched].sort());
      // Every script-built page and every route of the app was rendered; the home page, which runs no script, was not.
      for (const path of [...SCRIPT_BUILT, '/app/route/1', '/app/route/4']) expect(rowOf(auto, path).render, path).toMatchObject({ rendered: true });
      expect(rowOf(auto, '/').render).toBeUndefined();
      // The feed was read to its end, the "Show more" list pressed until its button went.
      expect(rowOf(auto, '/feed').render).toMatchObject({ scrolled: 3, stopped: 'end', changed: `rendering found ${SCRIPT_MADE_ARTICLES.feed.length} more links` });
      expect(rowOf(auto, '/more/galaxies').render).toMatchObject({ pressed: 2, changed: 'rendering found 6 more links' });
      // The articles: a few rendered to learn their kind (and checks after 6, 12, 24 left), the rest left with the reason.
      const articles = auto.rows.filter(isArticle);
      const rendered = articles.filter((r) => r.render?.rendered);
      expect(rendered.length).toBeGreaterThanOrEqual(3);
      expect(rendered.length).toBeLessThanOrEqual(3 + 1 + 3);
      expect(rendered.every((r) => !r.render!.changed)).toBe(true);
      const left = articles.filter((r) => r.render && !r.render.rendered);
      expect(left.length).toBe(articles.length - rendered.length);
      expect(left[0]!.render!.why).toMatch(/^pages like \/news\/\{slug\} running \/js\/analytics\.js: \d+ rendered, none changed$/);
      expectReasonsTrue(auto.rows);
      // What the browser did: it opened a tab for each page rendered, and fewer than with always.
      const renderedPages = auto.rows.filter((r) => r.render?.rendered).length;
      expect(auto.tabsOpened).toBeGreaterThanOrEqual(renderedPages);
      expect(auto.tabsOpened).toBeLessThan(crawls.get('always')!.tabsOpened);
      expect(auto.requests.filter((p) => p.startsWith('/news/')).length).toBeLessThan(crawls.get('always')!.requests.filter((p) => p.startsWith('/news/')).length);
    });

    it('with never, finds none of the script-made pages and opens no tab', async () => {
      const never = await crawlMixed('never');
      for (const path of SCRIPT_MADE) expect(never.requests, path).not.toContain(path);
      expect(never.requests.some((p) => p.startsWith('/js/') || p.startsWith('/api/') || p.startsWith('/embed/'))).toBe(false);
      expect([never.tabsOpened, never.windowsAdded]).toEqual([0, 0]);
    });

    describe('the demo site', () => {
      let demo: DemoServer;
      beforeAll(async () => {
        demo = await startDemoServer();
      });
      afterAll(() => demo.close());

      it('with auto, opens no tab and no window, and the server sees each page once', async () => {
        const crawled = await crawlIn(browser, { ...demoConfig(demo.origin), fetch: { render: 'auto' } });
        expect(crawled.fetched.length).toBeGreaterThan(10);
        expect([crawled.tabsOpened, crawled.windowsAdded]).toEqual([0, 0]);
        expect([...demo.hits].filter(([, n]) => n > 1)).toEqual([]);
        expect(crawled.rows.every((r) => r.render === undefined)).toBe(true);
      });
    });
  });
}
