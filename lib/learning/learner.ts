// What a running crawl learns while it crawls: it catches its model up with the topic's labels in the store
// (its own verdicts and anyone else's labels), rebuilds it when the topic's revision moved on, and re-scores
// the queued links when the model has changed enough. One per CrawlRunner; it holds the crawl's model.
import type { Clock } from '../net/fetcher';
import type { Candidate, CrawlStorePort } from '../ports';
import type { AnswerEffect, CrawlRecord, RescoreReport } from '../records/rows';
import type { Strategy } from '../strategies/types';
import type { CrawlConfig } from '../records/config';
import { buildModel, catchUp, saveModel, type CrawlModel } from './model';
import { ReachIndex } from './reach-index';
import { urlLogOdds, type LinkText } from './link-classifier';
import type { TargetAuthority } from './authority';
import { rankLink } from './children';
import { logistic } from './naive-bayes';
import type { FrontierEntry, LabeledLink } from '../records/types';

/**
 * Queued links re-scored per transaction; and the least change that counts: of the class counts (a drift that starts a
 * re-score), of an answered link's features, of a rank an answer's re-score writes.
 */
const RESCORE_CHUNK = 500;
export const RESCORE_EPSILON = 0.01;

/**
 * A queued URL that a full re-score moves by at most this much (in priority, log-odds for the model's strategies) keeps
 * its row as written: the bound links found again have (RANK_STEP, lib/run/commit-plan.ts). At RESCORE_EPSILON a
 * re-score rewrote most of the queue, each row with its index entries, to move URLs far below the next fetches by less
 * than their odds' 1.28x (docs/benchmarks.md, "A re-score's writes").
 */
export const RESCORE_STEP = 0.25;

/** After a re-score that took T, one by page count waits until 2T after it ended (see `rested`). */
const RESCORE_REST = 2;

/**
 * The log-odds of a queued URL the user said is on topic: above anything the model says of a link, so it is
 * fetched next. One they said is off topic leaves the queue (`rescoreReached`) or, on a store without that, sinks.
 */
const ANSWERED_LOG_ODDS = 50;
/**
 * What an "off topic" answer does to the URL answered: `skip` takes it out of the queue (the fetch is saved, and
 * with it the links its page would have brought); `model` leaves it ranked by the model that learned the answer.
 * Measured in the labels benchmark (`--off-topic`).
 */
export const answeredOffTopic: { policy: 'skip' | 'model' } = { policy: 'skip' };
/**
 * Whether answers that moved the class counts past RESCORE_EPSILON start a whole-frontier re-score (`drift`), or
 * re-score only their reach and leave the rest to the periodic re-score. Measured in the labels benchmark
 * (`--drift-rescore`).
 */
export const answerRescore: { drift: boolean } = { drift: true };
/** What the Topics view counts as "the next links": the best queued URLs an answer can move into. */
export const NEXT_LINKS = 100;

export interface LearnerDeps {
  store: CrawlStorePort;
  clock: Clock;
  log?: (line: string) => void;
  crawlId: number;
  /** The crawl's URL authority, which a link's rank adds to its classifier's (children.ts, `rankLink`). */
  authority?: () => TargetAuthority | null;
  topicId: number;
  config: CrawlConfig;
  /** The run's strategy instance: whether it orders by the model, and how a queued entry is re-ranked. */
  strategy: Strategy;
  /** True once the crawl was asked to pause or stop: background work ends at its next step. */
  halted: () => boolean;
  /** Called with an error that must pause the crawl (storage, mostly). */
  fail: (err: unknown) => void;
}

/** What the reach index keeps of a queued link: its text for the model's features, and the page it was found on. */
type IndexedLink = LinkText & { url: string; parentUrl?: string | null };

/** The reach index's key for the links found on a page (a page answer reaches them); no link feature looks like it. */
export function parentKey(pageUrl: string): string {
  return `\u0000parent ${pageUrl}`;
}

