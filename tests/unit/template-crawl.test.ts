// A template crawl in Node, the same core the service worker runs: search seeding through the gate, filter
// layers, extraction into records, then a recrawl after the sites changed (design E.2-E.6).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import { companies, companyAt, companyConfig, contactUrl, expectedRecords, startCompanyWorld, type CompanyWorld } from '../fixtures/sites/company-sites';
import { loopbackFetch } from '../support/loopback-fetch';

let world: CompanyWorld | undefined;
afterEach(async () => world?.close());

async function setup(count = 20) {
  world = await startCompanyWorld(companies(count));
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: loopbackFetch(world.port), clock: realClock });
  return { store, service, w: world };
}

const recordsOf = async (store: CrawlStore, name: string) =>
  new Map((await store.records.list(name)).map((r) => [r.url, { email: r.fields.email, phone: r.fields.phone }]));

describe('a template crawl of a score of company sites', () => {
  it('finds every contact page from the search results and records its fields', async () => {
    const { store, service, w } = await setup();
    const { crawlId } = await service.handlers.start(companyConfig());
    await service.settled(crawlId);
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.state, crawl.message).toBe('finished');
    expect(crawl.templateRun!.results).toHaveLength(20);
    expect(Object.fromEntries(await recordsOf(store, 'telescope shops'))).toEqual(Object.fromEntries(expectedRecords(companies(20))));
    // The server never saw an ad, the engine's furniture, a social page or a page no filter leads to.
    const hosts = new Set(w.seen.map((s) => s.split('/')[0]));
    for (const h of ['sponsor.test', 'social.test', 'account.test', 'help.enginecorp.test']) expect(hosts.has(h), h).toBe(false);
    expect(w.seen.filter((s) => /\/(products|news|privacy)$/.test(s))).toEqual([]);
    expect(w.seen.filter((s) => s.includes('/cache'))).toEqual([]);
    // Paging by offset stops at the first page with no new results.
    expect(w.seen.filter((s) => s.startsWith('engine.test/search'))).toEqual([0, 5, 10, 15, 20].map((o) => `engine.test/search?q=telescope+shop&first=${o}`));
  });

  it('recrawls: changed pages re-extracted, a vanished site deleted, a new one added, the rest unchanged', async () => {
    const { store, service, w } = await setup(6);
    const first = await service.handlers.start(companyConfig());
    await service.settled(first.crawlId);
    w.sites.get('shop02')!.email = 'orders@shop02.test';
    w.order.splice(w.order.indexOf('shop03'), 1);
    w.sites.delete('shop03');
    const added = companyAt(30);
    w.sites.set(added.name, added);
    w.order.push(added.name);
    const { crawlId } = await service.handlers.recrawl({ name: 'telescope shops' });
    await service.settled(crawlId);
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.state, crawl.message).toBe('finished');
    const expected = expectedRecords([...w.order.map((n) => w.sites.get(n)!)]);
    expect(Object.fromEntries(await recordsOf(store, 'telescope shops'))).toEqual(Object.fromEntries(expected));
    const changes = await store.records.changes(crawlId);
    const byKind = (k: string) => changes.filter((c) => c.change === k).map((c) => c.url).sort();
    expect(byKind('new')).toEqual([contactUrl(added)]);
    expect(byKind('changed')).toEqual(['http://shop02.test/contact']);
    expect(byKind('deleted')).toEqual(['http://shop03.test/contact']);
    expect(byKind('unchanged')).toHaveLength(expected.size - 2);
    expect(crawl.templateRun!.cycle).toBe(2);
    expect(crawl.templateRun!.nextAt).toBeGreaterThan(Date.now());
  });
});

