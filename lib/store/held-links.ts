// Links found again to queued URLs, counted in memory until their rows are next written (`HeldLinks`,
// lib/run/commit-plan.ts): most such links move their URL's rank too little to change what is fetched next, and
// writing each one rewrote the row and its index entries. What a stopped or killed worker loses is these counts: each
// held URL keeps the rank it had before them, within RANK_STEP of the one they give; no URL, page or label is lost.
import { HELD_URLS, type HeldLinks } from '../run/commit-plan';

/** Per crawl, the links held for each URL. Changed only through a transaction's `HeldChanges`, once it has committed. */
export class HeldLinkBook {
  private readonly crawls = new Map<number, Map<string, HeldLinks>>();

  /** The changes of one transaction: read through, kept only if it commits (`keep`). */
  begin(): HeldChanges {
    return new HeldChanges(this.crawls);
  }

  /** A crawl deleted: nothing of it is held any longer. */
  forget(crawlId: number): void {
    this.crawls.delete(crawlId);
  }

  /** URLs held for a crawl (for tests and benchmarks). */
  size(crawlId: number): number {
    return this.crawls.get(crawlId)?.size ?? 0;
  }
}

export class HeldChanges {
  private readonly changes = new Map<number, Map<string, HeldLinks | null>>();

  constructor(private readonly crawls: Map<number, Map<string, HeldLinks>>) {}

  /** What is held for each of `urls`, as of this transaction's changes, and room for how many more URLs. */
  read(crawlId: number, urls: readonly string[]): { held: (HeldLinks | undefined)[]; room: number } {
    const kept = this.crawls.get(crawlId);
    const changed = this.changes.get(crawlId);
    const held = urls.map((u) => {
      const c = changed?.get(u);
      return c === null ? undefined : c ?? kept?.get(u);
    });
    let size = kept?.size ?? 0;
    for (const [u, c] of changed ?? []) size += (c === null ? 0 : 1) - (kept?.has(u) ? 1 : 0);
    return { held, room: Math.max(0, HELD_URLS - size) };
  }

  apply(crawlId: number, held: ReadonlyMap<string, HeldLinks | null>): void {
    if (held.size === 0) return;
    let changed = this.changes.get(crawlId);
    if (!changed) this.changes.set(crawlId, (changed = new Map()));
    for (const [u, h] of held) changed.set(u, h);
  }

  /** The transaction committed: its changes are the book's. */
  keep(): void {
    for (const [crawlId, changed] of this.changes) {
      let kept = this.crawls.get(crawlId);
      if (!kept) this.crawls.set(crawlId, (kept = new Map()));
      for (const [u, h] of changed) {
        if (h === null) kept.delete(u);
        else kept.set(u, h);
      }
    }
  }
}
