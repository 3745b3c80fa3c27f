// The reads the popup and the dashboard make from the crawler's database. Pages only read: the service
// worker is the one writer of these tables, and asks are sent to it as messages.
import Dexie, { liveQuery } from 'dexie';
import type { ClassCounts, LabeledLinkText } from '../learning/evaluate';
import { blockOfReason } from '../policy/safety';
import type { CrawlerDB } from '../store/db';
import { PageLog } from '../store/page-log';
import type { CrawlRecord } from '../records/rows';
import type { FrontierEntry, LabelSource, LabelValue, PageLabel, PageRecord } from '../records/types';
import { ALL_LABELS, forEachLabelChunk } from './label-queries';

/** The crawl with this id, or the newest one when no id is given. */
export async function crawlOrNewest(db: CrawlerDB, crawlId?: number): Promise<CrawlRecord | undefined> {
  if (crawlId !== undefined) return db.crawls.get(crawlId);
  return db.crawls.orderBy('createdAt').last();
}

/** All crawls, newest first. Rows are small (counters and config), so listing them all is fine. */
export const allCrawls = (db: CrawlerDB): Promise<CrawlRecord[]> => db.crawls.orderBy('createdAt').reverse().toArray();

/**
 * The newest failed fetches, newest first: the same pages the crawl's "failed" counter counts (not those the crawl
 * chose not to request: those are skipped, and counted so).
 */
export function recentErrors(db: CrawlerDB, crawl: CrawlRecord, limit = 5): Promise<PageRecord[]> {
  return new PageLog(db).recentErrors(crawl, limit);
}

/**
 * Page rows of a crawl without counting them: each row takes the crawl's next seq in turn and none is removed
 * while the crawl is kept, so they are the seqs from the first row's to `nextSeq - 1` (a crawl's first seq is
 * 1; `nextSeq` itself is one more than its rows). One key read, where a count walks 100,000 index entries.
 */
export async function pageRowCount(db: CrawlerDB, crawl: Pick<CrawlRecord, 'id' | 'nextSeq'>): Promise<number> {
  const id = crawl.id!;
  const first = await db.pages.where('[crawlId+seq]').between([id, Dexie.minKey], [id, Dexie.maxKey]).first();
  return first ? crawl.nextSeq - first.seq : 0;
}

/** Number of page rows of a crawl, counted on the index. */
export const pageCount = (db: CrawlerDB, crawlId: number): Promise<number> =>
  db.pages.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).count();

/** Reads every page row of a crawl in seq order, `chunk` rows at a time, so memory holds one chunk of rows. */
export async function forEachPageChunk(
  db: CrawlerDB,
  crawlId: number,
  chunk: number,
  onChunk: (rows: PageRecord[]) => void,
): Promise<number> {
  let total = 0;
  let lower: unknown = Dexie.minKey;
  let includeLower = true;
  for (;;) {
    const rows = await db.pages
      .where('[crawlId+seq]')
      .between([crawlId, lower], [crawlId, Dexie.maxKey], includeLower, true)
      .limit(chunk)
      .toArray();
    if (rows.length === 0) return total;
    onChunk(rows);
    total += rows.length;
    lower = rows[rows.length - 1].seq;
    includeLower = false;
  }
}

// ---- topics and labels ----

/** The user's (or a training read's) labels of the pages seq `from`..`to` of a crawl, by seq. */
export async function pageLabelsBetween(db: CrawlerDB, crawlId: number, from: number, to: number): Promise<Map<number, PageLabel>> {
  const rows = await db.pageLabels.where('[crawlId+seq]').between([crawlId, from], [crawlId, to], true, true).toArray();
  return new Map(rows.map((r) => [r.seq, r]));
}

export type CountsBySource = Record<LabelSource, ClassCounts>;

const noCounts = (): CountsBySource => ({ auto: { pos: 0, neg: 0 }, verdict: { pos: 0, neg: 0 }, user: { pos: 0, neg: 0 }, page: { pos: 0, neg: 0 } });

/** Which label wins when the same link (URL, anchor and context) was labeled more than once: the user's first. */
const SOURCE_RANK: Record<LabelSource, number> = { user: 3, page: 2, auto: 1, verdict: 0 };

/**
 * The labeled links of a topic to evaluate the link classifier on: those of the chosen sources, each link
 * once. A link labeled twice (by a training read and by the user, say) would otherwise sit on both sides of
 * a split and be "predicted" from itself; the label of the highest-ranked source is kept. Counts every
 * label by source on the way (one read of the labels, not two).
 */
