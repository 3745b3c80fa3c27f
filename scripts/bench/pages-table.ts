// What the Pages table's indexes cost where pages are written: page rows written one transaction each, 100 a
// transaction, and inside a whole commit (the row with its body, new frontier entries, site and crawl rows, as the
// crawl's commit writes them) into IndexedDB in real Chromium, with the v8 indexes and with v9's (the *terms
// search index and [crawlId+site+kind+…]), in turn, so that both share the machine's load; and the time to work out
// a row's words in Node. How fast the table answers is measured in the browser by
// `FOCUS_PAGES_TABLE_N=100000 npx vitest run --project e2e tests/e2e/pages-table-scale.test.ts`.
// Also the table's first window at N pages in Node through its indexes, against reading the rows in order.
//   npx tsx scripts/bench/pages-table.ts [--pages 20000] [--rows 4000]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlerDB } from '../../lib/store/db';
import { pageTerms, withListKeys } from '../../lib/store/page-keys';
import type { PageRecord } from '../../lib/records/types';
import { ALL_PAGES, pageWindow, type PageQuery } from '../../lib/ui/page-query';
import { realisticPages } from '../../tests/e2e/pages-fixture';
import { ensureBuilt, launchWithExtension } from '../lib/browser';
import { markdownTable } from './report';

const V8 = ['[crawlId+url]', '[crawlId+score+seq]', '[crawlId+kind+seq]', '[crawlId+kind+score+seq]', '[crawlId+site+seq]', '[crawlId+site+score+seq]'];
const V9 = [...V8, '[crawlId+site+kind+seq]', '[crawlId+site+kind+score+seq]', '*terms'];
/** The frontier's indexes (lib/store/db.ts), which a commit's new links are written into. */
const FRONTIER = ['[crawlId+state+priority+order]', '[crawlId+state]', '[crawlId+site+state]'];
/** New links a commit queues: a page of 80 links, a quarter of them not seen before. */
const COMMIT_LINKS = 20;
/** A stored body's HTML: a page of about 40 KB. */
const BODY_HTML = `<!doctype html><html><head><title>A page</title></head><body>${'<p>Some text of the page, with <a href="/x">a link</a>.</p>'.repeat(700)}</body></html>`;

export interface CommitCost {
  rows: number;
  /**
   * Milliseconds per whole commit, by schema of the page rows: one transaction writing what a crawl's commit of a
   * fetched page writes (its row, its body, its entry marked done, COMMIT_LINKS new frontier entries, its site
   * and the crawl row).
   */
  v8Commit: number;
  v9Commit: number;
  /** Milliseconds per row written, by schema. */
  v8: number;
  v9: number;
  /** Milliseconds per row written 100 rows a transaction. */
  v8Bulk: number;
  v9Bulk: number;
  /** Microseconds to work out one row's words (Node). */
  termsMicros: number;
  /** Words per row, on average. */
  terms: number;
}