export class CrawlLearner {
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  private rescoring: Promise<void> | null = null;
  private rescoreAgain = false;
  private pagesSinceRescore = 0;
  private labelsSinceRescore = 0;
  /** How far the answers since the last full re-score may have moved the links they did not reach (`answerMoves`). */
  private classDrift = 0;
  /** Set when the crawl loop has ended: background re-scoring stops at its next pause. */
  private winding = false;
  lastRescore: RescoreReport | null = null;
  /** The user's own labels of URLs (a queued link they answered is ranked by its answer). */
  private readonly answers = new Map<string, 0 | 1>();
  /** The user's verdicts on the topic's fetched pages, by URL: a queued link found on one is ranked with it (the parent-page feature). */
  private readonly pageAnswers = new Map<string, boolean>();
  /** What the newest answers changed in the frontier (the partial re-score after them). */
  lastAnswer: AnswerEffect | null = null;
  /** Queued URLs by link feature, built from the first answer on (reach-index.ts); off, every answer reads the whole queue. */
  useReachIndex = true;
  private index: ReachIndex<IndexedLink> | null = null;
  /** Pages committed by the run whose links the index did not see, and how many had been when it last listed the queue. */
  private pagesCommitted = 0;
  private pagesIndexed = -1;

  constructor(private readonly d: LearnerDeps, public model: CrawlModel) {}

  /** Whether the crawl's strategy orders by the model at all (breadth-first does not). */
  private get rescores(): boolean {
    return this.d.strategy.followsModel;
  }

  private get stopping(): boolean {
    return this.winding || this.d.halted();
  }

