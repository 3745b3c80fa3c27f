// A page's <link rel="canonical"> (lib/run/content-step.ts): same site, http(s), not a login or error page, it makes
// the canonical URL the key the page is known by: neither URL is requested again and the page row records both. One
// to another site, a chain, a login page, an error page or a pager's first page is recorded and not followed.
import { createServer } from 'node:http';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import { pageLine } from '../../lib/export/jsonl';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import { loopbackFetch } from '../support/loopback-fetch';

/** A page of its own words (each page's text differs), naming `canonical` when given. */
function page(title: string, opts: { canonical?: string; links?: [string, string][]; heading?: string } = {}): string {
  const words = Array.from({ length: 30 }, (_, i) => `${title.toLowerCase().replace(/\W/g, '')}${i}`).join(' ');
  return `<!doctype html><html><head><title>${title}</title>${opts.canonical ? `<link rel="canonical" href="${opts.canonical}">` : ''}</head>` +
    `<body><h1>${opts.heading ?? title}</h1><p>Telescope and astronomy notes: ${words}</p>${(opts.links ?? []).map(([h, a]) => `<a href="${h}">${a}</a>`).join(' ')}</body></html>`;
}

const PAGES: Record<string, string> = {
  '/': page('Astronomy home', { links: [['/a?ref=home', 'Astronomy A'], ['/c', 'Astronomy C'], ['/x', 'Astronomy X'],
    ['/account/login?next=/', 'Astronomy login'], ['/gone', 'Astronomy gone'], ['/list?page=2', 'Astronomy list 2']] }),
  // Named canonical by another spelling: /a is never requested, and a later link to either is not either.
  '/a?ref=home': page('Astronomy A', { canonical: '/a', links: [['/a', 'Astronomy A again'], ['/a?ref=home', 'Astronomy A once more']] }),
  // A chain: /b names /c, which (fetched) names /d.
  '/c': page('Astronomy C', { canonical: 'http://site.test/d', links: [['/b', 'Astronomy B']] }),
  '/b': page('Astronomy B', { canonical: '/c' }),
  '/d': page('Astronomy D'),
  // Another site's URL: recorded, never requested.
  '/x': page('Astronomy X', { canonical: 'http://other.test/x' }),
  // A login page and an error page name a canonical URL that says nothing of them.
  '/account/login?next=/': page('Astronomy login', { canonical: '/members' }),
  '/gone': page('Page not found', { canonical: '/' }),
  // A listing's second page that names its first page canonical (a common mistake): the first page is still asked for.
  '/list?page=2': page('Astronomy list page two', { canonical: '/list', links: [['/list', 'Previous'], ['/list?page=3', 'Next']] }),
  '/list': page('Astronomy list'),
  '/list?page=3': page('Astronomy list page three'),
};

describe('canonical links', { timeout: 120_000 }, () => {
  let seen: string[];
  let port: number;
  let close: () => Promise<void>;
  beforeAll(async () => {
    seen = [];
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      seen.push(`${(req.headers.host ?? '').split(':')[0]}${path}`);
      const body = path === '/robots.txt' ? undefined : PAGES[path];
      res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' });
      res.end(body ?? '');
    });
    const listening = await listenOnLoopback(server);
    port = Number(new URL(listening.origin).port);
    close = listening.close;
  });
  afterAll(() => close());

  it('takes a canonical URL as the page\'s key, and records one it does not follow with why', async () => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const service = new CrawlService({ store, fetch: loopbackFetch(port), clock: realClock });
    const { crawlId } = await service.handlers.start({
      name: 'c', seeds: { urls: ['http://site.test/'], sitemaps: false }, topic: { keywords: ['astronomy', 'telescope'] }, budget: { maxPages: 40 },
      politeness: { delayMs: 0, concurrency: 1 }, safety: { disabledRules: [] },
    });
    await service.settled(crawlId);
    const paths = seen.filter((s) => s.startsWith('site.test')).map((s) => s.slice('site.test'.length));
    // /a: known by its canonical URL once /a?ref=home named it; neither asked for again.
    expect(paths.filter((p) => /^\/a(\?|$)/.test(p))).toEqual(['/a?ref=home']);
    const rows = await store.pages.pagesAfter(crawlId, 0, 100);
    const row = (url: string) => rows.find((r) => r.url === `http://site.test${url}`)!;
    expect(row('/a?ref=home')).toMatchObject({ canonical: 'http://site.test/a' });
    expect(row('/a?ref=home').canonicalNote).toBeUndefined();
    expect(JSON.parse(pageLine(row('/a?ref=home')))).toMatchObject({ url: 'http://site.test/a?ref=home', canonical: 'http://site.test/a' });
    expect(await store.frontier.getEntry(crawlId, 'http://site.test/a')).toMatchObject({ state: 'done', reason: 'the canonical URL of http://site.test/a?ref=home, fetched as that page' });
    // Another site's: recorded, never requested.
    expect(seen.some((s) => s.startsWith('other.test'))).toBe(false);
    expect(row('/x')).toMatchObject({ canonical: 'http://other.test/x', canonicalNote: 'names a page of another site: recorded, not followed' });
    // A login page's and an error page's are not taken: /members is never known, / stays the home page.
    expect(row('/account/login?next=/').canonicalNote).toBe('a login page: its canonical URL is not taken');
    expect(row('/gone').canonicalNote).toBe('the page reads as an error page: its canonical URL is not taken');
    expect(await store.frontier.getEntry(crawlId, 'http://site.test/members')).toBeUndefined();
    // A pager's first page: the listing's first page is asked for all the same.
    expect(row('/list?page=2').canonicalNote).toBe("a pager's first page, which this page is not");
    expect(paths).toContain('/list');
    // The chain: /c names /d and is taken (so /d is not requested); /b then names /c, which names /d: recorded only.
    expect(paths).not.toContain('/d');
    expect(row('/b')).toMatchObject({ canonical: 'http://site.test/c', canonicalNote: 'a chain: http://site.test/c names http://site.test/d in turn; not followed' });
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.stats.canonicalSkips).toBe(2);
  });
});
