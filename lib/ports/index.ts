// The storage ports: the decisions the store applies (a page's commit, the links it queues, how they are
// admitted, a template's record) and what the run and learning read and write through the store. They are
// declared here, above the policy that makes the decisions and below the run, learning and the store, so
// those depend on this file and not on Dexie; lib/store/ implements them (CrawlStore, TopicStore, RecordStore).
import type { RobotsShare } from '../net/shared-robots';
import type { CrawlRecord, CrawlStats, FieldRecord, ModelRecord, RecallPoint, RecordChange, RecordChangeKind, SitemapRead, SketchRow, TemplateRun, VariantEvidence } from '../records/rows';
import type { NextOrder, Strategy } from '../strategies/types';
import type { EntryState, EntryStrategyState, FrontierEntry, LabeledLink, LabelValue, PageBody, PageLabel, PageRecord, Topic } from '../records/types';

/** A link to add to the frontier (or to raise, design A.7). */
export interface Candidate {
  url: string;
  /** The URL as the link spelled it, when that differs from `url` (FrontierEntry.href). */
  href?: string;
  host: string;
  score: number;
  priority: number;
  depth: number;
  parentUrl: string | null;
  anchor: string;
  context: string;
  /** Set for links that are recorded but never fetched (e.g. unsafe links), with the reason. */
  skip?: string;
  /** Its site (registrable domain); computed from the URL when absent. */
  site?: string;
  /** The strategy's state for the entry (lib/records/types.ts, EntryStrategyState). */
  strategy?: EntryStrategyState;
  /** What the link shows of its target's version (LinkPlan.revisit): a fetched URL showing another is queued again. */
  revisit?: string;
  /** Whether the page the link was found on was judged on topic (the link classifier's parent-page feature). */
  parentOnTopic?: boolean;
  /** That page's hub bucket for this link (the parent-hub feature), when the page links to labeled pages. */
  parentHub?: number;
  /** The link's log-odds by the link classifier (absent for seeds). */
  logOdds?: number;
  /** Not requested (`skip` says why) because its host's learned URL variants make it a page held: that host. */
  variantOf?: string;
  /** Queued from a sitemap: FrontierEntry.sitemap. */
  sitemap?: { lastmod?: number };
  /** Why it may be another spelling of a page the crawl knows: FrontierEntry.presumed (its priority is lowered). */
  presumed?: string;
}

/** A strategy's priority for an entry whose text log-odds is `logOdds` (StrategyInstance.rerank); null: keep it. */
export type Rerank = (entry: FrontierEntry, logOdds: number) => number | null;

/** How a commit's new URLs are admitted: the crawl's strategy and its config's blacklist. */
export interface Admission {
  strategy: Pick<Strategy, 'admit' | 'judgeSite'>;
  siteBlacklist: readonly string[];
}

/** What a final page (or the end of a cycle) does to one record: the record to write (null: delete) and the change. */
export interface RecordWrite {
  crawlName: string;
  url: string;
  record: FieldRecord | null;
  change: RecordChange;
}

/** Everything one fetch attempt changes, committed atomically. */
export interface PageCommit {
  crawlId: number;
  /** The frontier entry fetched; absent for training reads, which are not frontier entries. */
  entry?: FrontierEntry;
  /** `retry`: the entry goes back to the queue (its `notBefore` says when), and no page row is written. */
  outcome: 'done' | 'failed' | 'skipped' | 'retry';
  page?: Omit<PageRecord, 'seq' | 'crawlId'>;
  body?: Omit<PageBody, 'seq' | 'crawlId'>;
  children: Candidate[];
  /** Other URLs now known to be this page (the final URL of a redirect). */
  aliases: string[];
  labels: Omit<LabeledLink, 'id' | 'crawlId' | 'topicId'>[];
  /** A training read whose URL patterns say it is on or off topic: the page judge learns it. */
  pageLabel?: LabelValue;
  /** What the judge learned of that page (its words and their counts), for a store that hands it to other browsers. */
  pageTerms?: [string, number][];
  /** The fetched page's verdict, kept on its entry: links to it found later are learned with it. */
  verdict?: LabelValue;
  /** Set when the crawl ranks a URL by every link found to it (`classifier.everyLink`): the strategy's rerank. */
  everyLink?: Rerank;
  /**
   * The log-odds the judged page was taken at, when the strategy's priority is the link's log-odds (a seed has none):
   * the commit counts the page and its verdict into the crawl's recall calibration (lib/learning/recall.ts).
   */
  takenAt?: number;
  /**
   * A found link to a page with a kept verdict becomes a labeled link with that verdict (`learning.linksToJudged`),
   * until links have taught this many labels of that page (`learning.linksPerJudgedPage`).
   */
  learnLinksToJudged?: number;
  site: string;
  /** Counter deltas besides those derived here (attempts, fetched, relevant, failed, bytes, trainPages). */
  stats: Partial<CrawlStats>;
  /** The crawl's running time so far. */
  activeMs: number;
  /** How new URLs are admitted (the strategy and the blacklist); absent: every new URL is queued. */
  admission?: Admission;
  /** Links the strategy dropped while planning, by reason. */
  dropped?: Record<string, number>;
  /**
   * A relevant page's out-links, for a strategy that keeps the crawled graph (design C.2); a labeled training
   * page's (with `pageLabel`), for the authority of the URLs it links to.
   */
  outlinks?: string[];
  /** A template's final page: its record, written with the page (design E.5). */
  record?: RecordWrite;
  /** The fetched entry is queued again for this time instead of done (a list page's refresh, design D.5). */
  requeueAt?: number;
  /** The strategy's report as of this page, for a strategy whose report follows every take (its queues). */
  strategyReport?: Record<string, unknown>;
  /** The page's content sketch, kept so that a resumed run knows the content the crawl holds. */
  sketch?: Omit<SketchRow, 'crawlId' | 'seq'>;
  /** What the page taught of its host's URL variants: the host's rules as they stand now. */
  variantRules?: { host: string; rules: Record<string, VariantEvidence> };
  /** The fetched entry was not requested: its host's learned variants make it a page held (that host). */
  variantSkip?: string;
  /** The page's canonical URL, taken as its own (one of `aliases`): counted when it was not fetched yet. */
  canonicalAlias?: string;
  /** Sitemaps read (sitemap seeding's commit): written on the crawl row. */
  sitemaps?: SitemapRead[];
}

