// A page's bytes are stored compressed (less for the browser's storage to write and keep), and every reader gives
// back the bytes exactly as received: the crawl's own reads (training copies, labeling, the model), and the exports.
// Rows stored before, as received, read as they did, with no migration.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/crawl/parse-config';
import { CrawlService } from '../../lib/crawl/service';
import { decodeHtml } from '../../lib/fetch/decode';
import { realClock } from '../../lib/fetch/fetcher';
import { bodyHtml } from '../../lib/page-body';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { PageRecord } from '../../lib/types';
import { httpPayload, parseWarc, unzip } from '../support/archive-readers';
import { exportBytes } from '../support/demo-crawl';
import { listenOnLoopback } from '../fixtures/sites/loopback';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name));

// An article about the size of a Wikispeedia page (~20 KiB): real captured markup and a long list of links.
const links = Array.from({ length: 300 }, (_, i) => `<li><a href="#moon-${i}">Moon ${i}</a>, a section about the moon</li>`).join('\n');
const ARTICLE = Buffer.concat([fixture('chinese-utf8.html'), fixture('broken-markup.html'), Buffer.from(`<ul>${links}</ul>`)]);
// A GBK page (its bytes are not its HTML's UTF-8), and bytes that do not compress.
const GBK = Buffer.concat(Array.from({ length: 4 }, () => fixture('gbk-page.html')));
const NOISE = randomBytes(4096);

const PAGES: Record<string, { contentType: string; bytes: Buffer }> = {
  '/': { contentType: 'text/html; charset=utf-8', bytes: ARTICLE },
  '/gbk': { contentType: 'text/html', bytes: GBK },
  '/noise': { contentType: 'text/html; charset=utf-8', bytes: NOISE },
};

let site: { origin: string; close(): Promise<void> };
let store: CrawlStore;
let crawlId: number;
let pages: PageRecord[];

beforeAll(async () => {
  site = await listenOnLoopback(createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    if (!page) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else res.writeHead(200, { 'content-type': page.contentType }).end(page.bytes);
  }));
  store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: (u, i) => fetch(u, i), clock: realClock });
  ({ crawlId } = await service.handlers.start({ name: 'stored', seeds: Object.keys(PAGES).map((path) => site.origin + path), topic: { keywords: ['moon'] }, politeness: { delayMs: 0 } }));
  await service.settled(crawlId);
  pages = (await store.pages.pagesAfter(crawlId, 0, 100)).filter((p) => p.status === 200);
});
afterAll(() => site.close());

const pathOf = (url: string) => new URL(url).pathname;

describe('a body stored compressed', () => {
  it('takes a fraction of the bytes received in the table, and a page that does not compress is kept as received', async () => {
    expect(pages.map((p) => pathOf(p.url)).sort()).toEqual(Object.keys(PAGES).sort());
    const rows = await store.db.bodies.bulkGet(pages.map((p) => [crawlId, p.seq] as [number, number]));
    const stored = new Map(pages.map((p, i) => [pathOf(p.url), rows[i]!]));
    expect(stored.get('/')!.coding).toBe('gzip');
    expect(stored.get('/')!.payload!.byteLength).toBeLessThan(ARTICLE.length / 3);
    expect(stored.get('/gbk')!.coding).toBe('gzip');
    expect(stored.get('/noise')!.coding).toBeUndefined();
    expect(Buffer.from(stored.get('/noise')!.payload!).equals(NOISE)).toBe(true);
  });

  it('reads back the bytes as received for the crawl (training copies, labeling, the model) and their HTML', async () => {
    const bodies = await store.pages.bodies(pages.map((p) => ({ crawlId, seq: p.seq })));
    pages.forEach((p, i) => {
      const page = PAGES[pathOf(p.url)]!;
      expect(Buffer.from(bodies[i]!.payload!).equals(page.bytes), p.url).toBe(true);
      expect(bodies[i]!.coding, p.url).toBeUndefined();
      expect(bodyHtml(bodies[i]!), p.url).toBe(decodeHtml(page.bytes, page.contentType).text);
    });
    // A row read straight from the table gives its HTML too.
    const [row] = await store.db.bodies.bulkGet([[crawlId, pages.find((p) => pathOf(p.url) === '/')!.seq]]);
    expect(bodyHtml(row!)).toBe(ARTICLE.toString('utf8'));
  });

  it('exports the bytes as received: WARC, WACZ, the HTML ZIP, JSON Lines', async () => {
    const responses = (await parseWarc(await exportBytes(store, crawlId, { format: 'warc' }))).filter((r) => r.headers['WARC-Type'] === 'response');
    expect(responses.length).toBe(3);
    for (const r of responses) expect(httpPayload(r.content).equals(PAGES[pathOf(r.headers['WARC-Target-URI']!)]!.bytes), r.headers['WARC-Target-URI']).toBe(true);
    const wacz = await unzip(await exportBytes(store, crawlId, { format: 'wacz' }));
    const warc = [...wacz.entries()].find(([name]) => name.endsWith('.warc.gz'))![1].data;
    const inWacz = (await parseWarc(warc)).filter((r) => r.headers['WARC-Type'] === 'response');
    for (const r of inWacz) expect(httpPayload(r.content).equals(PAGES[pathOf(r.headers['WARC-Target-URI']!)]!.bytes)).toBe(true);
    const files = [...(await unzip(await exportBytes(store, crawlId, { format: 'zip' }))).values()].map((f) => f.data);
    for (const page of Object.values(PAGES)) expect(files.some((f) => f.equals(page.bytes))).toBe(true);
    const lines = (await exportBytes(store, crawlId, { format: 'jsonl', html: true })).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; html: string });
    const ours = lines.filter((l) => PAGES[pathOf(l.url)]);
    expect(ours.length).toBe(3);
    for (const l of ours) {
      const page = PAGES[pathOf(l.url)]!;
      expect(l.html, l.url).toBe(decodeHtml(page.bytes, page.contentType).text);
    }
  });
});

describe('bodies stored before, as received', () => {
  it('read and export their bytes as they did, with no migration', async () => {
    const s = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const id = await s.createCrawl(parseConfig({ name: 'old', seeds: ['https://example.org/'], topic: { keywords: ['moon'] } }), 1, 0);
    const url = 'https://example.org/moon';
    await s.db.pages.put({
      crawlId: id, seq: 1, url, finalUrl: url, status: 200, phase: 'crawl', depth: 0, parentUrl: null, score: 0, relevant: true, relevance: 0.9,
      title: 'Moon', textLength: 10, contentType: 'text/html', bytes: ARTICLE.length, truncated: false, linkCount: 0, fetchedAt: 1_700_000_000_000, durationMs: 5,
      outcome: 'done',
    });
    await s.db.bodies.put({ crawlId: id, seq: 1, headers: { 'content-type': 'text/html; charset=utf-8' }, payload: new Uint8Array(ARTICLE), charset: 'utf-8' });
    const [body] = await s.pages.bodies([{ crawlId: id, seq: 1 }]);
    expect(Buffer.from(body!.payload!).equals(ARTICLE)).toBe(true);
    const [response] = (await parseWarc(await exportBytes(s, id, { format: 'warc' }))).filter((r) => r.headers['WARC-Type'] === 'response');
    expect(httpPayload(response!.content).equals(ARTICLE)).toBe(true);
  });
});
