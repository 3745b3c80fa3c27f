// The crawl's records: the rows a crawl, its counters, its models, its sites and a template's records are kept
// as. They are the bottom layer: the store keeps them (lib/store/db.ts), the run and the pages read them.
import type { CrawlConfig, SafetyAllowance } from './config';

/** The running time (ms) at which a crawl's first page was fetched, and those of its last pages (pace.ts). */
export interface Pace {
  first: number;
  recent: number[];
}

/** Per priority value (as a string key), its queued URLs and those in flight. */
export type QueueCounts = Record<string, { queued: number; inFlight: number }>;

export type CrawlState = 'training' | 'running' | 'paused' | 'stopped' | 'finished' | 'failed';

/** Counters kept on the crawl row, updated in the same transaction as the page that changes them. */
export interface CrawlStats {
  /** Crawl-phase requests made (the budget counts these). */
  attempts: number;
  /** Crawl-phase HTML pages obtained and judged. */
  fetched: number;
  relevant: number;
  failed: number;
  /** URLs dropped before fetching (unsafe, robots, too deep, ...). */
  skipped: number;
  /**
   * Page rows of URLs robots.txt kept the crawl from requesting (disallowed, or unreadable after every try): among
   * `skipped` and `failed`, not among `attempts`; absent in older rows.
   */
  robotsKept?: number;
  /** URLs queued in the frontier table (packed seeds not among them: `packedSeeds`). */
  queued: number;
  /**
   * Seeds given but not yet in the frontier: a big seed list is stored packed and fed to the frontier as the crawl
   * needs them (lib/store/seed-lists.ts). Absent in older rows and in crawls that never packed any.
   */
  packedSeeds?: number;
  /** Training-phase pages read (not counted in the budget). */
  trainPages: number;
  labels: number;
  bytes: number;
  /** Crawl-phase pages judged by the keyword judge (the rest by the judge trained on labeled pages); absent in older rows. */
  keywordVerdicts?: number;
  /** Crawl-phase list pages (design D.1) fetched and mined for links: not content, so not in `fetched`; absent in older rows. */
  listPages?: number;
  /** Crawl-phase pages of the `content` class (design D.1: a forum's threads), in `fetched`; absent in older rows. */
  contentPages?: number;
  /**
   * Crawl-phase pages judged from the copy a training read kept, with no request (in `fetched`, not in `attempts`);
   * absent in older rows.
   */
  copies?: number;
  /** Requests made with a stored copy's validators, and those answered 304 (no body); absent in older rows. */
  conditional?: number;
  notModified?: number;
  /** Pages the crawl had a stored copy of, found changed or unchanged (by a 304 or the same bytes). */
  changed?: number;
  unchanged?: number;
  /** The stored copies' sizes for the pages answered 304: what was not downloaded again. */
  bytesSaved?: number;
  /** Pages fetched whose content the crawl already held (docs/duplicates.md): requested, not judged again. */
  duplicates?: number;
  /** URLs not requested because a learned rule of their host said a page held is the same (docs/duplicates.md). */
  variantSkips?: number;
  /** URLs not requested because a page fetched named them its canonical URL. */
  canonicalSkips?: number;
  /** Sitemap files read, URLs they queued, and of those the ones fetched (docs/duplicates.md, "Sitemaps"). */
  sitemapRequests?: number;
  sitemapQueued?: number;
  sitemapFetched?: number;
}

