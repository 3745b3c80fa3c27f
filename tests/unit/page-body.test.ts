// A page's body stored once: the bytes as received and the charset they were decoded with, the HTML decoded again
// on read. Pages in legacy charsets read back as the fetch decoded them, in every export; rows stored before
// (HTML only, or HTML beside the bytes) still read and export as they did.
import { createServer } from 'node:http';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlService } from '../../lib/app/service';
import { decodeHtml } from '../../lib/net/decode';
import { realClock } from '../../lib/net/fetcher';
import { bodyHtml, storedBody } from '../../lib/records/page-body';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { PageBody, PageRecord } from '../../lib/records/types';
import { httpPayload, parseWarc, unzip } from '../support/archive-readers';
import { exportBytes } from '../support/demo-crawl';
import { listenOnLoopback } from '../fixtures/sites/loopback';

const ascii = (s: string) => Buffer.from(s, 'latin1');

// "Привет, мир" in windows-1251, and "日本語のページ" in Shift_JIS: the byte values of each character, from the
// code pages' tables, so that the expected text does not come from the decoder under test.
const CP1251 = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x2c, 0x20, 0xec, 0xe8, 0xf0]);
const SJIS = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x79, 0x81, 0x5b, 0x83, 0x57]);

const PAGES: Record<string, { contentType: string; bytes: Buffer; text: string }> = {
  '/': {
    contentType: 'text/html',
    bytes: Buffer.concat([ascii('<html><head><meta charset="windows-1251"><title>'), CP1251, ascii('</title></head><body><p>'), CP1251,
      ascii(' moon</p><a href="/sjis">sjis</a> <a href="/bom">bom</a> <a href="/header">header</a></body></html>')]),
    text: 'Привет, мир',
  },
  '/sjis': {
    contentType: 'text/html',
    bytes: Buffer.concat([ascii('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>'), SJIS,
      ascii('</title></head><body><p>'), SJIS, ascii(' moon</p></body></html>')]),
    text: '日本語のページ',
  },
  '/bom': { contentType: 'text/html', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Ünïcödé moon</p>')]), text: 'Ünïcödé' },
  // The header names the charset; the <meta> is wrong about it (the header wins, as in browsers).
  '/header': { contentType: 'text/html; charset=windows-1251', bytes: Buffer.concat([ascii('<meta charset="utf-8"><p>'), CP1251, ascii(' moon</p>')]), text: 'Привет, мир' },
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
  ({ crawlId } = await service.handlers.start({ name: 'charsets', seeds: [`${site.origin}/`], topic: { keywords: ['moon'] }, politeness: { delayMs: 0 } }));
  await service.settled(crawlId);
  pages = (await store.pages.pagesAfter(crawlId, 0, 100)).filter((p) => p.status === 200);
});
afterAll(() => site.close());

const pathOf = (url: string) => new URL(url).pathname;
const jsonl = async (s: CrawlStore, id: number) =>
  (await exportBytes(s, id, { format: 'jsonl', html: true })).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; html: string | null; text: string | null });

describe('a body stored once', () => {
  it('keeps the bytes as received and their charset, not the decoded HTML beside them', async () => {
    expect(pages.map((p) => pathOf(p.url)).sort()).toEqual(Object.keys(PAGES).sort());
    const bodies = await store.pages.bodies(pages.map((p) => ({ crawlId, seq: p.seq })));
    pages.forEach((p, i) => {
      const body = bodies[i]!;
      expect(body.html, p.url).toBeUndefined();
      expect(Buffer.from(body.payload!).equals(PAGES[pathOf(p.url)]!.bytes), p.url).toBe(true);
    });
    expect(bodies.map((b, i) => [pathOf(pages[i]!.url), b!.charset]).sort()).toEqual([['/', 'windows-1251'], ['/bom', 'utf-8'], ['/header', 'windows-1251'], ['/sjis', 'shift_jis']]);
  });

  it('reads back, in JSON Lines, the HTML the fetch decoded: legacy charsets, a byte order mark, a header over a wrong <meta>', async () => {
    const lines = await jsonl(store, crawlId);
    expect(lines.map((l) => pathOf(l.url)).sort()).toEqual(Object.keys(PAGES).sort());
    for (const l of lines) {
      const page = PAGES[pathOf(l.url)]!;
      expect(l.html, l.url).toBe(decodeHtml(page.bytes, page.contentType).text);
      expect(l.html, l.url).toContain(page.text);
      expect(l.text, l.url).toContain(page.text);
    }
    expect(lines.find((l) => pathOf(l.url) === '/bom')!.html!.startsWith('<p>')).toBe(true); // the BOM is not part of the text
  });

  it('archives the bytes as received in the WARC, and as files in the HTML ZIP', async () => {
    const responses = (await parseWarc(await exportBytes(store, crawlId, { format: 'warc' }))).filter((r) => r.headers['WARC-Type'] === 'response');
    expect(responses.length).toBe(Object.keys(PAGES).length);
    for (const r of responses) expect(httpPayload(r.content).equals(PAGES[pathOf(r.headers['WARC-Target-URI']!)]!.bytes)).toBe(true);
    const files = await unzip(await exportBytes(store, crawlId, { format: 'zip' }));
    const sjis = [...files.entries()].find(([name]) => name.endsWith('sjis.html'))!;
    expect(sjis[1].data.equals(PAGES['/sjis']!.bytes)).toBe(true);
  });
});

