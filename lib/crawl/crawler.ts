// One crawl's run: training reads (SPEC A.6), then the best-first loop (SPEC A.7) under politeness.
// The runner holds no state that matters across a stopped service worker: everything is in the store,
// and `run()` picks up wherever the crawl row and the frontier say it is.
import type { Clock, FetchOutcome, FetchPort } from '../fetch/fetcher';
import { RequestGate, type GateResult } from '../fetch/request-gate';
import { parseHtml } from '../parse/html';
import type { CrawlRecord, CrawlState, RescoreReport } from '../store/db';
import type { CrawlStore, PageCommit } from '../store/crawl-store';
import type { FrontierEntry, LabeledLink, ParsedPage } from '../types';
import { hostOf, normalizeUrl, requestUrl, siteOf } from '../url';
import type { CrawlConfig } from './config';
import { createStrategy } from '../strategies/registry';
import type { PageRole, Strategy } from '../strategies/types';
import { hubBuckets } from '../classifier/link-features';
import { TargetAuthority } from '../classifier/authority';
import { compileRules, planChildren, type CrawlRules, type LabeledPages } from './children';
import { describeBlock } from './safety';
import { CommitQueue } from './commit-queue';
import { CrawlLearner } from './learner';
import { loadModel, type CrawlModel } from './model';
import { commitForNonPage, pageRow, sessionLostMessage, takenFrom } from './outcome';
import { Politeness } from './politeness';
import { isPrivateHost } from './private-host';
import { DEFAULT_ROBOTS_OPTIONS, RobotsCache } from './robots';
import type { ReadPage } from '../template/search';
import { cycleCutShort, everyOf, finishCycle, seedCycle, specsOf } from '../template/cycle';
import { planRecord } from '../template/harvest';
import { isFinalPage, layerOf } from '../strategies/template';

export interface CrawlerPorts {
  store: CrawlStore;
  fetch: FetchPort;
  clock: Clock;
  /** Called at least every 20 s while running: the extension uses it to keep its service worker alive. */
  keepAlive?: () => void;
  log?: (line: string) => void;
}

type Halt = 'paused' | 'stopped';
type NewLinkLabel = Omit<LabeledLink, 'id' | 'crawlId' | 'topicId'>;

const MODEL_SAVE_EVERY = 25;

export class CrawlRunner {
  private halt: { as: Halt; message: string } | null = null;
  private readonly active = new Map<string, Promise<void>>();
  private politeness!: Politeness;
  private gate!: RequestGate;
  /** How the crawl's strategy and blacklist admit new URLs, inside each page commit. */
  private admission!: PageCommit['admission'];
  /** Redirect targets being requested under another entry: not taken meanwhile. */
  private readonly claimed = new Set<string>();
  /**
   * Pages training read (their URL and final URL, normalized), by the seq of that read: the crawl judges them from
   * the stored copy when it reaches them, without a request.
   */
  private copies = new Map<string, number>();
  private learner!: CrawlLearner;
  /** The authority of URLs among the labeled training pages' links (null without both training lists, or when off). */
  private authority: TargetAuthority | null = null;
  private config!: CrawlConfig;
  /** The crawl's strategy, made once per run: it may keep state across pages. */
  private strategy!: Strategy;
  /** The config's scope and safety rules and labeled pages, compiled again only when template seeding changes the seeds. */
  private rules!: CrawlRules;
  /** The topic it learns from; set when `run()` reads the crawl row. */
  topicId = 0;
  /** Crawl-phase requests made or in flight: the budget counts these. */
  private reserved = 0;
  private sinceSave = 0;
  private activeMsBase = 0;
  private startedAt = 0;
  private lastKeepAlive = 0;

  private readonly commits: CommitQueue;

  constructor(private readonly ports: CrawlerPorts, readonly crawlId: number) {
    this.commits = new CommitQueue(ports.store, () => ports.clock.now());
  }

  /** URLs being fetched right now by this runner. */
  inFlight(): string[] {
    return [...this.active.keys()];
  }

  /** The current model (the service scores links for the labeler with it). */
  currentModel(): CrawlModel {
    return this.learner.model;
  }

  /** The newest re-scoring of the frontier, if any ran in this worker. */
  rescoreReport(): RescoreReport | null {
    return this.learner.lastRescore;
  }

  /** Catches the model up with the topic's labels (a label was just made elsewhere). */
  requestSync(): Promise<void> {
    return this.learner.requestSync();
  }

  /** Rebuilds the model from every label (the dashboard's "Retrain"), then re-scores the frontier. */
  retrain(): Promise<CrawlModel> {
    return this.learner.retrain();
  }

