// Whole crawls of every strategy on a shared frontier, in Node (the same core the service worker runs), against a real
// redis-server and loopback sites: each with two workers that crawl to the end and a third killed mid-crawl (its
// requests hang and its runner's heartbeat stops, as when its machine loses power; its leases, and a claim it held,
// lapse and are taken over). What the servers saw is the evidence: no page asked twice, the strategy's bounds kept for
// the whole crawl (sparse tunneling's blacklist, the forum's every page once, a template's records, HITS over every
// worker's pages).
// @module-tag redis
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { parseConfig } from '../../lib/app/parse-config';
import { joinCrawl } from '../../lib/app/shared-run';
import { realClock, type FetchPort } from '../../lib/net/fetcher';
import { SharedCrawls } from '../../lib/platform/shared-bridge';
import type { CrawlRecord } from '../../lib/records/rows';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { openBridge, type Bridge } from '../../lib/store/shared/bridge-server';
import { RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import { crawlParams } from '../../lib/app/shared-run';
import { records as sharedRecords } from '../../lib/store/shared/redis-cycles';
import { companies, companyAt, companyConfig, expectedRecords, startCompanyWorld, type CompanyWorld } from '../fixtures/sites/company-sites';
import { forumConfig, startForumSite, type ForumSite } from '../fixtures/sites/forum-site';
import { startTrapSite, type TrapSite } from '../fixtures/sites/trap-site';
import { startWebOfHosts, type WebOfHosts } from '../fixtures/sites/web-of-hosts';
import { loopbackFetch } from '../support/loopback-fetch';
import { useSharedRedis } from '../support/shared-redis';

const LEASE_MS = 1500;

describe('every strategy on a shared frontier, two workers and one killed', () => {
  const shared = useSharedRedis();
  let site: { close(): Promise<void> } | undefined;
  afterEach(async () => site?.close());

  /** A worker: its own browser store and service, its runner's bridge; `hangAfter` requests, it is killed. */
  const worker = async (name: string, frontier: RedisFrontier, raw: Record<string, unknown>, fetch: FetchPort, hangAfter = Infinity) => {
    const store = new CrawlStore(new CrawlerDB(`${name}-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const crawls = new SharedCrawls(store);
    let bridge: Bridge | undefined;
    const killed = new Promise<void>(() => undefined);
    /** What it asked the servers before it was killed: pages it had not completed are asked again by the others. */
    const requested: string[] = [];
    const hanging: FetchPort = async (url, init) => {
      if (requested.length >= hangAfter) {
        await bridge?.close(); // the heartbeat stops: its leases lapse
        await killed; // and its request never ends
      }
      requested.push(url);
      return fetch(url, init);
    };
    const service = new CrawlService({ store, fetch: hanging, clock: realClock, runStoreFor: (crawl) => crawls.storeFor(crawl) });
    const params: CrawlParams = crawlParams(parseConfig(raw), LEASE_MS);
    bridge = await openBridge(frontier, name, params, () => undefined);
    if (hangAfter === Infinity) shared.bridges.push(bridge);
    crawls.expect(parseConfig(raw).name, { url: bridge.url, token: bridge.token, worker: name });
    const { crawlId } = await service.handlers.start(raw);
    await store.updateCrawl(crawlId, { shared: { worker: name } });
    return { store, crawlId, requested, done: service.settled(crawlId).then(() => store.getCrawl(crawlId) as Promise<CrawlRecord>) };
  };

  /** Pages asked more than once: only pages the killed worker had asked for and not completed may be. */
  const twice = (asked: string[]) => asked.filter((u, i) => asked.indexOf(u) !== i);

  /** Two workers and a third killed after `hangAfter` requests; the two crawl to the end. */
  const crawlShared = async (raw: Record<string, unknown>, fetch: FetchPort, hangAfter: number, recrawl = false) => {
    const config = parseConfig(raw);
    const frontier = new RedisFrontier(shared.redis, config.name);
    await joinCrawl(frontier, config, recrawl);
    const doomed = await worker('doomed', frontier, raw, fetch, hangAfter);
    const live = [await worker('one', frontier, raw, fetch), await worker('two', frontier, raw, fetch)];
    const ends = await Promise.all(live.map((w) => w.done));
    return { frontier, live, doomed, ends };
  };

  it('sparse tunneling: the site book is the crawl\'s: an off-topic site closed once for all, its links kept out', async () => {
    const trap: TrapSite = await startTrapSite();
    site = trap;
    const raw = {
      name: 'sparse', seeds: ['http://sky.test/'], topic: { keywords: ['astronomy', 'planets', 'telescope', 'galaxies'] }, scope: { mode: 'anywhere' },
      budget: { maxPages: 300 }, politeness: { delayMs: 0, concurrency: 1, perHost: 1 },
      strategy: { name: 'sparse-tunneling', maxTunnel: 30, unknownSiteQueue: 5, blacklistAfter: 8 },
    };
    const { frontier, ends, doomed } = await crawlShared(raw, loopbackFetch(trap.port), 3);
    expect(ends.map((e) => e.state)).toEqual(['finished', 'finished']);
    const asked = trap.requests.filter((r) => r.path !== '/robots.txt').map((r) => `${r.host}${r.path}`);
    const its = doomed.requested.map((u) => u.replace(/^http:\/\//, ''));
    for (const u of twice(asked)) expect(its, u).toContain(u); // no page asked twice but the killed worker's
    // junk.test is closed after more than 8 off-topic pages, whichever worker fetched them: at most one more in flight
    // at each of the two live workers when it closed.
    const junk = asked.filter((a) => a.startsWith('junk.test')).length;
    expect(junk).toBeGreaterThanOrEqual(9);
    expect(junk).toBeLessThanOrEqual(11);
    const s = await frontier.status();
    expect(await shared.redis.hget(frontier.key('closed'), 'junk.test')).toMatch(/^more than 8 off-topic pages fetched \(\d+\)$/);
    expect(s.dropped['unknown site full']).toBeGreaterThan(0);
    expect(s.dropped['site blacklisted']).toBeGreaterThan(0);
    expect(s.byWorker.doomed ?? 0).toBeLessThanOrEqual(3);
  });

  it('multi-queue: every board and thread page of the forum once, boards read as list pages, by the queues', async () => {
    const forum: ForumSite = await startForumSite();
    site = forum;
    const raw = { ...forumConfig(), politeness: { delayMs: 0, concurrency: 2, perHost: 1 } };
    const { frontier, ends, doomed } = await crawlShared(raw, loopbackFetch(forum.port), 4);
    expect(ends.map((e) => e.state), ends.map((e) => e.message).join('; ')).toEqual(['finished', 'finished']);
    const asked = forum.requests.filter((r) => r.host === 'forum.test' && r.path !== '/robots.txt').map((r) => r.path);
    expect(new Set(asked)).toEqual(new Set(['/', ...forum.boardPages(), ...forum.threadPages()]));
    for (const p of twice(asked)) expect(doomed.requested, p).toContain(`http://forum.test${p}`);
    const stats = await shared.redis.hgetall(frontier.key('stats'));
    expect(Number(stats.listPages)).toBe(forum.boardPages().length);
  });

  it('a template: the search run once (taken over from the worker killed on it), the records the crawl\'s, then its next cycle', async () => {
    const world: CompanyWorld = await startCompanyWorld(companies(6));
    site = world;
    const raw = companyConfig();
    // The doomed worker starts first: it claims the search, and is killed on its first result page.
    const first = await crawlShared(raw, loopbackFetch(world.port), 0);
    expect(first.ends.map((e) => [e.state, e.message])).toEqual([['finished', expect.stringMatching(/frontier empty/)], ['finished', expect.stringMatching(/frontier empty/)]]);
    const engine = world.seen.filter((s) => s.startsWith('engine.test/search'));
    expect(engine.length).toBe(new Set(engine).size); // the search read once
    const got = (await sharedRecords(first.frontier)).records;
    expect(Object.fromEntries(got.map((r) => [r.url, { email: r.fields.email, phone: r.fields.phone }]))).toEqual(Object.fromEntries(expectedRecords(companies(6))));
    // The sites change; the next cycle, shared again.
    world.sites.get('shop02')!.email = 'orders@shop02.test';
    world.order.splice(world.order.indexOf('shop03'), 1);
    world.sites.delete('shop03');
    const added = companyAt(30);
    world.sites.set(added.name, added);
    world.order.push(added.name);
    const next = await crawlShared(raw, loopbackFetch(world.port), 2, true);
    expect(next.ends.map((e) => e.state)).toEqual(['finished', 'finished']);
    expect(next.ends.map((e) => e.templateRun!.cycle)).toEqual([2, 2]);
    const after = await sharedRecords(next.frontier);
    expect(Object.fromEntries(after.records.map((r) => [r.url, { email: r.fields.email, phone: r.fields.phone }])))
      .toEqual(Object.fromEntries(expectedRecords(world.order.map((n) => world.sites.get(n)!))));
    const byKind = (k: string) => after.changes.filter((c) => c.change === k).map((c) => c.url).sort();
    expect(byKind('new')).toEqual([`http://${added.name}.test/contact`]);
    expect(byKind('changed')).toEqual(['http://shop02.test/contact']);
    expect(byKind('deleted')).toEqual(['http://shop03.test/contact']);
  });

  it("hits-fusion: each worker's HITS rounds run over every worker's relevant pages, and re-rank the crawl's queue", async () => {
    // Servers slow enough that the crawl outlasts a worker's reading of the others' pages (every 2 s, as its labels).
    const web: WebOfHosts = await startWebOfHosts({ hosts: 4, pagesPerHost: 12, linksPerPage: 4, latencyMs: 400 });
    site = web;
    const raw = {
      name: 'hits', seeds: web.hosts.map((h) => `http://${h}/`), topic: { keywords: ['telescope'] }, budget: { maxPages: 40 },
      politeness: { delayMs: 0, concurrency: 2, perHost: 1, robots: false }, strategy: { name: 'hits-fusion', every: 10, minPages: 5 },
    };
    const { frontier, live, ends, doomed } = await crawlShared(raw, loopbackFetch(web.port), 3);
    expect(ends.map((e) => e.state)).toEqual(['finished', 'finished']);
    const asked = web.requests.map((r) => r.url).filter((u) => !u.endsWith('/robots.txt'));
    for (const u of twice(asked)) expect(doomed.requested, u).toContain(u);
    expect((await frontier.status()).rescore?.passes).toBeGreaterThan(0);
    for (const [i, w] of live.entries()) {
      const round = (ends[i]!.strategyReport as { round?: { pages: number; byOthers?: number } } | undefined)?.round;
      // Its last round ran over the others' relevant pages too, beside its own.
      expect(round?.byOthers, `worker ${i}`).toBeGreaterThan(0);
      expect(round!.pages, `worker ${i}`).toBeGreaterThan(round!.byOthers!);
      expect(w.crawlId).toBeGreaterThan(0);
    }
  });
});
