// One crawl's run: template seeding (design E.2, E.3), training reads (design A.6), then the crawl loop (design A.7)
// under politeness, each in its own module around the run's context (context.ts). The runner holds no state that
// matters across a stopped service worker: everything is in the store, and `run()` picks up wherever the crawl row
// and the frontier say it is.
import type { AnswerEffect, CrawlRecord, CrawlState, RescoreReport } from '../records/rows';
import type { SafetyAllowance } from '../records/config';
import { cycleCutShort, finishCycle } from './template-cycle';
import type { CrawlModel } from '../learning/model';
import { describeFatal, HaltSignal, openRun, type CrawlerPorts, type HaltAs, type RunContext } from './context';
import { crawlLoop } from './crawl-loop';
import { seedFromSearch } from './template-seeding';
import { fitAuthority, loadAuthority, loadCopies, train } from './training';
import { seedFromSitemaps } from './sitemap-seeding';

export class CrawlRunner {
  private readonly halt = new HaltSignal();
  private readonly active = new Map<string, Promise<void>>();
  private ctx: RunContext | undefined;
  /** The topic it learns from; set when `run()` reads the crawl row. */
  topicId = 0;

  constructor(private readonly ports: CrawlerPorts, readonly crawlId: number) {}

  /** URLs being fetched right now by this runner. */
  inFlight(): string[] {
    return [...this.active.keys()];
  }

  /** The current model (the service scores links for the labeler with it). */
  currentModel(): CrawlModel {
    return this.ctx!.learner.model;
  }

  /** The newest re-scoring of the frontier, if any ran in this worker. */
  rescoreReport(): RescoreReport | null {
    return this.ctx!.learner.lastRescore;
  }

  /** What the user's newest answers changed in this crawl's frontier, if any came while it ran. */
  answerEffect(): AnswerEffect | null {
    return this.ctx?.learner.lastAnswer ?? null;
  }

  /** Catches the model up with the topic's labels (a label was just made elsewhere). */
  requestSync(): Promise<void> {
    return this.ctx!.learner.requestSync();
  }

  /** Rebuilds the model from every label (the dashboard's "Retrain"), then re-scores the frontier. */
  retrain(): Promise<CrawlModel> {
    return this.ctx!.learner.retrain();
  }

  /** The user allowed a kept link: the run's rules follow (the store has queued it again). */
  allow(allowed: SafetyAllowance[]): void {
    this.ctx?.allow(allowed);
  }

  /** Asks the loop to stop taking URLs; in-flight fetches finish and are recorded. */
  requestHalt(as: HaltAs, message: string): void {
    this.halt.request(as, message);
  }

  async run(): Promise<CrawlRecord> {
    const { store, clock } = this.ports;
    let crawl = await store.getCrawl(this.crawlId);
    if (!crawl) throw new Error(`crawl ${this.crawlId} does not exist`);
    this.topicId = crawl.topicId;
    const ctx = (this.ctx = await openRun(this.ports, this.crawlId, crawl, this.halt, this.active));
    try {
      ctx.authority = await loadAuthority(ctx);
      if (crawl.state !== 'training') await fitAuthority(ctx);
      if (ctx.config.template && !crawl.templateRun?.seeded) await seedFromSearch(ctx);
      if (crawl.state === 'training') {
        await train(ctx);
        if (!ctx.halted) await store.updateCrawl(this.crawlId, { state: 'running', message: undefined });
      }
      // Labels may have come while the crawl was paused: its queued links were scored by an older model.
      if (!ctx.halted) await ctx.learner.loadAnswers();
      if (!ctx.halted) ctx.learner.resumeRescoring(crawl);
      if (!ctx.halted) ctx.copies = await loadCopies(ctx);
      // The seeds' sitemaps, once: their URLs queued as links, so best-first decides when to take them.
      if (!ctx.halted) await seedFromSitemaps(ctx);
      if (!ctx.halted) await ctx.recall.open(crawl);
      const end = ctx.halted ? null : await crawlLoop(ctx);
      // The loop ended by itself: the last pages get an estimate too (a crawl that reached its target recall ends on the
      // estimate that said so).
      if (end && !this.halt.reason) await ctx.recall.final();
      await ctx.learner.windDown();
      await ctx.learner.save();
      const final: { state: CrawlState; message: string } = this.halt.reason
        ? { state: this.halt.reason.as, message: this.halt.reason.message }
        : end!;
      // Design E.6: only a cycle that reached everything it could may say which records vanished; one that
      // ran out of budget or failed is still due again after the template's period.
      if (ctx.config.template && (final.state === 'finished' || final.state === 'failed')) {
        const ended = await ctx.mustGet();
        const complete = final.state === 'finished' && /frontier empty/.test(final.message);
        const templateRun = complete ? await finishCycle(store.records, ended, clock.now()) : cycleCutShort(ended, clock.now());
        await store.updateCrawl(this.crawlId, { templateRun });
      }
      crawl = await store.updateCrawl(this.crawlId, {
        ...final, activeMs: ctx.activeMs(), finishedAt: final.state === 'finished' ? clock.now() : undefined, waiting: undefined,
      });
    } catch (err) {
      await Promise.allSettled(this.active.values());
      await ctx.learner.windDown().catch(() => undefined);
      const message = describeFatal(err);
      crawl = await store.updateCrawl(this.crawlId, { state: 'paused', message, activeMs: ctx.activeMs() });
      this.ports.log?.(message);
    }
    return crawl;
  }
}
