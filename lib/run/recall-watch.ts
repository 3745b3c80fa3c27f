// The crawl's recall estimate as it goes (docs/recall.md): every RECALL_EVERY pages fetched, the queue is counted by
// log-odds through the frontier's index (no row is read), the estimate is made (lib/learning/recall.ts) from the
// crawl row's counters, and kept on the crawl row and in its history. A crawl told `budget.targetRecall` ends once the
// estimate reaches it. Off the page's path: one estimate at a time, in the background, a hundred pages apart.
import { MIN_EXAMPLES_PER_CLASS, type PageJudge } from '../learning/page-judge';
import { NOT_ENOUGH, QUEUE_EDGES, RECALL_EVERY, estimateRecall } from '../learning/recall';
import type { Clock } from '../net/fetcher';
import type { RunStorePort } from '../ports';
import type { CrawlConfig } from '../records/config';
import type { CrawlRecord, RecallPoint } from '../records/rows';
import type { Strategy } from '../strategies/types';

/** What the watch reads of the run, and how it ends it. */
export interface RecallDeps {
  crawlId: number;
  store: RunStorePort;
  clock: Clock;
  log?: (line: string) => void;
  strategy: Strategy;
  /** The config in force (a template's reseed makes it anew), and the topic's page judge now. */
  config: () => CrawlConfig;
  judge: () => PageJudge;
  halted: () => boolean;
  /** Ends the crawl as finished, with the sentence that says why. */
  finish: (message: string) => void;
}

export class RecallWatch {
  /** Pages fetched (`CrawlStats.fetched`) as the run's commits have counted them, and when the next estimate is due. */
  private fetched: number;
  private due: number;
  private running: Promise<void> | null = null;
  private again = false;
  /** Why the crawl cannot be estimated at all, once written: not written again. */
  private said: string | null = null;
  /** Pages fetched at the newest estimate made. */
  private estimatedAt = -1;

  constructor(private readonly d: RecallDeps, fetched: number) {
    this.fetched = fetched;
    this.due = (Math.floor(fetched / RECALL_EVERY) + 1) * RECALL_EVERY;
  }

  /**
   * At the start of a run: a crawl with no estimate yet says why (its strategy, its store, its topic) or that it is
   * too young, from its first page on.
   */
  async open(crawl: Pick<CrawlRecord, 'recall'>): Promise<void> {
    if (crawl.recall) return;
    const why = this.noBasis();
    this.said = why;
    await this.d.store.saveRecall(this.d.crawlId, { note: why ?? NOT_ENOUGH }, this.d.clock.now());
  }

  /** A page's commit is written: `fetched` more pages (0 or 1) counted. */
  committed(fetched: number): void {
    this.fetched += fetched;
    if (this.fetched < this.due) return;
    this.due = (Math.floor(this.fetched / RECALL_EVERY) + 1) * RECALL_EVERY;
    this.schedule();
  }

  /** The crawl loop ended by itself: one more estimate, for the pages fetched since the last one. */
  async final(): Promise<void> {
    await this.running;
    if (this.fetched !== this.estimatedAt) await this.estimate();
  }

  private schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    const run = async () => {
      do {
        this.again = false;
        await this.estimate();
      } while (this.again && !this.d.halted());
    };
    this.running = run()
      .catch((err) => this.d.log?.(`the recall estimate could not be made: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => (this.running = null));
  }

  /** Why this crawl gets no estimate whatever it fetches, or null. */
  private noBasis(): string | null {
    const { strategy, store } = this.d;
    if (!strategy.priorityIsLogOdds) return `no estimate: ${strategy.name} does not take pages in the order of their link score`;
    if (!store.frontier.countQueuedByPriority) return 'no estimate: a crawl shared by several browsers does not count its queue by score';
    const judge = this.d.judge();
    const { pos, neg } = judge.examples;
    if (judge.keywords.length === 0 && (pos < MIN_EXAMPLES_PER_CLASS || neg < MIN_EXAMPLES_PER_CLASS)) {
      return 'no estimate: the topic has no keywords or labeled pages to judge pages by';
    }
    return null;
  }

  private async estimate(): Promise<void> {
    const { store, clock, crawlId } = this.d;
    const why = this.noBasis();
    if (why) {
      if (why !== this.said) await store.saveRecall(crawlId, { note: why }, clock.now());
      this.said = why;
      return;
    }
    const crawl = await store.getCrawl(crawlId);
    if (!crawl) return;
    const queued = await store.frontier.countQueuedByPriority!(crawlId, QUEUE_EDGES);
    const { fetched, relevant } = crawl.stats;
    // Seeds given packed wait outside the frontier: they are taken first, at the top of the queue.
    queued[queued.length - 1]! += crawl.stats.packedSeeds ?? 0;
    const result = estimateRecall({ fetched, relevant, taken: crawl.recallTaken ?? {}, queued });
    this.estimatedAt = fetched;
    await store.saveRecall(crawlId, 'point' in result ? result.point : { note: result.note }, clock.now());
    if ('point' in result) this.checkTarget(result.point, crawl.recall);
  }

  /**
   * `budget.targetRecall`: the crawl ends, whatever is left of its page budget, once two estimates in a row (a hundred
   * pages apart) reach it. One alone ended two of the sixteen tuning crawls at a true recall under 0.7: an early
   * estimate can overshoot and fall back at the next (docs/recall.md).
   */
  private checkTarget(point: RecallPoint, before: CrawlRecord['recall']): void {
    const target = this.d.config().budget.targetRecall;
    if (target === undefined || point.estimate < target) return;
    if (!before || 'note' in before || before.estimate < target || before.fetched >= point.fetched) return;
    this.d.finish(`target recall reached: about ${Math.round(point.estimate * 100)}% of the topic found`);
  }
}