  /** Asks the loop to stop taking URLs; in-flight fetches finish and are recorded. */
  requestHalt(as: Halt, message: string): void {
    this.halt ??= { as, message };
  }

  async run(): Promise<CrawlRecord> {
    const { store, clock } = this.ports;
    let crawl = await this.mustGet();
    this.config = crawl.config;
    this.topicId = crawl.topicId;
    this.strategy = createStrategy(this.config);
    this.rules = compileRules(this.config);
    this.politeness = new Politeness(this.config.politeness);
    this.gate = this.makeGate();
    this.admission = { strategy: this.strategy, siteBlacklist: this.config.siteBlacklist ?? [] };
    this.activeMsBase = crawl.activeMs;
    this.startedAt = clock.now();
    this.reserved = crawl.stats.attempts;
    const reclaimed = await store.frontier.reclaimInFlight(this.crawlId, clock.now());
    if (reclaimed.requeued) this.ports.log?.(`reclaimed ${reclaimed.requeued} URL(s) left in flight`);
    if (reclaimed.failed) this.ports.log?.(`failed ${reclaimed.failed} URL(s) in flight at every stop of the worker`);
    // A strategy that reasons over the crawled graph picks up where it was (the graph is written with each commit).
    const { strategy } = this;
    if (strategy.restore && crawl.nextSeq > 1) strategy.restore(await store.strategyMemory(this.crawlId));
    this.learner = new CrawlLearner({
      store, clock, log: this.ports.log, crawlId: this.crawlId, topicId: this.topicId, config: this.config, strategy,
      authority: () => this.authority,
      halted: () => this.halt !== null, fail: (err) => this.requestHalt('paused', describeFatal(err)),
    }, await loadModel(store, this.topicId, this.config.judge.threshold));
    try {
      this.authority = await this.loadAuthority();
      if (crawl.state !== 'training') await this.fitAuthority();
      if (this.config.template && !crawl.templateRun?.seeded) await this.seedFromSearch();
      if (crawl.state === 'training') {
        await this.train();
        if (!this.halt) await store.updateCrawl(this.crawlId, { state: 'running', message: undefined });
      }
      // Labels may have come while the crawl was paused: its queued links were scored by an older model.
      if (!this.halt) this.learner.resumeRescoring(crawl);
      if (!this.halt) this.copies = await this.loadCopies();
      const end = this.halt ? null : await this.crawlLoop();
      await this.learner.windDown();
      await this.learner.save();
      const final: { state: CrawlState; message: string } = this.halt
        ? { state: this.halt.as, message: this.halt.message }
        : end!;
      // SPEC E.6: only a cycle that reached everything it could may say which records vanished; one that
      // ran out of budget or failed is still due again after the template's period.
      if (this.config.template && (final.state === 'finished' || final.state === 'failed')) {
        const ended = await this.mustGet();
        const complete = final.state === 'finished' && /frontier empty/.test(final.message);
        const templateRun = complete ? await finishCycle(store.records, ended, clock.now()) : cycleCutShort(ended, clock.now());
        await store.updateCrawl(this.crawlId, { templateRun });
      }
      crawl = await store.updateCrawl(this.crawlId, {
        ...final, activeMs: this.activeMs(), finishedAt: final.state === 'finished' ? clock.now() : undefined, waiting: undefined,
      });
    } catch (err) {
      await Promise.allSettled(this.active.values());
      await this.learner?.windDown().catch(() => undefined);
      const message = describeFatal(err);
      crawl = await store.updateCrawl(this.crawlId, { state: 'paused', message, activeMs: this.activeMs() });
      this.ports.log?.(message);
    }
    return crawl;
  }

  /** The crawl's one way to the network: every request passes its gates (request-gate.ts). */
  private makeGate(): RequestGate {
    const { clock } = this.ports;
    const { outOfScope, safety } = this.rules;
    const robots = this.config.politeness.robots;
    const gate: RequestGate = new RequestGate(this.ports.fetch, clock, {
      unsafe: (url, link) => {
        const block = safety.check(url, link);
        return block ? describeBlock(block) : null;
      },
      outOfScope,
      // Scope names the private and loopback addresses a seed does not; that reason, for those addresses only.
      privateTarget: (url) => (isPrivateHost(new URL(url).hostname) ? outOfScope(url) : null),
      canonical: (url) => this.canonical(url),
      halted: () => this.halt !== null,
    }, this.politeness, robots ? (load) => new RobotsCache(load, clock, { ...DEFAULT_ROBOTS_OPTIONS, retryBaseMs: this.config.fetch.retryBaseMs }) : null, {
      timeoutMs: this.config.fetch.timeoutMs, maxBytes: this.config.fetch.maxBytes, maxRedirects: 10,
    });
    return gate;
  }