describe('a template crawl that cannot find its seeds or is deleted', () => {
  it('fails with a sentence about the search when the engine lists nothing, and is still due again', async () => {
    const { store, service } = await setup(3);
    const { crawlId } = await service.handlers.start(companyConfig('nothing', { search: { url: 'http://engine.test/search?q={query}&first={offset}', keywords: ['kayak'] } }));
    await service.settled(crawlId);
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.state).toBe('failed');
    expect(crawl.message).toMatch(/^the search found no result links/);
    expect((await service.recrawlsDue()).map((d) => d.name)).toEqual(['nothing']);
  });

  it('takes the seeds the user gave before the search results', async () => {
    const { store, service } = await setup(3);
    const config = companyConfig('given', { search: { url: 'http://engine.test/search?q={query}&first={offset}', keywords: ['kayak'] } });
    const { crawlId } = await service.handlers.start({ ...config, seeds: ['http://shop02.test/'] });
    await service.settled(crawlId);
    expect((await store.getCrawl(crawlId))!.templateRun!.results).toEqual(['http://shop02.test/']);
    expect((await store.records.list('given')).map((r) => r.url)).toEqual(['http://shop02.test/contact']);
  });

  it('keeps its records across cycles but not past the deletion of its last crawl', async () => {
    const { store, service } = await setup(3);
    const first = await service.handlers.start(companyConfig());
    await service.settled(first.crawlId);
    const second = await service.handlers.recrawl({ name: 'telescope shops' });
    await service.settled(second.crawlId);
    await service.handlers.deleteCrawl({ crawlId: second.crawlId });
    expect(await store.records.list('telescope shops')).toHaveLength(3);
    expect(await store.records.changes(second.crawlId)).toEqual([]);
    await service.handlers.deleteCrawl({ crawlId: first.crawlId });
    expect(await store.records.list('telescope shops')).toEqual([]);
  });
});

describe('seed sampling across cycles (design E.3)', () => {
  it('skips some later results in one cycle and crawls every one of them in the next', async () => {
    const { store, service } = await setup(20);
    const first = await service.handlers.start(companyConfig('sampled', { sampling: true, randomSeed: 4 }));
    await service.settled(first.crawlId);
    const c1 = (await store.getCrawl(first.crawlId))!;
    const skipped = c1.templateRun!.skipped;
    expect(skipped.length).toBeGreaterThan(0);
    expect(c1.config.seeds).toHaveLength(20 - skipped.length);
    const sites = async () => new Set((await store.records.list('sampled')).map((r) => r.site));
    for (const s of skipped) expect((await sites()).has(new URL(s).hostname)).toBe(false);
    const second = await service.handlers.recrawl({ name: 'sampled' });
    await service.settled(second.crawlId);
    const c2 = (await store.getCrawl(second.crawlId))!;
    for (const s of skipped) expect(c2.config.seeds).toContain(s);
    // Sites skipped this time keep the records of the cycle before: they were not looked at.
    const now = await sites();
    for (const s of [...skipped, ...c2.templateRun!.skipped]) expect(now.has(new URL(s).hostname), s).toBe(true);
  });
});

describe('a template crawl paused and resumed', () => {
  it('does not search again, and ends with every record', async () => {
    const { store, service, w } = await setup(20);
    const config = companyConfig();
    const { crawlId } = await service.handlers.start({ ...config, politeness: { ...config.politeness, concurrency: 1 } });
    for (let i = 0; i < 400 && (await store.records.list('telescope shops')).length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    const paused = await service.handlers.pause({ crawlId });
    expect(paused.state).toBe('paused');
    const before = (await store.records.list('telescope shops')).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(21);
    await service.handlers.resume({ crawlId });
    await service.settled(crawlId);
    expect((await store.getCrawl(crawlId))!.state).toBe('finished');
    expect(Object.fromEntries(await recordsOf(store, 'telescope shops'))).toEqual(Object.fromEntries(expectedRecords(companies(20))));
    expect(w.seen.filter((s) => s.startsWith('engine.test/search'))).toHaveLength(5);
    expect((await store.records.changes(crawlId)).every((c) => c.change === 'new')).toBe(true);
  });
});
