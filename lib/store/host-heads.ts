// Per-host queue heads: for each crawl and host, the best position [priority, order] among its queued
// URLs, one row per host in the hostHeads table (schema v11), written in the same transaction as every frontier
// write. A best-first take walks hosts by their heads and reads a host's own queued URLs, best first, through
// [crawlId+site+state+host+priority+order]: a busy host is passed in one step, however many URLs it holds, where
// walking [crawlId+state+priority+order] re-read every busy URL above the first ready one at each take.
// Politeness is per host (lib/net/politeness.ts), so a host is the unit a head stands for; the index leads with
// the site so that a site's queued URLs are still counted and listed by its prefix (site-book.ts).
//
// The heads are also kept in memory, best first (HeadList), read from the table at a crawl's first take in this
// context and changed with every write of the table after it: a take then reads no head and a commit reads the heads
// of its links' hosts from memory. This context (the service worker) is the only writer of the frontier; a write
// whose transaction aborts drops the list, read again at the next take.
import Dexie from 'dexie';
import type { FrontierEntry } from '../records/types';
import type { HostHead } from '../records/rows';
import type { CrawlerDB } from './db';
import { above, HeadList, HOST_INDEX, inTransaction, type HeldQueue, type Position } from './head-list';
import { dropQueueHeads, noteQueueWrites } from './queue-heads';

export type { HeldQueue, HostHead, Position };
export { above, HeadList, HOST_INDEX };


type Placed = Pick<FrontierEntry, 'site' | 'host' | 'url' | 'state' | 'priority' | 'order'>;

const siteOf = (e: Pick<FrontierEntry, 'site' | 'url'>) => e.site ?? '';
/** The map key of a host's head (sites and hosts hold no spaces). */
export const headKey = (site: string, host: string) => `${site} ${host}`;
const keyOf = (e: Pick<FrontierEntry, 'site' | 'host' | 'url'>) => headKey(siteOf(e), e.host);
const posOf = (e: Pick<FrontierEntry, 'priority' | 'order'>): Position => [e.priority, e.order];
const splitKey = (key: string): [string, string] => {
  const i = key.indexOf(' ');
  return [key.slice(0, i), key.slice(i + 1)];
};

/** A host's queued entries, best first, at or below `upper` (inclusive or not), at most `limit`. */
export function hostQueue(db: CrawlerDB, crawlId: number, site: string, host: string, upper: Position | null, inclusive: boolean, limit: number): Promise<FrontierEntry[]> {
  const hi = upper ? [crawlId, site, 'queued', host, ...upper] : [crawlId, site, 'queued', host, Dexie.maxKey, Dexie.maxKey];
  return db.frontier.where(HOST_INDEX).between([crawlId, site, 'queued', host, Dexie.minKey, Dexie.minKey], hi, true, upper ? inclusive : true)
    .reverse().limit(limit).toArray();
}

/** Per database object and crawl, the heads in memory (absent: not read yet, or dropped). */
const lists = new WeakMap<CrawlerDB, Map<number, HeadList>>();

/** A crawl's heads in memory, if this context holds them. */
export const headList = (db: CrawlerDB, crawlId: number): HeadList | undefined => lists.get(db)?.get(crawlId);

/** Drops a crawl's heads from memory (its queue heads too): the next take reads them again. */
export function dropHeadList(db: CrawlerDB, crawlId: number): void {
  lists.get(db)?.delete(crawlId);
  dropQueueHeads(db, crawlId);
}

/** Reads a crawl's heads from the table into memory (inside the take's transaction). */
export async function loadHeadList(db: CrawlerDB, crawlId: number): Promise<HeadList> {
  const rows = await db.hostHeads.where('[crawlId+site+host]').between([crawlId, Dexie.minKey, Dexie.minKey], [crawlId, Dexie.maxKey, Dexie.maxKey]).toArray();
  const list = new HeadList();
  for (const h of rows) list.set(headKey(h.site, h.host), [h.priority, h.order]);
  let byCrawl = lists.get(db);
  if (!byCrawl) lists.set(db, (byCrawl = new Map()));
  byCrawl.set(crawlId, list);
  return list;
}

/** The list of a crawl about to change in this transaction: dropped if the transaction aborts. */
function changing(db: CrawlerDB, crawlId: number): HeadList | undefined {
  const list = headList(db, crawlId);
  if (list && !inTransaction(`hosts ${crawlId}`, () => dropHeadList(db, crawlId))) dropHeadList(db, crawlId);
  return headList(db, crawlId);
}

/** Forgets the head rows the list holds of the hosts of rows about to be written (their content may change). */
export function forgetRows(db: CrawlerDB, crawlId: number, rows: Iterable<Pick<FrontierEntry, 'site' | 'host' | 'url'> | undefined>): void {
  const list = headList(db, crawlId);
  if (list) for (const e of rows) if (e) list.forget(keyOf(e));
}