  /** Dedup of a redirect target met under another entry: null when it may be requested now (and is held). */
  private async claim(url: string, held: string[]): Promise<string | null> {
    if (this.claimed.has(url) || this.active.has(url)) return 'the target is being fetched right now';
    this.claimed.add(url); // before the read, so two chains cannot both claim it
    const known = await this.ports.store.frontier.getEntry(this.crawlId, url);
    if (known && known.state !== 'queued') {
      this.claimed.delete(url);
      return known.state === 'done' ? 'the target was already fetched' : `the target is already known (${known.state})`;
    }
    held.push(url);
    return null;
  }

  private activeMs(): number {
    return this.activeMsBase + (this.ports.clock.now() - this.startedAt);
  }

  private async mustGet(): Promise<CrawlRecord> {
    const crawl = await this.ports.store.getCrawl(this.crawlId);
    if (!crawl) throw new Error(`crawl ${this.crawlId} does not exist`);
    return crawl;
  }

  private tick(): void {
    const now = this.ports.clock.now();
    if (now - this.lastKeepAlive > 20_000) {
      this.lastKeepAlive = now;
      this.ports.keepAlive?.();
    }
  }

  // ---- template seeding (SPEC E.2, E.3) ----

  /** Searches the engine, samples the results and queues them as the crawl's seeds (which its scope follows). */
  private async seedFromSearch(): Promise<void> {
    const config = await seedCycle({
      store: this.ports.store, crawl: await this.mustGet(), config: this.config, strategy: this.strategy, read: this.readSearchPage,
      halted: () => this.halt !== null, now: () => this.ports.clock.now(), log: this.ports.log,
    });
    if (!config) return;
    this.config = config;
    this.rules = compileRules(config); // the scope now holds the seeds' hosts
    this.gate = this.makeGate();
  }

  /** A result page, through the gate like every request, in the user's browser session. */
  private readonly readSearchPage: ReadPage = async (url) => {
    await this.waitForHost(hostOf(url));
    const result = await this.gate.page(url, undefined, async () => null);
    if (result.kind === 'sessionLost') {
      await this.loseSession(result);
      return { error: sessionLostMessage(result) };
    }
    if (result.kind !== 'response') return { error: result.reason };
    const { out } = result;
    if (out.error || out.html === null) return { error: out.error ?? 'no HTML body' };
    return { html: out.html, url: out.finalUrl };
  };

  // ---- training (SPEC A.6): labeled links from the link-source pages, labeled pages for the judge ----

  private async train(): Promise<void> {
    const { store } = this.ports;
    const done = await store.pages.trainedUrls(this.crawlId);
    const todo = this.config.training.linkSources.filter((u) => !done.has(u));
    let next = 0;
    const worker = async () => {
      while (!this.halt && next < todo.length) {
        const url = todo[next++];
        await this.waitForHost(hostOf(url));
        await this.trainOn(url);
      }
    };
    await Promise.all(Array.from({ length: this.config.politeness.concurrency }, worker));
    if (this.halt) return;
    await this.fitAuthority();
    await this.learner.requestSync();
    // The judge learns training pages as they arrive; if an earlier worker read some of them, their lessons
    // are in the store only, so the model is rebuilt from it (exact, and costs one parse per training page).
    if (done.size > 0) await this.learner.rebuild();
    await this.learner.save();
  }

  /** Waits for a politeness slot of `host` and takes it (training reads, which are not frontier entries). */
  private async waitForHost(host: string): Promise<void> {
    for (;;) {
      this.tick();
      const w = this.politeness.waitFor(host, this.ports.clock.now());
      if (w === 0) return this.politeness.begin(host);
      await this.ports.clock.sleep(Math.min(w === Infinity ? 50 : w, 1000));
    }
  }

  /**
   * The authority of URLs among the labeled training pages' links: those read so far (a restart reads them back
   * from the store), fitted when training is over. Null when off, or without both training lists to fit it on.
   */
  private async loadAuthority(): Promise<TargetAuthority | null> {
    const { base } = this.rules.labeled;
    if (!this.config.classifier.targetAuthority || base === null) return null;
    const authority = new TargetAuthority(base);
    for (const { label, links } of await this.ports.store.labeledOutlinks(this.crawlId)) authority.add(label, links);
    return authority;
  }

