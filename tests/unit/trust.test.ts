// A crawl against a hostile, logged-in site, in Node with the crawl core the service worker runs. What counts
// is what the server saw: which URLs were requested, with the session or not, and whether it still holds.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { NAMED_TWICE, NAMED_UNSAFE_FIRST, NEVER_REQUESTED, NOT_WEB, SESSION_COOKIE, startHostileSite, type HostileSite } from '../fixtures/sites/hostile-site';
import { pageLine } from '../../lib/export/jsonl';
import { loopbackFetch } from '../support/loopback-fetch';
import { VirtualClock } from '../support/virtual-clock';

let site: HostileSite;
beforeEach(async () => {
  site = await startHostileSite({ robotsOutages: 2, retryAfterSeconds: 1 });
});
afterEach(() => site.close());

async function crawlHostile(extra: Record<string, unknown> = {}) {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  // Robots.txt outages, retries and Retry-After are waited out in virtual time.
  const clock = new VirtualClock();
  const fetch = clock.hold(loopbackFetch(site.port, { host: 'club.test', cookie: SESSION_COOKIE }));
  const service = new CrawlService({ store, fetch, clock });
  const { crawlId } = await service.handlers.start({
    name: 'club', seeds: ['http://club.test/', 'http://flaky.test/'],
    topic: { keywords: ['astronomy', 'telescope', 'planet', 'galaxy', 'orbit'] },
    budget: { maxPages: 60 }, politeness: { delayMs: 0, concurrency: 4 }, fetch: { retryBaseMs: 200 },
    ...extra,
  });
  await clock.runUntilIdle();
  await service.settled(crawlId);
  return { store, crawlId, crawl: (await store.getCrawl(crawlId))!, pages: await store.pages.pagesAfter(crawlId, 0, 1000) };
}

