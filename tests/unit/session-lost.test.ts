// Whatever the safety guard misses, a crawl must not go on logged out: a request whose answer clears the session
// cookie it carried pauses the crawl at once, is named, and is never requested again. What counts is the server's log.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { clearedCookies, cookieNames, isLoginUrl, sessionLoss } from '../../lib/net/session';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { keptFromRequesting } from '../../lib/ui/queries';
import { realClock, type FetchPort } from '../../lib/net/fetcher';
import { loopbackFetch } from '../support/loopback-fetch';
import { SHOP_COOKIE, startSessionSite, type SessionSite } from '../fixtures/sites/session-site';

const NOW = Date.parse('2026-11-26T12:00:00Z');

describe('what an answer does to the session', () => {
  it.each([
    ['sid=; Path=/; Max-Age=0', ['sid']],
    ['sid=abc; Max-Age=-1', ['sid']],
    ['sid=abc; Expires=Thu, 01 Jan 1970 00:00:00 GMT', ['sid']],
    ['sid=deleted; expires=Thu, 01-Jan-1970 00:00:01 GMT; path=/', ['sid']],
    ['sid=; Path=/', ['sid']],
    ['sid=new; Path=/; Max-Age=3600', []],
    ['sid=new; Expires=Fri, 01 Jan 2100 00:00:00 GMT', []],
    // Max-Age wins over Expires (RFC 6265 5.3).
    ['sid=new; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=3600', []],
  ])('%s clears %j', (line, names) => {
    expect(clearedCookies([line], NOW)).toEqual(names);
  });

  it('reads the names a request sent', () => {
    expect(cookieNames('a=1; shop_sid=k3y;  theme=dark')).toEqual(['a', 'shop_sid', 'theme']);
    expect(cookieNames(undefined)).toEqual([]);
  });

  it.each([
    '/login', '/users/sign_in', '/accounts/ServiceLogin', '/signin?next=/', '/log-in', '/anmelden', '/connexion', '/iniciar-sesion',
    '/accedi', '/inloggen', '/logowanie', '/giris', '/masuk', '/вход', '/登录', '/ログイン', '/로그인', '/dang-nhap', '/auth/login.php',
    '/cas/login', '/ورود',
  ])('%s is a login page', (path) => {
    expect(isLoginUrl(`http://shop.test${path}`)).toBe(true);
  });

  it.each(['/', '/blog/how-login-systems-work-in-modern-web-apps', '/p/1', '/logistics', '/signing-ceremony', '/entry/42'])('%s is not', (path) => {
    expect(isLoginUrl(`http://shop.test${path}`)).toBe(false);
  });

  it('is lost only for a cookie the request carried, and to a login page only where the session was expected', () => {
    expect(sessionLoss({ sent: ['sid'], cleared: ['sid'] }, null, false)).toEqual({ by: 'cookie', what: 'sid' });
    expect(sessionLoss({ sent: ['sid'], cleared: ['promo'] }, null, false)).toBeNull();
    expect(sessionLoss({ sent: [], cleared: ['sid'] }, null, true)).toBeNull();
    expect(sessionLoss({ sent: ['sid'], cleared: [] }, 'http://shop.test/login', true)).toEqual({ by: 'login', what: 'http://shop.test/login' });
    expect(sessionLoss({ sent: ['sid'], cleared: [] }, 'http://shop.test/login', false)).toBeNull();
    expect(sessionLoss(undefined, 'http://shop.test/login', true)).toBeNull();
  });
});