/**
 * Rows about to be written (`was[i]` what rows[i] was): the rows the list holds of their hosts follow them
 * (HeadList.noteWrite), so the takes after the write read none. A URL written twice in one batch forgets its host's.
 */
export function noteRows(db: CrawlerDB, crawlId: number, rows: readonly FrontierEntry[], was: readonly (FrontierEntry | undefined)[]): void {
  // Dropped if the transaction aborts: the rows held would name writes that never happened.
  const list = rows.length ? changing(db, crawlId) : undefined;
  if (!list) return;
  const seen = new Map<string, number>();
  for (const e of rows) seen.set(e.url, (seen.get(e.url) ?? 0) + 1);
  rows.forEach((e, i) => {
    const before = was[i];
    if (seen.get(e.url)! > 1 || (before && keyOf(before) !== keyOf(e))) {
      list.forget(keyOf(e));
      if (before) list.forget(keyOf(before));
    } else list.noteWrite(keyOf(e), e, before);
  });
}

/** The heads of the hosts of `keys` (headKey): absent where a host has nothing queued. From memory when this context holds them. */
export async function readHeads(db: CrawlerDB, crawlId: number, keys: Iterable<string>): Promise<Map<string, HostHead | undefined>> {
  const list = [...new Set(keys)];
  const inMemory = headList(db, crawlId);
  if (inMemory) {
    return new Map(list.map((k) => {
      const pos = inMemory.get(k);
      return [k, pos ? { crawlId, ...hostOfKey(k), priority: pos[0], order: pos[1] } : undefined];
    }));
  }
  const rows = list.length ? await db.hostHeads.bulkGet(list.map((k) => [crawlId, ...splitKey(k)] as [number, string, string])) : [];
  return new Map(list.map((k, i) => [k, rows[i]]));
}

/** The head keys of candidates about to be written (their site is computed as the commit plan computes it). */
export const candidateKeys = (cs: readonly { url: string; host: string; site?: string }[], site: (url: string) => string) =>
  cs.map((c) => headKey(c.site ?? site(c.url), c.host));

/**
 * What a batch of frontier writes does to the heads. `rows` are the rows written (the last write of a URL wins, as in
 * writeEntries), `was[i]` what rows[i] was before (absent: a new URL), `heads` the current heads of their hosts.
 * A host whose head row left the queue or moved down, with nothing of the batch above it, is `recompute`d from the
 * index once the writes are in; every other change is known here. `known` gives heads the caller found itself (a take
 * that read a host's next queued URL).
 */
export function planHeads(
  crawlId: number, rows: readonly Placed[], was: readonly (Placed | undefined)[], heads: ReadonlyMap<string, HostHead | undefined>,
  known?: ReadonlyMap<string, Position | null>,
): { puts: HostHead[]; deletes: string[]; recompute: string[] } {
  const last = new Map<string, { row: Placed; was: Placed | undefined }>();
  rows.forEach((row, i) => last.set(row.url, { row, was: last.get(row.url)?.was ?? was[i] }));
  const hosts = new Map<string, { raised?: Position; lost: boolean; site: string; host: string }>();
  const note = (e: Placed) => {
    const k = keyOf(e);
    let h = hosts.get(k);
    if (!h) hosts.set(k, (h = { lost: false, site: siteOf(e), host: e.host }));
    return { k, h };
  };
  for (const { row, was: before } of last.values()) {
    if (row.state === 'queued') {
      const { h } = note(row);
      if (!h.raised || above(posOf(row), h.raised)) h.raised = posOf(row);
    }
    if (before?.state !== 'queued') continue;
    const stays = row.state === 'queued' && keyOf(row) === keyOf(before) && !above(posOf(before), posOf(row));
    if (stays) continue;
    const { k, h } = note(before);
    const head = heads.get(k);
    // The head left (or a row the heads did not know of left: heal by reading the index).
    if (!head || (head.priority === before.priority && head.order === before.order)) h.lost = true;
  }
  const puts: HostHead[] = [], deletes: string[] = [], recompute: string[] = [];
  for (const [k, h] of hosts) {
    const head = heads.get(k);
    const given = known?.get(k);
    if (given !== undefined) {
      if (given === null) deletes.push(k);
      else puts.push({ crawlId, site: h.site, host: h.host, priority: given[0], order: given[1] });
      continue;
    }
    const headPos = head ? posOf(head) : undefined;
    if (h.lost && !(h.raised && headPos && !above(headPos, h.raised))) recompute.push(k);
    else if (h.raised && (!headPos || above(h.raised, headPos))) puts.push({ crawlId, site: h.site, host: h.host, priority: h.raised[0], order: h.raised[1] });
  }
  for (const [k, pos] of known ?? []) {
    if (hosts.has(k)) continue;
    if (pos === null) deletes.push(k);
    else puts.push({ crawlId, ...hostOfKey(k), priority: pos[0], order: pos[1] });
  }
  return { puts, deletes, recompute };
}

