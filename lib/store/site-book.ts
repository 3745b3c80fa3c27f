// Sites (registrable domains) as a crawl sees them: per-site counters, the blacklist, and the admission of new
// URLs by the crawl's strategy (SPEC B.4, B.5), all inside the page commit's transaction so a site's counts and
// its queue agree with the frontier. Also the Sites panel's reads and the user's Blacklist / Unblock.
import Dexie from 'dexie';
import type { FrontierEntry } from '../types';
import type { CrawlerDB } from './db';
import type { CrawlRecord, SiteStats } from '../records';
import { countWrites } from './fifo-queues';
import type { Admission, Candidate } from '../ports';


export const BLACKLISTED = 'site blacklisted';

export const emptySite = (crawlId: number, site: string): SiteStats => ({ crawlId, site, fetched: 0, relevant: 0, failed: 0 });

/** Queued URLs of a site (the [crawlId+site+state] index, schema v4). */
export const queuedOf = (db: CrawlerDB, crawlId: number, site: string): Promise<number> =>
  db.frontier.where('[crawlId+site+state]').equals([crawlId, site, 'queued']).count();

/**
 * Inside a commit: drops the new candidates whose site is blacklisted or whose strategy refuses them, counting
 * each by reason into `dropped`. `fresh` are candidates not yet in the frontier; `current` is the committing
 * page's site row as this commit leaves it.
 */
export async function admit(
  db: CrawlerDB, crawlId: number, fresh: Candidate[], admission: Admission, dropped: Record<string, number>, current: SiteStats,
): Promise<Set<string>> {
  const refused = new Set<string>();
  const sites = [...new Set(fresh.filter((c) => !c.skip).map((c) => c.site!))];
  if (sites.length === 0) return refused;
  const [rows, queued] = await Promise.all([
    db.sites.bulkGet(sites.map((s) => [crawlId, s] as [number, string])),
    admission.strategy.admit ? Promise.all(sites.map((s) => queuedOf(db, crawlId, s))) : Promise.resolve(sites.map(() => 0)),
  ]);
  // The committing page's own site row is ahead of the stored one (this commit may have just closed it).
  const rowOf = (i: number) => (sites[i] === current.site ? current : rows[i]);
  const views = new Map(sites.map((site, i) => [site, { row: rowOf(i), view: { site, fetched: rowOf(i)?.fetched ?? 0, relevant: rowOf(i)?.relevant ?? 0, queued: queued[i]! } }]));
  for (const c of fresh) {
    if (c.skip) continue;
    const { row, view } = views.get(c.site!)!;
    const reason = row?.blacklisted || admission.siteBlacklist.includes(view.site) ? BLACKLISTED : admission.strategy.admit?.(view) ?? null;
    if (reason) {
      refused.add(c.url);
      dropped[reason] = (dropped[reason] ?? 0) + 1;
    } else view.queued++;
  }
  return refused;
}

/**
 * Inside a commit, after a page of `row.site` was judged: asks the strategy whether the site is now off limits;
 * if so marks it and drops its queued URLs. Returns the entries to write and how many were dropped.
 */
export async function judgeSite(
  db: CrawlerDB, row: SiteStats, admission: Admission, now: number,
): Promise<{ dropped: FrontierEntry[] }> {
  if (row.blacklisted || !admission.strategy.judgeSite) return { dropped: [] };
  const why = admission.strategy.judgeSite({ site: row.site, fetched: row.fetched, relevant: row.relevant, queued: 0 });
  if (!why) return { dropped: [] };
  row.blacklisted = why;
  return { dropped: await dropQueued(db, row.crawlId, row.site, why, now) };
}

/** The queued URLs of a site, turned skipped with the blacklist's reason (not yet written). */
async function dropQueued(db: CrawlerDB, crawlId: number, site: string, why: string, now: number): Promise<FrontierEntry[]> {
  const queued = await db.frontier.where('[crawlId+site+state]').equals([crawlId, site, 'queued']).toArray();
  return queued.map((e) => ({ ...e, state: 'skipped', reason: `${BLACKLISTED}: ${why}`, updatedAt: now }));
}

/** Blacklists a site by hand (taking effect in a running crawl at its next commit) or unblocks it. */
export async function setSiteBlacklisted(db: CrawlerDB, crawlId: number, site: string, on: boolean, now: number): Promise<SiteStats> {
  return db.transaction('rw', [db.sites, db.frontier, db.crawls], async () => {
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
    row.blacklisted = 'blacklisted by you';
    const dropped = await dropQueued(db, crawlId, site, row.blacklisted, now);
    countDropped(crawl, dropped.length);
    countWrites(crawl, dropped, (i) => ({ ...dropped[i]!, state: 'queued' }));
    await Promise.all([db.sites.put(row), dropped.length ? db.frontier.bulkPut(dropped) : undefined, db.crawls.put(crawl)]);
    return row;
  });
}

/** Queued URLs dropped from the frontier: the counters move from queued to skipped, and to `dropped` by reason. */
export function countDropped(crawl: CrawlRecord, n: number): void {
  if (n === 0) return;
  crawl.stats.queued -= n;
  crawl.stats.skipped += n;
  crawl.dropped = { ...crawl.dropped, [BLACKLISTED]: (crawl.dropped?.[BLACKLISTED] ?? 0) + n };
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