export interface CrawlRecord {
  id?: number;
  /** The topic the crawl runs for: it learns from, and adds to, that topic's labels. */
  topicId: number;
  name: string;
  config: CrawlConfig;
  /**
   * Set when the seed list was too big to keep whole in this row (it is written on every page): how many seeds were
   * given. `config.seeds` then keeps the first seed of each host, all that scope and identity read of them
   * (lib/app/service.ts); the seeds themselves are in the frontier and packed (lib/store/seed-lists.ts).
   */
  seedsGiven?: number;
  state: CrawlState;
  stats: CrawlStats;
  /**
   * Set for a crawl run on a shared frontier (docs/scale-out.md): this worker's name there, and how far it has read the
   * crawl's labeled links into this browser's store and the other workers' labeled link sources into its judge (a
   * worker started again on its profile reads on from there).
   */
  shared?: { worker: string; labelsCursor?: number; lessonsCursor?: number };
  /** Next page sequence number and next discovery order. */
  nextSeq: number;
  /** While nothing is in flight: what the crawl waits for (a host's politeness delay, Retry-After, robots.txt) and until when. */
  waiting?: { text: string; until: number };
  nextOrder: number;
  createdAt: number;
  updatedAt: number;
  /** Milliseconds spent running (excludes pauses and time the worker was stopped). */
  activeMs: number;
  /** When (in running time) its first page and its last pages were fetched: its pages a minute (pace.ts). Absent in older rows. */
  pace?: Pace;
  finishedAt?: number;
  /** Why it stopped, failed or paused, in a sentence. */
  message?: string;
  /**
   * Set when a request ended the user's session and the crawl paused for it (fetch/session.ts): the URL, how (a
   * cookie it sent was cleared, or a page that opened logged in was sent to log in) and when. Cleared on resume.
   */
  sessionLost?: { url: string; by: 'cookie' | 'login' | 'signs'; what: string; after?: string; at: number };
  /** Links the user let this crawl request after the guard kept them, each with when (lib/store/kept-allow.ts). */
  allowed?: SafetyAllowance[];
  /**
   * The URL authority among its labeled pages (classifier/authority.ts) as fitted when training ended: URLs the
   * labeled pages link to, how many of those are labeled pages themselves, and each bucket's log-odds.
   */
  authority?: { urls: number; labeled: number; logOdds: number[] };
  /** The newest re-scoring of its queued links after the model learned. */
  lastRescore?: RescoreReport;
  /** What the strategy reports of its own state, e.g. HITS's top hubs and authorities (design C). */
  strategyReport?: Record<string, unknown>;
  /** Links the strategy kept out of the frontier, by reason (tunnel too long, unknown site full, site blacklisted). */
  dropped?: Record<string, number>;
  /** For a crawl taken by FIFO queues (design D.3): each queue's length and fetches in flight (fifo-queues.ts). */
  queues?: QueueCounts;
  /** A template crawl's cycle (design E.2, E.3, E.6): absent for other crawls. */
  templateRun?: TemplateRun;
  /** What the crawl learned of its hosts' URL variants, by host (lib/learning/url-variants.ts). */
  variants?: VariantBook;
  /** The sitemaps read for the seeds' hosts, once they were (lib/run/sitemap-seeding.ts). */
  sitemaps?: SitemapRead[];
  /**
   * The pages the crawl judged, by the log-odds they were taken at (lib/learning/recall.ts calibrates on them),
   * counted by each page's commit; absent for a crawl whose order is not the link classifier's log-odds.
   */
  recallTaken?: TakenBins;
  /** The newest estimate of how much of the topic the crawl holds, or why there is none (docs/recall.md). */
  recall?: RecallPoint | { note: string };
}

/**
 * One rule of a host's URL variants (lib/learning/url-variants.ts, VariantRule: `?sort`, `?variant=default`, `/print`,
 * `/`, `Aa`, `index`): the pairs of pages one rule apart the crawl compared, same content or not.
 */
export interface VariantEvidence {
  same: number;
  changed: number;
  /** A few distinct values the same-content pairs had (a parameter's values, or the pages they were variants of). */
  values: string[];
  /** Set when a page's own pager varies the parameter: it is never learned away. */
  paging?: true;
}

/** Per host: each rule's evidence, and the URLs not requested because of what it learned. */
export interface HostVariants {
  rules: Record<string, VariantEvidence>;
  notRequested: number;
}

