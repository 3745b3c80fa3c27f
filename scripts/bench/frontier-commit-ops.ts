// How many frontier rows a crawl reads and writes per page it commits, on the Wikispeedia corpus: the
// page commit reads the frontier row of every link it found, to dedup and raise, and writes the rows that change.
// Counted here, in the benchmark, by a Dexie middleware on the store's own database: the crawl core runs in Node on
// fake-indexeddb (node-crawl.ts's recipe), so the counts are the extension's, and the time is not reported. Also
// counted: where each priority move leaves its URL in the queue (whether it touches the next fetches), and the bytes
// of each stored body as the structured clone IndexedDB keeps (V8's serializer, which Chromium's IndexedDB uses).
//   npx tsx scripts/bench/frontier-commit-ops.ts [--topic Science] [--seed English_language] [--budget 1000] [--web sites]
//     [--classifier '{"everyLink":false}']
import { parseArgs } from 'node:util';
import { serialize } from 'node:v8';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { DBCore, DBCoreTable } from 'dexie';
import type { FrontierEntry } from '../../lib/records/types';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { ROW_CACHE_ROWS, setRowCacheRows } from '../../lib/store/row-cache';
import { realClock } from '../../lib/net/fetcher';
import { articleUrl, loadSites } from './corpus-server';
import { memoryFetch } from './node-crawl';
import { DEFAULT_CORPUS, TOPIC_KEYWORDS, caseConfig, caseGroundTruth } from './wikispeedia';

/** Frontier rows asked for by key, rows added or put, and rows a take or scan returned. */
export interface FrontierOps {
  keyReads: number; known: number; writes: number; rangeRows: number;
  /** Puts over an existing row: changing its state, else its priority, else neither (its queue position stays). */
  stateChanges: number; priorityChanges: number; samePosition: number;
  /** Priority moves of a queued URL: how far, and where they leave it among the queued URLs (see `QueueMoves`). */
  moves: QueueMoves;
  /** Bodies added, and the bytes of their structured clones. */
  bodies: number; bodyBytes: number;
  /**
   * Rows read by key that the worker had read by key or written within its last `k` rows touched (an LRU of `k` rows,
   * keyed by URL): what a worker-held cache of that many rows could answer. Counted by `LRU_SIZES`.
   */
  recent: Record<number, number>;
  /** Bytes of the frontier rows written, as V8's serializer clones them (what a held row costs, roughly). */
  rowBytes: number;
  /** Every table's writes (rows added or put, and their bytes as cloned), rows deleted, and rows read (by key or range). */
  tables: Record<string, TableOps>;
}

export interface TableOps { writes: number; bytes: number; deletes: number; reads: number }

/** Counts every table's requests: what a page commit asks of the whole database, table by table. */
function countTables(db: CrawlerDB, tables: Record<string, TableOps>): void {
  db.use({
    stack: 'dbcore', name: 'count-tables', level: -3, // below the store's own middlewares: what reaches IndexedDB
    create: (down: DBCore): DBCore => ({
      ...down,
      table(name: string): DBCoreTable {
        const t = down.table(name);
        const c = (tables[name] ??= { writes: 0, bytes: 0, deletes: 0, reads: 0 });
        return {
          ...t,
          mutate(req) {
            if (req.type === 'add' || req.type === 'put') {
              c.writes += req.values.length;
              for (const v of req.values) c.bytes += serialize(v).byteLength;
            } else if (req.type === 'delete') c.deletes += req.keys.length;
            else c.deletes++;
            return t.mutate(req);
          },
          getMany(req) {
            c.reads += req.keys.length;
            return t.getMany(req);
          },
          get(req) {
            c.reads++;
            return t.get(req);
          },
          query(req) {
            return t.query(req).then((res) => {
              if (req.values) c.reads += res.result.length; // rows, not keys
              return res;
            });
          },
        };
      },
    }),
  });
}

/** The sizes of the LRU of recently touched rows the reads are held against (rows). */
export const LRU_SIZES = [1_000, 10_000, 50_000] as const;

