// The one path by which a URL enters the frontier, for links, seeds and fed packed seeds alike: the frontier is also
// the dedup set, so a URL known already is not added again but has its score raised (commit-plan.ts plans both).
import type { Candidate } from '../ports';
import type { CrawlRecord } from '../records/rows';
import type { FrontierEntry } from '../records/types';
import { siteOf } from '../records/url';
import { bestPerUrl, planUpserts } from '../run/commit-plan';
import { crawlRow, type CrawlerDB } from './db';
import { countWrites } from './fifo-queues';
import { addNewEntries, readEntries, writeEntries } from './frontier-rows';
import { candidateKeys, readHeads, writeWithHeads } from './host-heads';

/**
 * Inside the caller's transaction: each candidate is first added as a new row: for a URL not known yet that is one
 * request, where reading it and then writing it were two (the read is the dedup check). The adds that meet a known
 * URL fail alone, and only those URLs are read and planned as known ones. A URL found known leaves a gap in the
 * discovery order, which only orders. `patch` changes the crawl row before it is written with the counters.
 */
export async function admit(db: CrawlerDB, crawlId: number, candidates: Candidate[], now: number, patch?: (crawl: CrawlRecord) => void): Promise<void> {
  const unique = bestPerUrl(candidates);
  const [crawl, heads] = await Promise.all([crawlRow(db, crawlId), readHeads(db, crawlId, candidateKeys(unique, siteOf))]);
  patch?.(crawl);
  const fresh: FrontierEntry[] = [];
  planUpserts(crawl, unique, [], now, fresh); // one new row per candidate, in their order
  const known = await addNewEntries(db, fresh);
  const added = fresh.filter((_, i) => !known.has(i));
  const again = unique.filter((_, i) => known.has(i));
  const before = await readEntries(db, crawlId, again.map((c) => c.url));
  const puts: FrontierEntry[] = [];
  const delta = planUpserts(crawl, again, before, now, puts);
  const was = new Map(before.flatMap((k) => (k ? [[k.url, k] as const] : [])));
  countWrites(crawl, added, () => undefined);
  countWrites(crawl, puts, (i) => was.get(puts[i]!.url));
  for (const e of added) crawl.stats[e.state === 'queued' ? 'queued' : 'skipped']++;
  crawl.stats.queued += delta.queued;
  crawl.stats.skipped += delta.skipped;
  await writeWithHeads(db, crawlId, [...added, ...puts], [...added.map(() => undefined), ...puts.map((e) => was.get(e.url))], heads,
    () => Promise.all([writeEntries(db, puts), db.crawls.put({ ...crawl, updatedAt: now })]));
}