export type VariantBook = Record<string, HostVariants>;

/** A sitemap read for a crawl: where, what it listed and queued, and what went wrong. */
export interface SitemapRead {
  url: string;
  /** Where it was found: robots.txt, the site's /sitemap.xml, or a sitemap index. */
  from: 'robots.txt' | 'default' | 'index';
  /** URLs (or sitemaps, for an index) it listed, and those queued. */
  listed: number;
  queued: number;
  /** Why it was read only in part, or not at all. */
  error?: string;
}

/** A page's content sketch as the store keeps it (lib/parse/content-sketch.ts), to rebuild a run's index on resume. */
export interface SketchRow {
  crawlId: number;
  /** The page row's seq. */
  seq: number;
  url: string;
  bins: Uint32Array;
  shingles: number;
  exact: string;
  heading: number;
  relevant: boolean | null;
  canonical?: string;
  duplicateOf?: string;
}

/** Judged pages by the bin of the log-odds they were taken at (lib/learning/recall.ts): `[pages, relevant]`, keyed by bin. */
export type TakenBins = Record<string, [number, number]>;

/** One estimate of recall (the share of the topic's pages the crawl holds) and its interval, at a count of pages fetched. */
export interface RecallPoint {
  fetched: number;
  estimate: number;
  low: number;
  high: number;
}

/** An estimate kept in a crawl's recall history (the `recallHistory` table), one every RECALL_EVERY pages. */
export interface RecallRow extends RecallPoint {
  crawlId: number;
}

/** One cycle of a template crawl: its search, its sample of seeds, and when it is due again. */
export interface TemplateRun {
  /** 1 for the first crawl of a template, +1 for each recrawl of the same name. */
  cycle: number;
  /** True once the search ran and the sampled seeds were queued. */
  seeded: boolean;
  /** The search's result list N, in order. */
  results: string[];
  /** Seeds skipped by the sampling (taken for sure by the next cycle) and seeds this cycle owes from the last. */
  skipped: string[];
  owed: string[];
  /** Seeds the previous cycle crawled: those that yielded no record count as barren (f in design E.3). */
  tried: string[];
  searchPages: number;
  searchErrors: string[];
  /** The cycle before, whose stored pages this one asks for again with their validators. */
  previousCrawlId?: number;
  /** What this cycle did to the records (counts of changes.jsonl), once it finished. */
  changes?: Record<RecordChangeKind, number>;
  /** When the template is due again (design E.6 with the adaptive interval), once this cycle finished. */
  nextAt?: number;
}

/** A template's record (design E.5): the fields found on one final page. Keyed by the crawl's name and the URL. */
export interface FieldRecord {
  /** The crawl (template) name: a recrawl of the same name keeps these records current. */
  crawlName: string;
  url: string;
  site: string;
  fields: Record<string, string>;
  /** SHA-256 (WebCrypto) of the page's visible text, hex. */
  hash: string;
  firstSeen: number;
  lastChanged: number;
  lastChecked: number;
  /** The crawl (cycle) that saw it last. */
  lastCrawlId: number;
  /** Its own recrawl interval, adapted to how often it changes (lib/strategies/template/schedule.ts). */
  intervalMs: number;
}

export type RecordChangeKind = 'new' | 'changed' | 'unchanged' | 'deleted';

/** What one cycle did to one record: the lines of changes.jsonl. */
export interface RecordChange {
  crawlId: number;
  url: string;
  change: RecordChangeKind;
  at: number;
  fields?: Record<string, string>;
}

export interface RescoreReport {
  at: number;
  /** What prompted it, in a few words. */
  why: string;
  /** Frontier entries read, and queued ones whose score changed. */
  scanned: number;
  changed: number;
  /** False when the crawl paused or ended before every queued link was read (absent in older rows: true). */
  complete?: boolean;
  ms: number;
  /** The model it scored with: topic revision and newest label learned. */
  revision: number;
  lastLabelId: number;
}

