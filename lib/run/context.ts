// What every part of one crawl's run shares: its ports, its config and what is made from it once per run (the
// strategy instance, the compiled rules, the request gate, politeness), the learner and the URL authority, the
// halt signal, the commit queue and the budget's counters. Training, template seeding, the crawl loop and the
// page pipeline each take this context; none of them holds state of its own across pages.
import type { Clock, FetchOutcome, FetchPort } from '../net/fetcher';
import type { ParsedPage } from '../records/types';
import { SessionWatch } from '../policy/session-signs';
import type { RenderPort } from '../net/render';
import type { GateResult, RequestGate } from '../net/request-gate';
import type { TargetAuthority } from '../learning/authority';
import type { CrawlRecord } from '../records/rows';
import type { PageCommit, RunStorePort } from '../ports';
import { createStrategy } from '../strategies/registry';
import type { Strategy } from '../strategies/types';
import { normalizeUrl } from '../records/url';
import { compileRules, type CrawlRules } from '../learning/children';
import { CommitQueue } from './commit-queue';
import { DEFAULTS, type CrawlConfig, type SafetyAllowance } from '../records/config';
import { CrawlLearner } from '../learning/learner';
import { loadModel } from '../learning/model';
import { Politeness } from '../net/politeness';
import { RenderBook } from '../policy/render-policy';
import { makeGate } from './gate';
import { RenderSlots, type RenderRun } from './render';
import { sessionLostMessage } from './outcome';
import { Duplicates, loadDuplicates, PRESUMED_PENALTY } from '../learning/duplicates';
import { RecallWatch } from './recall-watch';

export interface CrawlerPorts {
  store: RunStorePort;
  fetch: FetchPort;
  clock: Clock;
  /** Loads a page in the user's browser and reads its DOM (`fetch.render`); absent where there is no browser. */
  render?: RenderPort;
  /** Called at least every 20 s while running: the extension uses it to keep its service worker alive. */
  keepAlive?: () => void;
  log?: (line: string) => void;
}

/** How a halted run ends: paused or stopped by the user (or a fault), or finished (its target recall reached). */
export type HaltAs = 'paused' | 'stopped' | 'finished';

/** Whether the run was asked to stop taking URLs, and how it ends then; the first ask wins. */
export class HaltSignal {
  reason: { as: HaltAs; message: string } | null = null;

  request(as: HaltAs, message: string): void {
    this.reason ??= { as, message };
  }

  get asked(): boolean {
    return this.reason !== null;
  }
}

export class RunContext {
  readonly commits: CommitQueue;
  readonly politeness: Politeness;
  /** How the crawl's strategy and blacklist admit new URLs, inside each page commit. */
  readonly admission: PageCommit['admission'];
  config: CrawlConfig;
  rules: CrawlRules;
  /** What the user allowed after the guard kept it (the crawl row's `allowed`). */
  private allowed: SafetyAllowance[];
  /** The crawl's one way to the network: every request passes its gates (request-gate.ts). */
  gate: RequestGate;
  learner!: CrawlLearner;
  /** The recall estimate every hundred pages, and the stop at `budget.targetRecall` (recall-watch.ts). */
  recall!: RecallWatch;
  /** The authority of URLs among the labeled training pages' links (null without both training lists, or when off). */
  authority: TargetAuthority | null = null;
  /** Redirect targets being requested under another entry: not taken meanwhile. */
  readonly claimed = new Set<string>();
  /**
   * Pages training read (their URL and final URL, normalized), by the seq of that read: the crawl judges them from
   * the stored copy when it reaches them, without a request.
   */
  copies = new Map<string, number>();
  /**
   * The crawls whose stored pages a request is compared with: this one (a page asked for again, as a list page's
   * refresh) and, for a template's recrawl, the cycle before. A page with a stored copy is asked for with its validators.
   */
  readonly revisits: number[];
    /** Crawl-phase requests made or in flight: the budget counts these. */
  reserved: number;
  /** Pages judged since the model was last saved, when that was and how long that save took (the clock's ms). */
  sinceSave = 0;
  modelSavedAt = 0;
  modelSaveMs = 0;
  /** What rendering showed so far, kind by kind on each host, and the tabs the run may use at once (`fetch.render`). */
  readonly renderBook = new RenderBook();
  /** The content the crawl holds and what its hosts' URL variants taught (docs/duplicates.md); loaded by openRun. */
  duplicates = new Duplicates(undefined);
  /** The rules (`host rule`) a presumed duplicate is being requested to probe right now: one at a time each. */
  readonly probing = new Set<string>();
  /** The URLs whose request is going out or whose answer is being recorded (past the checks before a request). */
  readonly requesting = new Set<string>();
  /** URLs whose response a rendered page kept for the archive in this run. */
  readonly renderCaptured = new Set<string>();
  readonly renderSlots: RenderSlots;
  /** The logged-in signs each host's pages have shown in this run (lib/policy/session-signs.ts). */
  readonly sessionWatch = new SessionWatch();
  /** Pages the gate parsed to read their signs, kept for the pipeline so a page is parsed once. */
  readonly parsedAnswers = new WeakMap<FetchOutcome, ParsedPage>();
  private readonly activeMsBase: number;
  private sessionLostFirst = false;
  private readonly startedAt: number;
  private lastKeepAlive = 0;

