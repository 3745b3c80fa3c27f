// What a running crawl learns while it crawls: it catches its model up with the topic's labels in the store
// (its own verdicts and anyone else's labels), rebuilds it when the topic's revision moved on, and re-scores
// the queued links when the model has changed enough. One per CrawlRunner; it holds the crawl's model.
import type { Clock } from '../fetch/fetcher';
import type { CrawlStorePort } from '../ports';
import type { CrawlRecord, RescoreReport } from '../records';
import type { Strategy } from '../strategies/types';
import type { CrawlConfig } from './config';
import { buildModel, catchUp, saveModel, type CrawlModel } from './model';
import { urlLogOdds } from '../classifier/link-classifier';
import type { TargetAuthority } from '../classifier/authority';
import { rankLink } from './children';
import { logistic } from '../classifier/naive-bayes';

/** Queued links re-scored per transaction, and the log-odds change below which a link keeps its place. */
const RESCORE_CHUNK = 500;
const RESCORE_EPSILON = 0.01;

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

export class CrawlLearner {
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  private rescoring: Promise<void> | null = null;
  private rescoreAgain = false;
  private pagesSinceRescore = 0;
  private labelsSinceRescore = 0;
  /** Set when the crawl loop has ended: background re-scoring stops at its next pause. */
  private winding = false;
  lastRescore: RescoreReport | null = null;

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
      this.scheduleRescore("the topic's labels were changed");
      return;
    }
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
  pageDone(committedLabels: number): void {
    if (committedLabels > 0) void this.requestSync();
    const every = this.d.config.learning.rescoreEveryPages;
    if (every > 0 && ++this.pagesSinceRescore >= every) this.scheduleRescore(`${every} pages fetched`);
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
   * small transactions, so takes and commits go on between them (SPEC A.7 re-sorts one URL at a time; a new
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
        await this.rescoreOnce(why);
      } while (this.rescoreAgain && !this.stopping);
    };
    this.rescoring = run()
      .catch((err) => this.d.fail(err))
      .finally(() => (this.rescoring = null));
  }

  private async rescoreOnce(why: string): Promise<void> {
    const { store, clock, config, crawlId, strategy } = this.d;
    const started = clock.now();
    const { revision, lastLabelId } = this.model;
    const { scanned, changed, complete } = await store.frontier.rescoreQueued(crawlId, (e) => {
      if (e.parentUrl === null || e.priority === -Number.MAX_VALUE) return null; // seeds and never-fetch links keep theirs
      const { logOdds, score } = rankLink(this.model.link, this.d.authority?.() ?? null, e, config.classifier);
      if (config.classifier.everyLink && e.inlinks) {
        // The other links' log-odds are those they were found with: only the kept (best) link is stored to re-score.
        const inlinks = { n: e.inlinks.n, sum: e.inlinks.sum - e.inlinks.best + logOdds, best: logOdds };
        const priority = strategy.rerank(e, urlLogOdds(inlinks));
        return priority === null ? null : { score: logistic(urlLogOdds(inlinks)), priority, inlinks };
      }
      const priority = strategy.rerank(e, logOdds);
      return priority === null ? null : { score, priority };
    }, clock.now(), {
      chunk: RESCORE_CHUNK, epsilon: RESCORE_EPSILON,
      // Give the crawl's own transactions as much time as the chunk took (see the frontier-scale benchmark).
      pause: async (ms) => {
        if (this.stopping) return false;
        await clock.sleep(ms);
        return !this.stopping;
      },
    });
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
