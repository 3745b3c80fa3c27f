// Sites (registrable domains) as a crawl sees them: the reads a page commit's admission needs (a site's queued
// URLs and their count), the Sites panel's reads, and the user's Blacklist / Unblock. What a commit does to a
// site (design B.4, B.5) is decided by lib/run/commit-plan.ts.
import Dexie from 'dexie';
import type { FrontierEntry } from '../records/types';
import type { CrawlerDB } from './db';
import type { SiteStats } from '../records/rows';
import { blacklistedEntry, countDropped, emptySite } from '../run/commit-plan';
import { countWrites } from './fifo-queues';
import { writeWithHeads } from './host-heads';
import { dropRows } from './row-cache';

/** Queued URLs of a site (the prefix of [crawlId+site+state+host+priority+order], schema v11). */
export const queuedOf = (db: CrawlerDB, crawlId: number, site: string): Promise<number> =>
  db.frontier.where('[crawlId+site+state]').equals([crawlId, site, 'queued']).count();

/** The queued URLs of a site (a site its strategy closes, or the user blacklists, drops them). */
export const queuedIn = (db: CrawlerDB, crawlId: number, site: string): Promise<FrontierEntry[]> =>
  db.frontier.where('[crawlId+site+state]').equals([crawlId, site, 'queued']).toArray();

/** Blacklists a site by hand (taking effect in a running crawl at its next commit) or unblocks it. */
export async function setSiteBlacklisted(db: CrawlerDB, crawlId: number, site: string, on: boolean, now: number): Promise<SiteStats> {
  return db.transaction('rw', [db.sites, db.frontier, db.crawls, db.hostHeads], async () => {
    const crawl = await db.crawls.get(crawlId);
    if (!crawl) throw new Error(`there is no crawl ${crawlId}`);
    const row = (await db.sites.get([crawlId, site])) ?? emptySite(crawlId, site);
    if (!on) {
      // Unblocking lets new links in; URLs dropped while it was blacklisted stay dropped (they are found again).
      delete row.blacklisted;
      await db.sites.put(row);
      return row;
    }
    if (row.blacklisted) return row;
    const why = (row.blacklisted = 'blacklisted by you');
    dropRows(db, crawlId); // the user's blacklist is rare: the worker's copy of the rows is read again (row-cache.ts)
    const queued = await queuedIn(db, crawlId, site);
    const dropped = queued.map((e) => blacklistedEntry(e, why, now));
    countDropped(crawl, dropped.length);
    countWrites(crawl, dropped, (i) => queued[i]);
    await writeWithHeads(db, crawlId, dropped, queued, new Map(),
      () => Promise.all([db.sites.put(row), dropped.length ? db.frontier.bulkPut(dropped) : undefined, db.crawls.put(crawl)]));
    return row;
  });
}

/** A crawl's sites for the Sites panel: counters, queued URLs and state, most fetched first. */
export async function sitesOf(db: CrawlerDB, crawlId: number): Promise<(SiteStats & { queued: number })[]> {
  const rows = await db.sites.where('[crawlId+site]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
  const queued = await Promise.all(rows.map((r) => queuedOf(db, crawlId, r.site)));
  return rows.map((r, i) => ({ ...r, queued: queued[i]! })).sort((a, b) => b.fetched - a.fetched || a.site.localeCompare(b.site));
}

/** Sites of a crawl closed by its strategy or by the user (not counting the config's list, which is in the config). */
export function blacklistedSites(db: CrawlerDB, crawlId: number): Promise<string[]> {
  return db.sites.where('[crawlId+site]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey])
    .filter((r) => !!r.blacklisted).toArray().then((rows) => rows.map((r) => r.site));
}