/** A topic's labels and its saved model, as learning reads and saves them. */
export interface TopicPort {
  mustGetTopic(id: number): Promise<Topic>;
  /** Labels after `afterId` of a topic, oldest first: what a model saved at `afterId` has not learned yet. */
  labelsAfter(topicId: number, afterId: number): Promise<LabeledLink[]>;
  /** Whether the topic has any labeled link (one row read). */
  hasLabels(topicId: number): Promise<boolean>;
  changesSince(topicId: number, afterId: number): Promise<{ topic: Topic; labels: LabeledLink[] }>;
  pageLabels(topicId: number): Promise<PageLabel[]>;
  /** Page labels stored after `afterId`, oldest first (a page answer learned incrementally). */
  pageLabelsAfter(topicId: number, afterId: number): Promise<PageLabel[]>;
  getModel(topicId: number): Promise<ModelRecord | undefined>;
  saveModel(m: ModelRecord): Promise<void>;
}

/** A template's records (design E.5) and what a cycle changed (design E.6), keyed by the crawl's name and the URL. */
export interface RecordPort {
  get(crawlName: string, url: string): Promise<FieldRecord | undefined>;
  list(crawlName: string): Promise<FieldRecord[]>;
  apply(w: RecordWrite): Promise<void>;
  countChanges(crawlId: number): Promise<Record<RecordChangeKind, number>>;
}

/** What the run and learning ask of the crawl's storage. */
export interface CrawlStorePort {
  readonly topics: TopicPort;
  readonly records: RecordPort;
  readonly pages: { bodies(keys: { crawlId: number; seq: number }[]): Promise<(PageBody | undefined)[]> };
  readonly frontier: {
    enqueue(crawlId: number, candidates: Candidate[], now: number): Promise<void>;
    /**
     * Re-scores every queued link with `rank`, a chunk at a time. On a frontier shared by several browsers the
     * re-score is the whole crawl's, led by one worker at a time: `why` opens a pass when none is open, and
     * `ledElsewhere` says this worker did not lead it (who does, '' when no pass was open).
     */
    rescoreQueued(
      crawlId: number,
      rank: (e: FrontierEntry) => { score: number; priority: number; inlinks?: FrontierEntry['inlinks'] } | null,
      now: number,
      opts?: { chunk?: number; epsilon?: number; pause?: (chunkMs: number) => Promise<boolean>; why?: string },
    ): Promise<{ scanned: number; changed: number; complete: boolean; ledElsewhere?: string }>;
    /**
     * Set by a frontier shared by several browsers, whose re-scores the crawl's page count decides (in Redis, for every
     * worker): why a pass waits for a worker to lead it, or null.
     */
    rescoreWanted?(): string | null;
    /** Re-scores only the queued entries an answer reaches (FrontierStore.rescoreReached); a store without it re-scores all at the next full pass. */
    rescoreReached?(
      crawlId: number,
      reach: { urls: readonly string[]; where?: (e: FrontierEntry) => boolean },
      rank: (e: FrontierEntry) => { score: number; priority: number; inlinks?: FrontierEntry['inlinks']; skip?: string } | null,
      now: number,
      opts?: { epsilon?: number; top?: number },
    ): Promise<{ reached: number; changed: number; skipped: number; enteredTop: number }>;
    /** The queued URLs, keys only, and entries by URL: what the learner's reach index reads (lib/learning/reach-index.ts). */
    queuedUrls?(crawlId: number): Promise<string[]>;
    entries?(crawlId: number, urls: readonly string[]): Promise<(FrontierEntry | undefined)[]>;
  };
  updateCrawl(id: number, patch: Partial<CrawlRecord>): Promise<CrawlRecord>;
  /** Each commit in one transaction with the others; the seqs of their page rows. */
  commitPages(commits: PageCommit[], now: number): Promise<number[]>;
}