export async function evaluationExamples(
  db: CrawlerDB,
  topicId: number,
  sources: ReadonlySet<LabelSource>,
): Promise<{ examples: LabeledLinkText[]; counts: CountsBySource }> {
  const counts = noCounts();
  const best = new Map<string, { anchor: string; context: string; label: LabelValue; source: LabelSource }>();
  await forEachLabelChunk(db, topicId, ALL_LABELS, 5000, (rows) => {
    for (const { url, anchor, context, label, source } of rows) {
      counts[source][label === 1 ? 'pos' : 'neg']++;
      if (!sources.has(source)) continue;
      const key = `${url}\u0000${anchor}\u0000${context}`;
      const held = best.get(key);
      if (!held || SOURCE_RANK[source] > SOURCE_RANK[held.source]) best.set(key, { anchor, context, label, source });
    }
  });
  return { examples: [...best.values()].map(({ anchor, context, label }) => ({ anchor, context, label })), counts };
}

// ---- the frontier ----

/**
 * The `limit` best queued URLs of a crawl, best first: what it fetches next. Read from the top of the
 * frontier index; entries whose state is no longer `queued` are stale index entries Chromium leaves behind.
 */
export const nextUp = (db: CrawlerDB, crawlId: number, limit = 10): Promise<FrontierEntry[]> =>
  db.frontier
    .where('[crawlId+state+priority+order]')
    .between([crawlId, 'queued', Dexie.minKey, Dexie.minKey], [crawlId, 'queued', Dexie.maxKey, Dexie.maxKey])
    .reverse()
    .filter((e) => e.state === 'queued')
    .limit(limit)
    .toArray();

/** One row of the crawl's queue, read to watch it (watchThrottled): any entry queued or taken changes it. */
export const queueChanges = (db: CrawlerDB, crawlId: number): Promise<unknown> =>
  db.frontier
    .where('[crawlId+state+priority+order]')
    .between([crawlId, 'queued', Dexie.minKey, Dexie.minKey], [crawlId, 'queued', Dexie.maxKey, Dexie.maxKey])
    .limit(1)
    .toArray();

/**
 * The crawl's skipped frontier entries, counted to watch them (watchThrottled): a count observes the whole range, so
 * an entry that leaves it (a kept link the user allowed) is seen as well as one that joins it; reading only the first
 * row observed no further than that row.
 */
export const skippedChanges = (db: CrawlerDB, crawlId: number): Promise<unknown> =>
  db.frontier.where('[crawlId+state]').equals([crawlId, 'skipped']).count();

/** A link the safety guard kept the crawl from requesting, with the rule that caught it and the reason it was given. */
export interface KeptLink {
  url: string;
  anchor: string;
  rule: string;
  match: string;
  reason: string;
}

/**
 * The first `limit` links of a crawl that the safety guard kept from being requested (skipped entries whose
 * reason starts with "unsafe link"), in URL order, and how many there are. Reads the crawl's skipped entries
 * once with a cursor: memory holds `limit` rows however many were skipped.
 */
export async function keptFromRequesting(db: CrawlerDB, crawlId: number, limit = 200): Promise<{ links: KeptLink[]; total: number }> {
  const links: KeptLink[] = [];
  let total = 0;
  await db.frontier
    .where('[crawlId+state]')
    .equals([crawlId, 'skipped'])
    .each((e) => {
      const block = blockOfReason(e.reason);
      if (!block) return;
      total++;
      if (links.length < limit) links.push({ url: e.url, anchor: e.anchor, ...block, reason: e.reason ?? '' });
    });
  return { links, total };
}

// ---- the harvest curve ----

/** Outcomes of the crawl-phase pages fetched after `afterSeq` (failed fetches left out), in seq order. */
export interface HarvestStep {
  afterSeq: number;
  /** The last seq read (`afterSeq` when there was nothing new). */
  lastSeq: number;
  seqs: number[];
  /** 1 relevant, 0 not; one per seq. */
  outcomes: number[];
}

/**
 * Reads only the pages after `afterSeq`, `chunk` rows at a time (awaiting `between` before each chunk after the
 * first), and keeps only what the harvest curve needs of them: a live chart re-runs this on every new page and
 * must not re-read the crawl from the start.
 */
