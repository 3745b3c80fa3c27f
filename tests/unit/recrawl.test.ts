// A template's recrawl in Node, through the crawl core the service worker runs: every page the cycle before kept
// is asked for with its validators, a 304 keeps the stored copy and its record, only the changed pages are
// downloaded again, and the WARC says which pages were revisits. Also: a server that ignores validators (found
// unchanged by the same bytes), and the cache mode every request states.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { exportCrawl } from '../../lib/export/export-crawl';
import { fetchOnce, realClock, type FetchPort } from '../../lib/net/fetcher';
import { companies, companyConfig, contactUrl, startCompanyWorld, type CompanyWorld } from '../fixtures/sites/company-sites';
import { loopbackFetch } from '../support/loopback-fetch';
import { httpPayload, parseWarc } from '../support/archive-readers';

let world: CompanyWorld | undefined;
afterEach(async () => world?.close());

async function crawlThenChange(honoursValidators = true) {
  world = await startCompanyWorld(companies(6));
  world.honoursValidators = honoursValidators;
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: loopbackFetch(world.port), clock: realClock });
  const first = await service.handlers.start(companyConfig());
  await service.settled(first.crawlId);
  const firstRequests = world.log.length;
  world.sites.get('shop02')!.email = 'orders@shop02.test';
  world.sites.get('shop05')!.phone = '+1 555 0199';
  const second = await service.handlers.recrawl({ name: 'telescope shops' });
  await service.settled(second.crawlId);
  const crawl = (await store.getCrawl(second.crawlId))!;
  expect(crawl.state, crawl.message).toBe('finished');
  return { store, w: world, first: (await store.getCrawl(first.crawlId))!, crawl, recrawlLog: world.log.slice(firstRequests) };
}

async function warcOf(store: CrawlStore, crawlId: number) {
  const crawl = (await store.getCrawl(crawlId))!;
  const out = await exportCrawl(store.db, crawl, { format: 'warc' }, { now: Date.now() });
  const parts: Uint8Array[] = [];
  for await (const c of out.chunks) parts.push(c);
  return parseWarc(Buffer.concat(parts));
}

const CHANGED = [contactUrl({ name: 'shop02' } as never), contactUrl({ name: 'shop05' } as never)].map((u) => u.replace('http://', ''));