  /** The pages training read, by their normalized URL and final URL (what `copies` holds). */
  private async loadCopies(): Promise<Map<string, number>> {
    const copies = new Map<string, number>();
    for (const { url, finalUrl, seq } of await this.ports.store.pages.trainingCopies(this.crawlId)) {
      for (const u of [url, finalUrl]) {
        const key = this.canonical(u);
        if (key && !copies.has(key)) copies.set(key, seq);
      }
    }
    return copies;
  }

  /** Fits the authority on the labeled pages, and keeps what it learned on the crawl row (the dashboard shows it). */
  private async fitAuthority(): Promise<void> {
    if (!this.authority) return;
    const { counts, logOdds } = this.authority.fit(this.rules.labeled.label);
    const summary = { urls: this.authority.size, labeled: counts.reduce((n, [off, on]) => n + off + on, 0), logOdds };
    this.ports.log?.(`URL authority: ${summary.urls} URLs linked from labeled pages, fitted on ${summary.labeled} labeled ones; ` +
      `log-odds by bucket ${logOdds.map((x) => x.toFixed(2)).join(' ')}`);
    await this.ports.store.updateCrawl(this.crawlId, { authority: summary });
  }

  /** A URL as the crawl keys it (its `canonical` rules), or null when it is not a URL the crawl can fetch. */
  private canonical(url: string): string | null {
    return normalizeUrl(url, undefined, this.config.canonical);
  }

  private async trainOn(url: string): Promise<void> {
    const { clock } = this.ports;
    const { labeled } = this.rules;
    // A link source is a page of the user's choosing: it is expected to open with their session.
    const result = await this.gate.page(requestUrl(url) ?? url, { expectsSession: true }, async () => null);
    if (result.kind === 'sessionLost') await this.loseSession(result);
    const out: FetchOutcome | null = result.kind === 'response' || result.kind === 'sessionLost' ? result.out : result.kind === 'retry' ? result.out ?? null : null;
    const error = result.kind === 'response' ? out!.error : result.kind === 'sessionLost' ? sessionLostMessage(result) : result.reason;
    const parsed = out && out.html !== null && !error ? parseHtml(out.html, out.finalUrl) : null;
    // A link source that is itself a known positive or negative page teaches the page judge, and its links
    // the parent-page feature.
    // The page and its links as the crawl keys URLs: labels are read by those, so a link written `/a#top` or
    // `HTTP://Host/a` is the page `/a` a pattern names, as it is when the crawl meets it.
    const self = parsed ? [url, out!.finalUrl].map((u) => this.canonical(u)) : [];
    const linkUrls = parsed ? parsed.links.map((link) => this.canonical(link.url)) : [];
    const isTarget = (u: string | null): u is string => u !== null && !self.includes(u);
    const pageLabel = parsed ? pageLabelOf(self, labeled) : null;
    const parent = pageLabel === null ? {} : { parentOnTopic: pageLabel === 1 };
    // A labeled page's links count toward the authority of the URLs they lead to (each once, the page itself left
    // out; stored, so a restart reads them back).
    const outlinks = pageLabel !== null && this.authority ? [...new Set(linkUrls.filter(isTarget))] : undefined;
    if (outlinks) this.authority!.add(pageLabel!, outlinks);
    const labels: NewLinkLabel[] = [];
    if (parsed) {
      // A link to the page itself teaches nothing: the crawl never queues one.
      const known = linkUrls.map((u) => ({ url: u ?? '', label: isTarget(u) ? labeled.label(u) : undefined }));
      // Each labeled link's parent-hub bucket: how often the page's other labeled links lead on topic, as planChildren
      // measures it for crawl links.
      const hubs = labeled.base === null ? [] : hubBuckets(known, labeled.base);
      parsed.links.forEach((link, i) => {
        const { label } = known[i]!;
        const parentHub = hubs[i];
        if (label !== undefined) {
          labels.push({ url: known[i]!.url, anchor: link.anchor, context: link.context, label, source: 'auto', createdAt: clock.now(), ...parent,
            ...(parentHub === undefined ? {} : { parentHub }) });
        }
      });
    }
    const taken = { phase: 'train' as const, depth: 0, parentUrl: null, score: 0 };
    await this.commits.submit({
      crawlId: this.crawlId, outcome: parsed ? 'done' : 'failed',
      page: parsed ? this.judgedRow(url, out!, parsed, taken, null, result.chain)
        : pageRow(url, taken, clock.now(), out, result.chain, { error: error ?? 'no HTML body', outcome: 'failed' }),
      body: parsed ? { headers: out!.headers, html: out!.html!, ...(out!.payload ? { payload: out!.payload } : {}) } : undefined,
      children: [], aliases: [], labels, ...(pageLabel === null ? {} : { pageLabel }), ...(outlinks ? { outlinks } : {}),
      site: siteOf(url), stats: { trainPages: 1 }, activeMs: this.activeMs(),
    });
    if (pageLabel !== null) this.learner.model.judge.learn(parsed!, pageLabel);
    void this.learner.requestSync();
  }

