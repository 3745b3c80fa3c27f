// What crosses the loopback bridge between a worker's browser and its runner (docs/scale-out.md): the frontier's
// entries as Redis keeps them, a take's leases, a page's completion, labeled links, slices of a re-score, and the
// bridge's calls themselves (served by bridge-server.ts, called by lib/platform/shared-bridge.ts).
import type { RobotsAnswer } from '../../net/shared-robots';
import type { Candidate, CycleSearch, RecordWrite } from '../../ports';
import type { CrawlStats, FieldRecord, RecordChange, TemplateRun } from '../../records/rows';
import type { QueueLoad } from '../../strategies/types';
import type { FrontierEntry, LabeledLink, LabelValue } from '../../records/types';

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
  /** Why a crawl-wide re-score pass waits for a worker to lead it (none leads, or its leader went quiet), or null. */
  rescore: string | null;
  /** A crawl by queues (design D.3): each queue's URLs queued and in flight, as the take left them. */
  queues?: QueueLoad[];
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
  /** The page's links (one per URL, the best), each to be queued, or to count for a queued URL found again. */
  children: Candidate[];
  /** URLs no worker is to request: the page's other addresses (a redirect's final URL), links kept from requesting. */
  aliases: string[];
  /** The labeled links the page's commit made: every worker's model learns them (Naive Bayes counts are sums). */
  labels: SharedLabel[];
  /** The page's verdict, when links to it found later teach it (`learning.linksToJudged`). */
  verdict?: LabelValue;
  /** The page's site (its counts may close it, design B.5), and links its strategy dropped, by reason. */
  site?: string;
  dropped?: Record<string, number>;
  /** What the link it was fetched by showed of its version (design D.5): another later queues it again. */
  revisit?: string;
  /** A relevant page's out-links, for a strategy that keeps the crawled graph (design C.2). */
  outlinks?: string[];
  /** A template's final page: its record and the change (design E.5), its crawl the shared cycle (`SharedRecords`). */
  record?: RecordWrite;
}

/** What a judge learned of a labeled page: its label, and its words with their counts (PageJudge.learnTerms). */
export interface JudgeLesson {
  label: LabelValue;
  terms: [string, number][];
}

/** What a labeled link source taught besides its labeled links: its out-links (the URL authority) and its words (the judge). */
export interface LinkSourceTaught {
  outlinks?: { label: 0 | 1; links: string[] };
  judge?: JudgeLesson;
}

/** A slice of the shared queue, for a re-score: each URL's key, its priority as Redis spells it, and its entry. */
export interface RescoreSlice {
  next: string;
  entries: { key: string; priority: string; entry: SharedEntry }[];
}

/** A queued URL a re-score moves: from the priority it was read with to its new one (and its in-links, re-ranked). */
export interface RescoreMove {
  key: string;
  from: string;
  to: number;
  inlinks?: FrontierEntry['inlinks'];
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
  /**
   * A link source read and what it taught: its labeled links, and a labeled page's label and out-links ('dup': another
   * worker's read came first).
   */
  trained(req: { url: string; labels: SharedLabel[]; addresses: string[] } & LinkSourceTaught): Promise<{ result: 'ok' | 'dup' }>;
  /** The labeled link sources the other workers read, as their judges learned them, after a cursor; and the next cursor. */
  judgeLessons(req: { after: number }): Promise<{ lessons: JudgeLesson[]; next: number }>;
  /** The relevant pages other runs committed after a cursor, with their out-links (the crawled graph), and the next cursor. */
  graph(req: { after: number }): Promise<{ pages: { url: string; links: string[] }[]; next: number }>;
  /** Claims this cycle's search of a template crawl, or says it was done or is another worker's. */
  searchClaim(req: Record<string, never>): Promise<CycleSearch>;
  /** The search done: its run and sampled seeds for every worker, the seeds queued ('dup': another's came first). */
  searchDone(req: { run: TemplateRun; seeds: Candidate[] }): Promise<{ result: 'ok' | 'dup' }>;
  /** The template's records, as the whole crawl wrote them (their crawl a cycle: `SharedRecords`). */
  records(req: Record<string, never>): Promise<{ records: FieldRecord[]; changes: RecordChange[] }>;
  record(req: { url: string }): Promise<{ record: FieldRecord | null }>;
  recordApply(req: { write: RecordWrite }): Promise<Record<string, never>>;
  /** What this worker's strategy saved, kept per worker in Redis (a crawl by queues learns its iFactor from all of them). */
  strategyState(req: { state: unknown }): Promise<Record<string, never>>;
  /** Every labeled link source's label and out-links, read by any worker (what the URL authority counts). */
  trainingLinks(req: Record<string, never>): Promise<{ pages: { label: 0 | 1; links: string[] }[] }>;
  /** Leads the crawl-wide re-score's open pass (or opens one for `why`): null when another worker leads it, or none is open. */
  rescoreLead(req: { why: string }): Promise<{ lead: { pass: number; fence: string; cursor: string; why: string } | null; leader: string | null }>;
  rescoreSlice(req: { cursor: string; count: number }): Promise<RescoreSlice>;
  rescoreWrite(req: { fence: string; from: string; next: string; scanned: number; moves: RescoreMove[] }): Promise<{ state: 'more' | 'done' | 'lost'; scanned: number; changed: number }>;
  rescoreLeave(req: { fence: string }): Promise<Record<string, never>>;
}