  constructor(
    readonly ports: CrawlerPorts,
    readonly crawlId: number,
    crawl: CrawlRecord,
    /** The crawl's strategy, made once per run: it may keep state across pages. */
    readonly strategy: Strategy,
    readonly halt: HaltSignal,
    /** The URLs being fetched right now, each with its page's task. */
    readonly active: Map<string, Promise<void>>,
  ) {
    this.config = crawl.config;
    this.allowed = crawl.allowed ?? [];
    this.rules = compileRules(this.config, undefined, this.allowed);
    this.politeness = new Politeness(this.config.politeness);
    this.gate = this.gateFor();
    this.admission = { strategy, siteBlacklist: this.config.siteBlacklist ?? [] };
    this.activeMsBase = crawl.activeMs;
    this.startedAt = ports.clock.now();
    this.reserved = crawl.stats.attempts;
    const previous = crawl.templateRun?.previousCrawlId;
    this.revisits = previous === undefined ? [crawlId] : [crawlId, previous];
    this.commits = new CommitQueue(ports.store, () => ports.clock.now());
    this.renderSlots = new RenderSlots(this.config.fetch.renderTabs);
  }

  /** The rendering step's view of the run: through the gate in force (a template's reseed makes it anew). */
  renderRun(): RenderRun {
    const { fetch } = this.config;
    return {
      render: this.gate.canRender ? (req) => this.gate.render(req) : null,
      mode: fetch.render, timeoutMs: fetch.renderTimeoutMs, identify: this.config.politeness.identify,
      // A crawl made before a setting existed has none in its stored config: it runs with the default.
      scrolls: fetch.renderScrolls, clicks: fetch.renderClicks ?? DEFAULTS.fetch.renderClicks,
      growMs: fetch.renderGrowMs ?? DEFAULTS.fetch.renderGrowMs, growLinks: fetch.renderGrowLinks ?? DEFAULTS.fetch.renderGrowLinks,
      captureBytes: fetch.renderCaptureBytes ?? DEFAULTS.fetch.renderCaptureBytes, captured: this.renderCaptured,
      book: this.renderBook, slots: this.renderSlots,
    };
  }

  /** Asks the loop to stop taking URLs; in-flight fetches finish and are recorded. */
  requestHalt(as: HaltAs, message: string): void {
    this.halt.request(as, message);
  }

  get halted(): boolean {
    return this.halt.asked;
  }

  /** Template seeding gave the crawl its seeds: the scope follows them, so the rules and the gate are made anew. */
  reseed(config: CrawlConfig): void {
    this.config = config;
    this.rules = compileRules(config, this.rules.namedUnsafe, this.allowed);
    this.gate = this.gateFor();
  }

  /** The user allowed a kept link (the crawl row's `allowed`): the rules and the gate follow at once. */
  allow(allowed: SafetyAllowance[]): void {
    this.allowed = allowed;
    this.rules = compileRules(this.config, this.rules.namedUnsafe, allowed);
    this.gate = this.gateFor();
  }

  private gateFor(): RequestGate {
    return makeGate(this.ports, this.config, this.rules, this.politeness, () => this.halted, { watch: this.sessionWatch, parsed: this.parsedAnswers });
  }

  /** A URL as the crawl keys it (its `canonical` rules), or null when it is not a URL the crawl can fetch. */
  canonical(url: string): string | null {
    return normalizeUrl(url, undefined, this.config.canonical);
  }

  activeMs(): number {
    return this.activeMsBase + (this.ports.clock.now() - this.startedAt);
  }

  async mustGet(): Promise<CrawlRecord> {
    const crawl = await this.ports.store.getCrawl(this.crawlId);
    if (!crawl) throw new Error(`crawl ${this.crawlId} does not exist`);
    return crawl;
  }

  tick(): void {
    const now = this.ports.clock.now();
    if (now - this.lastKeepAlive > 20_000) {
      this.lastKeepAlive = now;
      this.ports.keepAlive?.();
    }
  }

