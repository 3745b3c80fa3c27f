// A crawl run on a shared frontier (many browsers, one crawl): the run's storage port, wrapped around this
// browser's own store. Pages, bodies, labels and the model stay local; the frontier, the budget, per-host
// politeness and the seen set live in Redis behind the command-line runner's loopback bridge. `take` leases URLs
// from it; each commit is written here first, then completes its lease there with the children this store queued
// (so admission, design A.7's raise and the canonical form are decided once, by the same policy as a local crawl).
import type { RobotsAnswer, RobotsShare } from '../../net/shared-robots';
import type { PageCommit, RunStorePort, TrainingShare } from '../../ports';
import type { CrawlStats } from '../../records/rows';
import type { EntryState, FrontierEntry, LabeledLink } from '../../records/types';
import type { CrawlStore } from '../crawl-store';

/** A frontier entry as Redis keeps it: the crawl's own id and the entry's state are each worker's. */
export type SharedEntry = Omit<FrontierEntry, 'crawlId' | 'state'>;

/** What a take leased: each URL with its lease's fence (the token its completion must show) and its entry. */
export interface SharedTake {
  taken: { url: string; fence: number; entry: SharedEntry }[];
  /** How long until a queued URL's host is ready (-1: every host with queued URLs is busy elsewhere). */
  waitMs: number;
  queued: number;
  leased: number;
  /** Requests the budget counts, by every worker. */
  reserved: number;
  /** Why the shared crawl ended, once it has. */
  ended: string | null;
  reclaimed: number;
}

/** A labeled link (a verdict's, or the user's) as it crosses to the other workers. */
export type SharedLabel = Omit<LabeledLink, 'id' | 'crawlId' | 'topicId'>;

/** One page's completion of its lease. */
export interface SharedAck {
  url: string;
  fence: number;
  /** Queued again (a passing fault, or a refresh due later) rather than done. */
  requeue?: boolean;
  priority: number;
  notBefore?: number;
  entry?: SharedEntry;
  stats: Partial<CrawlStats>;
  /** Links this worker's store queued (or raised) from the page. */
  children: SharedEntry[];
  /** URLs no worker is to request: the page's other addresses (a redirect's final URL), links kept from requesting. */
  aliases: string[];
  /** The labeled links the page's commit made: every worker's model learns them (Naive Bayes counts are sums). */
  labels: SharedLabel[];
}

/** The bridge's calls, as the command-line runner serves them. */
export interface SharedBridge {
  take(req: { max: number }): Promise<SharedTake>;
  ack(req: { acks: SharedAck[] }): Promise<{ results: ('ok' | 'late' | 'dup')[] }>;
  release(req: { leases: [string, number][] }): Promise<{ released: number }>;
  queued(req: Record<string, never>): Promise<{ queued: number; ended: string | null }>;
  /** The other workers' labeled links after a cursor, and the next cursor. */
  labels(req: { after: number }): Promise<{ labels: SharedLabel[]; next: number }>;
  robots(req: { url: string; claim?: boolean; answer?: RobotsAnswer }): Promise<{ answer: RobotsAnswer | null; claimed: boolean }>;
  /** Claims a link source not read yet for this worker (url null: none free now); done once all are read. */
  trainClaim(req: { urls: string[] }): Promise<{ url: string | null; done: boolean }>;
  /** A link source read and the labeled links learned from it ('dup': another worker's read came first). */
  trained(req: { url: string; labels: SharedLabel[]; addresses: string[] }): Promise<{ result: 'ok' | 'dup' }>;
}

/** How long to wait before asking again when every ready host is busy with another worker's request. */
const POLL_MS = 200;
/**
 * How often a worker reads the other workers' labeled links into its store: its model catches up with them at
 * its next page, so every worker scores with the same counts within about this long plus one page.
 */
export const LABELS_REFRESH_MS = 2000;

export const sharedEntry = (e: FrontierEntry): SharedEntry => {
  const { crawlId: _c, state: _s, ...rest } = e;
  return rest;
};