describe('a crawl of a hostile logged-in site', () => {
  it('requests no redirect target that is unsafe, closed by robots.txt or off scope, and the session survives', async () => {
    const { crawl, pages } = await crawlHostile();
    expect(crawl.state).toBe('finished');
    const paths = site.requests.map((r) => r.path);
    for (const p of NEVER_REQUESTED) expect(paths, p).not.toContain(p);
    expect(site.requests.some((r) => r.host === 'elsewhere.test')).toBe(false);
    expect(site.sessionValid()).toBe(true);
    // Every page request to the club carried the session; robots.txt never did.
    const club = site.requests.filter((r) => r.host === 'club.test');
    expect(club.filter((r) => r.path !== '/robots.txt').every((r) => r.withSession)).toBe(true);
    expect(site.requests.filter((r) => r.path === '/robots.txt').every((r) => !r.withSession)).toBe(true);
    // The page rows tell the chain and why its target was not requested.
    const go1 = pages.find((p) => p.url === 'http://club.test/go/1')!;
    expect(go1.redirects).toEqual([{ url: 'http://club.test/go/1', status: 302 }]);
    expect(go1.outcome).toBe('skipped');
    expect(go1.error).toMatch(/^redirect to http:\/\/club\.test\/signout\?next=\/ not followed: unsafe link \(action verb "signout"\)/);
    expect(pages.find((p) => p.url === 'http://club.test/go/3')!.error).toMatch(/robots\.txt/);
    expect(pages.find((p) => p.url === 'http://club.test/go/4')!.error).toMatch(/outside the crawl's scope/);
    // A redirect inside the rules is followed, and its target is then known as fetched.
    const go5 = pages.find((p) => p.url === 'http://club.test/go/5')!;
    if (go5.outcome === 'done') expect(go5.finalUrl).toBe('http://club.test/notes/orbits');
    expect(paths.filter((p) => p === '/notes/orbits')).toHaveLength(1);
    expect(pages.find((p) => p.url === 'http://club.test/loop/a')!.error).toMatch(/redirect loop/);
    // A redirect to the same page under a session-id spelling is followed once, as the server named it.
    expect(paths.filter((p) => p.startsWith('/session-notes'))).toEqual(['/session-notes', '/session-notes;jsessionid=A1B2']);
    expect(pages.find((p) => p.url === 'http://club.test/session-notes')).toMatchObject({ outcome: 'done', title: 'Session notes' });
  });

  it('records a redirect to javascript:, data:, file: or chrome: as not followed, at once and never asked again', async () => {
    const { pages } = await crawlHostile();
    NOT_WEB.forEach((target, i) => {
      const path = `/away/${i}`;
      expect(site.requests.filter((r) => r.path === path), path).toHaveLength(1);
      const row = pages.find((p) => p.url === `http://club.test${path}`)!;
      expect(row.outcome).toBe('skipped');
      expect(row.error).toBe(`redirect to ${target} not followed: not a web address (${target.split(':')[0]}:), never requested`);
    });
  });

  it('never requests a URL one page names twice, innocently first, and its row says which link named it', async () => {
    const { pages } = await crawlHostile();
    for (const { path } of [...NAMED_TWICE, NAMED_UNSAFE_FIRST]) expect(site.requests.map((r) => r.path), path).not.toContain(path);
    expect(site.sessionValid()).toBe(true);
    const members = pages.find((p) => p.url === 'http://club.test/members')!;
    expect(members.outcome).toBe('done');
    const kept = new Map(members.kept!.map((k) => [new URL(k.url).pathname, k]));
    for (const { path, first, then } of NAMED_TWICE) expect(kept.get(path), path).toMatchObject({ anchor: then, alsoAs: [first] });
    expect(kept.get('/me/1')).toMatchObject({ rule: 'anchor text', match: 'sign out' });
    expect(kept.get('/me/2')).toMatchObject({ rule: 'anchor text', match: 'sign out' });
    expect(kept.get('/me/3')).toMatchObject({ rule: 'link markup', match: 'data-method=delete' });
    expect(kept.get(NAMED_UNSAFE_FIRST.path)).toMatchObject({ anchor: NAMED_UNSAFE_FIRST.first, alsoAs: [NAMED_UNSAFE_FIRST.then] });
    // pages.jsonl says it too.
    const line = JSON.parse(pageLine(members)) as { kept: { url: string; anchor: string; alsoAs?: string[] }[] };
    expect(line.kept.find((k) => k.url === 'http://club.test/me/1')).toEqual({ url: 'http://club.test/me/1', anchor: 'Sign out', rule: 'anchor text', match: 'sign out', alsoAs: ['Jo Weber'] });
  });

  it('requests a page linked under three spellings once', async () => {
    await crawlHostile();
    expect(site.requests.filter((r) => r.path === '/notes')).toHaveLength(1);
  });

  it('waits out a robots.txt outage and a Retry-After, then fetches what was behind them', async () => {
    const { crawl, pages } = await crawlHostile();
    expect(site.requests.filter((r) => r.host === 'flaky.test' && r.path === '/robots.txt')).toHaveLength(3);
    const fetched = new Set(pages.filter((p) => p.outcome === 'done').map((p) => p.url));
    expect(fetched).toContain('http://flaky.test/');
    expect(fetched).toContain('http://flaky.test/dome');
    expect(site.requests.filter((r) => r.path === '/busy')).toHaveLength(2);
    expect(fetched).toContain('http://club.test/busy');
    // Counts agree with the rows.
    expect(crawl.stats.failed).toBe(pages.filter((p) => p.outcome === 'failed').length);
    expect(crawl.stats.fetched).toBe(pages.filter((p) => p.outcome === 'done').length);
  });

  it('fails URLs of a host whose robots.txt stays down, after several tries, each with that reason', async () => {
    await site.close();
    site = await startHostileSite({ robotsOutages: 100 });
    const { crawl, pages } = await crawlHostile({ seeds: ['http://flaky.test/'], fetch: { retryBaseMs: 100 } });
    expect(site.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(5);
    expect(site.requests.filter((r) => r.path !== '/robots.txt')).toHaveLength(0);
    expect(crawl.state).toBe('failed');
    expect(pages[0].error).toMatch(/robots\.txt could not be read after 5 tries .*HTTP 503/);
    expect(crawl.message).toMatch(/no page could be fetched/);
  });
});