  // ---- the crawl loop (SPEC A.7) ----

  private async crawlLoop(): Promise<{ state: CrawlState; message: string }> {
    const { clock } = this.ports;
    const { maxPages } = this.config.budget;
    let recounted = false;
    for (;;) {
      this.tick();
      if (this.halt) break;
      let waitMs = 0;
      let waitingOn: FrontierEntry | undefined;
      while (this.active.size < this.config.politeness.concurrency && this.reserved < maxPages) {
        const want = Math.min(this.config.politeness.concurrency - this.active.size, maxPages - this.reserved);
        const taken = await this.takeBatch(want);
        for (const entry of taken.entries) this.launch(entry);
        if (taken.entries.length < want) {
          waitMs = taken.waitMs;
          waitingOn = taken.waitingOn;
          break;
        }
      }
      // Nothing in flight and a wait ahead: say what for (the popup's "Fetching now" shows it).
      await this.noteWaiting(this.active.size === 0 && waitMs > 0 && waitMs !== Infinity ? waitingOn : undefined, waitMs);
      if (this.active.size === 0) {
        if (this.reserved >= maxPages) return this.ending(`page budget reached (${maxPages} pages)`);
        if (waitMs === Infinity) {
          // "Empty" is told only when no URL is queued: counted, not inferred from what a take saw.
          const left = await this.ports.store.frontier.countByState(this.crawlId, 'queued');
          if (left === 0) return this.ending('frontier empty: every reachable page in scope was fetched');
          if (recounted) throw new Error(`${left} queued URL(s) could not be taken`);
          recounted = true;
          this.ports.log?.(`a take found nothing while ${left} URL(s) are queued: scanning the frontier again from its top`);
          this.ports.store.frontier.forgetBound(this.crawlId);
          continue;
        }
      }
      recounted = false;
      const sleep = waitMs === Infinity ? [] : [clock.sleep(Math.max(5, Math.min(waitMs, 1000)))];
      await Promise.race([...this.active.values(), ...sleep]);
    }
    await Promise.allSettled(this.active.values());
    return { state: this.halt!.as, message: this.halt!.message };
  }

  private waitingText: string | null = null;

  /** Records what the crawl waits for on its row when that changes (null: it waits for nothing). */
  private async noteWaiting(entry: FrontierEntry | undefined, waitMs: number): Promise<void> {
    const now = this.ports.clock.now();
    let text: string | null = null;
    if (entry) {
      text = entry.notBefore !== undefined && entry.notBefore > now
        ? `${entry.host}: ${entry.reason ?? 'asked to come back later'}`
        : this.politeness.waitReason(entry.host, now) ?? `${entry.host}`;
    }
    if (text === this.waitingText) return;
    this.waitingText = text;
    await this.ports.store.updateCrawl(this.crawlId, { waiting: text === null ? undefined : { text, until: now + waitMs } }).catch(() => undefined);
  }

  /** Takes up to `want` ready URLs in one transaction, reserving their hosts' politeness slots as it goes. */
  private async takeBatch(want: number): Promise<{ entries: FrontierEntry[]; waitMs: number; waitingOn?: FrontierEntry }> {
    const { clock, store } = this.ports;
    const hosts: string[] = [];
    const reserve = (entry: FrontierEntry) => {
      if (this.claimed.has(entry.url)) return 50; // its page is being reached through a redirect right now
      if (this.copies.has(entry.url)) return 0; // read in training: judged from its copy, no request to wait for
      const w = this.politeness.waitFor(entry.host, clock.now());
      if (w === 0) {
        this.politeness.begin(entry.host);
        hosts.push(entry.host);
      }
      return w;
    };
    try {
      return await store.frontier.take(this.crawlId, reserve, clock.now(), want, undefined, this.strategy.next);
    } catch (err) {
      for (const h of hosts) this.politeness.end(h, clock.now()); // nothing was taken
      throw err;
    }
  }

  /** Runs one taken URL; its host slot is already reserved. */
  private launch(entry: FrontierEntry): void {
    const copy = this.copies.get(entry.url);
    if (copy === undefined) this.reserved++;
    const task = (copy === undefined ? this.process(entry) : this.processCopy(entry, copy))
      .catch((err) => this.requestHalt('paused', describeFatal(err)))
      .finally(() => this.active.delete(entry.url));
    this.active.set(entry.url, task);
  }

