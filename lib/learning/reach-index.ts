// Which queued links an answer reaches, without reading the whole queue: an inverted index from a
// link feature to the queued URLs whose link has it, held in memory by the crawl's learner. URLs are numbered
// and postings are arrays of numbers, so 100,000 queued links of some 25 features each cost a few megabytes.
//
// It is built from the queue once, in the background from the first answer on (that answer, and any before the
// build is done, read the queue as before), then kept up with the links each committed page queued (`noteQueued`,
// from the page pipeline), and, for URLs queued another way, by listing the queue's keys, which is much less than
// reading its rows.
// Postings are never removed: a URL that left the queue is dropped when the store finds it is no longer queued.
// A queued URL re-found with a better link keeps the features it was indexed with; the next full re-score,
// which the class-count drift of every few answers brings (learner.ts), ranks it anew.

/** What the index asks of the store: the queue's URLs, keys only, and entries by URL. */
export interface QueuedLinks<E> {
  queuedUrls(crawlId: number): Promise<string[]>;
  entries(crawlId: number, urls: readonly string[]): Promise<((E & { state: string }) | undefined)[]>;
}

/** Entries read per store call while indexing. */
const READ_CHUNK = 5000;

export class ReachIndex<E extends { url: string }> {
  private readonly ids = new Map<string, number>();
  private readonly urls: string[] = [];
  private readonly postings = new Map<string, number[]>();
  constructor(
    private readonly crawlId: number,
    private readonly store: QueuedLinks<E>,
    private readonly featuresOf: (e: E) => string[],
  ) {}

  /** URLs indexed so far. */
  get size(): number {
    return this.urls.length;
  }

  private building: Promise<void> | null = null;
  /** Whether the first build is done: until then an answer is better served by reading the queue once. */
  ready = false;

  /** Starts the first build in the background (once); `ready` is set when it is done. */
  build(onError: (err: unknown) => void): void {
    this.building ??= this.refresh().then(() => void (this.ready = true), (err) => {
      this.building = null;
      onError(err);
    });
  }

  /** Indexes the URLs queued since the last look (the queue's keys are listed; only new entries are read). */
  async refresh(): Promise<void> {
    const fresh = (await this.store.queuedUrls(this.crawlId)).filter((u) => !this.ids.has(u));
    for (let i = 0; i < fresh.length; i += READ_CHUNK) {
      for (const e of await this.store.entries(this.crawlId, fresh.slice(i, i + READ_CHUNK))) if (e?.state === 'queued') this.add(e);
    }
  }

  /** Links a committed page just queued: indexed at once, so the next answer need not list the queue for them. */
  noteQueued(links: readonly E[]): void {
    for (const e of links) this.add(e);
  }

  private add(e: E): void {
    if (this.ids.has(e.url)) return;
    const id = this.urls.length;
    this.ids.set(e.url, id);
    this.urls.push(e.url);
    for (const f of new Set(this.featuresOf(e))) {
      const list = this.postings.get(f);
      if (list) list.push(id);
      else this.postings.set(f, [id]);
    }
  }

  /** The indexed URLs whose link has one of `features`. */
  reached(features: ReadonlySet<string>): string[] {
    const out = new Set<number>();
    for (const f of features) for (const id of this.postings.get(f) ?? []) out.add(id);
    return [...out].map((id) => this.urls[id]!);
  }
}
