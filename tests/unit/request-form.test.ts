// The URL a crawl requests and checks against robots.txt is the one the site spelled; the canonical form only
// tells the crawl it has met a page before. What counts is what the server saw.
import { createServer } from 'node:http';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { normalizeUrl, requestUrl } from '../../lib/records/url';
import { realClock } from '../../lib/net/fetcher';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import { loopbackFetch } from '../support/loopback-fetch';

describe('requestUrl: the URL as the site spelled it', () => {
  it.each([
    ['http://a.test/cal?view=day&date=1#today', 'http://a.test/cal?view=day&date=1'],
    ['http://user:pw@a.test/x?b=2&a=1', 'http://a.test/x?b=2&a=1'],
    ['http://a.test/x?b=2&utm_source=news&a=1&fbclid=Z', 'http://a.test/x?b=2&a=1'],
    ['http://a.test/x?utm_medium=mail', 'http://a.test/x'],
    // Session ids are dropped from the request as from the key (the user's cookies carry the session); `sid` is kept.
    ['http://a.test/p;jsessionid=A1?sid=9', 'http://a.test/p?sid=9'],
    ['http://a.test/p;JSESSIONID=A1;v=2?b=1&PHPSESSID=x&sessionid=y', 'http://a.test/p;v=2?b=1'],
    ['http://a.test/foo/%62%61%7A', 'http://a.test/foo/%62%61%7A'],
  ])('%s is requested as %s', (input, spelled) => {
    expect(requestUrl(input)).toBe(spelled);
  });

  it('is null for what is not http(s)', () => {
    for (const u of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'not a url']) expect(requestUrl(u)).toBeNull();
  });

  it('asks for the page the key names: a session id is dropped from both', () => {
    for (const u of ['http://a.test/p;jsessionid=A1', 'http://a.test/p?jsessionid=A1&x=1', 'http://a.test/p?x=1&PHPSESSID=9']) {
      expect(normalizeUrl(requestUrl(u)!)).toBe(normalizeUrl(u));
      expect(requestUrl(u)).not.toMatch(/sessionid/i);
    }
    expect(requestUrl('http://a.test/p;jsessionid=A1', undefined, true)).toBe('http://a.test/p;jsessionid=A1');
  });

  it('keeps the order the canonical form sorts', () => {
    const u = 'http://a.test/cal?view=day&date=1';
    expect(normalizeUrl(u)).toBe('http://a.test/cal?date=1&view=day');
    expect(requestUrl(u)).toBe(u);
  });
});

describe('a crawl requests what the site spelled and obeys its rules as written', () => {
  let seen: string[];
  let port: number;
  let close: () => Promise<void>;
  beforeEach(async () => {
    seen = [];
    const page = (title: string, body: string) => `<!doctype html><title>${title}</title><body><h1>${title}</h1>${body}</body>`;
    const server = createServer((req, res) => {
      const path = req.url ?? '/';
      seen.push(path);
      const send = (status: number, body: string, type = 'text/html') => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      };
      if (path === '/robots.txt') return send(200, 'User-agent: *\nDisallow: /cal?view=day\nAllow: /feed?lang=en&format=html\nDisallow: /feed\n', 'text/plain');
      if (path === '/') {
        return send(200, page('Astronomy calendar', `<p>Astronomy events: planets and telescopes.</p>
<a href="/cal?view=day&amp;date=1">Astronomy day view</a> <a href="/cal?date=1&amp;view=week">Astronomy week view</a>
<a href="/feed?lang=en&amp;format=html">Astronomy feed</a> <a href="/list?b=2&amp;a=1&amp;utm_source=x#top">Astronomy list</a>
<a href="/list?a=1&amp;b=2">Astronomy list again</a> <a href="/notes;jsessionid=S1?PHPSESSID=S2">Astronomy notes</a>`));
      }
      if (path.startsWith('/cal') || path.startsWith('/feed') || path.startsWith('/list') || path.startsWith('/notes')) return send(200, page('Astronomy page', '<p>Planets and telescopes.</p>'));
      send(404, page('Not found', ''));
    });
    const listening = await listenOnLoopback(server);
    port = Number(new URL(listening.origin).port);
    close = listening.close;
  });
  afterEach(() => close());

  it('checks robots.txt against the spelling it requests, and requests a page once under two spellings', async () => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const service = new CrawlService({ store, fetch: loopbackFetch(port), clock: realClock });
    const { crawlId } = await service.handlers.start({
      name: 'cal', seeds: ['http://cal.test/'], topic: { keywords: ['astronomy', 'planets'] }, budget: { maxPages: 20 }, politeness: { delayMs: 0 },
    });
    await service.settled(crawlId);
    // `Disallow: /cal?view=day` stops /cal?view=day&date=1 (which sorts to /cal?date=1&view=day).
    expect(seen).not.toContain('/cal?view=day&date=1');
    expect(seen).not.toContain('/cal?date=1&view=day');
    // Allowed pages are asked for in the site's own order; an Allow written in that order matches.
    expect(seen).toContain('/cal?date=1&view=week');
    expect(seen).toContain('/feed?lang=en&format=html');
    // Tracking parameters and the fragment never leave; the list's two spellings are one page, requested once.
    expect(seen.filter((p) => p.startsWith('/list'))).toHaveLength(1);
    expect(seen.find((p) => p.startsWith('/list'))).toMatch(/^\/list\?(b=2&a=1|a=1&b=2)$/);
    // A session id in a link is dropped from the request, as from the key the page is known by.
    expect(seen).toContain('/notes');
    expect(seen.filter((p) => /sessionid/i.test(p))).toEqual([]);
    const pages = await store.pages.pagesAfter(crawlId, 0, 100);
    expect(pages.find((p) => p.url === 'http://cal.test/cal?date=1&view=day')?.error).toMatch(/robots\.txt/);
  });
});
