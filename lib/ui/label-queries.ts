// The reads of the dashboard's Topics view: topics, their labeled links (filtered, paged by key range,
// counted), their saved model, and the frontier links the labeling queue picks from. Pages only read; every
// change goes to the service worker as a message.
import Dexie from 'dexie';
import { LinkClassifier } from '../learning/link-classifier';
import { loadLinkClassifier } from '../learning/link-model';
import { rankQuestions, type LinkQuestionCandidate, type PageQuestionCandidate, type Question } from '../learning/question-value';
import type { CrawlerDB } from '../store/db';
import type { ModelRecord } from '../records/rows';
import { unpack, urlRows } from '../store/label-packs';
import { labelChunks, TopicStore } from '../store/topic-store';
import type { FrontierEntry, LabeledLink, LabelSource, LabelValue, Topic } from '../records/types';

/** Every topic, oldest first. Rows are small (name, keywords), so listing them all is fine. */
export const allTopics = (db: CrawlerDB): Promise<Topic[]> => db.topics.toArray();

/** The settings key under which the service keeps the labeler's topic (lib/store/topic-store.ts). */
const ACTIVE_TOPIC = 'activeTopic';

/** The topic the labeler labels for, if one was chosen. */
export async function activeTopicId(db: CrawlerDB): Promise<number | undefined> {
  const v = (await db.settings.get(ACTIVE_TOPIC))?.value;
  return typeof v === 'number' ? v : undefined;
}

// ---- labeled links: filter, pages, counts ----

export const LABEL_SOURCES: readonly LabelSource[] = ['user', 'page', 'verdict', 'auto'];

export interface LabelFilter {
  label: 'all' | 'on' | 'off';
  source: 'all' | LabelSource;
  /** Part of the host name (case-insensitive); empty for every site. */
  site: string;
}

export const ALL_LABELS: LabelFilter = { label: 'all', source: 'all', site: '' };