describe('bodies stored before', () => {
  const html = '<html><head><title>Луна</title></head><body><p>Луна moon</p></body></html>';

  async function legacyCrawl(bodies: Omit<PageBody, 'crawlId' | 'seq'>[]) {
    const s = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const id = await s.createCrawl(parseConfig({ name: 'old', seeds: ['https://example.org/'], topic: { keywords: ['moon'] } }), 1, 0);
    await s.db.pages.bulkPut(bodies.map((_, i) => row(id, i + 1)));
    await s.db.bodies.bulkPut(bodies.map((b, i) => ({ ...b, crawlId: id, seq: i + 1 })));
    return { s, id };
  }

  it('an HTML-only row and a row with HTML beside its bytes still export their HTML, and their payloads to the WARC', async () => {
    const cp1251 = Buffer.from(html.replace(/Луна/g, '\u0000'), 'latin1'); // the bytes differ from the HTML's UTF-8: the row's html is read
    const { s, id } = await legacyCrawl([
      { headers: { 'content-type': 'text/html' }, html },
      { headers: { 'content-type': 'text/html; charset=windows-1251' }, html, payload: cp1251 },
    ]);
    expect((await jsonl(s, id)).map((l) => l.html)).toEqual([html, html]);
    const responses = (await parseWarc(await exportBytes(s, id, { format: 'warc' }))).filter((r) => r.headers['WARC-Type'] === 'response');
    expect(httpPayload(responses[0]!.content).toString('utf8')).toBe(html); // HTML only: written as UTF-8
    expect(httpPayload(responses[1]!.content).equals(cp1251)).toBe(true);
  });
});

describe('storedBody', () => {
  it('keeps the HTML where the bytes cannot give it back, and copies a payload that is a view into a larger buffer', () => {
    expect(storedBody({ headers: {}, html: '<p>x</p>', payload: null, charset: null })).toEqual({ headers: {}, html: '<p>x</p>' });
    const bytes = new TextEncoder().encode('<p>x</p>');
    expect(storedBody({ headers: {}, html: '<p>x</p>', payload: bytes, charset: null })).toEqual({ headers: {}, html: '<p>x</p>', payload: bytes });
    const big = new Uint8Array(1000);
    big.set(bytes);
    const kept = storedBody({ headers: {}, html: '<p>x</p>', payload: big.subarray(0, bytes.length), charset: 'utf-8' });
    expect(kept.html).toBeUndefined();
    expect(kept.payload!.buffer.byteLength).toBe(bytes.length);
    expect(bodyHtml(kept)).toBe('<p>x</p>');
  });
});

function row(crawlId: number, seq: number): PageRecord {
  const url = `https://example.org/p${seq}`;
  return {
    crawlId, seq, url, finalUrl: url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0, relevant: true, relevance: 0.9,
    title: 'Луна', textLength: 10, contentType: 'text/html', bytes: 100, truncated: false, linkCount: 0, fetchedAt: 1_700_000_000_000 + seq, durationMs: 5,
    outcome: 'done',
  };
}