export async function harvestStepAfter(
  db: CrawlerDB, crawlId: number, afterSeq: number, chunk = 2000, between?: () => Promise<unknown>,
): Promise<HarvestStep> {
  const step: HarvestStep = { afterSeq, lastSeq: afterSeq, seqs: [], outcomes: [] };
  for (let first = true; ; first = false) {
    if (!first) await between?.();
    const rows = await db.pages
      .where('[crawlId+seq]')
      .between([crawlId, step.lastSeq], [crawlId, Dexie.maxKey], false, true)
      .limit(chunk)
      .toArray();
    for (const p of rows) {
      if (p.phase !== 'crawl' || p.error) continue;
      step.seqs.push(p.seq);
      step.outcomes.push(p.relevant === true ? 1 : 0);
    }
    if (rows.length > 0) step.lastSeq = rows[rows.length - 1].seq;
    if (rows.length < chunk) return step;
  }
}

/**
 * Harvest rate after n fetches (design, metrics: relevant fetched pages / n, plotted against n), kept as the
 * count of relevant pages after each fetch and extended with each new step.
 */
export class HarvestCurve {
  /** The last page seq taken in. */
  lastSeq = -1;
  /** relevantAfter[i]: relevant pages among the first i + 1 fetched. */
  readonly relevantAfter: number[] = [];

  get fetched(): number {
    return this.relevantAfter.length;
  }

  /**
   * Takes in the pages of a step this curve has not seen; returns whether it grew. Live reads can answer
   * late, from an older position: pages already taken in are skipped, and a step that would leave a gap
   * is refused.
   */
  extend(step: HarvestStep): boolean {
    if (step.afterSeq > this.lastSeq) return false;
    const before = this.fetched;
    let relevant = this.relevantAfter.at(-1) ?? 0;
    step.seqs.forEach((seq, i) => {
      if (seq > this.lastSeq) this.relevantAfter.push((relevant += step.outcomes[i]));
    });
    this.lastSeq = Math.max(this.lastSeq, step.lastSeq);
    return this.fetched > before;
  }

  /** Harvest rate after `n` fetches (1-based), or null past the end of the curve. */
  rateAt(n: number): number | null {
    return n >= 1 && n <= this.fetched ? this.relevantAfter[n - 1] / n : null;
  }
}

/**
 * Several curves sampled on one shared x grid of at most about `maxPoints` page counts (plus each curve's
 * own last point, so every line ends where its crawl does): [x, y1, y2, ...], y null past a curve's end.
 * The cumulative rate moves little between neighbouring fetches, so sampling at a stride loses nothing visible.
 */
export function sampleCurves(curves: readonly HarvestCurve[], maxPoints = 2000): [number[], ...(number | null)[][]] {
  const longest = Math.max(0, ...curves.map((c) => c.fetched));
  const stride = Math.max(1, Math.ceil(longest / maxPoints));
  const grid = new Set<number>();
  for (let n = 1; n <= longest; n += stride) grid.add(n);
  for (const c of curves) if (c.fetched > 0) grid.add(c.fetched);
  const xs = [...grid].sort((a, b) => a - b);
  return [xs, ...curves.map((c) => xs.map((n) => c.rateAt(n)))];
}

/** How often a view that follows a running crawl reads again, at most: a crawl commits many pages a second. */
export const REREAD_MS = 500;
/** How often a watched query whose rows have not changed is run anew all the same while others are written (see `watch`). */
const RENEW_MS = 10_000;

/** Writes this page has heard of (its own and, through Dexie's broadcast, the service worker's). */
let writesHeard = 0;
let listening = false;
function hearWrites(): void {
  if (listening) return;
  listening = true;
  Dexie.on('storagemutated', () => {
    writesHeard++;
  });
}

/**
 * Runs `query` now and again whenever the rows it read change (Dexie liveQuery; the worker's writes reach
 * the pages), handing each result to `render`, at most about twice every `everyMs`. Returns the unsubscribe
 * function.
 *
 * A running crawl writes its crawl row, its queue and its pages with every page it commits, many times a
 * second, and a liveQuery runs its query again after each write it read: a dashboard of a dozen views would
 * make hundreds of reads a second against the database the crawl writes to. So once a change has been
 * rendered, the liveQuery is let go and subscribed again `everyMs` later (which runs the query once, on
 * whatever changed meanwhile); between changes it stays subscribed, and a view whose rows do not change is
 * read again only every RENEW_MS while other rows are written.
 */