/** The last `size` keys touched, oldest first (a Map keeps insertion order). */
class RecentRows {
  private readonly keys = new Map<string, true>();
  constructor(private readonly size: number) {}
  /** Whether `key` is among the last touched, and touches it. */
  touch(key: string): boolean {
    const had = this.keys.delete(key);
    this.keys.set(key, true);
    if (this.keys.size > this.size) this.keys.delete(this.keys.keys().next().value!);
    return had;
  }
}

/** The next fetches a move is looked at against: the URLs a take of concurrency 8 hands out, the dashboard's next 100, the next 1,000. */
export const HORIZONS = [8, 100, 1000] as const;

/**
 * Priority moves of queued URLs. `passed`: moves that change which URLs are ahead of it (its rank among the queued);
 * `within[k]`: moves where the URL is among the first `k` of the queue before or after (so the next fetches change);
 * `size[s]`: moves of at most `s` in priority.
 */
export interface QueueMoves {
  all: number; passed: number; within: Record<number, number>; size: Record<number, number>;
}

export const MOVE_SIZES = [0.01, 0.05, 0.1, 0.25, 0.5] as const;

type Position = [priority: number, order: number];
const cmp = (a: Position, b: Position) => a[0] - b[0] || a[1] - b[1];

/** The queued URLs' positions, kept sorted: the take's order is from the end (highest priority, then order). */
class QueueOrder {
  private readonly keys: Position[] = [];
  /** Positions strictly after `p` in the take's order's reverse: how many queued URLs a take reaches before `p`. */
  ahead(p: Position): number {
    return this.keys.length - this.upper(p);
  }
  add(p: Position): void {
    this.keys.splice(this.upper(p), 0, p);
  }
  remove(p: Position): void {
    const i = this.upper(p) - 1;
    if (i >= 0 && cmp(this.keys[i]!, p) === 0) this.keys.splice(i, 1);
  }
  private upper(p: Position): number {
    let lo = 0, hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(this.keys[mid]!, p) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const positionOf = (e: FrontierEntry): Position => [e.priority, e.order];

/** Counts the frontier table's requests of `db` into `ops` (the middleware sees every Dexie call of the store). */
function countFrontier(db: CrawlerDB, ops: FrontierOps): void {
  const queue = new QueueOrder();
  const recent = LRU_SIZES.map((k) => ({ k, rows: new RecentRows(k) }));
  const keyOf = (key: unknown) => JSON.stringify(key);
  // A row read by key counts as recent when it was read or written within the last k rows touched; reads of URLs the
  // crawl does not know yet are touched too (a cache holds no absent row, but the row is written next).
  const read = (keys: readonly unknown[], rows: readonly unknown[]) => {
    keys.forEach((key, i) => {
      for (const r of recent) if (r.rows.touch(keyOf(key)) && rows[i] !== undefined) ops.recent[r.k] = (ops.recent[r.k] ?? 0) + 1;
    });
  };
  const wrote = (values: readonly FrontierEntry[]) => {
    for (const v of values) for (const r of recent) r.rows.touch(keyOf([v.crawlId, v.url]));
  };
  const moved = (old: FrontierEntry, next: FrontierEntry) => {
    const m = ops.moves;
    const before = queue.ahead(positionOf(old));
    queue.remove(positionOf(old));
    const after = queue.ahead(positionOf(next));
    queue.add(positionOf(next));
    m.all++;
    if (before !== after) m.passed++;
    for (const k of HORIZONS) if (Math.min(before, after) < k) m.within[k] = (m.within[k] ?? 0) + 1;
    const d = Math.abs(next.priority - old.priority);
    for (const s of MOVE_SIZES) if (d <= s) m.size[s] = (m.size[s] ?? 0) + 1;
  };
  db.use({
    stack: 'dbcore', name: 'count-frontier',
    create: (down: DBCore): DBCore => ({
      ...down,
      table(name: string): DBCoreTable {
        const t = down.table(name);
        // No async functions here: the store's transactions await these promises, and a native one in between makes
        // Dexie lose the transaction's zone (a host head recomputed after the writes would run outside it).
        if (name === 'bodies') {
          return {
            ...t,
            mutate(req) {
              if (req.type === 'add' || req.type === 'put') {
                ops.bodies += req.values.length;
                for (const v of req.values) ops.bodyBytes += serialize(v).byteLength;
              }
              return t.mutate(req);
            },
          };
        }
        if (name !== 'frontier') return t;
        return {
          ...t,
          getMany(req) {
            return t.getMany(req).then((rows) => {
              ops.keyReads += req.keys.length;
              ops.known += rows.filter((r) => r !== undefined).length;
              read(req.keys, rows);
              return rows;
            });
          },
          get(req) {
            return t.get(req).then((row) => {
              ops.keyReads++;
              if (row !== undefined) ops.known++;
              read([req.key], [row]);
              return row;
            });
          },
          mutate(req) {
            if (req.type !== 'add' && req.type !== 'put') return t.mutate(req);
            ops.writes += req.values.length;
            for (const v of req.values) ops.rowBytes += serialize(v).byteLength;
            // What each write replaces, read in the same transaction just before it (requests run in order).
            const values = req.values as FrontierEntry[];
            const reading = t.getMany({ trans: req.trans, keys: values.map((v) => [v.crawlId, v.url]) });
            return t.mutate(req).then((res) => reading.then((rows) => {
              const before = rows as (FrontierEntry | undefined)[];
              wrote(values.filter((_, i) => !res.failures[i]));
              values.forEach((v, i) => {
                if (res.failures[i]) return;
                const old = before[i];
                if (old && req.type === 'put') {
                  if (old.state !== v.state) ops.stateChanges++;
                  else if (old.priority !== v.priority) ops.priorityChanges++;
                  else ops.samePosition++;
                }
                if (old?.state === 'queued' && v.state === 'queued' && old.priority !== v.priority) moved(old, v);
                else {
                  if (old?.state === 'queued') queue.remove(positionOf(old));
                  if (v.state === 'queued') queue.add(positionOf(v));
                }
              });
              return res;
            }));
          },
          query(req) {
            return t.query(req).then((res) => {
              ops.rangeRows += res.result.length;
              return res;
            });
          },
        };
      },
    }),
  });
}

export async function measureCommitOps(o: {
  corpus: string; topic: string; seed: string; budget: number; web?: 'sites'; classifier?: Record<string, unknown>;
  /** Rows the worker's copy of the frontier holds (row-cache.ts; 0: none, as before it). */
  rowCache?: number;
}) {
  const truth = caseGroundTruth(o.corpus, o.topic, o.seed);
  const pathOf = new Map(truth.articles.map((a) => [a.article, a.path]));
  const sites = o.web === 'sites' ? loadSites(o.corpus) : undefined;
  const config = caseConfig({ ...o, strategy: 'best-first', concurrency: 8 }, truth, (a) => articleUrl('http://wikispeedia.test', pathOf.get(a)!, sites),
    sites !== undefined, TOPIC_KEYWORDS[o.topic]!);
  const db = new CrawlerDB(`ops-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  const ops: FrontierOps = { keyReads: 0, known: 0, writes: 0, rangeRows: 0, stateChanges: 0, priorityChanges: 0, samePosition: 0,
    moves: { all: 0, passed: 0, within: {}, size: {} }, bodies: 0, bodyBytes: 0, recent: {}, rowBytes: 0, tables: {} };
  countFrontier(db, ops);
  countTables(db, ops.tables);
  if (o.rowCache !== undefined) setRowCacheRows(db, o.rowCache);
  const store = new CrawlStore(db);
  const service = new CrawlService({ store, fetch: memoryFetch(o.corpus, sites), clock: realClock });
  const { crawlId } = await service.handlers.start(config);
  await service.settled(crawlId);
  const crawl = await store.getCrawl(crawlId);
  const rows = await store.pages.pagesAfter(crawlId, 0, 1e6);
  db.close();
  return { pages: rows.length, crawled: rows.filter((r) => r.phase === 'crawl').length, queued: crawl!.stats.queued, ops };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { corpus: { type: 'string', default: DEFAULT_CORPUS }, topic: { type: 'string', default: 'Science' },
    seed: { type: 'string', default: 'English_language' }, budget: { type: 'string', default: '1000' }, web: { type: 'string' }, classifier: { type: 'string' },
    'row-cache': { type: 'string', default: `0,${ROW_CACHE_ROWS}` } } });
  // Each size of the worker's copy of rows is one crawl of the same case, one after the other (the counts do not depend on time).
  for (const rowCache of values['row-cache']!.split(',').map(Number)) {
    const r = await measureCommitOps({ corpus: values.corpus!, topic: values.topic!, seed: values.seed!, budget: Number(values.budget), rowCache,
      ...(values.web === 'sites' ? { web: 'sites' as const } : {}),
      ...(values.classifier ? { classifier: JSON.parse(values.classifier) as Record<string, unknown> } : {}) });
    report(r, rowCache);
  }
}

function report(r: Awaited<ReturnType<typeof measureCommitOps>>, rowCache: number): void {
  const per = (n: number) => (n / r.crawled).toFixed(1);
  console.log(`[row cache ${rowCache} rows] ${r.pages} pages committed (${r.crawled} in the crawl phase, the rest training reads), ${r.queued} URLs left queued`);
  console.log(`frontier rows per crawled page: ${per(r.ops.keyReads)} read by key from the database (${per(r.ops.known)} of them known, ${per(r.ops.keyReads - r.ops.known)} new), `
    + `${per(r.ops.writes)} written (${(r.ops.rowBytes / Math.max(1, r.ops.writes)).toFixed(0)} bytes each as cloned), ${per(r.ops.rangeRows)} returned by range reads (takes, scans)`);
  console.log(`rows read by key that the worker read or wrote within its last k rows touched (an LRU), per crawled page: `
    + LRU_SIZES.map((k) => `k=${k}: ${per(r.ops.recent[k] ?? 0)} (${(((r.ops.recent[k] ?? 0) / Math.max(1, r.ops.known)) * 100).toFixed(1)}% of the known)`).join(', '));
  console.log(`puts over a known row per crawled page: ${per(r.ops.stateChanges)} change its state, ${per(r.ops.priorityChanges)} only its priority, `
    + `${per(r.ops.samePosition)} neither (a link counted into the row: inlinks, found-by)`);
  const m = r.ops.moves;
  const share = (n: number | undefined) => `${(((n ?? 0) / Math.max(1, m.all)) * 100).toFixed(1)}%`;
  console.log(`priority moves of queued URLs: ${per(m.all)} per crawled page; ${share(m.passed)} pass another queued URL; among the next `
    + HORIZONS.map((k) => `${k}: ${share(m.within[k])}`).join(', '));
  console.log(`priority moves by size: ${MOVE_SIZES.map((s) => `<= ${s}: ${share(m.size[s])}`).join(', ')}`);
  console.log(`bodies: ${r.ops.bodies} stored, ${(r.ops.bodyBytes / Math.max(1, r.ops.bodies) / 1024).toFixed(1)} KiB each as cloned into IndexedDB `
    + `(${(r.ops.bodyBytes / 2 ** 20).toFixed(1)} MiB in all)`);
  console.log('every table, per crawled page: rows written (bytes as cloned), deleted, read');
  for (const [name, t] of Object.entries(r.ops.tables).sort((a, b) => b[1].bytes - a[1].bytes)) {
    if (t.writes + t.deletes + t.reads === 0) continue;
    console.log(`  ${name}: ${per(t.writes)} written (${(t.bytes / r.crawled / 1024).toFixed(2)} KiB), ${per(t.deletes)} deleted, ${per(t.reads)} read`);
  }
}
