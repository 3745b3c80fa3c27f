// A crawl run on a shared frontier (many browsers, one crawl): the run's storage port, wrapped around this
// browser's own store. Pages, bodies, labels and the model stay local; the frontier, the budget, per-host
// politeness, the seen set and the labeled links of links to judged pages live in Redis behind the command-line
// runner's loopback bridge. `take` leases URLs from it; each commit is written here first (without its links), then
// completes its lease there with the page's links, which the shared frontier queues or counts (design A.7) for the
// whole crawl; its re-scores are the crawl's too (shared-rescore.ts).
import type { RobotsShare } from '../../net/shared-robots';
import type { PageCommit, RunStorePort, TemplateShare, TrainingShare } from '../../ports';
import type { EntryState, FrontierEntry } from '../../records/types';
import type { NextOrder } from '../../strategies/types';
import { bestPerUrl } from '../../run/commit-plan';
import type { CrawlStore } from '../crawl-store';
import type { SharedAck, SharedBridge, SharedEntry } from './bridge';
import { rescoreShared } from './shared-rescore';
import { SharedRecords, type CycleOf } from './shared-records';

export type { RescoreMove, RescoreSlice, SharedAck, SharedBridge, SharedEntry, SharedLabel, SharedTake } from './bridge';

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
  readonly shared = true;
  readonly template: TemplateShare;
  /** This worker's crawl of the template cycle under way, once its search was claimed or read (records name the cycle). */
  private cycle: CycleOf | null = null;
  private readonly sharedRecords: SharedRecords;
  /** The fence of each URL this worker holds a lease on. */
  private readonly leases = new Map<string, number>();
  private ended: string | null = null;
  /** Why a crawl-wide re-score waits for a leader, as the last take said. */
  private rescoreWaiting: string | null = null;
  private labelsCursor = 0;
  /** The crawled graph's pages other workers committed, read and not yet handed to the strategy. */
  private graphCursor = 0;
  private othersPages: { url: string; links: string[] }[] = [];
  private readonly lessonsCursor: number;
  private labelsReadAt = -Infinity;
  private topicId: number | undefined;

  /** `read`: how far this browser holds the crawl's labeled links and judge lessons already (an earlier crawl of it here read them). */
  constructor(
    private readonly local: CrawlStore, private readonly bridge: SharedBridge, private readonly log?: (line: string) => void,
    read: { labelsCursor?: number; lessonsCursor?: number } = {},
  ) {
    this.labelsCursor = read.labelsCursor ?? 0;
    this.lessonsCursor = read.lessonsCursor ?? 0;
    this.topics = local.topics;
    this.sharedRecords = new SharedRecords(bridge, () => this.cycle);
    this.records = this.sharedRecords;
    this.pages = local.pages;
    const lf = local.frontier;
    this.robots = {
      get: async (url) => (await bridge.robots({ url })).answer,
      claim: async (url) => (await bridge.robots({ url, claim: true })).claimed,
      put: async (url, answer) => void (await bridge.robots({ url, answer })),
    };
    this.template = {
      search: async () => {
        const s = await bridge.searchClaim({});
        if (s.state !== 'wait') this.cycleNumber = s.state === 'seeded' ? s.run.cycle : s.cycle;
        return s;
      },
      searched: async (run, seeds) => (await bridge.searchDone({ run, seeds })).result,
    };
    this.training = {
      claim: (urls) => bridge.trainClaim({ urls }),
      catchUp: (crawlId, now) => this.readLabels(crawlId, now),
      judgeLessons: (crawlId) => this.judgeLessons(crawlId),
    };
    this.frontier = {
      enqueue: (crawlId, candidates, now) => lf.enqueue(crawlId, candidates, now),
      // The shared queue is re-scored once for the whole crawl, a slice at a time, by one worker at a time.
      rescoreQueued: (crawlId, rank, now, opts) => rescoreShared(bridge, crawlId, rank, opts ?? {}),
      rescoreWanted: () => this.rescoreWaiting,
      take: (crawlId, reserve, now, max, _scan, next) => this.take(crawlId, reserve, now, max, next),
      forgetBound: () => undefined,
      // Leases a stopped worker held are retaken in Redis once they expire; nothing here is in flight.
      reclaimInFlight: async () => ({ requeued: 0, failed: 0 }),
      countByState: (crawlId, state) => this.countByState(crawlId, state),
      getEntry: (crawlId, url) => lf.getEntry(crawlId, url),
    };
  }

  othersGraph(): { url: string; links: string[] }[] {
    const pages = this.othersPages;
    this.othersPages = [];
    return pages;
  }

  /** The template cycle under way, as its search said; this worker's crawl of it is the one committing (`commitPages`). */
  private set cycleNumber(cycle: number) {
    this.cycle = { crawlId: this.cycle?.crawlId ?? -1, cycle };
  }

  /** Why the shared crawl ended, once a take has seen it end. */
  get endedBecause(): string | null {
    return this.ended;
  }

  private async take(crawlId: number, reserve: (entry: FrontierEntry) => number, now: number, wanted: number | (() => number), next?: NextOrder) {
    // The free slots as of this call (the loop may pass them as a function read when the take runs).
    const max = typeof wanted === 'function' ? wanted() : wanted;
    if (now - this.labelsReadAt >= LABELS_REFRESH_MS) {
      await this.readLabels(crawlId, now);
      await this.readGraph();
    }
    if (this.cycle) this.cycle = { ...this.cycle, crawlId };
    const r = await this.bridge.take({ max });
    this.ended = r.ended;
    this.rescoreWaiting = r.rescore;
    // Redis chose among the queues (design D.3); the strategy ranks them as they are now for its report.
    if (r.queues && next && next !== 'priority') next.rank(r.queues);
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

  /**
   * Adds the labeled links the other workers made, and those the crawl made of links to judged pages, to this store:
   * they are this crawl's labels as much as its own verdicts are (a local crawl would have made them all).
   */
  private async readLabels(crawlId: number, now: number): Promise<void> {
    this.labelsReadAt = now;
    if (this.topicId === undefined) {
      const crawl = await this.local.getCrawl(crawlId);
      this.topicId = crawl?.topicId;
      this.labelsCursor = Math.max(this.labelsCursor, crawl?.shared?.labelsCursor ?? 0);
    }
    const { db } = this.local;
    for (;;) {
      const { labels, next } = await this.bridge.labels({ after: this.labelsCursor });
      if (next === this.labelsCursor) return;
      // The labels and how far they were read, together: a worker killed meanwhile reads none of them twice.
      await db.transaction('rw', db.labels, db.crawls, async () => {
        if (labels.length && this.topicId !== undefined) await db.labels.bulkAdd(labels.map((l) => ({ ...l, crawlId, topicId: this.topicId! })));
        const row = await db.crawls.get(crawlId);
        if (row?.shared) await db.crawls.put({ ...row, shared: { ...row.shared, labelsCursor: next } });
      });
      this.labelsCursor = next;
    }
  }

  /**
   * The labeled link sources the other workers read, as their judges learned them, after those this browser's judge
   * learned already (an earlier crawl of this shared crawl in the profile may have); the crawl's row keeps how far.
   */
  private async judgeLessons(crawlId: number) {
    const row = await this.local.getCrawl(crawlId);
    const { lessons, next } = await this.bridge.judgeLessons({ after: row?.shared?.lessonsCursor ?? this.lessonsCursor });
    if (row?.shared) await this.local.updateCrawl(crawlId, { shared: { ...row.shared, lessonsCursor: next } });
    return lessons;
  }

  /** The relevant pages other workers committed since the last read, for a strategy that keeps the crawled graph. */
  private async readGraph(): Promise<void> {
    for (;;) {
      const { pages, next } = await this.bridge.graph({ after: this.graphCursor });
      if (next === this.graphCursor) return;
      this.graphCursor = next;
      this.othersPages.push(...pages);
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

  /**
   * Each page is written in this browser's store (its row, body and labels: its pages.jsonl and exports are its own
   * pages), then completes its lease in Redis with its links: the shared frontier queues them, counts them for URLs
   * found again, and makes the labeled links of links to judged pages, for the whole crawl (design A.7).
   */
  async commitPages(commits: PageCommit[], now: number): Promise<number[]> {
    if (this.cycle && commits[0]) this.cycle = { ...this.cycle, crawlId: commits[0].crawlId };
    const seqs = await this.local.commitPages(commits.map(localPart), now);
    // A link source read: the other workers learn what it taught and do not read it again.
    for (const c of commits) {
      if (c.entry || c.page?.phase !== 'train') continue;
      const addresses = [...new Set([c.page.url, c.page.finalUrl])];
      const outlinks = c.outlinks && c.pageLabel !== undefined ? { label: c.pageLabel, links: c.outlinks } : undefined;
      const judge = c.pageTerms && c.pageLabel !== undefined ? { label: c.pageLabel, terms: c.pageTerms } : undefined;
      const { result } = await this.bridge.trained({ url: c.page.url, labels: c.labels, addresses, ...(outlinks ? { outlinks } : {}), ...(judge ? { judge } : {}) });
      if (result === 'dup') this.log?.(`link source ${c.page.url} was also read by another worker: its labeled links are published from the first read only`);
    }
    const leased = commits.filter((c) => c.entry && this.leases.has(c.entry.url));
    if (!leased.length) return seqs;
    const acks = leased.map((c): SharedAck => {
      const entry = c.entry!;
      const requeue = c.outcome === 'retry' || (c.outcome === 'done' && c.requeueAt !== undefined);
      const notBefore = c.outcome === 'retry' ? entry.notBefore : c.requeueAt;
      return {
        url: entry.url, fence: this.leases.get(entry.url)!, priority: entry.priority, stats: c.stats,
        ...(requeue ? { requeue, notBefore: notBefore ?? 0, entry: sharedEntry({ ...entry, notBefore }) } : {}),
        children: bestPerUrl(c.children).filter((ch) => ch.skip === undefined),
        aliases: [...c.aliases, ...c.children.filter((ch) => ch.skip !== undefined).map((ch) => ch.url)],
        labels: c.labels, site: c.site, ...(c.dropped ? { dropped: c.dropped } : {}), ...(entry.revisit !== undefined ? { revisit: entry.revisit } : {}),
        ...(c.outlinks ? { outlinks: c.outlinks } : {}), ...(c.record ? { record: this.sharedRecords.sharedWrite(c.record) } : {}),
        ...(c.verdict !== undefined && c.learnLinksToJudged ? { verdict: c.verdict } : {}),
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
  /** Every labeled link source's out-links, whichever worker read it: every worker's URL authority counts them all. */
  labeledOutlinks: RunStorePort['labeledOutlinks'] = async () => (await this.bridge.trainingLinks({})).pages;
  /** Saved here and in Redis: a crawl by queues learns its iFactor from every worker's list pages (design D.3). */
  saveStrategyState: RunStorePort['saveStrategyState'] = async (id, state, now) => {
    await this.local.saveStrategyState(id, state, now);
    await this.bridge.strategyState({ state });
  };
  saveRecall: RunStorePort['saveRecall'] = (id, recall, now) => this.local.saveRecall(id, recall, now);
}

/**
 * What a commit writes in this browser's store: the page, its body and labels, the fetched entry's row; not its links
 * (the frontier is Redis's, which queues them and makes the labels of links to judged pages for the whole crawl).
 */
function localPart(c: PageCommit): PageCommit {
  if (!c.children.length && !c.learnLinksToJudged && !c.everyLink && !c.admission) return c;
  const { learnLinksToJudged: _l, everyLink: _e, admission: _a, ...rest } = c;
  return { ...rest, children: [] };
}

/** The store of a shared crawl whose runner is gone (the browser restarted without it): it takes nothing and says why. */
export function detachedBridge(name: string): SharedBridge {
  const gone = async (): Promise<never> => {
    throw new Error(`"${name}" runs on a shared frontier whose command-line runner is gone: start the runner again to rejoin`);
  };
  return {
    take: gone, ack: gone, release: gone, queued: gone, labels: gone, robots: gone, trainClaim: gone, trained: gone, trainingLinks: gone, judgeLessons: gone, strategyState: gone, graph: gone,
    searchClaim: gone, searchDone: gone, records: gone, record: gone, recordApply: gone,
    rescoreLead: gone, rescoreSlice: gone, rescoreWrite: gone, rescoreLeave: gone,
  };
}
