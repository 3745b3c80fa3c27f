// Sparse tunneling (design B) in whole crawls, in Node: a trap of irrelevant pages costs at most K+1 fetches,
// unknown sites get at most R queued URLs, a site with more than P irrelevant pages is closed, and every
// dropped link is counted by reason.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import { startTrapSite, type TrapSite } from '../fixtures/sites/trap-site';
import { loopbackFetch } from '../support/loopback-fetch';

let site: TrapSite;
beforeAll(async () => {
  site = await startTrapSite();
});
afterAll(() => site.close());

async function crawl(strategy: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  site.requests.length = 0;
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: loopbackFetch(site.port), clock: realClock });
  const { crawlId } = await service.handlers.start({
    name: 'sky', seeds: ['http://sky.test/'], topic: { keywords: ['astronomy', 'planets', 'telescope', 'galaxies'] },
    scope: { mode: 'anywhere' }, budget: { maxPages: 300 }, politeness: { delayMs: 0, concurrency: 3, perHost: 3 },
    strategy, ...extra,
  });
  await service.settled(crawlId);
  return { store, crawlId, crawl: (await store.getCrawl(crawlId))! };
}

const fetchedFrom = (host: string) => site.requests.filter((r) => r.host === host && r.path !== '/robots.txt').length;

describe('sparse tunneling', () => {
  it('spends at most K+1 fetches in a trap of irrelevant pages linked from every page', async () => {
    for (const maxTunnel of [1, 3]) {
      const { crawl: c } = await crawl({ name: 'sparse-tunneling', maxTunnel, unknownSiteQueue: 100, blacklistAfter: 1000 });
      expect(c.state, `K=${maxTunnel}`).toBe('finished');
      expect(fetchedFrom('cal.test'), `K=${maxTunnel}`).toBe(maxTunnel + 1);
      expect(fetchedFrom('sky.test')).toBe(4);
      expect(c.dropped?.['tunnel too long']).toBeGreaterThan(0);
    }
    // Best-first has no such bound: it walks the calendar until its budget.
    const best = await crawl({ name: 'best-first' }, { budget: { maxPages: 60 }, siteBlacklist: ['junk.test'] });
    expect(fetchedFrom('cal.test')).toBeGreaterThan(10);
  });

  it('queues at most R URLs of an unknown site, and closes a site after P irrelevant pages', async () => {
    // One request at a time, so no page of the site is in flight when it is closed.
    const { store, crawlId, crawl: c } = await crawl(
      { name: 'sparse-tunneling', maxTunnel: 30, unknownSiteQueue: 5, blacklistAfter: 8 },
      { politeness: { delayMs: 0, concurrency: 1 } },
    );
    expect(c.state).toBe('finished');
    // junk.test: more than P = 8 irrelevant pages blacklist it; it never got more than R = 5 queued at once.
    expect(fetchedFrom('junk.test')).toBe(9);
    expect(c.dropped?.['unknown site full']).toBeGreaterThan(0);
    expect(c.dropped?.['site blacklisted']).toBeGreaterThan(0);
    const sites = await store.sites(crawlId);
    const junk = sites.find((s) => s.site === 'junk.test')!;
    expect(junk).toMatchObject({ fetched: 9, relevant: 0, queued: 0 });
    expect(junk.blacklisted).toMatch(/more than 8 off-topic pages/);
    expect(sites.find((s) => s.site === 'sky.test')?.blacklisted).toBeUndefined();
  });

  it('never enters a site the config blacklists, and counts what it dropped', async () => {
    const { crawl: c } = await crawl({ name: 'sparse-tunneling' }, { siteBlacklist: ['https://junk.test/', 'cal.test'] });
    expect(fetchedFrom('junk.test') + fetchedFrom('cal.test')).toBe(0);
    expect(c.dropped?.['site blacklisted']).toBeGreaterThan(0);
  });

  it('runs with the defaults of design B and refuses a bad parameter in one sentence naming it', () => {
    expect(parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] }, strategy: { name: 'sparse-tunneling' } }).strategy)
      .toEqual({ name: 'sparse-tunneling', maxTunnel: 10, unknownSiteQueue: 15, blacklistAfter: 20 });
    const bad = (strategy: unknown) => () => parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] }, strategy });
    expect(bad({ name: 'sparse-tunneling', maxTunnel: 2.5 })).toThrow(new ConfigError('strategy.maxTunnel (longest tunnel) must be a whole number from 1 to 30 (got 2.5)'));
    expect(bad({ name: 'sparse-tunneling', K: 3 })).toThrow(/strategy\.K is not a parameter of sparse-tunneling \(its parameters are maxTunnel, unknownSiteQueue, blacklistAfter\)/);
    expect(bad({ name: 'best-first', maxTunnel: 3 })).toThrow(/strategy\.maxTunnel is not a parameter of best-first \(it has no parameters\)/);
    expect(bad({ name: 'tunnelling' })).toThrow(/strategy\.name must be one of "best-first", "breadth-first", "sparse-tunneling", "hits-fusion"/);
  });
});