describe('a recrawl asks only what changed', () => {
  it('asks every page with its validators, gets a 304 for each unchanged one, and downloads only the changed pages', async () => {
    const { store, first, crawl, recrawlLog } = await crawlThenChange();
    // The server's log: every page of the recrawl was asked conditionally; only the two changed pages came in full.
    expect(recrawlLog.length).toBe(first.stats.fetched);
    expect(recrawlLog.filter((r) => !r.conditional)).toEqual([]);
    expect(recrawlLog.filter((r) => r.status === 200).map((r) => r.url).sort()).toEqual(CHANGED);
    expect(recrawlLog.filter((r) => r.status === 304)).toHaveLength(recrawlLog.length - 2);
    // The changed pages' new content is in the records; the others kept theirs.
    const records = new Map((await store.records.list('telescope shops')).map((r) => [r.url, r.fields]));
    expect(records.get('http://shop02.test/contact')!.email).toBe('orders@shop02.test');
    expect(records.get('http://shop05.test/contact')!.phone).toBe('+1 555 0199');
    const changes = await store.records.changes(crawl.id!);
    expect(changes.filter((c) => c.change === 'changed').map((c) => c.url).sort()).toEqual(CHANGED.map((u) => `http://${u}`));
    expect(changes.filter((c) => c.change === 'unchanged')).toHaveLength(4);
    // Counted: the bytes saved are the stored copies' sizes of the pages answered 304.
    const firstPages = await store.pages.pagesAfter(first.id!, 0, 1000);
    const stored = new Map(firstPages.map((p) => [p.url, p.bytes]));
    const saved = recrawlLog.filter((r) => r.status === 304).reduce((n, r) => n + stored.get(`http://${r.url}`)!, 0);
    expect(crawl.stats).toMatchObject({ conditional: recrawlLog.length, notModified: recrawlLog.length - 2, changed: 2, unchanged: recrawlLog.length - 2, bytesSaved: saved });
    expect(saved).toBeGreaterThan(0);
    expect(crawl.stats.bytes).toBe(recrawlLog.filter((r) => r.status === 200).reduce((n, r) => n + r.bytes, 0));
  });

  it('writes a 304 as a server-not-modified revisit of the first capture, and a changed page as a response', async () => {
    const { store, first, crawl } = await crawlThenChange();
    const firstDates = new Map((await store.pages.pagesAfter(first.id!, 0, 1000)).map((p) => [p.finalUrl, new Date(p.fetchedAt).toISOString()]));
    const records = await warcOf(store, crawl.id!);
    const responses = records.filter((r) => r.headers['WARC-Type'] === 'response');
    const revisits = records.filter((r) => r.headers['WARC-Type'] === 'revisit');
    expect(responses.map((r) => r.headers['WARC-Target-URI']).sort()).toEqual(CHANGED.map((u) => `http://${u}`));
    expect(httpPayload(responses.find((r) => r.headers['WARC-Target-URI'] === 'http://shop02.test/contact')!.content).toString()).toContain('orders@shop02.test');
    expect(revisits).toHaveLength(crawl.stats.notModified!);
    for (const r of revisits) {
      expect(r.headers['WARC-Profile']).toBe('http://netpreserve.org/warc/1.1/revisit/server-not-modified');
      expect(r.headers['WARC-Refers-To-Target-URI']).toBe(r.headers['WARC-Target-URI']);
      expect(r.headers['WARC-Refers-To-Date']).toBe(firstDates.get(r.headers['WARC-Target-URI']!));
      expect(r.content.toString()).toMatch(/^HTTP\/1\.1 304 Not Modified\r\n/);
      expect(httpPayload(r.content).length).toBe(0);
    }
  });

  it('works by the bytes with a server that ignores validators: the same payload is an identical-payload-digest revisit', async () => {
    const { store, crawl, recrawlLog } = await crawlThenChange(false);
    expect(recrawlLog.every((r) => r.conditional && r.status === 200)).toBe(true);
    expect(crawl.stats).toMatchObject({ conditional: recrawlLog.length, changed: 2, unchanged: recrawlLog.length - 2 });
    expect(crawl.stats.notModified ?? 0).toBe(0);
    expect((await store.records.get('telescope shops', 'http://shop02.test/contact'))!.fields.email).toBe('orders@shop02.test');
    const records = await warcOf(store, crawl.id!);
    const revisits = records.filter((r) => r.headers['WARC-Type'] === 'revisit');
    expect(revisits).toHaveLength(recrawlLog.length - 2);
    for (const r of revisits) {
      expect(r.headers['WARC-Profile']).toBe('http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
      expect(r.headers['WARC-Payload-Digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    const firstWarc = await warcOf(store, crawl.templateRun!.previousCrawlId!);
    const digests = new Map(firstWarc.filter((r) => r.headers['WARC-Type'] === 'response').map((r) => [r.headers['WARC-Target-URI'], r.headers['WARC-Payload-Digest']]));
    for (const r of revisits) expect(r.headers['WARC-Payload-Digest']).toBe(digests.get(r.headers['WARC-Target-URI']));
  });
});

describe('the cache mode of every request', () => {
  it('is no-store, for pages with or without validators and for robots.txt', async () => {
    const seen: RequestInit[] = [];
    const port: FetchPort = async (_url, init) => {
      seen.push(init);
      return new Response(null, { status: 304 });
    };
    const opts = { fetch: port, clock: realClock, timeoutMs: 1000, maxBytes: 1000 };
    const plain = await fetchOnce('http://a.test/', { ...opts, credentials: 'include' });
    const asked = await fetchOnce('http://a.test/', { ...opts, credentials: 'include', validators: { etag: '"v1"', lastModified: 'Tue, 24 Nov 2026 10:00:00 GMT' } });
    await fetchOnce('http://a.test/robots.txt', { ...opts, credentials: 'omit', body: 'text' });
    expect(seen.map((i) => i.cache)).toEqual(['no-store', 'no-store', 'no-store']);
    expect(new Headers(seen[1]!.headers).get('if-none-match')).toBe('"v1"');
    expect(new Headers(seen[1]!.headers).get('if-modified-since')).toBe('Tue, 24 Nov 2026 10:00:00 GMT');
    expect(seen[0]!.headers).toBeUndefined();
    // A 304 is "not modified" only to a request that asked with validators; otherwise it is an error status.
    expect(asked.kind).toBe('notModified');
    expect(plain.kind).toBe('response');
    expect(plain.out.error).toBe('HTTP 304');
  });
});