describe('a crawl that loses the session', () => {
  let site: SessionSite;
  beforeEach(async () => {
    site = await startSessionSite();
  });
  afterEach(() => site.close());

  const newService = (store: CrawlStore, session = true) =>
    new CrawlService({ store, fetch: loopbackFetch(site.port, session ? { host: 'shop.test', cookie: SHOP_COOKIE } : undefined), clock: realClock });
  const config = (concurrency: number) => ({
    name: 'shop', seeds: ['http://shop.test/'], topic: { keywords: ['astronomy', 'telescopes', 'galaxies'] },
    budget: { maxPages: 30 }, politeness: { delayMs: 0, concurrency },
  });

  it.each([1, 4])('pauses after the request that cleared its cookie, names it, and never asks it again (concurrency %i)', async (concurrency) => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const first = newService(store);
    const { crawlId } = await first.handlers.start(config(concurrency));
    await first.settled(crawlId);

    const paused = (await store.getCrawl(crawlId))!;
    expect(paused.state).toBe('paused');
    expect(paused.message).toBe('paused: requesting http://shop.test/x7 ended your session on shop.test (the site cleared the cookie "shop_sid"). ' +
      'Log in to shop.test again in this browser, then resume: that URL will not be requested again');
    expect(paused.sessionLost).toMatchObject({ url: 'http://shop.test/x7', by: 'cookie', what: 'shop_sid' });
    // At once: nothing starts after the answer; only requests already in flight finish.
    const at = site.requests.findIndex((r) => r.path === '/x7');
    expect(at).toBeGreaterThan(0);
    expect(site.requests.length - 1 - at).toBeLessThanOrEqual(concurrency - 1);
    // It is listed as kept from requesting, with why.
    const kept = await keptFromRequesting(store.db, crawlId);
    expect(kept.links).toContainEqual(expect.objectContaining({ url: 'http://shop.test/x7', rule: 'ended your session', match: 'shop_sid' }));
    // The innocent redirect of the staff area to log in and the cleared cookie the browser never had paused nothing.
    expect(site.requests.filter((r) => r.path === '/promo' || r.path === '/staff').length).toBeLessThanOrEqual(2);

    // The user logs in again and resumes: the crawl goes on, and /x7 is never asked again.
    await fetch(`http://127.0.0.1:${site.port}/login?as=member`, { headers: { host: 'shop.test' } });
    const second = newService(store);
    await second.handlers.resume({ crawlId });
    await second.settled(crawlId);
    const done = (await store.getCrawl(crawlId))!;
    expect(done.state).toBe('finished');
    expect(done.sessionLost).toBeUndefined();
    expect(site.requests.filter((r) => r.path === '/x7')).toHaveLength(1);
    for (let i = 0; i < 6; i++) expect(site.requests.filter((r) => r.path === `/p/${i}`), `/p/${i}`).toHaveLength(1);
    expect(site.sessionValid()).toBe(true);
  });

  // A take waits behind the page commits before it (IndexedDB runs them in order), so at concurrency 8 one is often
  // under way when an answer ends the session. What it took must not be requested then: logged out, the staff area
  // sends the crawl to log in, and on resume that page, asked for before, would look like a lost session again (this
  // failed the end-to-end test in 2 of 3 runs). The test holds /x7's request until a take is under way, and that take
  // until the session is lost: either before the take reads the queue, or after it took URLs and before it returns.
  it.each([
    ['before it reads the queue', 1],
    ['after it took URLs', 2],
  ] as const)('requests nothing once the session has ended, though a take was under way (the crawl halts %s)', async (when, perHost) => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // The store is slow to write pages, so the page before /x7 is still being written when /x7 is requested.
    const commit = store.commitPages.bind(store);
    store.commitPages = async (...args) => {
      await sleep(15);
      return commit(...args);
    };
    let x7Asked = false;
    let raced = false;
    let takeUnderWay!: () => void;
    const takeStarted = new Promise<void>((r) => (takeUnderWay = r));
    const sessionLost = async () => {
      while (!(await store.getCrawl(crawlId))!.sessionLost) await sleep(2);
    };
    const take = store.frontier.take.bind(store.frontier);
    store.frontier.take = async (...args) => {
      if (!x7Asked || raced) return take(...args);
      raced = true;
      takeUnderWay();
      if (when === 'before it reads the queue') await sessionLost();
      const taken = await take(...args);
      if (when === 'after it took URLs') await sessionLost();
      return taken;
    };
    const port = loopbackFetch(site.port, { host: 'shop.test', cookie: SHOP_COOKIE });
    const fetchPort: FetchPort = async (url, init) => {
      if (url.endsWith('/x7')) {
        x7Asked = true;
        await Promise.race([takeStarted, sleep(1000)]);
      }
      return port(url, init);
    };
    const service = (fetch: FetchPort) => new CrawlService({ store, fetch, clock: realClock });
    const first = service(fetchPort);
    const { crawlId } = await first.handlers.start({ ...config(8), politeness: { delayMs: 0, concurrency: 8, perHost } });
    await first.settled(crawlId);
    expect(raced, 'a take was under way while /x7 was asked').toBe(true);
    expect((await store.getCrawl(crawlId))!.sessionLost?.url).toBe('http://shop.test/x7');
    // The jar lost the cookie with /x7's answer: a request without it started after the session had ended.
    const at = site.requests.findIndex((r) => r.path === '/x7');
    expect(site.requests.slice(at + 1).filter((r) => !r.withSession)).toEqual([]);

    await fetch(`http://127.0.0.1:${site.port}/login?as=member`, { headers: { host: 'shop.test' } });
    const second = service(loopbackFetch(site.port, { host: 'shop.test', cookie: SHOP_COOKIE }));
    await second.handlers.resume({ crawlId });
    await second.settled(crawlId);
    const done = (await store.getCrawl(crawlId))!;
    expect(done.message).not.toMatch(/session/);
    expect(done.state).toBe('finished');
    expect(site.requests.filter((r) => r.path === '/x7')).toHaveLength(1);
    for (let i = 0; i < 6; i++) expect(site.requests.filter((r) => r.path === `/p/${i}`), `/p/${i}`).toHaveLength(1);
  });

  it('pauses when a seed that needs the session is sent to log in, and asks for it again on resume', async () => {
    site.expire();
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const first = newService(store);
    const { crawlId } = await first.handlers.start(config(2));
    await first.settled(crawlId);
    const paused = (await store.getCrawl(crawlId))!;
    expect(paused.state).toBe('paused');
    expect(paused.message).toMatch(/^paused: http:\/\/shop\.test\/, which opened with your session before, now sends you to the login page http:\/\/shop\.test\/login\?next=%2F: your session on shop\.test has ended/);
    expect(site.requests.map((r) => r.path)).toEqual(['/robots.txt', '/']);
    // Not kept: the seed did nothing wrong. Once logged in, a resume requests it.
    expect((await keptFromRequesting(store.db, crawlId)).total).toBe(0);
    await fetch(`http://127.0.0.1:${site.port}/login?as=member`, { headers: { host: 'shop.test' } });
    const second = newService(store);
    await second.handlers.resume({ crawlId });
    await second.settled(crawlId);
    expect(site.requests.filter((r) => r.path === '/')).toHaveLength(2);
    expect((await store.getCrawl(crawlId))!.stats.fetched).toBeGreaterThan(1);
  });

  it('does not pause a crawl without a session, whatever the site clears', async () => {
    // No session cookie at all: the shop sends every page to log in, and the offers page clears a cookie.
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const service = newService(store, false);
    const { crawlId } = await service.handlers.start({ ...config(2), seeds: ['http://shop.test/', 'http://shop.test/promo'] });
    await service.settled(crawlId);
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.state).not.toBe('paused');
    expect(crawl.sessionLost).toBeUndefined();
  });
});
