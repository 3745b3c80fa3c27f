// The user lets the crawl request a link the session-safety guard kept, after seeing why: one URL, or every link one
// rule caught by one match. The allowance is recorded on the crawl's row (with when; not in its config, which a page
// reads once: lib/store/crawl-configs.ts), and the links it covers are queued again, at the priority the crawl gives
// its seeds, so they are requested soon.
import type { SafetyAllowance } from '../records/config';
import type { FrontierEntry } from '../records/types';
import { blockOfReason } from '../policy/safety';
import type { CrawlerDB } from './db';
import { countWrites } from './fifo-queues';
import { writeWithHeads } from './host-heads';
import { dropRows } from './row-cache';

/** What the user allows: a URL (canonical), or a rule and what it matched. */
export type Allowing = { url: string } | { rule: string; match: string };

/** The reason an entry queued again by the user's allowance carries. */
export const ALLOWED_BY_YOU = 'allowed by you after it was kept from requesting';

/**
 * Records the allowance and queues again the kept links it covers; returns how many, and the crawl's allowances as
 * they are now. Nothing is written when no kept link is covered.
 */
export async function allowKept(
  db: CrawlerDB, crawlId: number, allowing: Allowing, priority: number, now: number,
): Promise<{ allowed: number; allowances: SafetyAllowance[] }> {
  return db.transaction('rw', [db.frontier, db.crawls, db.hostHeads], async () => {
    const crawl = await db.crawls.get(crawlId);
    if (!crawl) throw new Error(`there is no crawl ${crawlId}`);
    const covers = (e: FrontierEntry) => {
      const block = blockOfReason(e.reason);
      return block !== null && ('url' in allowing ? e.url === allowing.url : block.rule === allowing.rule && block.match === allowing.match);
    };
    const kept = 'url' in allowing
      ? [await db.frontier.get([crawlId, allowing.url])].filter((e): e is FrontierEntry => e?.state === 'skipped' && covers(e))
      : await db.frontier.where('[crawlId+state]').equals([crawlId, 'skipped']).filter(covers).toArray();
    if (kept.length === 0) return { allowed: 0, allowances: crawl.allowed ?? [] };
    dropRows(db, crawlId);
    const queued = kept.map((e): FrontierEntry => ({
      ...e, state: 'queued', priority, order: -crawl.nextOrder++, reason: ALLOWED_BY_YOU, notBefore: undefined, retries: 0, updatedAt: now,
    }));
    const allowances: SafetyAllowance[] = [...(crawl.allowed ?? []), { ...allowing, at: now }];
    crawl.allowed = allowances;
    crawl.stats.skipped -= queued.length;
    crawl.stats.queued += queued.length;
    crawl.updatedAt = now;
    countWrites(crawl, queued, (i) => kept[i]);
    await writeWithHeads(db, crawlId, queued, kept, new Map(), () => Promise.all([db.frontier.bulkPut(queued), db.crawls.put(crawl)]));
    return { allowed: queued.length, allowances };
  });
}
