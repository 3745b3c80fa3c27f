// The one message protocol between the extension's pages (popup, dashboard, runner) and the service worker.
import type { ModelBundle } from '../export/model-bundle';
import type { CrawlConfig } from '../records/config';
import type { AnswerEffect, CrawlRecord, FieldRecord, RecallPoint, RecordChange } from '../records/rows';
import type { LabeledLink, LabelValue, PageRecord, Topic } from '../records/types';

export interface ProtocolMap {
  /** Validates the config, creates a crawl and starts it. */
  start(config: unknown): { crawlId: number };
  /** Starts a crawl on a shared frontier (docs/scale-out.md): the command-line runner's loopback bridge to Redis. */
  startShared(req: { config: unknown; bridge: { url: string; token: string; worker: string } }): { crawlId: number };
  pause(req: { crawlId: number }): CrawlRecord;
  resume(req: { crawlId: number }): CrawlRecord;
  stop(req: { crawlId: number }): CrawlRecord;
  /** The crawl's row (state and counters) plus what is being fetched now; the newest crawl when no id is given. */
  status(req: { crawlId?: number }): CrawlStatus | null;
  /**
   * The URLs a running crawl is fetching now, from the worker's memory (none for a crawl that does not run here). The
   * popup asks this rather than reading the frontier's in-flight rows: in Chromium that index range collects an entry
   * for every URL ever taken, and the popup read them all on each refresh.
   */
  fetchingNow(req: { crawlId: number }): string[];
  /** The crawl's recall estimates, one every hundred pages fetched, oldest first (the runner's summary.json). */
  recallHistory(req: { crawlId: number }): RecallPoint[];
  /** Page rows in fetch order after `afterSeq`, at most `limit`. */
  pages(req: { crawlId: number; afterSeq: number; limit: number }): PageRecord[];
  deleteCrawl(req: { crawlId: number }): { deleted: boolean };
  /** Remembers that a crawl's pages up to `seq` were exported in a format ("new since the last export"). */
  markExported(req: { crawlId: number; format: string; seq: number }): { seq: number };
  /**
   * Design E.6: runs the next cycle of the newest template crawl of that name (same topic, same records): the
   * search again, new pages extracted, changed ones re-extracted, vanished ones deleted. `config` replaces the
   * template's config (the command-line runner passes its file); its name must be the same.
   */
  recrawl(req: { name: string; config?: unknown }): { crawlId: number };
  /** A template's records (design E.5), by crawl name. */
  records(req: { name: string }): FieldRecord[];
  /** What a template crawl's cycle did to the records: the lines of changes.jsonl. */
  recordChanges(req: { crawlId: number }): RecordChange[];
  /** Blacklists a site of a crawl (its queued URLs are dropped; a running crawl admits no more) or unblocks it. */
  setSiteBlacklisted(req: { crawlId: number; site: string; on: boolean }): { site: string; blacklisted: string | null };
  /**
   * Lets the crawl request links its session-safety guard kept, after the user saw why: one URL (as the "Kept from
   * requesting" list names it), or every link one rule caught by one match (`rule` and `match`), for this crawl. The
   * allowance is recorded on the crawl's row (`allowed`), with when; the links are queued again, and a finished crawl
   * starts again to request them (its budget grown by as many). Refused when it covers no kept link.
   */
  allowKept(req: { crawlId: number; url?: string; rule?: string; match?: string }): { allowed: number; crawl: CrawlRecord };

  // ---- topics (crawl profiles): each has its own keywords, labels and model ----
  /** Every topic, oldest first (for pages that cannot read the database: the labeler). */
  listTopics(req: Record<string, never>): Topic[];
  createTopic(req: { name: string; keywords: string[] }): Topic;
  /** Renames a topic or changes its keywords (its model is then rebuilt). */
  updateTopic(req: { topicId: number; name?: string; keywords?: string[] }): Topic;
  /** Deletes a topic with its labels and model; refused while one of its crawls runs. Its crawls are kept. */
  deleteTopic(req: { topicId: number }): { deleted: boolean };
  /** The topic the labeler labels for; sets it when `topicId` is given. Creates "My topic" when there is none. */
  activeTopic(req: { topicId?: number }): Topic;

