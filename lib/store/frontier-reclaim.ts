// A stopped worker's entries in flight go back to the queue (Crawlee's "reclaim"), and those the worker keeps dying
// on are failed instead, so that no page is retried forever.
import type { FrontierEntry, PageRecord } from '../records/types';
import { crawlRow, type CrawlerDB } from './db';
import { countWrites } from './fifo-queues';
import { writeWithHeads } from './host-heads';
import { withListKeys } from './page-keys';
import { dropRows } from './row-cache';

/**
 * After a stopped worker: entries left in flight go back to the queue. One that was in flight at `maxReclaims` stops
 * is failed instead, with a page row saying so: a page that kills the worker (or that the worker keeps dying on) is
 * not retried forever. The caller counts the crawl's FIFO queues again at its next take.
 */
export function reclaimInFlight(db: CrawlerDB, crawlId: number, now: number, maxReclaims = 3): Promise<{ requeued: number; failed: number }> {
  return db.transaction('rw', [db.frontier, db.crawls, db.pages, db.hostHeads], async () => {
    dropRows(db, crawlId); // rare: read again rather than followed
    const stuck = await db.frontier.where('[crawlId+state]').equals([crawlId, 'inflight']).toArray();
    if (stuck.length === 0) return { requeued: 0, failed: 0 };
    const crawl = await crawlRow(db, crawlId);
    const puts: FrontierEntry[] = [];
    const pages: PageRecord[] = [];
    for (const e of stuck) {
      const reclaims = (e.reclaims ?? 0) + 1;
      if (reclaims < maxReclaims) {
        puts.push({ ...e, state: 'queued', reclaims, updatedAt: now });
        crawl.stats.queued++;
        continue;
      }
      const error = `was being fetched each of the ${reclaims} times the service worker stopped: not tried again`;
      puts.push({ ...e, state: 'failed', reclaims, reason: error, updatedAt: now });
      crawl.stats.failed++;
      crawl.stats.attempts++;
      pages.push({
        crawlId, seq: crawl.nextSeq++, url: e.url, finalUrl: e.url, status: 0, phase: 'crawl', depth: e.depth, parentUrl: e.parentUrl,
        score: e.score, relevant: null, relevance: null, title: '', textLength: 0, contentType: '', bytes: 0, truncated: false,
        linkCount: 0, fetchedAt: now, durationMs: 0, error, outcome: 'failed',
      });
    }
    countWrites(crawl, puts, (i) => stuck[i]);
    await writeWithHeads(db, crawlId, puts, stuck, new Map(), () =>
      Promise.all([db.frontier.bulkPut(puts), pages.length ? db.pages.bulkAdd(pages.map((p) => withListKeys(p))) : undefined, db.crawls.put(crawl)]));
    return { requeued: stuck.length - pages.length, failed: pages.length };
  });
}
