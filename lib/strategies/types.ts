// The seam every crawl strategy sits behind (design A-E). A strategy plans and scores links and may keep state
// per frontier entry and judge sites; the frontier, politeness and the request gate are shared and know no
// strategy (Frontera's crawling strategy apart from its backend; Heritrix's precedence policy apart from its
// frontier). Adding a strategy is one module and one line in registry.ts.
import type { TemplateConfig } from '../records/template-config';
import type { EntryStrategyState, FrontierEntry, UrlClass } from '../records/types';

// Records a strategy keeps on a frontier entry; they live with the entry in lib/records/types.ts.

/** A parameter of a strategy: how the config validates it and the form shows it. */
export type ParamSpec = {
  key: string;
  label: string;
  /** One line on what it does, in the user's words. */
  help: string;
} & (
  | { default: number; min: number; max: number; integer: boolean; choices?: undefined; patterns?: undefined }
  /** A choice among words (e.g. which text score). */
  | { default: string; choices: readonly string[]; patterns?: undefined }
  /** URL patterns, in the syntax of the training patterns (lib/records/patterns.ts). */
  | { default: readonly string[]; patterns: true; choices?: undefined }
);

export type StrategyParams = Record<string, number | string | readonly string[]>;

/** How the crawler treats a fetched page, for a strategy that tells pages apart (design D.1, D.5). */
export interface PageRole {
  urlClass: UrlClass;
  /** A listing is mined for links but neither judged nor counted as content. */
  listing: boolean;
  /** The page is queued again this long after it was fetched (a list page's refresh), or never when absent. */
  refreshInMs?: number;
}

/** One FIFO queue of the frontier (one per priority value): its queued URLs and those being fetched. */
export interface QueueLoad {
  priority: number;
  queued: number;
  inFlight: number;
}


/** What a strategy sees of a site while it admits a link into the frontier (inside the commit). */
export interface SiteView {
  site: string;
  fetched: number;
  relevant: number;
  /** Queued URLs of the site, including those admitted earlier in the same commit. */
  queued: number;
}

/** The page whose links are planned, with its verdict. */
export interface PlannedParent {
  entry: FrontierEntry;
  relevant: boolean;
  /** The page's URL (after redirects) and visible text. */
  url: string;
  text: string;
}

/** A link being planned: the classifier's verdict and what the link says. */
export interface PlannedLink {
  url: string;
  anchor: string;
  logOdds: number;
  /** P(on topic | anchor, context). */
  score: number;
  depth: number;
  /** What the parser saw of the link on its page: a "next page" link, or a numbered page next to one. */
  pagination?: 'next' | 'page';
  /** The reply count shown next to the link (a forum's thread list), when the page shows exactly one. */
  replies?: number;
}

/** A fetched, judged page, told to the strategy after its commit. */
export interface FetchedPage {
  url: string;
  text: string;
  relevant: boolean;
  /** Its links (canonical URLs) that entered or were already in the frontier. */
  links: string[];
  /** What the strategy said the page is (pageRole), when it tells pages apart. */
  role?: PageRole;
  /** Fetched by another worker of a shared crawl: only its URL and out-links are known here. */
  byOther?: true;
}

/**
 * A link's priority and state, or why it is dropped. `revisit`: what the link shows of its target's version
 * (design D.5: a thread's reply count); a fetched URL found again showing another value is queued again.
 */
export type LinkPlan = { priority: number; state?: EntryStrategyState; revisit?: string } | { drop: string };

/**
 * How the next URL is chosen:
 * - `priority`: the frontier's best entry whose host is ready;
 * - `queues`: one FIFO queue per priority value; `rank` orders the non-empty queues, first tried first (design
 *   D.3). The frontier keeps each queue's length as a counter and reads a queue's head through its index, so
 *   the choice costs the same at any frontier size; a busy host's URL is passed over for the next one in the
 *   queue, then for the next queue (design D.4).
 */
export type NextOrder = 'priority' | { kind: 'queues'; rank(queues: QueueLoad[]): QueueLoad[] };

export interface Strategy {
  readonly name: string;
  /** Seeds' priority. */
  seedPriority(): number;
  /**
   * A link found on `parent`, scored by the link classifier: its priority and state, or why it is dropped
   * (counted by reason, never queued).
   */
  plan(link: PlannedLink, parent: PlannedParent): LinkPlan;
  /**
   * After a page's commit; `'rerank'` asks for the queue to be re-ranked now (through the re-scoring path),
   * `'report'` for its report to be shown anew.
   */
  afterPage?(page: FetchedPage): 'rerank' | 'report' | void;
  /** What a fetched page is (design D.1); absent: every page is content, fetched once. */
  pageRole?(entry: FrontierEntry, url: string): PageRole;
  /** Keeps the crawled graph: each relevant page's out-links are written to the store with its commit. */
  readonly keepsGraph?: boolean;
  /**
   * After a worker restart, before the crawl goes on: the stored graph (relevant pages' out-links, in fetch
   * order) and what `save` returned last.
   */
  restore?(memory: { graph: { url: string; links: string[] }[]; saved: unknown }): void;
  /** State worth keeping beyond the graph (small), saved after each page that asked for a re-rank. */
  save?(): unknown;
  /** What the crawl detail shows of the strategy's own state (e.g. top hubs and authorities), or null. */
  report?(): Record<string, unknown> | null;
  /** The report changes with every take (e.g. queue lengths): it is written with each page's commit. */
  readonly reportsLive?: boolean;
  /** Inside the commit's transaction, before a new URL is queued: why its site refuses it, or null. */
  admit?(site: SiteView): string | null;
  /** After a page of `site` was judged: why the site is now off limits (blacklisted), or null. */
  judgeSite?(site: SiteView): string | null;
  /** Whether priorities follow the link classifier, so the queue is re-scored when the model learns. */
  readonly followsModel: boolean;
  /**
   * Its priority is the link's log-odds as the classifier ranks it, nothing added: the queue counted by priority is
   * counted by log-odds, and the crawl estimates its recall from it (lib/learning/recall.ts).
   */
  readonly priorityIsLogOdds?: boolean;
  /** A new priority for a queued entry when the model changed, or null to leave it. */
  rerank(entry: FrontierEntry, logOdds: number): number | null;
  /** How the next URL is chosen (NextOrder). */
  readonly next: NextOrder;
}

/** A strategy as the registry holds it: its name, what it is, its parameters, and how to make one. */
export interface StrategyModule {
  name: string;
  /** One sentence for the form and the README. */
  description: string;
  /** Whether its instances' priorities follow the link classifier (`Strategy.followsModel`), for pages that show it without running it. */
  followsModel: boolean;
  params: ParamSpec[];
  create(params: StrategyParams, context: { keywords: string[]; template?: TemplateConfig }): Strategy;
  /** Rules across parameters (e.g. weights that must sum to 1), as one sentence, or null. */
  check?(params: StrategyParams): string | null;
}

/** Seeds are taken before anything a page links to. */
export const SEED_PRIORITY = Number.MAX_VALUE;
