// Seed lists stored packed. One frontier row per URL is one IndexedDB request per URL, and Chromium writes
// 2,000-4,000 such rows a second into a frontier of 1,000,000: a million seeds took minutes before the first fetch.
// Past PACK_ABOVE seeds, the first ones go to the frontier as before and the rest are written a few thousand to a row
// (the seedLists table, schema v12), in the order given; FrontierStore.feed moves them into the frontier through its
// one enqueue path (dedup against every known URL, host heads, counters) as the crawl needs them, deleting the rows it
// moved in the same transaction, so a stopped worker loses no seed and queues none twice.
//
// When to feed (FrontierStore.take): the seeds of a list share one priority (the strategy's seedPriority), so a packed
// seed ranks above every queued URL of lower priority, and after the seeds already queued at its own. A take does not
// take a URL ranked below the next packed seed: it stops there, feeds once, and takes again, which keeps the order the
// whole list in the frontier would give, while fewer than HIGH_WATER URLs are queued (past it, the queued seeds are
// those of busy hosts, and the take goes on below them as it would with every seed queued) (a take by FIFO queues, multi-queue's, is fed by the counts below alone).
// A take that finds nothing queued feeds and takes again (a crawl ends only
// when both are empty). The rest is to keep that rare, and is done after a take, off its path (the next take waits
// for it): a feed when fewer than half a feed's seeds are queued (counted in memory, from the feeds and the seeds
// taken), below LOW_WATER queued URLs, and when a take filled fewer slots than asked (its hosts busy) while fewer
// than HIGH_WATER are queued (more seeds bring more hosts, up to a bound: a list of one host would all be fed).
import Dexie from 'dexie';
import type { Candidate } from '../ports';
import { siteOf } from '../records/url';
import type { CrawlerDB, PackedSeeds } from './db';

/** An enqueue of more candidates than this packs all but the first PACK_ABOVE. */
export const PACK_ABOVE = 2_000;
/** Seeds per packed row. */
export const SEEDS_PER_BATCH = 5_000;
/** Packed rows written per transaction (the crawl row's count moves with them). */
export const BATCHES_PER_WRITE = 20;
/** Seeds moved into the frontier by one feed. */
export const FEED_SEEDS = 1_000;
/** Below this many queued URLs, packed seeds are fed whatever their rank. */
export const LOW_WATER = 1_000;
/** A take that filled fewer slots than asked feeds more seeds only while fewer than this are queued. */
export const HIGH_WATER = 20_000;

export type SeedShared = PackedSeeds['shared'];

const OWN = new Set(['url', 'href', 'host', 'site']);

/** What a candidate shares with the others of its batch: everything but its URL, as given, host and site. */
function sharedOf(c: Candidate): SeedShared {
  const { url: _u, href: _h, host: _o, site: _s, ...shared } = c;
  return shared;
}

const same = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** Whether `c` shares `shared` (a seed list's candidates do: only their URLs differ). */
function shares(c: Candidate, shared: SeedShared): boolean {
  let n = 0;
  for (const k in c) {
    if (OWN.has(k)) continue;
    n++;
    if (!same((c as unknown as Record<string, unknown>)[k], (shared as Record<string, unknown>)[k])) return false;
  }
  return n === Object.keys(shared).length;
}

/** Candidates as packed rows numbered from `firstBatch`, in their order; a row ends at SEEDS_PER_BATCH or where what they share changes. */
export function packSeeds(crawlId: number, firstBatch: number, candidates: readonly Candidate[], perBatch = SEEDS_PER_BATCH): PackedSeeds[] {
  const rows: PackedSeeds[] = [];
  let row: PackedSeeds | undefined;
  for (const c of candidates) {
    if (!row || row.urls.length >= perBatch || !shares(c, row.shared)) {
      row = { crawlId, batch: firstBatch + rows.length, urls: [], hosts: [], sites: [], shared: sharedOf(c) };
      rows.push(row);
    }
    if (c.href !== undefined) (row.hrefs ??= {})[row.urls.length] = c.href;
    row.urls.push(c.url);
    row.hosts.push(c.host);
    row.sites.push(c.site ?? siteOf(c.url));
  }
  return rows;
}

/** The candidates of a packed row from index `from` to `to` (exclusive). */
export function unpackSeeds(row: PackedSeeds, from = 0, to = row.urls.length): Candidate[] {
  const out: Candidate[] = [];
  for (let i = from; i < to; i++) {
    const href = row.hrefs?.[i];
    out.push({ ...row.shared, url: row.urls[i]!, ...(href === undefined ? {} : { href }), host: row.hosts[i]!, site: row.sites[i]! });
  }
  return out;
}

/** The rest of a row once its first `n` seeds were fed (its hrefs renumbered). */
export function restOf(row: PackedSeeds, n: number): PackedSeeds {
  const rest: PackedSeeds = { ...row, urls: row.urls.slice(n), hosts: row.hosts.slice(n), sites: row.sites.slice(n) };
  delete rest.hrefs;
  for (const [i, href] of Object.entries(row.hrefs ?? {})) if (Number(i) >= n) (rest.hrefs ??= {})[Number(i) - n] = href;
  return rest;
}

const range = (crawlId: number): [unknown[], unknown[]] => [[crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]];

/** The number the next packed row of a crawl takes (after every one stored). */
export async function nextBatch(db: CrawlerDB, crawlId: number): Promise<number> {
  const last = await db.seedLists.where('[crawlId+batch]').between(...range(crawlId)).last();
  return last ? last.batch + 1 : 0;
}

/** A crawl's first packed rows, in the order they are fed. */
export function firstPacked(db: CrawlerDB, crawlId: number, rows: number): Promise<PackedSeeds[]> {
  return db.seedLists.where('[crawlId+batch]').between(...range(crawlId)).limit(rows).toArray();
}

/** Deletes a crawl's packed seeds (inside the caller's transaction). */
export function deleteSeedLists(db: CrawlerDB, crawlId: number): Promise<number> {
  return db.seedLists.where('[crawlId+batch]').between(...range(crawlId)).delete();
}

/** The sites of `seeds` that are closed (blacklisted by the user or their strategy), with why. */
export async function closedSites(db: CrawlerDB, crawlId: number, seeds: readonly Candidate[]): Promise<Map<string, string>> {
  const sites = [...new Set(seeds.map((s) => s.site!))];
  const rows = sites.length ? await db.sites.bulkGet(sites.map((s) => [crawlId, s] as [number, string])) : [];
  return new Map(rows.flatMap((r) => (r?.blacklisted ? [[r.site, r.blacklisted] as const] : [])));
}

/**
 * Whether to feed packed seeds after a take, off its path (the rules are in the header): `queued` URLs are in the
 * frontier, `seedsLow` says few of them are seeds, `short` that the take filled fewer slots than asked.
 */
export function shouldFeed(s: { queued: number; seedsLow: boolean; short: boolean }): boolean {
  return s.queued < LOW_WATER || s.seedsLow || (s.short && s.queued < HIGH_WATER);
}