export async function measurePageWrites(o: { rows: number; log: (line: string) => void }): Promise<CommitCost> {
  ensureBuilt(o.log);
  const pages = realisticPages({ crawlId: 1, count: o.rows, start: Date.now() - o.rows * 1000 });
  for (const p of pages.slice(0, 500)) pageTerms(p); // compiled first, as in a crawl under way
  const started = performance.now();
  for (const p of pages) pageTerms(p);
  const termsMicros = ((performance.now() - started) * 1000) / pages.length;
  const rows = pages.map((p) => withListKeys(p));
  const launched = await launchWithExtension();
  try {
    await launched.page.evaluate('globalThis.__name = (f) => f');
    const ms = await launched.page.evaluate(async ([rows, schemas, frontierIndexes, links, html]) => {
      const indexesOf = (store: IDBObjectStore, indexes: string[]) => {
        for (const spec of indexes) {
          const multi = spec.startsWith('*');
          const path = spec.replace(/^\*/, '').replace(/^\[|\]$/g, '').split('+');
          store.createIndex(spec, path.length === 1 ? path[0]! : path, { multiEntry: multi });
        }
      };
      const open = (name: string, indexes: string[]) => new Promise<IDBDatabase>((res, rej) => {
        const r = indexedDB.open(name, 1);
        r.onupgradeneeded = () => {
          indexesOf(r.result.createObjectStore('pages', { keyPath: ['crawlId', 'seq'] }), indexes);
          r.result.createObjectStore('bodies', { keyPath: ['crawlId', 'seq'] });
          indexesOf(r.result.createObjectStore('frontier', { keyPath: ['crawlId', 'url'] }), frontierIndexes);
          r.result.createObjectStore('sites', { keyPath: ['crawlId', 'site'] });
          r.result.createObjectStore('crawls', { keyPath: 'id' });
        };
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      const dbs = [await open('bench-pages-v8', schemas[0]!), await open('bench-pages-v9', schemas[1]!)];
      const spent = [0, 0, 0, 0, 0, 0];
      type Row = { crawlId: number; seq: number; url: string; site?: string; score: number };
      // What a crawl's commit of a fetched page writes, in one transaction (lib/store/crawl-store.ts).
      const commit = (db: IDBDatabase, row: Row, seq: number) => new Promise<void>((res, rej) => {
        const tx = db.transaction(['pages', 'bodies', 'frontier', 'sites', 'crawls'], 'readwrite');
        const entry = (url: string, state: string, order: number) => ({
          crawlId: 1, url, host: row.site, site: row.site, state, score: row.score, priority: row.score, order, depth: 2,
          parentUrl: row.url, anchor: 'a link to another page', context: 'the words around the link', attempts: 0, discoveredAt: seq, updatedAt: seq,
        });
        tx.objectStore('pages').put({ ...row, seq });
        tx.objectStore('bodies').put({ crawlId: 1, seq, headers: { 'content-type': 'text/html; charset=utf-8' }, html });
        tx.objectStore('frontier').put(entry(row.url, 'done', seq));
        for (let i = 0; i < links; i++) tx.objectStore('frontier').put(entry(`${row.url}/link-${seq}-${i}`, 'queued', seq * links + i));
        tx.objectStore('sites').put({ crawlId: 1, site: row.site, fetched: seq, relevant: 0, failed: 0 });
        tx.objectStore('crawls').put({ id: 1, nextSeq: seq + 1, stats: { fetched: seq, relevant: 0, failed: 0, queued: seq * links } });
        tx.oncomplete = () => res();
        tx.onerror = () => rej(tx.error);
      });
      const write = (db: IDBDatabase, batch: unknown[]) => new Promise<void>((res, rej) => {
        const tx = db.transaction('pages', 'readwrite');
        for (const row of batch) tx.objectStore('pages').put(row);
        tx.oncomplete = () => res();
        tx.onerror = () => rej(tx.error);
      });
      // Blocks of 100 rows in turn, each schema first every other block, so that a busy moment of the machine
      // falls on both: one transaction a row (a crawl's commit), then the same rows again in one transaction a
      // block (what is left is the indexes' own cost).
      for (let at = 0; at < rows.length; at += 100) {
        for (const i of at % 200 ? [1, 0] : [0, 1]) {
          const t = performance.now();
          for (const row of rows.slice(at, at + 100)) await write(dbs[i]!, [row]);
          spent[i] += performance.now() - t;
          const u = performance.now();
          await write(dbs[i]!, rows.slice(at, at + 100).map((r) => ({ ...(r as object), seq: (r as { seq: number }).seq + rows.length })));
          spent[2 + i] += performance.now() - u;
          const v = performance.now();
          for (const row of rows.slice(at, at + 100) as Row[]) await commit(dbs[i]!, row, row.seq + 2 * rows.length);
          spent[4 + i] += performance.now() - v;
        }
      }
      for (const db of dbs) db.close();
      return spent.map((s) => s / rows.length);
    }, [rows, [V8, V9], FRONTIER, COMMIT_LINKS, BODY_HTML] as const);
    return { rows: o.rows, v8: ms[0]!, v9: ms[1]!, v8Bulk: ms[2]!, v9Bulk: ms[3]!, v8Commit: ms[4]!, v9Commit: ms[5]!, termsMicros, terms: rows.reduce((n, r) => n + (r.terms?.length ?? 0), 0) / rows.length };
  } finally {
    await launched.close();
  }
}

export function formatPageWrites(c: CommitCost): string {
  return [
    `Page rows written one transaction each in Chromium, ${c.rows.toLocaleString('en-US')} per schema, in turn (${c.terms.toFixed(0)} words a row on average):`,
    '',
    markdownTable(['schema', 'ms per row, a transaction each', 'ms per row, 100 a transaction', `ms per whole commit (row, body, ${COMMIT_LINKS} new links, site, crawl)`],
      [['v8 (before the search index)', c.v8.toFixed(3), c.v8Bulk.toFixed(3), c.v8Commit.toFixed(3)], ['v9 (*terms, [crawlId+site+kind+…])', c.v9.toFixed(3), c.v9Bulk.toFixed(3), c.v9Commit.toFixed(3)]]),
    '',
    `- v9 / v8: ${(c.v9 / c.v8).toFixed(2)}x per row written a transaction each, ${(c.v9Bulk / c.v8Bulk).toFixed(2)}x 100 a transaction, ${(c.v9Commit / c.v8Commit).toFixed(2)}x per whole commit; working out a row's words: ${c.termsMicros.toFixed(1)} µs (Node)`,
  ].join('\n');
}

export interface QueryFigure {
  step: string;
  /** Milliseconds to the first window of 100 rows: through the indexes, and by reading rows in order checking each. */
  indexed: number;
  reading: number;
}

/**
 * The Pages table's steps at `pages` pages in Node (fake-indexeddb, much slower than Chromium's IndexedDB, so the
 * ratio is the figure): the first window as the table reads it, and as a read of the rows in order checking each
 * against the search or filter finds it (how a search, and a site with a kind, were answered before schema v9).
 */
export async function measureQueries(o: { pages: number; log: (line: string) => void }): Promise<QueryFigure[]> {
  const db = new CrawlerDB('pages-bench', { indexedDB: new IDBFactory(), IDBKeyRange });
  const pages = realisticPages({ crawlId: 1, count: o.pages, start: Date.now() - o.pages * 1500 });
  o.log(`pages-table bench: writing ${o.pages} pages (fake-indexeddb)`);
  for (let i = 0; i < pages.length; i += 5000) await db.pages.bulkPut(pages.slice(i, i + 5000));
  const rare = pages[Math.floor(o.pages * 0.9)]!.url.split('/').pop()!;
  const text = (p: PageRecord) => `${p.url}\n${p.finalUrl}\n${p.title}`.toLowerCase();
  const steps: [string, Partial<PageQuery>, string, (p: PageRecord) => boolean][] = [
    ['site bbc.co.uk and verdict failed', { site: 'bbc.co.uk', kind: 'failed' }, '[crawlId+kind+seq]', (p) => p.site === 'bbc.co.uk'],
    ['search "mooncake" (1 page in 8)', { search: 'mooncake' }, '[crawlId+seq]', (p) => text(p).includes('mooncake')],
    ['search one page near the end', { search: rare }, '[crawlId+seq]', (p) => text(p).includes(rare.toLowerCase())],
  ];
  const figures: QueryFigure[] = [];
  for (const [step, over, index, check] of steps) {
    const t0 = performance.now();
    const w = await pageWindow(db, 1, { ...ALL_PAGES, ...over }, { at: 'start' }, 100);
    const indexed = performance.now() - t0;
    const t1 = performance.now();
    const prefix = index === '[crawlId+seq]' ? [1] : [1, 'failed'];
    const found: PageRecord[] = [];
    // Chunks of 4,000 rows in order, as the table read them before (after a first few smaller ones).
    for (let from: unknown[] = [...prefix, Dexie.minKey]; found.length < 101;) {
      const rows = await db.pages.where(index).between(from, [...prefix, Dexie.maxKey], false, true).limit(4000).toArray();
      for (const p of rows) if (check(p)) found.push(p);
      if (rows.length < 4000) break;
      from = [...prefix, rows.at(-1)!.seq];
    }
    const reading = performance.now() - t1;
    if (found.slice(0, 100).map((p) => p.seq).join() !== w.rows.map((p) => p.seq).join()) throw new Error(`${step}: the two reads differ`);
    figures.push({ step, indexed, reading });
    o.log(`pages-table bench: ${step}: ${indexed.toFixed(0)} ms through the indexes, ${reading.toFixed(0)} ms reading rows`);
  }
  db.close();
  return figures;
}

export function formatQueries(pages: number, figures: QueryFigure[]): string {
  return [
    `The Pages table's first window at ${pages.toLocaleString('en-US')} pages in Node (fake-indexeddb), one run:`,
    '',
    markdownTable(['step', 'through the indexes (ms)', 'reading rows in order (ms)', 'ratio'],
      figures.map((f) => [f.step, f.indexed.toFixed(0), f.reading.toFixed(0), `${(f.reading / f.indexed).toFixed(1)}x`])),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: v } = parseArgs({ options: { rows: { type: 'string', default: '4000' }, pages: { type: 'string', default: '20000' } } });
  const log = (l: string) => process.stderr.write(`[bench] ${l}\n`);
  measureQueries({ pages: Number(v.pages), log })
    .then((q) => console.log(formatQueries(Number(v.pages), q) + '\n'))
    .then(() => measurePageWrites({ rows: Number(v.rows), log }))
    .then((c) => console.log(formatPageWrites(c)), (err) => {
      console.error(`pages-table bench: ${err instanceof Error ? err.stack : err}`);
      process.exit(1);
    });
}
