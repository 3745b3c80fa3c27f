// The bodies a batch of page commits stores go a few to a row (lib/store/body-packs.ts): every reader still gets each
// page's own body, whatever it asks for and in whatever order, and nothing of a deleted crawl is left.
import { serialize } from 'node:v8';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { readExportPages } from '../../lib/export/export-reader';
import type { PageCommit } from '../../lib/ports';
import { PACK_BYTES, bodyRows, isBodyPack, type BodyRow } from '../../lib/store/body-packs';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { FrontierEntry, PageBody } from '../../lib/records/types';

const config = parseConfig({ name: 'bodies', seeds: ['http://w.test/'], topic: { keywords: ['moon'] } });

const inflight = (url: string): FrontierEntry => ({
  crawlId: 1, url, host: 'w.test', site: 'w.test', state: 'inflight', score: 0.5, priority: 0, order: -1, depth: 1,
  parentUrl: null, anchor: '', context: '', attempts: 1, discoveredAt: 0, updatedAt: 0,
});

/** Bytes that say which page they are, `size` long. */
const bytesOf = (n: number, size: number) => {
  const b = new Uint8Array(size);
  new TextEncoder().encodeInto(`<p>page ${n}</p>`, b);
  return b;
};

/** Page n's commit: a body of `size` bytes, or none (a failed fetch). */
const page = (crawlId: number, n: number, size: number | null): PageCommit => {
  const url = `http://w.test/p${n}`;
  return {
    crawlId, entry: { ...inflight(url), crawlId }, outcome: size === null ? 'failed' : 'done',
    page: { url, finalUrl: url, status: size === null ? 0 : 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0, relevant: size === null ? null : true,
      relevance: null, title: `p${n}`, textLength: 0, contentType: 'text/html', bytes: size ?? 0, truncated: false, linkCount: 0, fetchedAt: n, durationMs: 0,
      ...(size === null ? { error: 'network error' } : {}) },
    ...(size === null ? {} : { body: { headers: { 'content-type': 'text/html' }, payload: bytesOf(n, size), charset: 'utf-8' } }),
    children: [], aliases: [], labels: [], site: 'w.test', stats: { fetched: 1 }, activeMs: 0,
  };
};

const said = (b: PageBody | undefined) => (b?.payload ? new TextDecoder().decode(b.payload).replace(/\0+$/, '') : undefined);