function hostOfKey(k: string) {
  const [site, host] = splitKey(k);
  return { site, host };
}

/** Sets the heads of `keys` from the index: their best queued entry, or none. Inside the caller's transaction, after its writes. */
export async function recomputeHeads(db: CrawlerDB, crawlId: number, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map(async (k) => {
    const { site, host } = hostOfKey(k);
    const [best] = await hostQueue(db, crawlId, site, host, null, true, 1);
    const list = changing(db, crawlId);
    if (best) {
      list?.set(k, [best.priority, best.order]);
      list?.keep(k, best);
    } else list?.delete(k);
    await (best ? db.hostHeads.put({ crawlId, site, host, priority: best.priority, order: best.order }) : db.hostHeads.delete([crawlId, site, host]));
  }));
}

/**
 * Writes a batch's head changes (planHeads), then recomputes what it could not know. `frontierWritten` resolves once
 * the frontier rows are written: a recompute reads the index after them.
 */
export async function applyHeads(db: CrawlerDB, crawlId: number, plan: ReturnType<typeof planHeads>, frontierWritten: Promise<unknown>): Promise<void> {
  const list = plan.puts.length || plan.deletes.length ? changing(db, crawlId) : undefined;
  for (const h of plan.puts) list?.set(headKey(h.site, h.host), [h.priority, h.order]);
  for (const k of plan.deletes) list?.delete(k);
  await Promise.all([
    frontierWritten,
    plan.puts.length ? db.hostHeads.bulkPut(plan.puts) : undefined,
    plan.deletes.length ? db.hostHeads.bulkDelete(plan.deletes.map((k) => [crawlId, ...splitKey(k)] as [number, string, string])) : undefined,
  ]);
  if (plan.recompute.length) await recomputeHeads(db, crawlId, plan.recompute);
}

/**
 * Writes frontier rows with their heads kept exact: reads the heads of the rows' hosts not in `heads` (a caller that
 * knew its hosts up front read them with its other reads), plans, writes. `write` issues the frontier writes.
 */
export async function writeWithHeads(
  db: CrawlerDB, crawlId: number, rows: readonly FrontierEntry[], was: readonly (FrontierEntry | undefined)[],
  heads: Map<string, HostHead | undefined>, write: () => Promise<unknown>, known?: ReadonlyMap<string, Position | null>,
): Promise<void> {
  const need = new Set<string>();
  rows.forEach((e, i) => {
    for (const x of [e, was[i]]) if (x?.state === 'queued' && !heads.has(keyOf(x))) need.add(keyOf(x));
  });
  if (need.size) for (const [k, v] of await readHeads(db, crawlId, need)) heads.set(k, v);
  noteRows(db, crawlId, rows, was);
  await applyHeads(db, crawlId, planHeads(crawlId, rows, was, heads, known), write());
  const noted = noteQueueWrites(db, crawlId, rows, was);
  if (noted) await noted;
}

/** Every head of a crawl, from its queued rows (the schema v11 upgrade, and a take that found the heads wrong). */
export async function rebuildHeads(db: CrawlerDB, crawlId: number): Promise<number> {
  dropHeadList(db, crawlId);
  const lo = [crawlId, Dexie.minKey, Dexie.minKey], hi = [crawlId, Dexie.maxKey, Dexie.maxKey];
  await db.hostHeads.where('[crawlId+site+host]').between(lo, hi).delete();
  const index = db.frontier.where(HOST_INDEX);
  const heads: HostHead[] = [];
  // Jump from host to host through the index: a few reads per host, not one per queued URL.
  let from: unknown[] = [crawlId, Dexie.minKey];
  let open = true;
  for (;;) {
    const e: FrontierEntry | undefined = await index.between(from, [crawlId, Dexie.maxKey], open, true).first();
    if (!e) break;
    const site = siteOf(e);
    if (e.state < 'queued') [from, open] = [[crawlId, site, 'queued'], true];
    else if (e.state > 'queued') [from, open] = [[crawlId, site, Dexie.maxKey], false];
    else {
      const [best] = await hostQueue(db, crawlId, site, e.host, null, true, 1);
      heads.push({ crawlId, site, host: e.host, priority: best!.priority, order: best!.order });
      [from, open] = [[crawlId, site, 'queued', e.host, Dexie.maxKey], false];
    }
  }
  await db.hostHeads.bulkPut(heads);
  return heads.length;
}
