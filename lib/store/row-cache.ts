// A worker-held copy of the frontier rows it read or wrote last: a page's commit reads the row of every
// link it found, to dedup and re-rank, and most of those rows were read or written by a commit a few pages before
// (docs/benchmarks.md, "The commit's reads of known rows"). readEntries answers them from here and reads only the rest.
//
// What it assumes: this context (the service worker; in Node, the runner or test that opened the database) is the
// only writer of the frontier of its database connection. The pages read only. A shared crawl (shared-store.ts) keeps
// its frontier in Redis and writes this browser's rows only through this store, so the copy follows them; Redis's
// rows are never held here. Every write of frontier rows in lib/store/ either goes through writeEntries or
// `wroteRows` (the copy learns the rows), or calls `dropRows` (the crawl's copy is dropped). A connection opened again
// (an upgrade ran meanwhile) starts with an empty copy: the copy is per IndexedDB connection.
//
// A transaction's reads and writes are kept apart and given to the copy only once it commits; an aborted one leaves
// the copy as it was. A row absent from the database is never held (an unknown URL is always read). The copy may be
// read before the transaction has started (the commit issues its reads at once), while an earlier transaction on the
// frontier is still to commit: rows answered from the copy are checked once the transaction's own read is back, which
// is after every earlier transaction on the frontier has ended (IndexedDB runs them one after another), and read
// again if the copy changed meanwhile. It is a copy: a killed worker loses nothing by it.
import Dexie from 'dexie';
import type { FrontierEntry } from '../records/types';
import type { CrawlerDB } from './db';

/** Rows held per database connection, at most (the least recently used go first): about 1 KiB each as stored, a few MiB in all. */
export const ROW_CACHE_ROWS = 10_000;

const keyOf = (crawlId: number, url: string) => `${crawlId}\n${url}`;
const crawlOfKey = (key: string) => Number(key.slice(0, key.indexOf('\n')));

/** The rows a connection holds, least recently used first (a Map keeps insertion order). */
class HeldRows {
  readonly rows = new Map<string, FrontierEntry>();
  constructor(public limit: number) {}

  set(key: string, row: FrontierEntry): void {
    this.rows.delete(key);
    this.rows.set(key, row);
    this.trim();
  }

  trim(): void {
    while (this.rows.size > Math.max(0, this.limit)) this.rows.delete(this.rows.keys().next().value!);
  }

  drop(crawlId: number): void {
    for (const key of this.rows.keys()) if (crawlOfKey(key) === crawlId) this.rows.delete(key);
  }
}

/** What one transaction read and wrote, given to the connection's rows once it commits. */
class TxRows {
  /** Rows as this transaction leaves them, by key. */
  readonly seen = new Map<string, FrontierEntry>();
  /** Crawls whose rows this transaction wrote around the copy: their copy is dropped when it ends. */
  readonly dropped = new Set<number>();
  /** A read of this transaction has come back: every earlier transaction on the frontier has ended. */
  started = false;
}

const held = new WeakMap<IDBDatabase, HeldRows>();
const limits = new WeakMap<CrawlerDB, number>();
const txs = new WeakMap<IDBTransaction, TxRows>();

/** Sets how many rows a database object's connections hold (0: none; the benchmarks compare with and without). */
export function setRowCacheRows(db: CrawlerDB, rows: number): void {
  limits.set(db, rows);
  const conn = connection(db);
  const h = conn && held.get(conn);
  if (h) {
    h.limit = rows;
    h.trim();
  }
}

function connection(db: CrawlerDB): IDBDatabase | undefined {
  return db.isOpen() ? db.backendDB() : undefined;
}

function heldRows(db: CrawlerDB, conn: IDBDatabase): HeldRows {
  let h = held.get(conn);
  if (!h) held.set(conn, (h = new HeldRows(limits.get(db) ?? ROW_CACHE_ROWS)));
  return h;
}

/** The current transaction's record, created with its listeners on first use; undefined outside a transaction. */
function txRows(db: CrawlerDB): { tx: TxRows; rows: HeldRows } | undefined {
  const idbtrans = Dexie.currentTransaction?.idbtrans;
  if (!idbtrans) return undefined;
  const rows = heldRows(db, idbtrans.db);
  let tx = txs.get(idbtrans);
  if (!tx) {
    const t = (tx = new TxRows());
    txs.set(idbtrans, t);
    idbtrans.addEventListener('complete', () => {
      for (const id of t.dropped) rows.drop(id);
      for (const [key, row] of t.seen) rows.set(key, row);
    });
    idbtrans.addEventListener('abort', () => {
      for (const id of t.dropped) rows.drop(id); // its writes are undone, but the copy dropped is only reread
    });
  }
  return { tx, rows };
}