describe('bodies packed a commit batch to a row', () => {
  it('gives every reader each page\u2019s own body: in order, reversed, scattered, across crawls, and none for a page without one', async () => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const a = await store.createCrawl(config, 1, 0);
    const b = await store.createCrawl(config, 1, 0);
    // Batches of one to seven pages; every fifth page failed (no body), every ninth too big to share a row.
    const sizeOf = (n: number) => (n % 5 === 0 ? null : n % 9 === 0 ? PACK_BYTES + 10 : 9_000 + n);
    const expected = new Map<string, string | undefined>();
    let n = 0;
    for (const batch of [3, 1, 7, 2, 5, 4, 6, 1, 7]) {
      for (const crawlId of [a, b]) {
        const commits = Array.from({ length: batch }, (_, k) => page(crawlId, n + k + 1, sizeOf(n + k + 1)));
        const seqs = await store.commitPages(commits, n);
        seqs.forEach((seq, k) => expected.set(`${crawlId} ${seq}`, sizeOf(n + k + 1) === null ? undefined : `<p>page ${n + k + 1}</p>`));
      }
      n += batch;
    }
    // Fewer rows than bodies: the batches went in packs.
    const rows = (await store.db.bodies.toArray()) as BodyRow[];
    const stored = rows.reduce((k, r) => k + (isBodyPack(r) ? r.pack.length : 1), 0);
    expect(stored).toBe([...expected.values()].filter((v) => v !== undefined).length);
    expect(rows.filter(isBodyPack).length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(stored * 0.6);

    const keys = [...expected.keys()].map((k) => ({ crawlId: Number(k.split(' ')[0]), seq: Number(k.split(' ')[1]) }));
    const check = async (asked: typeof keys) => {
      const got = await store.pages.bodies(asked);
      expect(got.map(said)).toEqual(asked.map((k) => expected.get(`${k.crawlId} ${k.seq}`)));
      got.forEach((body, i) => { if (body) expect(body.seq).toBe(asked[i]!.seq); });
    };
    await check(keys);
    await check([...keys].reverse());
    await check(keys.filter((_, i) => i % 7 === 3)); // scattered: one read per key
    for (const k of keys.slice(0, 12)) await check([k]); // one at a time, as a training copy is read
    await check([{ crawlId: a, seq: 9_999 }, { crawlId: 9_999, seq: 1 }, ...keys.slice(0, 3)]);

    // The export reads them in chunks, each page with its body.
    const exported = new Map<number, string | undefined>();
    for await (const x of readExportPages(store.db, a, {}, { bodies: true, chunk: 4 })) exported.set(x.page.seq, said(x.body));
    expect([...exported]).toEqual(keys.filter((k) => k.crawlId === a).map((k) => [k.seq, expected.get(`${a} ${k.seq}`)]));

    // A deleted crawl leaves no body, packed or alone; the other crawl's are all there.
    await store.deleteCrawl(a);
    const left = (await store.db.bodies.toArray()) as BodyRow[];
    expect(left.every((r) => r.crawlId === b)).toBe(true);
    await check(keys.filter((k) => k.crawlId === b));
    store.db.close();
  });

  it('packs two or more bodies, up to PACK_BYTES a row (under the 64 KB past which Chromium makes a value a blob), and stores a body alone otherwise', () => {
    const body = (seq: number, size: number): PageBody => ({
      crawlId: 1, seq, headers: { 'content-type': 'text/html; charset=utf-8', 'last-modified': 'Tue, 24 Nov 2026 10:00:00 GMT' },
      payload: new Uint8Array(size), charset: 'utf-8',
    });
    expect(bodyRows([body(1, 10)])).toEqual([body(1, 10)]);
    const half = PACK_BYTES / 2 - 1000;
    const rows = bodyRows([body(1, half), body(2, half), body(3, half), body(4, PACK_BYTES + 1), body(5, 10), body(6, 10), body(7, 10)]);
    expect(rows.map((r) => (isBodyPack(r) ? r.pack.map((p) => p.seq) : r.seq))).toEqual([[1, 2], 3, 4, [5, 6, 7]]);
    expect(rows.map((r) => r.seq)).toEqual([1, 3, 4, 5]);
    // What IndexedDB stores is V8's serialization of the row.
    for (const r of rows.filter(isBodyPack)) expect(serialize(r).byteLength).toBeLessThan(64 * 1024);
    // Many small bodies of a long commit batch: packs of many, each under the bound.
    const small = bodyRows(Array.from({ length: 40 }, (_, i) => body(i + 1, 9_000)));
    expect(small.length).toBeGreaterThan(5);
    for (const r of small) expect(isBodyPack(r) ? serialize(r).byteLength : 0).toBeLessThan(64 * 1024);
  });

  it('reads a body stored alone before packs existed, beside packs', async () => {
    const db = new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const body = (seq: number): PageBody => ({ crawlId: 1, seq, headers: {}, payload: bytesOf(seq, 100), charset: 'utf-8' });
    await db.bodies.bulkAdd([body(1), ...bodyRows([body(2), body(3)]), body(4), ...bodyRows([body(6), body(8)])]);
    const store = new CrawlStore(db);
    const got = await store.pages.bodies([1, 2, 3, 4, 5, 6, 7, 8, 9].map((seq) => ({ crawlId: 1, seq })));
    expect(got.map(said)).toEqual([1, 2, 3, 4, undefined, 6, undefined, 8, undefined].map((s) => (s === undefined ? undefined : `<p>page ${s}</p>`)));
    expect(await db.bodies.where('[crawlId+seq]').between([1, Dexie.minKey], [1, Dexie.maxKey]).count()).toBe(4);
    db.close();
  });
});