/**
 * What a crawl's run asks of the store beyond the commits it makes: its row, taking from the frontier, the pages
 * training read, and the strategy's saved memory. The Dexie store implements it, and so does the shared store (lib/store/shared/shared-store.ts).
 */
export interface RunStorePort extends CrawlStorePort {
  readonly pages: CrawlStorePort['pages'] & {
    getPage(crawlId: number, seq: number): Promise<PageRecord | undefined>;
    storedCopy(crawlIds: number[], url: string): Promise<PageRecord | undefined>;
    pagesAfter(crawlId: number, afterSeq: number, limit: number): Promise<PageRecord[]>;
    trainedUrls(crawlId: number): Promise<Set<string>>;
    trainingCopies(crawlId: number): Promise<{ url: string; finalUrl: string; seq: number }[]>;
  };
  readonly frontier: CrawlStorePort['frontier'] & {
    /** `max` may be a function, read when the take's transaction runs: the crawl's free slots then. */
    take(
      crawlId: number, reserve: (entry: FrontierEntry) => number, now: number, max: number | (() => number), scanLimit?: number, next?: NextOrder,
    ): Promise<{ entries: FrontierEntry[]; waitMs: number; waitingOn?: FrontierEntry }>;
    forgetBound(crawlId: number): void;
    reclaimInFlight(crawlId: number, now: number, maxReclaims?: number): Promise<{ requeued: number; failed: number }>;
    countByState(crawlId: number, state: EntryState): Promise<number>;
    /** Queued URLs counted between priorities (FrontierStore.countQueuedByPriority); a store without it gives no recall estimate. */
    countQueuedByPriority?(crawlId: number, edges: readonly number[]): Promise<number[]>;
    getEntry(crawlId: number, url: string): Promise<FrontierEntry | undefined>;
  };
  getCrawl(id: number): Promise<CrawlRecord | undefined>;
  /** The content sketches of a crawl's pages, in fetch order (a run's duplicate index is rebuilt from them). */
  sketches?(crawlId: number): Promise<SketchRow[]>;
  strategyMemory(crawlId: number): Promise<{ graph: { url: string; links: string[] }[]; saved: unknown }>;
  labeledOutlinks(crawlId: number): Promise<{ label: 0 | 1; links: string[] }[]>;
  saveStrategyState(crawlId: number, state: unknown, now: number): Promise<unknown>;
  /** Keeps the newest recall estimate (or why there is none) on the crawl row, and an estimate in its history. */
  saveRecall(crawlId: number, recall: RecallPoint | { note: string }, now: number): Promise<void>;
  /** Set by a store shared by several browsers: robots.txt answers are read once per crawl, not once per browser. */
  readonly robots?: RobotsShare;
  /** Set by a store shared by several browsers: the crawl's pages are everyone's, and this browser may have fetched none. */
  readonly shared?: true;
  /** Set by a store shared by several browsers: a template cycle's search is run once for the crawl. */
  readonly template?: TemplateShare;
  /**
   * Set by a store shared by several browsers: the relevant pages other workers committed since the last call, with
   * their out-links, for a strategy that keeps the crawled graph (design C.2): it learns them as it learns this worker's.
   */
  othersGraph?(): { url: string; links: string[] }[];
  /** Set by a store shared by several browsers: each link source is read once per crawl, by the worker that claims it. */
  readonly training?: TrainingShare;
}

/**
 * A template cycle's search on a crawl shared by several browsers (design E.2, E.3): done (the run and seeds it made, for
 * every worker), claimed by this worker (the cycle's number, and the cycle before's run and seeds: its sample follows
 * them), or another worker's (wait).
 */
export type CycleSearch =
  | { state: 'seeded'; run: TemplateRun; seeds: string[] }
  | { state: 'claimed'; cycle: number; previous: { run: TemplateRun; seeds: string[] } | null }
  | { state: 'wait' };

/** Set by a store shared by several browsers for a template crawl: each cycle's search is run once, for the whole crawl. */
export interface TemplateShare {
  search(): Promise<CycleSearch>;
  /** The search this worker ran: its run and seeds, queued for every worker ('dup': another worker's came first). */
  searched(run: TemplateRun, seeds: Candidate[]): Promise<'ok' | 'dup'>;
}

/**
 * Training on a crawl shared by several browsers: a worker claims a link source (with a lease, so a dead worker's
 * claim is retaken), reads it, and its commit publishes the labeled links it learned; the others learn them
 * without reading it.
 */
export interface TrainingShare {
  /** Claims one of `urls` not read yet for this worker, or none (`url` null); `done` once every one of them is read. */
  claim(urls: string[]): Promise<{ url: string | null; done: boolean }>;
  /** Brings the labeled links the other workers learned into this browser's store. */
  catchUp(crawlId: number, now: number): Promise<void>;
  /** The labeled link sources the other workers read, as their judges learned them, not given to this one yet. */
  judgeLessons(crawlId: number): Promise<{ label: LabelValue; terms: [string, number][] }[]>;
}