export class SharedRunStore implements RunStorePort {
  readonly topics: RunStorePort['topics'];
  readonly records: RunStorePort['records'];
  readonly pages: RunStorePort['pages'];
  readonly frontier: RunStorePort['frontier'];
  readonly robots: RobotsShare;
  readonly training: TrainingShare;
  /** The fence of each URL this worker holds a lease on. */
  private readonly leases = new Map<string, number>();
  private ended: string | null = null;
  private labelsCursor = 0;
  private labelsReadAt = -Infinity;
  private topicId: number | undefined;

  constructor(private readonly local: CrawlStore, private readonly bridge: SharedBridge, private readonly log?: (line: string) => void) {
    this.topics = local.topics;
    this.records = local.records;
    this.pages = local.pages;
    const lf = local.frontier;
    this.robots = {
      get: async (url) => (await bridge.robots({ url })).answer,
      claim: async (url) => (await bridge.robots({ url, claim: true })).claimed,
      put: async (url, answer) => void (await bridge.robots({ url, answer })),
    };
    this.training = {
      claim: (urls) => bridge.trainClaim({ urls }),
      catchUp: (crawlId, now) => this.readLabels(crawlId, now),
    };
    this.frontier = {
      enqueue: (crawlId, candidates, now) => lf.enqueue(crawlId, candidates, now),
      rescoreQueued: (crawlId, rank, now, opts) => lf.rescoreQueued(crawlId, rank, now, opts),
      take: (crawlId, reserve, now, max) => this.take(crawlId, reserve, now, max),
      forgetBound: () => undefined,
      // Leases a stopped worker held are retaken in Redis once they expire; nothing here is in flight.
      reclaimInFlight: async () => ({ requeued: 0, failed: 0 }),
      countByState: (crawlId, state) => this.countByState(crawlId, state),
      getEntry: (crawlId, url) => lf.getEntry(crawlId, url),
    };
  }

  /** Why the shared crawl ended, once a take has seen it end. */
  get endedBecause(): string | null {
    return this.ended;
  }

  private async take(crawlId: number, reserve: (entry: FrontierEntry) => number, now: number, wanted: number | (() => number)) {
    // The free slots as of this call (the loop may pass them as a function read when the take runs).
    const max = typeof wanted === 'function' ? wanted() : wanted;
    if (now - this.labelsReadAt >= LABELS_REFRESH_MS) await this.readLabels(crawlId, now);
    const r = await this.bridge.take({ max });
    this.ended = r.ended;
    if (r.reclaimed) this.log?.(`retook ${r.reclaimed} URL(s) whose lease expired`);
    const entries: FrontierEntry[] = [];
    const giveBack: [string, number][] = [];
    for (const t of r.taken) {
      const entry: FrontierEntry = { ...t.entry, crawlId, state: 'inflight', attempts: (t.entry.attempts ?? 0) + 1, updatedAt: now };
      // Redis said the host is ready for every worker; this browser's own politeness (a Retry-After it was given,
      // a redirect it follows now) may still say wait: then the lease goes back, uncounted.
      if (reserve(entry) === 0) {
        entries.push(entry);
        this.leases.set(t.url, t.fence);
      } else giveBack.push([t.url, t.fence]);
    }
    if (giveBack.length) await this.bridge.release({ leases: giveBack });
    if (entries.length >= max) return { entries, waitMs: 0 };
    // Ended: nothing more will be leased. Else others hold the hosts or the budget: ask again soon.
    const waitMs = r.ended ? Infinity : r.waitMs >= 0 ? Math.max(r.waitMs, 20) : POLL_MS;
    return { entries, waitMs };
  }

  /** Adds the other workers' new labeled links to this store, as labels from elsewhere (no crawl of this browser's). */
  private async readLabels(crawlId: number, now: number): Promise<void> {
    this.labelsReadAt = now;
    this.topicId ??= (await this.local.getCrawl(crawlId))?.topicId;
    for (;;) {
      const { labels, next } = await this.bridge.labels({ after: this.labelsCursor });
      if (next === this.labelsCursor) return;
      this.labelsCursor = next;
      if (labels.length && this.topicId !== undefined) {
        await this.local.db.labels.bulkAdd(labels.map((l) => ({ ...l, crawlId: null, topicId: this.topicId! })));
      }
    }
  }