  private async process(entry: FrontierEntry): Promise<void> {
    const held: string[] = [];
    try {
      // Requested as the site spelled it; known by its canonical form. A seed, or a page asked for before, is expected
      // to open with the user's session (`attempts` counts this take too).
      const expectsSession = entry.depth === 0 || entry.attempts > 1;
      const result = await this.gate.page(entry.href ?? entry.url, { anchor: entry.anchor, expectsSession }, (url) => this.claim(url, held));
      if (result.kind === 'sessionLost') await this.loseSession(result);
      if (result.kind === 'response') await this.recordResponse(entry, result);
      else await this.recordNonPage(entry, result);
    } finally {
      for (const url of held) this.claimed.delete(url);
    }
  }

  /**
   * A page training already read: judged and planned from the stored copy, as if it had just been fetched, without a
   * request (the budget does not count it). Its row points at the training read it was judged from.
   */
  private async processCopy(entry: FrontierEntry, seq: number): Promise<void> {
    const { pages } = this.ports.store;
    const [row, [body]] = await Promise.all([pages.getPage(this.crawlId, seq), pages.bodies([{ crawlId: this.crawlId, seq }])]);
    if (!row || !body) {
      // The copy is gone (the crawl's pages were cleared): the URL is taken again and requested like any other.
      this.copies.delete(entry.url);
      await this.commits.submit({
        crawlId: this.crawlId, entry, outcome: 'retry', aliases: [], labels: [], children: [], site: siteOf(entry.url),
        stats: {}, activeMs: this.activeMs(),
      });
      return;
    }
    const out: FetchOutcome = {
      url: row.url, finalUrl: row.finalUrl, status: row.status, contentType: row.contentType, headers: body.headers, html: body.html,
      payload: body.payload ?? null, charset: null, bytes: row.bytes, truncated: row.truncated, durationMs: 0,
    };
    await this.recordResponse(entry, { kind: 'response', out, chain: [] }, { seq, fetchedAt: row.fetchedAt });
  }

  /**
   * A request ended the user's session: the crawl pauses at once (no new request starts), saying which URL and what
   * to do, before the outcome is recorded. Going on would crawl logged out, every page a login form.
   */
  private async loseSession(lost: Extract<GateResult, { kind: 'sessionLost' }>): Promise<void> {
    const message = sessionLostMessage(lost);
    this.requestHalt('paused', message);
    this.ports.log?.(message);
    await this.ports.store.updateCrawl(this.crawlId, {
      message, sessionLost: { url: lost.url, by: lost.loss.by, what: lost.loss.what, at: this.ports.clock.now() },
    });
  }

  /** A block, a retry or a failure for good: nothing to judge. */
  private async recordNonPage(entry: FrontierEntry, result: Exclude<GateResult, { kind: 'response' }>): Promise<void> {
    const { clock } = this.ports;
    const { commit, requested, retryInMs } = commitForNonPage(this.crawlId, entry, result, clock.now(), this.config.fetch, this.activeMs());
    if (!requested) this.reserved--; // the budget counts requests made
    const report = this.liveReport();
    if (report) commit.strategyReport = report;
    if (retryInMs !== undefined) {
      if (requested) this.reserved--; // the URL is asked again: counted then
      const host = result.kind === 'retry' && result.out ? hostOf(result.out.url) : entry.host;
      this.politeness.backOff(host, clock.now() + retryInMs, commit.entry!.reason);
      this.ports.log?.(`${entry.url}: ${commit.entry!.reason}`);
    }
    await this.commits.submit(commit);
  }