  /**
   * Catches the model up with the topic's labels in the store (this crawl's own and anyone else's), one
   * catch-up at a time; a request made while one runs is served by one more afterwards.
   */
  requestSync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    const run = async () => {
      do {
        this.syncAgain = false;
        await this.syncOnce();
      } while (this.syncAgain && !this.d.halted());
    };
    this.syncing = run()
      .catch((err) => this.d.fail(err))
      .finally(() => (this.syncing = null));
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const r = await catchUp(this.d.store, this.d.topicId, this.model, this.d.config.judge.threshold);
    if (r.rebuilt) {
      this.model = r.model;
      // A full re-score follows: what the rebuild's answers moved is not asked for.
      this.model.link.answerMoves(Infinity);
      // New keywords make other features (the dictionary's): the index is built again at the next answer.
      this.index = null;
      // A relabel or a deletion: the answers are read again from every label.
      await this.loadAnswers();
      this.scheduleRescore("the topic's labels were changed");
      return;
    }
    const answered = this.noteAnswers(r.learned);
    // A page the user judged: its children are ranked with the verdict as their parent's, and the links
    // to it, stored with its label, teach their words as a link answer's do; both re-score where they reach.
    const judged = r.pages.map((p) => p.url);
    for (const p of r.pages) this.pageAnswers.set(p.url, p.label === 1);
    const taught = judged.length ? r.learned.filter((l) => l.source === 'page' && judged.includes(l.url)) : [];
    if (answered.length || judged.length) await this.rescoreAnswered([...answered, ...taught], judged);
    const fromElsewhere = r.learned.filter((l) => l.crawlId !== this.d.crawlId).length;
    this.labelsSinceRescore += fromElsewhere;
    const every = this.d.config.learning.rescoreEveryLabels;
    if (fromElsewhere > 0 && every > 0 && this.labelsSinceRescore >= every) this.scheduleRescore(`${this.labelsSinceRescore} new labels`);
  }

  /** Rebuilds the model from every label now (the dashboard's "Retrain"), then re-scores the frontier. */
  async retrain(): Promise<CrawlModel> {
    await this.syncing;
    await this.rebuild();
    await this.save();
    this.scheduleRescore('retrained');
    return this.model;
  }

  /** Rebuilds the model from the store: exact, and costs one parse per labeled page. */
  async rebuild(): Promise<void> {
    const { store, topicId, config } = this.d;
    this.model = await buildModel(store, await store.topics.mustGetTopic(topicId), config.judge.threshold);
  }

  /** Catches up with the store (labels other crawls of the topic made meanwhile, too), then saves the model. */
  async save(): Promise<void> {
    await this.requestSync();
    await saveModel(this.d.store, this.d.topicId, this.model, this.d.clock.now());
  }

  /**
   * A page was fetched. If it committed labels (a verdict), the model catches up with them; labels made
   * through the service reach it by `requestSync`, and other crawls' labels at the next catch-up or save.
   * Every `rescoreEveryPages` pages the queued links are re-scored.
   */
  pageDone(committedLabels: number, queued?: readonly Candidate[]): void {
    // The reach index learns the page's links at once; a page it did not see makes the next answer list the queue.
    if (queued && this.index) this.index.noteQueued(queued.filter((c) => !c.skip));
    else this.pagesCommitted++;
    if (committedLabels > 0) void this.requestSync();
    const shared = this.d.store.frontier.rescoreWanted?.bind(this.d.store.frontier);
    if (shared) {
      // A shared frontier: the crawl's pages, not this worker's, decide a re-score (in Redis, once for every worker);
      // this worker leads the pass when none does.
      const why = shared();
      if (why !== null && !this.rescoring) this.scheduleRescore(why);
      return;
    }
    const every = this.d.config.learning.rescoreEveryPages;
    if (every > 0 && ++this.pagesSinceRescore >= every && this.rested()) this.scheduleRescore(`${every} pages fetched`);
  }

  /**
   * Whether a re-score by page count may start: none is running, and the last one ended at least RESCORE_REST times
   * as long ago as it took. A re-score reads every queued URL, and the crawl keeps about half its pace meanwhile: with
   * 100,000 queued it took about 100 s, longer than the crawl took to fetch the next 500 pages, so the re-scores ran back
   * to back and the crawl ran at half its pace for good. Now they take at most a third of its time.
   */
  private rested(): boolean {
    const last = this.lastRescore;
    return !this.rescoring && (!last || this.d.clock.now() - last.at >= RESCORE_REST * last.ms);
  }

  /** URLs were queued other than as a committed page's links (a template cycle's seeds): the next answer lists the queue. */
  queuedElsewhere(): void {
    this.pagesCommitted++;
  }

  /** At the start of a run: labels may have come while the crawl was paused, or a re-score was cut short. */
  resumeRescoring(crawl: CrawlRecord): void {
    if (!this.rescores) return;
    const last = crawl.lastRescore;
    const stale = !last
      ? this.model.lastLabelId > 0 && crawl.stats.fetched > 0
      : last.complete === false || last.revision !== this.model.revision || last.lastLabelId < this.model.lastLabelId;
    if (stale) this.scheduleRescore('labels changed while paused');
  }

  /**
   * Re-scores the queued links with the current model, in the background: the store walks the frontier in
   * small transactions, so takes and commits go on between them (design A.7 re-sorts one URL at a time; a new
   * model changes them all).
   */
  scheduleRescore(why: string): void {
    if (!this.rescores) return;
    if (this.rescoring) {
      this.rescoreAgain = true;
      return;
    }
    const run = async () => {
      do {
        this.rescoreAgain = false;
        this.pagesSinceRescore = 0;
        this.labelsSinceRescore = 0;
        this.classDrift = 0;
        await this.rescoreOnce(why);
      } while (this.rescoreAgain && !this.stopping);
    };
    this.rescoring = run()
      .catch((err) => this.d.fail(err))
      .finally(() => (this.rescoring = null));
  }

  /** At the start of a run: the user's answers so far (a URL answered while the crawl was paused is ranked by it too). */
  async loadAnswers(): Promise<void> {
    this.answers.clear();
    this.noteAnswers(await this.d.store.topics.labelsAfter(this.d.topicId, 0));
    // The pages the user judged: their queued children are ranked with the user's verdict as their parent's.
    this.pageAnswers.clear();
    for (const p of await this.d.store.topics.pageLabels(this.d.topicId)) if (p.source === 'user') this.pageAnswers.set(p.url, p.label === 1);
  }

  /** The user's labels among `labels` (the labeler's and the dashboard's: source "user"), remembered by URL. */
  private noteAnswers(labels: readonly LabeledLink[]): LabeledLink[] {
    const answered = labels.filter((l) => l.source === 'user');
    for (const l of answered) this.answers.set(l.url, l.label);
    return answered;
  }

  /**
   * A queued entry's rank under the current model: what a full re-score writes, and a partial one too. A URL
   * the user answered is ranked by the answer (off topic: `skip`, where the store can take it out of the queue).
   */
  rankEntry(e: FrontierEntry): { score: number; priority: number; inlinks?: FrontierEntry['inlinks']; skip?: string } | null {
    const { config, strategy } = this.d;
    if (e.parentUrl === null || e.priority === -Number.MAX_VALUE) return null; // seeds and never-fetch links keep theirs
    const answer = this.answers.get(e.url);
    if (answer === 1 || (answer === 0 && answeredOffTopic.policy === 'skip')) {
      const priority = strategy.rerank(e, answer === 1 ? ANSWERED_LOG_ODDS : -ANSWERED_LOG_ODDS);
      if (priority === null) return null;
      return answer === 1 ? { score: 1, priority } : { score: 0, priority, skip: 'you labeled it off topic' };
    }
    // A page the user judged gives its children the user's verdict, not the judge's they were queued with.
    const parentOnTopic = e.parentUrl !== null ? this.pageAnswers.get(e.parentUrl) : undefined;
    const link = parentOnTopic === undefined || parentOnTopic === e.parentOnTopic ? e : { ...e, parentOnTopic };
    const { logOdds, score } = rankLink(this.model.link, this.d.authority?.() ?? null, link, config.classifier);
    if (config.classifier.everyLink && e.inlinks) {
      // The other links' log-odds are those they were found with: only the kept (best) link is stored to re-score.
      const inlinks = { n: e.inlinks.n, sum: e.inlinks.sum - e.inlinks.best + logOdds, best: logOdds };
      const priority = strategy.rerank(e, urlLogOdds(inlinks));
      return priority === null ? null : { score: logistic(urlLogOdds(inlinks)), priority, inlinks };
    }
    const priority = strategy.rerank(e, logOdds);
    return priority === null ? null : { score, priority };
  }

  /**
   * An answer acts before the next question. Re-scores the queued links the answers reach and no
   * others: the URLs answered, and the links that share a feature whose evidence the answers moved by more
   * than a quarter of the epsilon under which a full re-score leaves a link where it is. The rest move only
   * by the class counts' share of one label in thousands (none under a `wordsOnly` answer policy), which the next
   * full re-score takes up.
   */
  private async rescoreAnswered(answered: LabeledLink[], judgedPages: readonly string[] = []): Promise<void> {
    const { store, clock, crawlId } = this.d;
    if (!this.rescores || !store.frontier.rescoreReached) return;
    const started = clock.now();
    const link = this.model.link;
    const { features: moved, drift } = link.answerMoves(RESCORE_EPSILON / 4);
    const urls = answered.map((l) => l.url);
    // A judged page's queued children: through the index's parent key, or by their parent URL in the queue.
    for (const u of judgedPages) moved.add(parentKey(u));
    let where: ((e: FrontierEntry) => boolean) | undefined;
    if (moved.size > 0) {
      // The links that share a moved feature: from the reach index where the store can list its queue by key,
      // else by reading every queued link.
      const index = this.reachIndex();
      if (index?.ready) {
        // New URLs are queued only by the pages the crawl commits: none since the last look, none to index.
        if (this.pagesCommitted !== this.pagesIndexed) {
          const seen = this.pagesCommitted;
          await index.refresh();
          this.pagesIndexed = seen;
        }
        urls.push(...index.reached(moved));
      } else where = (e: FrontierEntry) => (e.parentUrl !== null && moved.has(parentKey(e.parentUrl))) || link.features(e).some((f) => moved.has(f));
    }
    const r = await store.frontier.rescoreReached(crawlId, { urls, ...(where ? { where } : {}) }, (e) => this.rankEntry(e), clock.now(),
      { epsilon: RESCORE_EPSILON, top: NEXT_LINKS });
    this.lastAnswer = { at: clock.now(), labels: answered.length + judgedPages.length, ...r, ms: clock.now() - started };
    // The links the answers did not reach drifted with the class counts: each is within `classDrift` of what a
    // full re-score would give it. Once that could pass the epsilon a full re-score leaves alone, one runs (in the
    // background, as after a Retrain). With a topic's thousands of labeled links that is every few answers.
    this.classDrift += drift;
    if (answerRescore.drift && this.classDrift > RESCORE_EPSILON) this.scheduleRescore('answers moved the class counts');
    this.d.log?.(`answer${answered.length === 1 ? '' : 's'} re-scored ${r.changed} of ${r.reached} queued links they reach; ${r.enteredTop} moved into the next ${NEXT_LINKS} (${this.lastAnswer.ms} ms)`);
  }

  /** Whether answers find their reach through the index (built) rather than by reading the queue. */
  get reachIndexReady(): boolean {
    return this.useReachIndex && (this.index?.ready ?? false);
  }

  /** The crawl's reach index, when the store can list its queue by key. Features are the link's under any model. */
  private reachIndex(): ReachIndex<IndexedLink> | null {
    const { frontier } = this.d.store;
    if (!this.useReachIndex || !frontier.queuedUrls || !frontier.entries) return null;
    if (!this.index) this.pagesIndexed = this.pagesCommitted; // the build lists the queue after this
    this.index ??= new ReachIndex<IndexedLink>(this.d.crawlId,
      { queuedUrls: (c) => frontier.queuedUrls!(c), entries: (c, u) => frontier.entries!(c, u) },
      (e) => (e.parentUrl ? [...this.model.link.features(e), parentKey(e.parentUrl)] : this.model.link.features(e)));
    this.index.build((err) => this.d.log?.(`the reach index could not be built: ${String(err)}`));
    return this.index;
  }

  private async rescoreOnce(why: string): Promise<void> {
    const { store, clock, crawlId } = this.d;
    const started = clock.now();
    const { revision, lastLabelId } = this.model;
    const { scanned, changed, complete, ledElsewhere } = await store.frontier.rescoreQueued(crawlId, (e) => this.rankEntry(e), clock.now(), {
      chunk: RESCORE_CHUNK, epsilon: RESCORE_STEP, why,
      // Give the crawl's own transactions as much time as the chunk took (see the frontier-scale benchmark).
      pause: async (ms) => {
        if (this.stopping) return false;
        await clock.sleep(ms);
        return !this.stopping;
      },
    });
    if (ledElsewhere !== undefined) {
      // A shared frontier's pass that another worker leads (or that was over before this one came to it).
      if (ledElsewhere) this.d.log?.(`the crawl's re-score (${why}) is led by ${ledElsewhere}`);
      return;
    }
    const report: RescoreReport = { at: clock.now(), why, scanned, changed, complete, ms: clock.now() - started, revision, lastLabelId };
    this.lastRescore = report;
    await store.updateCrawl(crawlId, { lastRescore: report });
    this.d.log?.(`re-scored the frontier (${why}): ${changed} of ${scanned} links moved in ${report.ms} ms${complete ? '' : ' (stopped early: the crawl paused or ended)'}`);
  }

  /** The crawl loop ended: stop re-scoring at its next pause, and wait for what is in progress. */
  async windDown(): Promise<void> {
    this.winding = true;
    await this.syncing;
    await this.rescoring;
  }
}