  /** Waits for a politeness slot of `host` and takes it (training and search reads, which are not frontier entries). */
  async waitForHost(host: string): Promise<void> {
    for (;;) {
      this.tick();
      const w = this.politeness.waitFor(host, this.ports.clock.now());
      if (w === 0) return this.politeness.begin(host);
      await this.ports.clock.sleep(Math.min(w === Infinity ? 50 : w, 1000));
    }
  }

  /** A strategy's report that follows every take (its queues), to go with a commit. */
  liveReport(): Record<string, unknown> | undefined {
    return this.strategy.reportsLive ? this.strategy.report?.() ?? undefined : undefined;
  }

  /**
   * A request ended the user's session: the crawl pauses at once (no new request starts), saying which URL and what
   * to do, before the outcome is recorded. Going on would crawl logged out, every page a login form.
   */
  async loseSession(lost: Extract<GateResult, { kind: 'sessionLost' }>): Promise<void> {
    // Requests in flight together may each find the session gone: the first says so, as the pause's message does.
    if (this.sessionLostFirst) return;
    this.sessionLostFirst = true;
    const message = sessionLostMessage(lost);
    this.requestHalt('paused', message);
    this.ports.log?.(message);
    await this.ports.store.updateCrawl(this.crawlId, {
      message, sessionLost: { url: lost.url, by: lost.loss.by, what: lost.loss.what, ...(lost.loss.after ? { after: lost.loss.after } : {}), at: this.ports.clock.now() },
    });
  }
}

/**
 * Opens a crawl's run from its row: makes its strategy and context, reclaims the URLs a stopped worker left in
 * flight, lets a strategy that reasons over the crawled graph pick up where it was, and loads the topic's model.
 */
export async function openRun(
  ports: CrawlerPorts, crawlId: number, crawl: CrawlRecord, halt: HaltSignal, active: Map<string, Promise<void>>,
): Promise<RunContext> {
  const { store, clock } = ports;
  const strategy = presuming(createStrategy(crawl.config));
  const ctx = new RunContext(ports, crawlId, crawl, strategy, halt, active);
  const reclaimed = await store.frontier.reclaimInFlight(crawlId, clock.now());
  ctx.duplicates = await loadDuplicates(store, crawl);
  if (reclaimed.requeued) ports.log?.(`reclaimed ${reclaimed.requeued} URL(s) left in flight`);
  if (reclaimed.failed) ports.log?.(`failed ${reclaimed.failed} URL(s) in flight at every stop of the worker`);
  // The graph is written with each commit; what the strategy saved besides, after its last re-rank.
  if (strategy.restore && crawl.nextSeq > 1) strategy.restore(await store.strategyMemory(crawlId));
  ctx.learner = new CrawlLearner({
    store, clock, log: ports.log, crawlId, topicId: crawl.topicId, config: ctx.config, strategy,
    authority: () => ctx.authority,
    halted: () => ctx.halted, fail: (err) => ctx.requestHalt('paused', describeFatal(err)),
  }, await loadModel(store, crawl.topicId, ctx.config.judge.threshold));
  ctx.recall = new RecallWatch({
    crawlId, store, clock, log: ports.log, strategy, config: () => ctx.config, judge: () => ctx.learner.model.judge,
    halted: () => ctx.halted, finish: (message) => ctx.requestHalt('finished', message),
  }, crawl.stats.fetched);
  return ctx;
}

/**
 * The strategy, its re-ranking keeping a presumed duplicate behind the rest (docs/duplicates.md): however a queued
 * URL is re-scored (the model learned, more links were found to it), one presumed another spelling of a page the crawl
 * knows keeps its penalty until a link that presumes nothing raises it.
 */
function presuming(strategy: Strategy): Strategy {
  if (!strategy.followsModel) return strategy;
  const wrapped: Strategy = Object.create(strategy);
  wrapped.rerank = (entry, logOdds) => {
    const priority = strategy.rerank(entry, logOdds);
    return priority === null || !entry.presumed ? priority : priority - PRESUMED_PENALTY;
  };
  return wrapped;
}

/** A sentence for errors that stop the whole crawl (storage, mostly): the crawl pauses and can be resumed. */
export function describeFatal(err: unknown): string {
  const name = err instanceof Error ? (err as Error & { inner?: Error }).inner?.name ?? err.name : '';
  const msg = err instanceof Error ? err.message : String(err);
  if (/QuotaExceeded/i.test(name) || /quota/i.test(msg)) {
    return 'storage is full: free disk space, then resume; everything collected so far is kept';
  }
  return `paused after an internal error: ${msg}; resume to continue (nothing collected was lost)`;
}
