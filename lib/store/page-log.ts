// The page log: one row per fetch attempt in fetch order, and the bodies kept apart from it. Read here;
// written only by CrawlStore's page commit.
import Dexie from 'dexie';
import type { PageBody, PageRecord } from '../records/types';
import { readBodies } from './body-packs';
import type { CrawlerDB } from './db';

/** How far back from the newest page to look for failures: an old failure is not a recent error. */
const ERROR_LOOKBACK = 5000;
/** Page rows read per transaction while looking for a crawl's training reads. */
const TRAINING_SCAN = 2000;

export class PageLog {
  constructor(private readonly db: CrawlerDB) {}

  async pagesAfter(crawlId: number, afterSeq: number, limit: number): Promise<PageRecord[]> {
    return this.db.pages
      .where('[crawlId+seq]')
      .between([crawlId, afterSeq + 1], [crawlId, Dexie.maxKey])
      .limit(limit)
      .toArray();
  }

  /**
   * The newest failures (not skips), newest first, among the crawl's last `lookback` pages: read through the
   * [crawlId+kind+seq] index, so only the failed rows asked for are read. (Scanning the newest rows for failures read
   * up to thousands of page rows each time, and the popup and the command-line runner ask twice a second.)
   */
  recentErrors(crawl: { id?: number; nextSeq: number }, n: number, lookback = ERROR_LOOKBACK): Promise<PageRecord[]> {
    const id = crawl.id!;
    const from = Math.max(0, crawl.nextSeq - lookback);
    return this.db.pages.where('[crawlId+kind+seq]').between([id, 'failed', from], [id, 'failed', Dexie.maxKey]).reverse().limit(n).toArray();
  }

  /**
   * The training reads of a crawl, done or failed. They are found among all the crawl's rows (a training read may
   * come after crawl pages, when a crawl is resumed), read a few thousand at a time, each chunk its own short
   * transaction: one cursor over 100,000 rows would hold the pages store for seconds, and every page commit of the
   * crawl starting or resuming would wait behind it. Only the training rows are kept.
   */
  private async trainingReads(crawlId: number, chunk = TRAINING_SCAN): Promise<PageRecord[]> {
    const out: PageRecord[] = [];
    for (let after = 0; ;) {
      const rows = await this.pagesAfter(crawlId, after, chunk);
      for (const p of rows) if (p.phase === 'train') out.push(p);
      if (rows.length < chunk) return out;
      after = rows[rows.length - 1].seq;
    }
  }

  async trainedUrls(crawlId: number): Promise<Set<string>> {
    return new Set((await this.trainingReads(crawlId)).map((p) => p.url));
  }

  /**
   * The training reads that brought a page whose HTML is kept: each row's URL and final URL, and its seq. The crawl
   * judges such a page from this copy when it reaches it, instead of requesting it again.
   */
  async trainingCopies(crawlId: number): Promise<{ url: string; finalUrl: string; seq: number }[]> {
    return (await this.trainingReads(crawlId)).filter((p) => p.outcome === 'done').map((p) => ({ url: p.url, finalUrl: p.finalUrl, seq: p.seq }));
  }

  /** Stored HTML of these pages of a crawl (a labeled page's body; absent when the crawl was deleted). */
  async bodies(keys: { crawlId: number; seq: number }[]): Promise<(PageBody | undefined)[]> {
    return readBodies(this.db.bodies, keys);
  }

  /** The page row of a URL in a crawl (its first fetch). */
  pageByUrl(crawlId: number, url: string): Promise<PageRecord | undefined> {
    return this.db.pages.where('[crawlId+url]').equals([crawlId, url]).first();
  }

  /**
   * The newest page of `url` kept by the first of `crawlIds` that has one, fetched without a redirect (a redirect's
   * validators are another URL's): the stored copy a recrawl asks for the page against.
   */
  async storedCopy(crawlIds: number[], url: string): Promise<PageRecord | undefined> {
    for (const crawlId of crawlIds) {
      const row = await this.db.pages.where('[crawlId+url]').equals([crawlId, url])
        .filter((p) => p.outcome === 'done' && !p.redirects?.length).last();
      if (row) return row;
    }
    return undefined;
  }

  getPage(crawlId: number, seq: number): Promise<PageRecord | undefined> {
    return this.db.pages.get([crawlId, seq]);
  }
}
