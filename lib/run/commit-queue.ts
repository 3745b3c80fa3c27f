// Group commit for page outcomes: commits submitted while a transaction runs go together in the next one.
// Under load this carries several pages per IndexedDB transaction (its fixed cost dominated the crawl loop in
// Chromium); with one page at a time it is a plain commit. No timers: nothing waits for a batch to fill.
import type { CrawlStorePort, PageCommit } from '../ports';

interface Waiting {
  commit: PageCommit;
  resolve(seq: number): void;
  reject(err: unknown): void;
}

export class CommitQueue {
  private waiting: Waiting[] = [];
  private draining = false;

  constructor(private readonly store: Pick<CrawlStorePort, 'commitPages'>, private readonly now: () => number) {}

  /** Resolves with the page's seq once its transaction has committed; rejects if that transaction failed. */
  submit(commit: PageCommit): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.waiting.push({ commit, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      try {
        const seqs = await this.store.commitPages(batch.map((w) => w.commit), this.now());
        batch.forEach((w, i) => w.resolve(seqs[i]));
      } catch (err) {
        // Nothing of the batch was written: its URLs stay in flight and are reclaimed on resume.
        for (const w of batch) w.reject(err);
      }
    }
    this.draining = false;
  }
}