/** "https://Example.org/x" or "example.org/x" -> "example.org": what the site box means. */
export function siteQuery(text: string): string {
  return text.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '').split(/[/?#]/)[0];
}

const hostOf = (url: string): string => (/^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '').toLowerCase();

export function labelMatcher(filter: LabelFilter): (l: LabeledLink) => boolean {
  const value: LabelValue | null = filter.label === 'on' ? 1 : filter.label === 'off' ? 0 : null;
  const site = siteQuery(filter.site);
  return (l) =>
    (value === null || l.label === value) &&
    (filter.source === 'all' || l.source === filter.source) &&
    (!site || hostOf(l.url).includes(site));
}

/** Where a page of the labels table starts. The table lists the newest labels first. */
export type LabelCursor = { at: 'newest' } | { at: 'oldest' } | { olderThan: number } | { newerThan: number };

export interface LabelWindow {
  /** Newest first. */
  rows: LabeledLink[];
  hasNewer: boolean;
  hasOlder: boolean;
}

/** Rows read at a time by the labels table and its export (a row is a label, or a page commit's pack of them). */
const LABEL_ROWS = 200;

/** Up to `limit` labels matching, read in order from `after` or `before` (see labelChunks). */
async function firstMatches(
  db: CrawlerDB, topicId: number, match: (l: LabeledLink) => boolean, limit: number, opts: { after?: number; before?: number; reverse?: boolean },
): Promise<LabeledLink[]> {
  const out: LabeledLink[] = [];
  // A page of the table is a few packs of a crawl's labels, or as many rows of the user's: a few rows are read first.
  for await (const labels of labelChunks(db, topicId, { ...opts, chunk: LABEL_ROWS, firstChunk: 16 })) {
    for (const l of labels) if (match(l) && out.push(l) >= limit) return out;
  }
  return out;
}

/**
 * One page of `size` labels of a topic matching the filter, newest first, read by key range on [topicId+id] and
 * stopped after `size + 1` matches: a topic's 70,000 labels are never read at once.
 */
export async function labelWindow(
  db: CrawlerDB,
  topicId: number,
  filter: LabelFilter,
  cursor: LabelCursor,
  size: number,
): Promise<LabelWindow> {
  const match = labelMatcher(filter);
  if ('at' in cursor && cursor.at === 'newest') {
    const rows = await firstMatches(db, topicId, match, size + 1, { reverse: true });
    return { rows: rows.slice(0, size), hasNewer: false, hasOlder: rows.length > size };
  }
  if ('olderThan' in cursor) {
    const rows = await firstMatches(db, topicId, match, size + 1, { before: cursor.olderThan, reverse: true });
    // Paging past the oldest row shows the oldest full page instead of an empty one.
    if (rows.length === 0) return labelWindow(db, topicId, filter, { at: 'oldest' }, size);
    return { rows: rows.slice(0, size), hasNewer: true, hasOlder: rows.length > size };
  }
  const rows = await firstMatches(db, topicId, match, size + 1, 'newerThan' in cursor ? { after: cursor.newerThan } : {});
  // Paging forward into the newest rows shows a full newest page rather than a short one.
  if (rows.length <= size && 'newerThan' in cursor) return labelWindow(db, topicId, filter, { at: 'newest' }, size);
  return { rows: rows.slice(0, size).reverse(), hasNewer: rows.length > size, hasOlder: 'newerThan' in cursor };
}

/** Reads every label of a topic matching the filter, oldest first, about `chunk` rows at a time (for exports). */
export async function forEachLabelChunk(
  db: CrawlerDB,
  topicId: number,
  filter: LabelFilter,
  chunk: number,
  onChunk: (rows: LabeledLink[]) => void,
): Promise<number> {
  const match = labelMatcher(filter);
  let total = 0;
  for await (const labels of labelChunks(db, topicId, { chunk })) {
    const rows = labels.filter(match);
    if (rows.length) onChunk(rows);
    total += rows.length;
  }
  return total;
}

export type SourceCounts = Record<LabelSource, { on: number; off: number }>;

export interface LabelCounts {
  links: SourceCounts;
  /** Labeled pages (they train the page judge). */
  pages: { on: number; off: number };
}

export const linkTotals = (c: SourceCounts): { on: number; off: number } =>
  LABEL_SOURCES.reduce((t, s) => ({ on: t.on + c[s].on, off: t.off + c[s].off }), { on: 0, off: 0 });

/** Labels matching a label and source filter, from the counts (a site filter cannot be counted this way). */
export function filteredCount(c: SourceCounts, filter: LabelFilter): number | null {
  if (siteQuery(filter.site)) return null;
  const sources = filter.source === 'all' ? LABEL_SOURCES : [filter.source];
  return sources.reduce((n, s) => n + (filter.label === 'off' ? 0 : c[s].on) + (filter.label === 'on' ? 0 : c[s].off), 0);
}

const emptySourceCounts = (): SourceCounts => ({
  auto: { on: 0, off: 0 }, verdict: { on: 0, off: 0 }, user: { on: 0, off: 0 }, page: { on: 0, off: 0 },
});

/**
 * Counts a topic's labels by source and label without reading all of them on every change: adding labels
 * does not change a topic's revision, and everything else that changes them (relabel, delete, a replaced
 * user label, a changed or cleared page label) bumps it in the same transaction (lib/store/topic-store.ts). So while the
 * revision holds, only labels newer than the last one counted are read. One tally per view.
 */
export class LabelTally {
  private last: { topicId: number; revision: number; lastId: number; links: SourceCounts } | undefined;

  constructor(private readonly db: CrawlerDB) {}

  async read(topicId: number): Promise<LabelCounts> {
    const db = this.db;
    const topic = await db.topics.get(topicId);
    const pages = { on: 0, off: 0 };
    if (!topic) return { links: emptySourceCounts(), pages };
    const prev = this.last;
    const fresh = !prev || prev.topicId !== topicId || prev.revision !== topic.revision;
    const links = fresh ? emptySourceCounts() : structuredClone(prev.links);
    let lastId = fresh ? 0 : prev.lastId;
    await db.labels
      .where('[topicId+id]')
      .between([topicId, lastId], [topicId, Dexie.maxKey], false, true)
      .each((row) => {
        for (const l of unpack(row)) links[l.source][l.label === 1 ? 'on' : 'off']++;
        lastId = Math.max(lastId, row.id!);
      });
    await db.pageLabels.where('topicId').equals(topicId).each((p) => void pages[p.label === 1 ? 'on' : 'off']++);
    this.last = { topicId, revision: topic.revision, lastId, links };
    return { links: structuredClone(links), pages };
  }
}

// ---- the saved model ----

export interface ModelSummary {
  /** Labeled links the saved link classifier has learned; null when the topic has no saved model yet. */
  examples: { pos: number; neg: number } | null;
  savedAt: number | null;
  /** Labels changed since the model was saved (relabel, delete, keywords): the worker rebuilds it on next use. */
  outdated: boolean;
  /** Labels added since the model was saved: the worker learns them when it next uses the model. */
  pending: number;
}

/** The last saved model read: re-read on every new label, it is parsed again only when it was saved again. */
let lastParsed: { key: string; examples: { pos: number; neg: number } } | undefined;

function savedExamples(row: ModelRecord): { pos: number; neg: number } {
  const key = `${row.topicId}:${row.updatedAt}:${row.lastLabelId}:${row.revision}`;
  if (lastParsed?.key !== key) lastParsed = { key, examples: LinkClassifier.fromJSON(row.link).examples };
  return lastParsed.examples;
}

export async function modelSummary(db: CrawlerDB, topic: Topic): Promise<ModelSummary> {
  const topicId = topic.id!;
  const row = await db.topicModels.get(topicId);
  if (!row) return { examples: null, savedAt: null, outdated: false, pending: await labelsAfterCount(db, topicId, 0) };
  return {
    examples: savedExamples(row),
    savedAt: row.updatedAt,
    outdated: row.revision !== topic.revision,
    pending: await labelsAfterCount(db, topicId, row.lastLabelId),
  };
}

/** Labels after `afterId`: a page commit's pack counts its labels (the rows are read; a saved model leaves few). */
async function labelsAfterCount(db: CrawlerDB, topicId: number, afterId: number): Promise<number> {
  let n = 0;
  for await (const labels of labelChunks(db, topicId, { after: afterId, chunk: 1_000 })) n += labels.length;
  return n;
}

/** The topic's link classifier as the worker would load it now (read only: nothing is saved). */
export const currentLinkClassifier = (db: CrawlerDB, topic: Topic): Promise<LinkClassifier> => loadLinkClassifier(new TopicStore(db), topic);

// ---- the labeling queue's candidates ----

export interface CandidateOptions {
  /** Log-odds half-width of the priority range read around 0 (P = 0.5). Default 2 (P from 0.12 to 0.88). */
  around?: number;
  /** Entries read in all, over the topic's crawls. Default 3000. */
  limit?: number;
}

/**
 * Queued frontier entries of the topic's crawls whose priority (the log-odds of the score they were queued
 * with) is near 0, nearest first from both sides. Breadth-first crawls order by -depth instead, so theirs are
 * just shallow links; the queue re-scores every candidate with the current model anyway.
 */
export async function queueCandidates(db: CrawlerDB, topicId: number, opts: CandidateOptions = {}): Promise<FrontierEntry[]> {
  const around = opts.around ?? 2;
  const limit = opts.limit ?? 3000;
  const crawls = await db.crawls.where('topicId').equals(topicId).reverse().sortBy('createdAt');
  if (crawls.length === 0) return [];
  const half = Math.max(1, Math.ceil(limit / crawls.length / 2));
  // Chromium can leave an index entry behind after a row's state changed: check the row's own state.
  const queued = (e: FrontierEntry) => e.state === 'queued';
  const out: FrontierEntry[] = [];
  for (const crawl of crawls) {
    const c = crawl.id!;
    const index = db.frontier.where('[crawlId+state+priority+order]');
    const above = await index.between([c, 'queued', 0, Dexie.minKey], [c, 'queued', around, Dexie.maxKey], true, true).filter(queued).limit(half).toArray();
    const below = await index.between([c, 'queued', -around, Dexie.minKey], [c, 'queued', 0, Dexie.minKey], true, false).reverse().filter(queued).limit(half).toArray();
    out.push(...above, ...below);
  }
  return out.slice(0, limit);
}

/** Which of these URLs the user has labeled for the topic. */
export async function userLabeledUrls(db: CrawlerDB, topicId: number, urls: string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  // One equality read per URL in one transaction: `anyOf` on a compound index walks a cursor that jumps key to
  // key, which some IndexedDB implementations answer by scanning the index at every jump.
  const rows = await db.transaction('r', db.labels, () =>
    Promise.all(urls.map((u) => db.labels.where('[topicId+url]').equals([topicId, u]).toArray())));
  return new Set(urlRows(rows.flat()).filter((r) => r.source === 'user').map((r) => r.url));
}

// ---- the labeling queue's questions ----

/** A queued link the queue may ask about, with its place in its crawl's frontier (`rank`, 0 the next to fetch). */
export interface LinkAsked extends LinkQuestionCandidate {
  entry: FrontierEntry;
}

/** A fetched page the queue may ask about: its queued children are counted among the links read. */
export interface PageAsked extends PageQuestionCandidate {
  crawlId: number;
  seq: number;
  title: string;
}

/**
 * What the labeling queue chooses its questions from: the best `perCrawl` queued links of each crawl of the
 * topic, in the order the crawl takes them (the next fetches and the links just behind them, which is where an
 * answer changes what is fetched), and the fetched pages those links were found on, with the judge's
 * relevance and how many of them each holds.
 */
export async function questionCandidates(db: CrawlerDB, topicId: number, perCrawl = 2000): Promise<{ links: LinkAsked[]; pages: PageAsked[] }> {
  const crawls = await db.crawls.where('topicId').equals(topicId).toArray();
  const links: LinkAsked[] = [];
  const pages: PageAsked[] = [];
  for (const crawl of crawls) {
    const c = crawl.id!;
    const best = await db.frontier.where('[crawlId+state+priority+order]')
      .between([c, 'queued', Dexie.minKey, Dexie.minKey], [c, 'queued', Dexie.maxKey, Dexie.maxKey])
      .reverse().limit(perCrawl).toArray();
    // Chromium can leave an index entry behind after a row's state changed: check the row's own state.
    const queued = best.filter((e) => e.state === 'queued' && e.parentUrl !== null && e.priority !== -Number.MAX_VALUE);
    queued.forEach((entry, rank) => links.push({ url: entry.url, anchor: entry.anchor, context: entry.context, score: entry.score, rank, entry }));
    const children = new Map<string, number>();
    for (const e of queued) children.set(e.parentUrl!, (children.get(e.parentUrl!) ?? 0) + 1);
    const rows = await db.pages.where('[crawlId+url]').anyOf([...children.keys()].map((u) => [c, u])).toArray();
    // A page fetched again has a row per fetch: its newest verdict stands.
    const newest = new Map<string, (typeof rows)[number]>();
    for (const p of rows) if (p.relevance !== null && p.outcome === 'done' && p.phase === 'crawl' && p.seq > (newest.get(p.url)?.seq ?? -1)) newest.set(p.url, p);
    for (const p of newest.values()) pages.push({ url: p.url, relevance: p.relevance!, children: children.get(p.url)!, crawlId: c, seq: p.seq, title: p.title });
  }
  return { links, pages };
}

/** A question of the labeling queue, with what was read to ask it. */
export type AskedQuestion = { kind: 'link'; link: LinkAsked; value: number; reach: number } | { kind: 'page'; page: PageAsked; value: number; reach: number };

/**
 * The labeling queue: the topic's questions worth most to its crawls first (rankQuestions), the URLs the user
 * has answered and those in `handled` (answered or skipped in this visit) left out.
 */
export async function labelQuestions(db: CrawlerDB, topic: Topic, opts: { handled?: ReadonlySet<string>; limit?: number; perCrawl?: number } = {}): Promise<AskedQuestion[]> {
  const topicId = topic.id!;
  const { links, pages } = await questionCandidates(db, topicId, opts.perCrawl);
  const answered = await userLabeledUrls(db, topicId, [...new Set([...links.map((c) => c.url), ...pages.map((p) => p.url)])]);
  for (const url of opts.handled ?? []) answered.add(url);
  // A page the user labeled is not asked again (its page label is keyed by the fetch).
  const pageAnswers = await db.transaction('r', db.pageLabels, () =>
    Promise.all(pages.map((p) => db.pageLabels.where('[crawlId+seq]').equals([p.crawlId, p.seq]).toArray())));
  for (const p of pageAnswers.flat()) if (p.source === 'user') answered.add(p.url);
  const classifier = await currentLinkClassifier(db, topic);
  // The candidates carry what was read; the casts only restore their type.
  return rankQuestions(links, pages, classifier, { answered, limit: opts.limit ?? 40 }).map((q: Question): AskedQuestion =>
    q.kind === 'link' ? { ...q, link: q.link as LinkAsked } : { ...q, page: q.page as PageAsked });
}