  /** `copy`: the training read the page was judged from, when no request was made for it. */
  private async recordResponse(entry: FrontierEntry, result: Extract<GateResult, { kind: 'response' }>, copy?: { seq: number; fetchedAt: number }): Promise<void> {
    const { clock } = this.ports;
    const { out, chain } = result;
    const base = { crawlId: this.crawlId, entry, aliases: [] as string[], labels: [], children: [], site: siteOf(entry.url) };
    const taken = takenFrom(entry);
    const parsed = out.html !== null && !out.error ? safeParse(out.html, out.finalUrl) : null;
    if (!parsed || 'error' in parsed) {
      const error = out.error ?? (parsed && 'error' in parsed ? parsed.error : 'no HTML body');
      await this.commits.submit({
        ...base, entry: { ...entry, reason: error }, outcome: 'failed',
        page: pageRow(entry.url, taken, clock.now(), out, chain, { error, outcome: 'failed' }),
        stats: { attempts: 1, failed: 1, bytes: out.bytes }, activeMs: this.activeMs(),
      });
      return;
    }
    const { strategy } = this;
    const { judge, link } = this.learner.model;
    // SPEC D.1: a list page is mined for links, neither judged nor counted as content.
    const role = strategy.pageRole?.(entry, out.finalUrl);
    const judged = role?.listing ? null : judge.judge(parsed, this.config.judge.smoothing);
    const verdict = judged && { ...judged, relevant: judged.relevance >= this.config.judge.threshold };
    const relevant = verdict?.relevant ?? false;
    const dropped: Record<string, number> = {};
    const children = planChildren(parsed, entry, out.finalUrl, this.config, link, relevant, dropped, this.authority, { strategy, rules: this.rules });
    const { fromVerdicts, linksToJudged } = this.config.learning;
    const teaches = verdict && fromVerdicts && learnable(verdict);
    const labels: NewLinkLabel[] =
      teaches && entry.parentUrl !== null
        ? [{ url: entry.url, anchor: entry.anchor, context: entry.context, label: verdict.relevant ? 1 : 0, source: 'verdict', createdAt: clock.now(),
            ...(entry.parentOnTopic === undefined ? {} : { parentOnTopic: entry.parentOnTopic }),
            ...(entry.parentHub === undefined ? {} : { parentHub: entry.parentHub }) }]
        : [];
    // Every URL of the redirect chain after the first, and the final one, are this page: never fetched again.
    const aliases = [...new Set([...chain.slice(1).map((h) => this.canonical(h.url)), this.canonical(out.finalUrl)])]
      .filter((u): u is string => u !== null && u !== entry.url);
    const outlinks = strategy.keepsGraph && relevant ? children.filter((c) => !c.skip).map((c) => c.url) : undefined;
    const report = this.liveReport();
    const [requests, downloaded] = copy ? [0, 0] : [1, out.bytes];
    const commit: PageCommit = {
      ...base, outcome: 'done', labels, children, aliases, dropped, admission: this.admission, ...(outlinks ? { outlinks } : {}),
      ...(teaches && linksToJudged ? { verdict: relevant ? 1 : 0 } : {}),
      ...(fromVerdicts && linksToJudged ? { learnLinksToJudged: true } : {}),
      ...(this.config.classifier.everyLink && strategy.followsModel ? { everyLink: (e: FrontierEntry, lo: number) => strategy.rerank(e, lo) } : {}),
      // A copy's content is as fetched when training read it: it carries that time (an archive dates it so).
      page: { ...this.judgedRow(entry.url, out, parsed, { ...taken, ...(role ? { urlClass: role.urlClass } : {}) }, verdict, chain),
        ...(copy ? { copyOf: copy.seq, fetchedAt: copy.fetchedAt } : {}) },
      // A copy keeps the body too, so a page of the crawl can be labeled and exported like any other.
      body: { headers: out.headers, html: out.html!, ...(out.payload ? { payload: out.payload } : {}) },
      // A copy made no request and downloaded nothing.
      stats: verdict
        ? { attempts: requests, fetched: 1, relevant: relevant ? 1 : 0, bytes: downloaded, ...(verdict.by === 'keywords' ? { keywordVerdicts: 1 } : {}), ...(copy ? { copies: 1 } : {}) }
        : { attempts: requests, listPages: 1, bytes: downloaded, ...(copy ? { copies: 1 } : {}) },
      ...(role?.refreshInMs !== undefined ? { requeueAt: clock.now() + role.refreshInMs } : {}),
      ...(report ? { strategyReport: report } : {}),
      activeMs: this.activeMs(),
    };
    // SPEC E.5: a template's final page: its fields become a record, committed with the page.
    const template = this.config.template;
    if (template && isFinalPage(layerOf(entry.strategy), template.filters.length, children.filter((c) => !c.skip).map((c) => layerOf(c.strategy)))) {
      const record = await planRecord(this.ports.store.records, specsOf(template), everyOf(template), {
        crawlName: this.config.name, crawlId: this.crawlId, url: entry.url, html: out.html!, text: parsed.text, now: clock.now(),
      });
      if (record) commit.record = record;
    }
    await this.commits.submit(commit);
    // With links to judged pages learned, the store may have added labels of its own.
    this.learner.pageDone(labels.length + (fromVerdicts && linksToJudged ? 1 : 0));
    this.tellStrategy(entry.url, parsed.text, relevant, children, role);
    if (++this.sinceSave >= MODEL_SAVE_EVERY) {
      this.sinceSave = 0;
      await this.learner.save();
    }
  }