  private async countByState(crawlId: number, state: EntryState): Promise<number> {
    if (state !== 'queued') return this.local.frontier.countByState(crawlId, state);
    // Nothing more will be taken once the shared crawl ended, whatever its queue still holds (the budget is spent).
    if (this.ended) return 0;
    const q = await this.bridge.queued({});
    this.ended = q.ended;
    return q.ended ? 0 : q.queued;
  }

  async commitPages(commits: PageCommit[], now: number): Promise<number[]> {
    const seqs = await this.local.commitPages(commits, now);
    // A link source read: the other workers learn its labeled links and do not read it again.
    for (const c of commits) {
      if (c.entry || c.page?.phase !== 'train') continue;
      const addresses = [...new Set([c.page.url, c.page.finalUrl])];
      const { result } = await this.bridge.trained({ url: c.page.url, labels: c.labels, addresses });
      if (result === 'dup') this.log?.(`link source ${c.page.url} was also read by another worker: its labeled links are published from the first read only`);
    }
    const leased = commits.filter((c) => c.entry && this.leases.has(c.entry.url));
    if (!leased.length) return seqs;
    const childUrls = [...new Set(leased.flatMap((c) => c.children.filter((ch) => ch.skip === undefined).map((ch) => ch.url)))];
    const rows = await Promise.all(childUrls.map((u) => this.local.frontier.getEntry(commits[0]!.crawlId, u)));
    const queued = new Map(rows.flatMap((e) => (e && e.state === 'queued' ? [[e.url, e] as const] : [])));
    const acks = leased.map((c): SharedAck => {
      const entry = c.entry!;
      const requeue = c.outcome === 'retry' || (c.outcome === 'done' && c.requeueAt !== undefined);
      const notBefore = c.outcome === 'retry' ? entry.notBefore : c.requeueAt;
      return {
        url: entry.url, fence: this.leases.get(entry.url)!, priority: entry.priority, stats: c.stats,
        ...(requeue ? { requeue, notBefore: notBefore ?? 0, entry: sharedEntry({ ...entry, notBefore }) } : {}),
        children: [...new Set(c.children.map((ch) => ch.url))].flatMap((u) => (queued.has(u) ? [sharedEntry(queued.get(u)!)] : [])),
        aliases: [...c.aliases, ...c.children.filter((ch) => ch.skip !== undefined).map((ch) => ch.url)],
        labels: c.labels,
      };
    });
    const { results } = await this.bridge.ack({ acks });
    acks.forEach((a, i) => {
      this.leases.delete(a.url);
      if (results[i] === 'dup') this.log?.(`${a.url} was also fetched by another worker whose lease it had: this copy is not counted`);
    });
    return seqs;
  }

  updateCrawl: RunStorePort['updateCrawl'] = (id, patch) => this.local.updateCrawl(id, patch);
  getCrawl: RunStorePort['getCrawl'] = (id) => this.local.getCrawl(id);
  strategyMemory: RunStorePort['strategyMemory'] = (id) => this.local.strategyMemory(id);
  labeledOutlinks: RunStorePort['labeledOutlinks'] = (id) => this.local.labeledOutlinks(id);
  saveStrategyState: RunStorePort['saveStrategyState'] = (id, state, now) => this.local.saveStrategyState(id, state, now);
  saveRecall: RunStorePort['saveRecall'] = (id, recall, now) => this.local.saveRecall(id, recall, now);
}

/** The store of a shared crawl whose runner is gone (the browser restarted without it): it takes nothing and says why. */
export function detachedBridge(name: string): SharedBridge {
  const gone = async (): Promise<never> => {
    throw new Error(`"${name}" runs on a shared frontier whose command-line runner is gone: start the runner again to rejoin`);
  };
  return { take: gone, ack: gone, release: gone, queued: gone, labels: gone, robots: gone, trainClaim: gone, trained: gone };
}