export function watch<T>(
  query: () => Promise<T>,
  render: (value: T) => void,
  onError: (err: unknown) => void,
  everyMs = REREAD_MS,
): () => void {
  hearWrites();
  let stopped = false;
  let sub: { unsubscribe(): void } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const again = (ms: number) => {
    sub?.unsubscribe();
    sub = undefined;
    clearTimeout(timer);
    timer = setTimeout(subscribe, ms);
  };
  // A liveQuery keeps every write it hears of until its query runs again: one whose rows do not change while a
  // crawl writes 100,000 pages would hold them all and check each new write against them. So it is run anew
  // every RENEW_MS while writes are heard.
  const renewLater = (heard: number) => {
    timer = setTimeout(() => (writesHeard === heard ? renewLater(heard) : again(0)), RENEW_MS);
  };
  const subscribe = () => {
    timer = undefined;
    // The first value of a subscription is what the rows are now; a second one is a change.
    let first = true;
    sub = liveQuery(query).subscribe({
      next: (value) => {
        if (stopped) return;
        render(value);
        if (first) {
          first = false;
          renewLater(writesHeard);
          return;
        }
        again(everyMs);
      },
      error: (err) => {
        if (!stopped) onError(err);
      },
    });
  };
  subscribe();
  return () => {
    stopped = true;
    clearTimeout(timer);
    sub?.unsubscribe();
  };
}


/** How often reads may run, and when the last began: one pace can be handed on from one watch to the next. */
export interface Pace {
  everyMs: number;
  last: number;
}

/**
 * Runs `read` now and again whenever the rows `changes` reads are written, at most once every `pace.everyMs`,
 * handing each result to `render`; returns the unsubscribe function.
 *
 * `changes` must start all its reads before it awaits anything: liveQuery records the ranges a query reads
 * through Dexie's async context, which does not survive every await (after an await of an async function of
 * our own, a read is not recorded, and a change to its rows never runs the query again). `read` runs outside
 * that context, from a timer: what it reads is not watched, so it can read a window of 100 rows out of a
 * crawl of 100,000 pages while `changes` watches only the range that window can change in.
 */
export function watchThrottled<T>(
  changes: () => Promise<unknown>,
  read: () => Promise<T>,
  render: (value: T) => void,
  onError: (err: unknown) => void,
  pace: Pace = { everyMs: REREAD_MS, last: -Infinity },
): () => void {
  let stopped = false;
  let reading = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = async () => {
    timer = undefined;
    reading = true;
    again = false;
    pace.last = Date.now();
    try {
      const value = await read();
      if (!stopped) render(value);
    } catch (err) {
      if (!stopped) onError(err);
    } finally {
      reading = false;
      if (again && !stopped) schedule();
    }
  };
  const schedule = () => {
    if (reading) again = true;
    else if (timer === undefined) timer = setTimeout(run, Math.max(0, pace.last + pace.everyMs - Date.now()));
  };
  const unwatch = watch(changes, schedule, onError);
  return () => {
    stopped = true;
    clearTimeout(timer);
    unwatch();
  };
}

/** How the crawl's verdicts stand against the pages the user labeled in it. */
export interface VerdictCheck {
  labeled: number;
  /** Labeled pages the judge called relevant, and of those, the ones the user labeled on topic. */
  calledRelevant: number;
  rightRelevant: number;
  /** Labeled pages whose verdict matches the label. */
  agree: number;
}

/** The judge's verdicts on the pages the user labeled in a crawl (their newest label each); few rows, read whole. */
export async function verdictCheck(db: CrawlerDB, crawlId: number): Promise<VerdictCheck> {
  const rows = await db.pageLabels.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
  const newest = new Map<number, LabelValue>();
  for (const r of rows.sort((a, b) => a.createdAt - b.createdAt)) if (r.source !== 'auto') newest.set(r.seq, r.label);
  const labeled = [...newest];
  const pages = await db.pages.bulkGet(labeled.map(([seq]) => [crawlId, seq] as [number, number]));
  const check: VerdictCheck = { labeled: 0, calledRelevant: 0, rightRelevant: 0, agree: 0 };
  pages.forEach((p, i) => {
    if (!p || p.relevant === null) return;
    const label = labeled[i]![1];
    check.labeled++;
    if (p.relevant) {
      check.calledRelevant++;
      if (label === 1) check.rightRelevant++;
    }
    if ((label === 1) === p.relevant) check.agree++;
  });
  return check;
}
