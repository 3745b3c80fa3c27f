// The user decides at the edge: a link the guard kept can be allowed after seeing why, one URL or one rule's match
// for this crawl; the crawl then requests it, and the allowance is recorded. What counts is the server's log.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { keptFromRequesting } from '../../lib/ui/queries';
import { KEPT_READS, NEVER_REQUESTED, SESSION_COOKIE, startHostileSite, type HostileSite } from '../fixtures/sites/hostile-site';
import { loopbackFetch } from '../support/loopback-fetch';
import { VirtualClock } from '../support/virtual-clock';

let site: HostileSite;
beforeEach(async () => {
  site = await startHostileSite({ robotsOutages: 0 });
});
afterEach(() => site.close());

async function crawled() {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const clock = new VirtualClock();
  const service = new CrawlService({ store, fetch: clock.hold(loopbackFetch(site.port, { host: 'club.test', cookie: SESSION_COOKIE })), clock });
  const { crawlId } = await service.handlers.start({
    name: 'club', seeds: ['http://club.test/'], topic: { keywords: ['astronomy', 'telescope', 'planet', 'galaxy'] },
    budget: { maxPages: 60 }, politeness: { delayMs: 0, concurrency: 2 },
  });
  const settle = async () => {
    await clock.runUntilIdle();
    await service.settled(crawlId);
  };
  await settle();
  return { store, service, crawlId, settle };
}
const asked = (path: string) => site.requests.filter((r) => r.path === path).length;

describe('allowing a link the guard kept', { timeout: 60_000 }, () => {
  it('requests one allowed URL, records it, and keeps the others', async () => {
    const { store, service, crawlId, settle } = await crawled();
    for (const p of KEPT_READS) expect(asked(p), p).toBe(0);
    const kept = await keptFromRequesting(store.db, crawlId);
    expect(kept.links.find((l) => l.url === 'http://club.test/vote/2024')).toMatchObject({ rule: 'action verb', match: 'vote' });

    const before = (await store.getCrawl(crawlId))!;
    expect(before.state).toBe('finished');
    // A finished crawl starts again for what was allowed, its budget grown by that much and no more.
    const { allowed, crawl } = await service.handlers.allowKept({ crawlId, url: 'http://club.test/vote/2024' });
    expect(allowed).toBe(1);
    expect(crawl.allowed).toEqual([{ url: 'http://club.test/vote/2024', at: expect.any(Number) }]);
    expect(crawl.state).toBe('running');
    await settle();
    const after = (await store.getCrawl(crawlId))!;
    expect(after.state).toBe('finished');
    expect(after.config.budget.maxPages).toBe(Math.max(60, before.stats.attempts + 1));
    expect(asked('/vote/2024')).toBe(1);
    expect(asked('/vote/2023')).toBe(0);
    const pages = await store.pages.pagesAfter(crawlId, 0, 1000);
    expect(pages.find((p) => p.url === 'http://club.test/vote/2024')).toMatchObject({ outcome: 'done', title: 'Photo contest 2024' });
    expect((await keptFromRequesting(store.db, crawlId)).links.map((l) => l.url)).not.toContain('http://club.test/vote/2024');
    // The rest of what was kept stays kept, and the session holds.
    for (const p of NEVER_REQUESTED) expect(asked(p), p).toBe(0);
    expect(site.sessionValid()).toBe(true);
  });

  it('requests every link kept by one allowed rule and match, and nothing kept by another', async () => {
    const { store, service, crawlId, settle } = await crawled();
    // As a crawl paused when it lost the session, or by the user.
    await store.updateCrawl(crawlId, { state: 'paused', message: 'paused by you' });
    const { allowed, crawl } = await service.handlers.allowKept({ crawlId, rule: 'action verb', match: 'vote' });
    expect(allowed).toBe(KEPT_READS.length);
    // A paused crawl waits for the user to resume it.
    expect(crawl.state).toBe('paused');
    await settle();
    for (const p of KEPT_READS) expect(asked(p), p).toBe(0);
    await service.handlers.resume({ crawlId });
    await settle();
    for (const p of KEPT_READS) expect(asked(p), p).toBe(1);
    for (const p of NEVER_REQUESTED) expect(asked(p), p).toBe(0);
    expect((await store.getCrawl(crawlId))!.allowed).toEqual([{ rule: 'action verb', match: 'vote', at: expect.any(Number) }]);
  });

  it('refuses what covers no kept link, with a sentence', async () => {
    const { service, crawlId } = await crawled();
    await expect(service.handlers.allowKept({ crawlId, url: 'http://club.test/notes/orbits' })).rejects.toThrow('http://club.test/notes/orbits is not kept from requesting in this crawl');
    await expect(service.handlers.allowKept({ crawlId, rule: 'ended your session', match: 'x' })).rejects.toThrow('"ended your session" is not a rule of the guard: allow the URL itself');
    await expect(service.handlers.allowKept({ crawlId, rule: 'action verb', match: 'juggle' })).rejects.toThrow('no link of this crawl is kept by action verb "juggle"');
  });
});
