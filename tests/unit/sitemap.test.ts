// Sitemaps as seeds (lib/net/sitemap.ts, lib/run/sitemap-seeding.ts): an index and its sitemaps, gzipped or not, the
// protocol's 50,000-URL and 50 MB limits, <lastmod>, and XML that is wrong: one clear sentence, and every entry read
// before the fault kept. In a crawl, the files are read through the gate without cookies and count against the budget,
// and their URLs are queued as links: what the server saw says so.
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzip, NotASitemap, parseSitemap, pathWords, readSitemap } from '../../lib/net/sitemap';
import { parseRobotsTxt } from '../../lib/net/robots-txt';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import { loopbackFetch } from '../support/loopback-fetch';

const urlset = (locs: string[], lastmod?: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${l}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`).join('\n')}\n</urlset>`;

describe('reading a sitemap', () => {
  it('reads a urlset and an index, with their lastmod dates, namespaces and entities', () => {
    const s = parseSitemap(`\uFEFF<?xml version="1.0"?><!-- made by a CMS -->
      <sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sm:url><sm:loc> https://a.test/p?x=1&amp;y=2 </sm:loc><sm:lastmod>2026-11-01</sm:lastmod><sm:priority>0.8</sm:priority></sm:url>
        <sm:url><sm:loc><![CDATA[https://a.test/q]]></sm:loc><sm:lastmod>2026-11-01T10:00:00+01:00</sm:lastmod></sm:url>
        <sm:url><sm:loc>https://a.test/r</sm:loc><sm:lastmod>not a date</sm:lastmod></sm:url>
      </sm:urlset>`);
    expect(s).toEqual({ kind: 'urlset', entries: [
      { loc: 'https://a.test/p?x=1&y=2', lastmod: Date.UTC(2026, 10, 1) },
      { loc: 'https://a.test/q', lastmod: Date.UTC(2026, 10, 1, 9) },
      { loc: 'https://a.test/r' },
    ] });
    const index = parseSitemap('<sitemapindex><sitemap><loc>https://a.test/s1.xml.gz</loc></sitemap><sitemap><loc>https://a.test/s2.xml</loc></sitemap></sitemapindex>');
    expect(index).toEqual({ kind: 'sitemapindex', entries: [{ loc: 'https://a.test/s1.xml.gz' }, { loc: 'https://a.test/s2.xml' }] });
  });

  it('says what is wrong with bad XML in one sentence, and keeps every entry read before it', () => {
    const cut = parseSitemap(`${urlset(['https://a.test/1', 'https://a.test/2']).replace('</urlset>', '')}<url><loc>https://a.test/3`);
    expect(cut.entries.map((e) => e.loc)).toEqual(['https://a.test/1', 'https://a.test/2']);
    expect(cut.problem).toBe('bad XML at line 5: the file ends inside <loc> (cut short?); the 2 entries before it are kept');
    const mismatched = parseSitemap('<urlset>\n<url><loc>https://a.test/1</loc></url>\n<url><loc>https://a.test/2</lastmod></url></urlset>');
    expect(mismatched.problem).toBe('bad XML at line 3: </lastmod> where </loc> was expected; the entry before it is kept');
    const amp = parseSitemap('<urlset><url><loc>https://a.test/1</loc></url><url><loc>https://a.test/?a=1&b=2</loc></url></urlset>');
    expect(amp.entries).toHaveLength(1);
    expect(amp.problem).toMatch(/an "&" in <loc> that starts no entity \(write it &amp;\)/);
  });

  it('refuses what is no sitemap at all, saying what it is', () => {
    expect(() => parseSitemap('<!doctype html><html><body>Not found</body></html>')).toThrow(new NotASitemap('not a sitemap: its root element is <html>, not <urlset> or <sitemapindex>'));
    expect(() => parseSitemap('')).toThrow(/no XML element/);
    expect(() => parseSitemap('User-agent: *')).toThrow(/not a sitemap/);
  });

  it('reads at most 50,000 URLs, as the protocol allows, and says so', () => {
    const locs = Array.from({ length: 50_001 }, (_, i) => `https://a.test/${i}`);
    const s = parseSitemap(urlset(locs));
    expect(s.entries).toHaveLength(50_000);
    expect(s.entries.at(-1)!.loc).toBe('https://a.test/49999');
    expect(s.problem).toBe('lists more than 50,000 entries: the first 50,000 were read, as the protocol allows no more');
  });

  it('gunzips a gzipped sitemap whatever it is called, and stops at the size limit', async () => {
    const xml = urlset(Array.from({ length: 2000 }, (_, i) => `https://a.test/page/${i}`));
    const gz = new Uint8Array(gzipSync(xml));
    expect((await readSitemap(gz)).entries).toHaveLength(2000);
    // The 50 MB limit, scaled down: past it nothing more is read, and the entries within it are kept.
    const small = await readSitemap(gz, { maxBytes: 10_000 });
    expect(small.problem).toBe('larger than 0 MB uncompressed: read up to that size, as the protocol allows no more'.replace('0 MB', `${Math.round(10_000 / 1024 / 1024)} MB`));
    expect(small.entries.length).toBeGreaterThan(100);
    expect(small.entries.length).toBeLessThan(2000);
    expect((await gunzip(gz, 10_000)).bytes).toHaveLength(10_000);
    // A damaged stream keeps what came before the damage.
    const damaged = gz.slice(0, Math.floor(gz.length / 2));
    const read = await readSitemap(damaged);
    expect(read.problem).toMatch(/gzip stream is damaged/);
  });

  it('scores a listed URL by the words of its path', () => {
    expect(pathWords('https://a.test/products/orion-xt8-dobsonian/index.html')).toBe('products orion xt8 dobsonian index');
    expect(pathWords('https://a.test/wiki/Caf%C3%A9_au_lait.html')).toBe('wiki Café au lait');
  });

  it('takes the Sitemap lines of robots.txt, wherever they stand, and leaves the rules alone', () => {
    const rules = parseRobotsTxt('Sitemap: https://a.test/s.xml\nUser-agent: *\nSitemap: https://cdn.test/s2.xml.gz # a comment\nDisallow: /cart\nsitemap:/relative.xml\n');
    expect(rules.sitemaps).toEqual(['https://a.test/s.xml', 'https://cdn.test/s2.xml.gz']);
    expect(rules.isAllowed('/cart', 'FocusCrawler')).toBe(false);
    expect(rules.isAllowed('/shop', 'FocusCrawler')).toBe(true);
  });
});

describe('a crawl seeded from sitemaps', { timeout: 120_000 }, () => {
  let seen: { path: string; cookie: boolean }[];
  let port: number;
  let close: () => Promise<void>;
  const page = (title: string, body = '') => `<!doctype html><title>${title}</title><h1>${title}</h1><p>${title}: telescopes and astronomy for observers of the night sky.</p>${body}`;
  beforeAll(async () => {
    seen = [];
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      seen.push({ path, cookie: !!req.headers.cookie });
      const send = (status: number, body: string | Buffer, type = 'text/html') => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      const host = (req.headers.host ?? '').split(':')[0];
      if (host === 'bad.test') {
        if (path === '/robots.txt') return send(404, '');
        if (path === '/sitemap.xml') return send(200, urlset(['http://bad.test/one', 'http://bad.test/two']).replace('</url>\n<url>', '</url>\n<url><loc>http://bad.test/three</url>'), 'application/xml');
        return send(200, page(`Bad ${path}`));
      }
      if (path === '/robots.txt') return send(200, 'User-agent: *\nDisallow: /private\nSitemap: http://site.test/index.xml\n', 'text/plain');
      if (path === '/index.xml') {
        return send(200, `<sitemapindex><sitemap><loc>http://site.test/a.xml.gz</loc></sitemap><sitemap><loc>http://site.test/private/b.xml</loc></sitemap><sitemap><loc>http://elsewhere.test/c.xml</loc></sitemap></sitemapindex>`, 'application/xml');
      }
      if (path === '/a.xml.gz') {
        return send(200, gzipSync(urlset(['http://site.test/guide/telescope-collimation', 'http://site.test/guide/star-hopping', 'http://site.test/logout', 'http://elsewhere.test/x'], '2026-11-01')), 'application/gzip');
      }
      if (path === '/') return send(200, page('Home', '<a href="/guide/star-hopping">Star hopping</a>'));
      send(200, page(`Guide ${path}`));
    });
    const listening = await listenOnLoopback(server);
    port = Number(new URL(listening.origin).port);
    close = listening.close;
  });
  afterAll(() => close());

  async function crawl(seeds: unknown, maxPages = 30) {
    seen.length = 0;
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const service = new CrawlService({ store, fetch: loopbackFetch(port, { host: 'site.test', cookie: 'session=1' }), clock: realClock });
    const { crawlId } = await service.handlers.start({ name: 's', seeds, topic: { keywords: ['telescope', 'astronomy'] }, budget: { maxPages }, politeness: { delayMs: 0 } });
    await service.settled(crawlId);
    return { store, crawlId, crawl: (await store.getCrawl(crawlId))! };
  }

  it('reads the index robots.txt names and its gzipped sitemap, within scope and robots.txt, and fetches a page no link reaches', async () => {
    const { crawl: c, store, crawlId } = await crawl({ urls: ['http://site.test/'], sitemaps: true });
    const paths = seen.map((s) => s.path);
    expect(paths).toContain('/index.xml');
    expect(paths).toContain('/a.xml.gz');
    // robots.txt closes /private, and elsewhere.test is out of scope: neither sitemap is requested.
    expect(paths).not.toContain('/private/b.xml');
    expect(paths).not.toContain('/c.xml');
    // Sitemaps are read without the user's cookies; the pages with them.
    expect(seen.filter((s) => s.path.endsWith('.xml') || s.path.endsWith('.gz')).every((s) => !s.cookie)).toBe(true);
    expect(seen.filter((s) => s.path.startsWith('/guide/')).every((s) => s.cookie)).toBe(true);
    // The page only the sitemap lists is fetched; the logout URL it lists never is; the other host's is out of scope.
    expect(paths).toContain('/guide/telescope-collimation');
    expect(paths).not.toContain('/logout');
    expect(c.sitemaps).toEqual([
      { url: 'http://site.test/index.xml', from: 'robots.txt', listed: 3, queued: 3 },
      { url: 'http://site.test/a.xml.gz', from: 'index', listed: 4, queued: 3 },
      { url: 'http://site.test/private/b.xml', from: 'index', listed: 0, queued: 0, error: expect.stringMatching(/robots\.txt/) },
      { url: 'http://elsewhere.test/c.xml', from: 'index', listed: 0, queued: 0, error: expect.stringMatching(/outside the crawl's scope/) },
    ]);
    // Two files requested (the other two refused before any request); two URLs new to the crawl queued, both fetched.
    expect(c.stats).toMatchObject({ sitemapRequests: 2, sitemapQueued: 2, sitemapFetched: 2 });
    // The two files read count against the budget of requests, beside the pages.
    expect(c.stats.attempts).toBe(paths.filter((p) => p !== '/robots.txt').length);
    const entry = await store.frontier.getEntry(crawlId, 'http://site.test/guide/telescope-collimation');
    expect(entry).toMatchObject({ anchor: 'guide telescope collimation', parentUrl: 'http://site.test/a.xml.gz', sitemap: { lastmod: Date.UTC(2026, 10, 1) } });
  });

  it('reads none when told not to', async () => {
    const { crawl: c } = await crawl({ urls: ['http://site.test/'], sitemaps: false });
    expect(seen.map((s) => s.path).filter((p) => /\.xml|\.gz/.test(p))).toEqual([]);
    expect(c.sitemaps).toBeUndefined();
  });

  it('keeps a bad sitemap\'s entries read before the fault, says what was wrong, and crawls on', async () => {
    const { crawl: c } = await crawl({ urls: ['http://bad.test/'], sitemaps: true });
    expect(c.state).toBe('finished');
    expect(c.sitemaps).toEqual([{ url: 'http://bad.test/sitemap.xml', from: 'default', listed: 1, queued: 1, error: 'bad XML at line 4: </url> where </loc> was expected; the entry before it is kept' }]);
    expect(seen.map((s) => s.path)).toContain('/one');
  });

  it('spends on sitemaps no more than its budget allows: with one request, the seed', async () => {
    const { crawl: c } = await crawl({ urls: ['http://site.test/'], sitemaps: true }, 1);
    expect(seen.map((s) => s.path).filter((p) => p !== '/robots.txt')).toEqual(['/']);
    expect(c.stats.attempts).toBe(1);
  });
});