  private judgedRow(
    url: string, out: FetchOutcome, parsed: ParsedPage, taken: ReturnType<typeof takenFrom> | { phase: 'train'; depth: number; parentUrl: null; score: number },
    verdict: { relevance: number; relevant: boolean; by: 'model' | 'keywords' } | null, chain: GateResult['chain'],
  ): NonNullable<PageCommit['page']> {
    return pageRow(url, taken, this.ports.clock.now(), out, chain, {
      relevant: verdict ? verdict.relevant : null, relevance: verdict ? verdict.relevance : null, ...(verdict ? { judgedBy: verdict.by } : {}),
      title: parsed.title, textLength: parsed.text.length, linkCount: parsed.links.length, outcome: 'done',
    });
  }

  /** A strategy's report that follows every take (its queues), to go with a commit. */
  private liveReport(): Record<string, unknown> | undefined {
    const { strategy } = this;
    return strategy.reportsLive ? strategy.report?.() ?? undefined : undefined;
  }

  /** The strategy sees each judged page after its commit; a HITS round (SPEC C) asks for the queue to be re-ranked. */
  private tellStrategy(url: string, text: string, relevant: boolean, children: PageCommit['children'], role?: PageRole): void {
    const { strategy } = this;
    if (!strategy.afterPage) return;
    const links = children.filter((c) => !c.skip).map((c) => c.url);
    const asked = strategy.afterPage({ url, text, relevant, links, ...(role ? { role } : {}) });
    if (asked === 'report') {
      const report = strategy.reportsLive ? null : strategy.report?.();
      if (report) void this.ports.store.updateCrawl(this.crawlId, { strategyReport: report }).catch(() => undefined);
      if (strategy.save) void this.ports.store.saveStrategyState(this.crawlId, strategy.save(), this.ports.clock.now()).catch(() => undefined);
    }
    if (asked !== 'rerank') return;
    this.learner.scheduleRescore('the link graph was re-ranked (HITS)');
    const report = strategy.report?.();
    if (report) void this.ports.store.updateCrawl(this.crawlId, { strategyReport: report }).catch(() => undefined);
    if (strategy.save) void this.ports.store.saveStrategyState(this.crawlId, strategy.save(), this.ports.clock.now()).catch(() => undefined);
  }

  /**
   * How the crawl ends when it runs out of work or budget: finished when it fetched something, else failed,
   * with what went wrong with its seeds (a 404, a PDF, an unreachable host...).
   */
  private async ending(message: string): Promise<{ state: CrawlState; message: string }> {
    const crawl = await this.mustGet();
    if (crawl.stats.fetched > 0 || crawl.stats.trainPages > 0 || (crawl.stats.listPages ?? 0) > 0) return { state: 'finished', message };
    const run = crawl.templateRun;
    if (run && run.results.length === 0) {
      return { state: 'failed', message: `the search found no result links${run.searchErrors.length ? ` (${run.searchErrors.slice(0, 2).join('; ')})` : ''}: check template.search` };
    }
    const rows = await this.ports.store.pages.pagesAfter(this.crawlId, 0, 50);
    const why = rows.filter((p) => p.phase === 'crawl' && p.depth === 0 && p.error).map((p) => `${p.url}: ${p.error}`).slice(0, 3);
    return { state: 'failed', message: `no page could be fetched${why.length ? ` (${why.join('; ')})` : ''}: check the seed URLs` };
  }
}

/**
 * Verdicts worth learning from: those of a judge trained on labeled pages. The keyword judge is a bootstrap
 * heuristic; even its clearest verdicts (relevance >= 0.95) taught the link classifier navigation-bar words
 * from the few early positives, lifting every link under the same navigation: on the demo site 12 of 14
 * topic pages in 40 fetches with them, all 14 in 25 without. Verdicts of a trained judge helped on
 * Wikispeedia (+1.5 points of harvest at 1,000 fetches).
 */
function learnable(v: { by: 'model' | 'keywords' }): boolean {
  return v.by === 'model';
}

/** A page's label from the URLs it was asked and answered by (normalized; null: not a URL). */
function pageLabelOf(urls: (string | null)[], { positive, negative }: LabeledPages): 0 | 1 | null {
  const known = urls.filter((u): u is string => u !== null);
  if (known.some((u) => positive.matches(u))) return 1;
  if (known.some((u) => negative.matches(u))) return 0;
  return null;
}

function safeParse(html: string, url: string): ParsedPage | { error: string } {
  try {
    return parseHtml(html, url);
  } catch (err) {
    return { error: `could not parse the page: ${err instanceof Error ? err.message : String(err)}` };
  }
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