/** What the user's newest answers changed in a crawl's frontier (the partial re-score after them). */
export interface AnswerEffect {
  at: number;
  /** Answers it covered, queued links they reached, and of those the ones re-scored and taken out (said off topic). */
  labels: number;
  reached: number;
  changed: number;
  skipped: number;
  /** URLs now among the next `NEXT_LINKS` to fetch that were not before. */
  enteredTop: number;
  ms: number;
}

/** Serialized classifiers of a topic. */
export interface ModelRecord {
  topicId: number;
  link: unknown;
  judge: unknown;
  /** Id of the newest labeled link the link classifier has learned; newer ones are replayed on load. */
  lastLabelId: number;
  /** Id of the newest page label the judge has seen; a model saved without it is rebuilt on load. */
  lastPageLabelId?: number;
  /** The topic's revision the model was built at (see Topic.revision). */
  revision: number;
  updatedAt: number;
}

/** A small named value the service keeps (e.g. the topic the labeler labels for). */
export interface Setting {
  key: string;
  value: unknown;
}

/**
 * A relevant page's out-links, kept for strategies that reason over the crawled graph (design C.2); or, with
 * `label`, a labeled training page's out-links, which a URL's authority counts (classifier/authority.ts).
 */
export interface GraphRow {
  crawlId: number;
  /** The page's seq in the page log. */
  seq: number;
  url: string;
  links: string[];
  /** A training page's label (absent for crawled pages): its links are not part of the crawled graph. */
  label?: 0 | 1;
}

/** What a strategy saved of its own state beyond the graph (e.g. its text model), to resume after a restart. */
export interface StrategyStateRow {
  crawlId: number;
  state: unknown;
  savedAt: number;
}

/** Per-site counters (design B.5 blacklisting reads these). */
export interface SiteStats {
  crawlId: number;
  site: string;
  fetched: number;
  relevant: number;
  failed: number;
  /** Why the site is never entered again (design B.5, or the user's Blacklist); absent while it is open. */
  blacklisted?: string;
}

/** A host's best queued position in a crawl (lib/store/host-heads.ts): the take walks hosts by it. */
export interface HostHead {
  crawlId: number;
  site: string;
  host: string;
  priority: number;
  order: number;
}

/**
 * A run of a big seed list, stored packed (lib/store/seed-lists.ts): a few thousand seeds in the order given, in
 * columns, with what they share (their priority, score, depth...) once. `Shared` is the candidate without its URL.
 */
export interface SeedBatch<Shared = Record<string, unknown>> {
  crawlId: number;
  /** Batches are fed to the frontier in this order. */
  batch: number;
  urls: string[];
  hosts: string[];
  sites: string[];
  /** The URL as given, by index, where it differs from `urls[i]` (FrontierEntry.href). */
  hrefs?: Record<number, string>;
  shared: Shared;
}

/** The URLs a crawl has left to fetch, as the popup and dashboard show them: queued in the frontier, or packed. */
export const frontierSize = (stats: Pick<CrawlStats, 'queued' | 'packedSeeds'>): number => stats.queued + (stats.packedSeeds ?? 0);

export const emptyStats = (): CrawlStats => ({
  attempts: 0, fetched: 0, relevant: 0, failed: 0, skipped: 0, queued: 0, trainPages: 0, labels: 0, bytes: 0, keywordVerdicts: 0,
});

/** The formats a crawl exports to (lib/export/formats.ts writes each). */
export const EXPORT_FORMATS = ['jsonl', 'csv', 'warc', 'wacz', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The settings key under which the last exported seq of a crawl in a format is kept. */
export const exportMarkKey = (crawlId: number, format: ExportFormat): string => `export:${crawlId}:${format}`;

/** The settings key prefix of every export mark of a crawl (deleted with the crawl). */
export const exportMarkPrefix = (crawlId: number): string => `export:${crawlId}:`;
