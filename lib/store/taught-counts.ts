// How many labels links to each judged URL have taught a crawl (`learning.linksPerJudgedPage`), counted in memory.
// A page linked from every page of its site (its navigation) made a labeled link on every page fetched: 13,400 labels
// from 1,000 pages of one Wikispeedia crawl named only 1,359 pairs of URL and anchor. Past the limit the crawl learns
// nothing new from them, and every label row was written, indexed and read by the learner. What a stopped or killed
// worker loses is these counts: the next one counts from zero, so a judged URL may teach up to the limit again.

/**
 * Judged URLs counted per crawl, at most: past it the crawl's counts start again (as after a restart). Each is held as a
 * 32-bit hash of its URL and a count: about 5 MB at the limit, where the URLs themselves would hold about 12 MB.
 */
export const TAUGHT_URLS = 100_000;

/**
 * A URL as the counts hold it: FNV-1a over its UTF-16 code units. Two URLs of the same hash share a count (about one
 * pair among 100,000 URLs): one of them may stop teaching a little early.
 */
function keyOf(url: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < url.length; i++) h = Math.imul(h ^ url.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Per crawl, the labels taught through links to each judged URL. Changed only through a transaction's `TaughtChanges`. */
export class TaughtBook {
  private readonly crawls = new Map<number, Map<number, number>>();

  /** The counts of one transaction: read through, kept only if it commits (`keep`). */
  begin(): TaughtChanges {
    return new TaughtChanges(this.crawls);
  }

  /** A crawl deleted: nothing of it is counted any longer. */
  forget(crawlId: number): void {
    this.crawls.delete(crawlId);
  }
}

export class TaughtChanges {
  private readonly added = new Map<number, Map<number, number>>();

  constructor(private readonly crawls: Map<number, Map<number, number>>) {}

  /** Labels taught through links to `url`, this transaction's included. */
  count(crawlId: number, url: string): number {
    const k = keyOf(url);
    return (this.crawls.get(crawlId)?.get(k) ?? 0) + (this.added.get(crawlId)?.get(k) ?? 0);
  }

  /** One more label taught through a link to each of `urls`. */
  add(crawlId: number, urls: readonly string[]): void {
    if (urls.length === 0) return;
    let added = this.added.get(crawlId);
    if (!added) this.added.set(crawlId, (added = new Map()));
    for (const u of urls) {
      const k = keyOf(u);
      added.set(k, (added.get(k) ?? 0) + 1);
    }
  }

  /** The transaction committed: its counts are the book's. */
  keep(): void {
    for (const [crawlId, added] of this.added) {
      let kept = this.crawls.get(crawlId);
      if (!kept || kept.size + added.size > TAUGHT_URLS) this.crawls.set(crawlId, (kept = new Map()));
      for (const [k, n] of added) kept.set(k, (kept.get(k) ?? 0) + n);
    }
  }
}