const byUrl = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Reads rows by key, in key order (see readEntries), put back in the order asked. */
async function readSorted(db: CrawlerDB, crawlId: number, urls: readonly string[]): Promise<(FrontierEntry | undefined)[]> {
  if (urls.length === 0) return [];
  const order = urls.map((_, i) => i).sort((i, j) => byUrl(urls[i]!, urls[j]!));
  const rows = await db.frontier.bulkGet(order.map((i) => [crawlId, urls[i]!] as [number, string]));
  const out = new Array<FrontierEntry | undefined>(urls.length);
  order.forEach((i, k) => (out[i] = rows[k]));
  return out;
}

/**
 * The frontier rows of `urls` (undefined where a URL is not known), from the rows this transaction and the ones
 * before it read or wrote where it can, from the database for the rest. Outside a transaction, all from the database.
 */
export async function readRows(db: CrawlerDB, crawlId: number, urls: readonly string[]): Promise<(FrontierEntry | undefined)[]> {
  const at = txRows(db);
  if (!at) return readSorted(db, crawlId, urls);
  const { tx, rows } = at;
  const out = new Array<FrontierEntry | undefined>(urls.length);
  const copied: number[] = [];
  const missing: number[] = [];
  const trusted = !tx.dropped.has(crawlId);
  urls.forEach((url, i) => {
    const key = keyOf(crawlId, url);
    const mine = tx.seen.get(key);
    if (mine) out[i] = mine;
    else if (trusted && rows.rows.has(key)) {
      out[i] = rows.rows.get(key);
      copied.push(i);
    } else missing.push(i);
  });
  // Nothing to read, and not yet known that the earlier transactions have ended: one read says so.
  const probe = missing.length === 0 && copied.length > 0 && !tx.started ? [copied[0]!] : [];
  const asked = [...missing, ...probe];
  const read = await readSorted(db, crawlId, asked.map((i) => urls[i]!));
  if (asked.length) tx.started = true; // a request of this transaction came back (none was made for no URLs)
  missing.forEach((i, k) => (out[i] = read[k]));
  // Rows answered from the copy that an earlier transaction changed (or dropped) since: read them again.
  const changed = copied.filter((i) => rows.rows.get(keyOf(crawlId, urls[i]!)) !== out[i] || tx.dropped.has(crawlId));
  if (changed.length) {
    const again = await readSorted(db, crawlId, changed.map((i) => urls[i]!));
    changed.forEach((i, k) => (out[i] = again[k]));
  }
  urls.forEach((url, i) => {
    const row = out[i];
    const key = keyOf(crawlId, url);
    if (row && !tx.seen.has(key)) tx.seen.set(key, row);
  });
  return out;
}

/** Frontier rows written in the current transaction by a path other than writeEntries (a take): the copy learns them. */
export function wroteRows(db: CrawlerDB, written: readonly FrontierEntry[]): void {
  const at = txRows(db);
  if (!at) {
    for (const id of new Set(written.map((e) => e.crawlId))) dropRows(db, id);
    return;
  }
  for (const e of written) at.tx.seen.set(keyOf(e.crawlId, e.url), e);
}

/**
 * A crawl's frontier rows were (or are about to be) written around the copy (a reclaim, a blacklist, a delete): its
 * copy is dropped, now and when the current transaction ends, and this transaction reads them from the database.
 */
export function dropRows(db: CrawlerDB, crawlId: number): void {
  const at = txRows(db);
  if (at) {
    at.tx.dropped.add(crawlId);
    for (const key of at.tx.seen.keys()) if (crawlOfKey(key) === crawlId) at.tx.seen.delete(key);
  }
  const conn = connection(db);
  if (conn) held.get(conn)?.drop(crawlId);
}

/** How many rows a database object's current connection holds (for tests and benchmarks). */
export function heldRowCount(db: CrawlerDB): number {
  const conn = connection(db);
  return (conn && held.get(conn)?.rows.size) || 0;
}
