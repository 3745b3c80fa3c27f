// A template crawl in Node, the same core the service worker runs: search seeding through the gate, filter
// layers, extraction into records, then a recrawl after the sites changed (SPEC E.2-E.6).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/crawl/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { companies, companyAt, companyConfig, contactUrl, expectedRecords, startCompanyWorld, type CompanyWorld } from '../../scripts/lib/company-sites';
import { loopbackFetch } from '../support/loopback-fetch';

const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
let world: CompanyWorld | undefined;
afterEach(async () => world?.close());

async function setup(count = 20) {
  world = await startCompanyWorld(companies(count));
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: loopbackFetch(world.port), clock });
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
  }, 60_000);

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
  }, 60_000);
});