  // ---- labeling ----
  /** Scores links with a topic's current model (the active topic when none is given), with their user labels. */
  scoreLinks(req: { topicId?: number; links: LinkToScore[] }): { topic: Topic; scores: number[]; labels: (LabelValue | null)[] };
  /** Labels a link for a topic (one user label per URL: a new one replaces it); `label: null` clears it. */
  labelLink(req: { topicId: number; url: string; anchor: string; context: string; label: LabelValue | null; pageUrl?: string; wait?: boolean }): { label: LabeledLink | null; effect?: AnswerEffect };
  /** Changes the label of stored labeled links (any source; they become user labels). */
  relabel(req: { ids: number[]; label: LabelValue }): { changed: number };
  deleteLabels(req: { ids: number[] }): { deleted: number };
  /** Adds labeled links from CSV (url,anchor,context,label) or JSON Lines; bad lines are reported, not fatal. */
  importLabels(req: { topicId: number; format: 'csv' | 'jsonl'; text: string }): ImportReport;
  /**
   * Labels a fetched page on or off topic (`null` clears): trains the page judge, and every known link to the
   * page becomes a labeled link.
   */
  labelPage(req: { crawlId: number; seq: number; label: LabelValue | null; wait?: boolean }): { links: number; effect?: AnswerEffect };
  /** Turns the on-page labeler on or off in a tab (the popup, the shortcut and the context menu do this). */
  setLabeler(req: { tabId: number; on: boolean }): { on: boolean };

  // ---- models ----
  /** Rebuilds a topic's model from all its labels, then re-scores the frontier of its running crawls. */
  retrain(req: { topicId: number }): RetrainReport;
  /** A topic's model, keywords and labeled links, as one JSON document. */
  exportModel(req: { topicId: number }): ModelBundle;
  /** Creates a topic from an exported bundle; labels that are not labels are skipped and reported. */
  importModel(req: { bundle: unknown; name?: string }): { topic: Topic } & ImportReport;
}

export interface LinkToScore {
  url: string;
  anchor: string;
  context: string;
}

export interface ImportReport {
  added: number;
  /** Lines that could not be read, with the reason (at most the first 20). */
  rejected: { line: number; error: string }[];
  /** How many lines could not be read in all. */
  rejectedCount: number;
}

export interface RetrainReport {
  examples: { pos: number; neg: number };
  pages: { pos: number; neg: number };
  ms: number;
  /** Crawls whose queued links are being re-scored in the background. */
  rescoring: number[];
}

export interface CrawlStatus {
  crawl: CrawlRecord;
  /** URLs being fetched right now. */
  inFlight: string[];
  /** The newest failures, newest first. */
  recentErrors: { url: string; error: string; at: number }[];
  /** Pages a minute over the crawl's last pages, or null until that means something (lib/records/pace.ts). */
  pagesPerMinute: number | null;
  harvestRate: number;
  /** Sites the crawl will not enter (its strategy's blacklist, the user's and the config's). */
  blacklistedSites: number;
}

export type MessageType = keyof ProtocolMap;

/**
 * The requests a content script in a web page may make: those the on-page labeler makes
 * (entrypoints/label.content), and no other. A page that subverted its tab's content script could then
 * label links and read topic names, but not start crawls, read pages, export or replace models, or delete.
 * The extension's own pages (popup, dashboard) may make every request. lib/app/message-policy.ts decides.
 */
export const CONTENT_SCRIPT_MESSAGES: readonly MessageType[] = ['activeTopic', 'listTopics', 'scoreLinks', 'labelLink'];
export type Request<K extends MessageType> = Parameters<ProtocolMap[K]>[0];
export type Response<K extends MessageType> = ReturnType<ProtocolMap[K]>;

/** What travels over runtime messaging: a request, and either a result or an error sentence. */
export interface Envelope<K extends MessageType = MessageType> {
  type: K;
  data: Request<K>;
}
export type Reply<K extends MessageType> = { ok: true; result: Response<K> } | { ok: false; error: string };

export type { CrawlConfig };
