// The crawl service answers the message protocol and owns the runners of this worker. Platform-free:
// the background entrypoint gives it the store, fetch and clock, and forwards messages and alarms to it.
import { isExportFormat } from '../export/selection';
import type { CrawlStatus, ProtocolMap, Request } from './protocol';
import { frontierSize, type CrawlRecord } from '../records/rows';
import { seedCandidates } from '../learning/children';
import { ConfigError, type CrawlConfig } from '../records/config';
import { parseConfig } from './parse-config';
import type { CrawlerPorts } from '../run/context';
import { CrawlRunner } from '../run/runner';
import type { CrawlStore } from '../store/crawl-store';
import { PACK_ABOVE } from '../store/seed-lists';
import { identityPlan, type IdentityPort } from './identity';
import { TopicService } from './topic-service';
import { siteOfHostOrUrl } from '../records/url';
import { pagesPerMinute } from '../records/pace';
import { describedCrawlName } from '../records/crawl-name';
import { firstRun, nextCycle } from '../run/template-cycle';
import { createStrategy } from '../strategies/registry';
import { DEFAULT_SAFETY_RULES, YOUR_LIST } from '../records/safety-rules';
import type { Allowing } from '../store/kept-allow';
import type { Topic } from '../records/types';

export { describedCrawlName } from '../records/crawl-name';

/** The name of the topic an unnamed crawl makes: its first keywords, else the host of its first seed. */
export function newTopicName(config: Pick<CrawlConfig, 'topic' | 'seeds'>): string {
  const words = config.topic.keywords.slice(0, 3).join(', ');
  return words || new URL(config.seeds[0]!).hostname;
}

/**
 * The seeds a crawl row keeps of a big seed list: the first of each host. Scope (lib/policy/scope.ts) and the
 * crawl's identity (identity.ts) read only the seeds' hostnames and sites, so they answer as with the whole list,
 * and the row, written with every page, does not carry a copy of every seed (a 6,000-seed row made a crawl in Node
 * 2-3x slower; docs/benchmarks.md "Seed lists of a million URLs").
 */
export function seedsKept(seeds: readonly string[]): string[] {
  const byHost = new Map<string, string>();
  for (const s of seeds) {
    const host = new URL(s).hostname;
    if (!byHost.has(host)) byHost.set(host, s);
  }
  return [...byHost.values()];
}

/** What the user allows: a URL of the kept list, or one rule of the guard with the match it caught. */
function allowingOf(url: unknown, rule: unknown, match: unknown): Allowing {
  if (typeof url === 'string') {
    if (!/^https?:\/\//i.test(url)) throw new Error(`"${url}" is not a web address`);
    return { url };
  }
  if (typeof rule !== 'string' || typeof match !== 'string') throw new Error('name the URL to allow, or the rule and what it matched');
  if (!DEFAULT_SAFETY_RULES.includes(rule) && rule !== YOUR_LIST) {
    throw new Error(`"${rule}" is not a rule of the guard: allow the URL itself`);
  }
  return { rule, match };
}

/** Every request but `setLabeler` and `startShared`, which need the browser (its tabs, its fetch) and are answered by lib/platform. */
export type ServiceHandlers = { [K in Exclude<keyof ProtocolMap, 'setLabeler' | 'startShared'>]: (data: Request<K>) => Promise<ReturnType<ProtocolMap[K]>> };

/** The crawler's ports, and where the crawl's User-Agent is set (the extension's; none in Node). */
/** The run's ports, with the whole store: the service also creates, lists and deletes crawls and topics. */
export type ServicePorts = Omit<CrawlerPorts, 'store'> & {
  store: CrawlStore;
  identity?: IdentityPort;
  /** The run's store for a crawl on a shared frontier (lib/store/shared/shared-store.ts); undefined: the store itself. */
  runStoreFor?: (crawl: Pick<CrawlRecord, 'id' | 'config' | 'shared'>) => CrawlerPorts['store'] | undefined;
};

interface Running {
  runner: CrawlRunner;
  topicId: number;
  config: CrawlConfig;
  done: Promise<CrawlRecord>;
}

export class CrawlService {
  private readonly runners = new Map<number, Running>();
  /** Plans are applied one after another, each from the runners of the moment it is applied. */
  private identitySync: Promise<void> = Promise.resolve();

  readonly topics: TopicService;
  readonly handlers: ServiceHandlers;

  constructor(private readonly ports: ServicePorts) {
    this.topics = new TopicService(ports.store, ports.clock, (topicId) => this.runnersOf(topicId));
    this.handlers = { ...this.crawlHandlers, ...this.topics.handlers };
  }

  /** The runners in this worker of crawls of a topic. */
  runnersOf(topicId: number): CrawlRunner[] {
    return [...this.runners.values()].filter((r) => r.topicId === topicId).map((r) => r.runner);
  }

  /**
   * The topic a new crawl learns from: the one chosen by id, or the topic of the name a new one would get (the
   * crawl's name, or for an unnamed crawl its keywords), or a new one. One name is one topic: a second crawl
   * "for a new topic" of a name already taken learns from that topic, as if the user had chosen it, rather than
   * piling up another entry the topic list cannot tell apart.
   */
  private async topicFor(config: CrawlConfig, unnamed: boolean): Promise<{ topic: Topic; created: boolean }> {
    const { store, clock } = this.ports;
    if (config.topic.id === undefined) {
      const name = unnamed ? newTopicName(config) : config.name;
      const same = await this.topicNamed(name);
      if (same) return { topic: await this.takeTopic(same, config), created: false };
      return { topic: await store.topics.createTopic(name, config.topic.keywords, clock.now()), created: true };
    }
    const topic = await store.topics.getTopic(config.topic.id);
    if (!topic) throw new ConfigError(`topic.id: there is no topic ${config.topic.id}`);
    return { topic: await this.takeTopic(topic, config), created: false };
  }

  /** An existing topic for a crawl: the crawl's keywords, when it gives some, become the topic's. */
  private async takeTopic(topic: Topic, config: CrawlConfig): Promise<Topic> {
    const { store, clock } = this.ports;
    if (config.topic.keywords.length) return store.topics.updateTopic(topic.id!, { keywords: config.topic.keywords }, clock.now());
    if (!topic.keywords.length && !config.training.positive.length && !(await store.topics.hasLabels(topic.id!))) {
      throw new ConfigError(`topic "${topic.name}" has no keywords and no labels yet: give keywords, or label some links first`);
    }
    return topic;
  }

  /** The oldest topic of that name, letter case and spaces aside. */
  private async topicNamed(name: string): Promise<Topic | undefined> {
    const key = name.trim().toLowerCase();
    return (await this.ports.store.topics.listTopics()).find((t) => t.name.trim().toLowerCase() === key);
  }

  /** A name no other crawl has: the described name, then "(2)", "(3)"... */
  private async freeCrawlName(base: string): Promise<string> {
    const taken = new Set((await this.ports.store.db.crawls.toArray()).map((c) => c.name));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base} (${n})`;
    return name;
  }

  /** Called whenever the worker starts or an alarm fires: crawls that were running continue by themselves. */
  async resumeUnfinished(): Promise<number[]> {
    const crawls = await this.ports.store.crawlsInState(['running', 'training']);
    const resumed = crawls.filter((c) => !this.runners.has(c.id!)).map((c) => (this.launch(c), c.id!));
    // A rule left by a worker that stopped while nothing was running goes (none resumed: no launch updated it).
    if (!resumed.length) await this.syncIdentity();
    return resumed;
  }

  isRunning(): boolean {
    return this.runners.size > 0;
  }

  private launch(crawl: Pick<CrawlRecord, 'id' | 'topicId' | 'config' | 'shared'>): void {
    const crawlId = crawl.id!;
    if (this.runners.has(crawlId)) return;
    const store = this.ports.runStoreFor?.(crawl) ?? this.ports.store;
    const runner = new CrawlRunner({ ...this.ports, store }, crawlId);
    // The crawl's identity is in place before its first request (training reads and robots.txt included), and
    // follows the crawls still running once it ends. The plan is read asynchronously, so it sees this runner.
    const done = this.syncIdentity()
      .then(() => runner.run())
      .finally(async () => {
        this.runners.delete(crawlId);
        await this.syncIdentity();
      });
    this.runners.set(crawlId, { runner, topicId: crawl.topicId, config: crawl.config, done });
  }

  /** Applies the identity plan of the crawls running now; a failure is logged, and the crawl goes on unnamed. */
  private syncIdentity(): Promise<void> {
    const port = this.ports.identity;
    if (!port) return Promise.resolve();
    this.identitySync = this.identitySync
      .then(() => port.apply(identityPlan([...this.runners.values()].map((r) => r.config))))
      .catch((err: unknown) => this.ports.log?.(`the crawl's User-Agent could not be set: ${err instanceof Error ? err.message : String(err)}`));
    return this.identitySync;
  }

  /** Waits for a crawl's runner in this worker to end (tests and the runner's "wait" use it). */
  async settled(crawlId: number): Promise<void> {
    await this.runners.get(crawlId)?.done;
  }

  private async must(crawlId: number): Promise<CrawlRecord> {
    const c = await this.ports.store.getCrawl(crawlId);
    if (!c) throw new Error(`there is no crawl ${crawlId}`);
    return c;
  }

  private async halt(crawlId: number, as: 'paused' | 'stopped', message: string): Promise<CrawlRecord> {
    const crawl = await this.must(crawlId);
    const live = this.runners.get(crawlId);
    if (live) {
      live.runner.requestHalt(as, message);
      return live.done;
    }
    if (crawl.state === 'running' || crawl.state === 'training' || (crawl.state === 'paused' && as === 'stopped')) {
      return this.ports.store.updateCrawl(crawlId, { state: as, message });
    }
    return crawl;
  }

  private readonly crawlHandlers: Omit<ServiceHandlers, keyof TopicService['handlers']> = {
    start: async (raw) => {
      const parsed = parseConfig(raw);
      const { store, clock } = this.ports;
      // A template's name keys its records across cycles, so only a topic crawl gets a described name.
      const unnamed = (raw as { name?: unknown }).name === undefined && !parsed.template;
      const { topic, created } = await this.topicFor(parsed, unnamed);
      const topicId = topic.id!;
      const named = unnamed ? { ...parsed, name: await this.freeCrawlName(describedCrawlName(topic.name, parsed.seeds[0]!, clock.now())) } : parsed;
      // A big seed list is packed in the frontier's store, not copied into the crawl row (seedsKept).
      const big = !named.template && named.seeds.length > PACK_ABOVE;
      const config = big ? { ...named, seeds: seedsKept(named.seeds) } : named;
      let crawlId: number | undefined;
      try {
        crawlId = await store.createCrawl(config, topicId, clock.now());
        if (big) await store.updateCrawl(crawlId, { seedsGiven: named.seeds.length });
        if (config.template) await store.updateCrawl(crawlId, { templateRun: firstRun() });
        // A template's seeds are queued once its search ran (the crawler does it, with the given seeds first).
        if (!config.template) await store.frontier.enqueue(crawlId, seedCandidates(named), clock.now());
      } catch (err) {
        // A start that failed leaves nothing behind: neither its crawl nor the topic made for it.
        if (crawlId !== undefined) await store.deleteCrawl(crawlId).catch(() => undefined);
        if (created) await store.topics.deleteTopic(topicId).catch(() => undefined);
        throw err;
      }
      this.launch({ id: crawlId, topicId, config });
      return { crawlId };
    },
    recrawl: async ({ name, config: raw }) => this.recrawl(name, raw),
    records: async ({ name }) => this.ports.store.records.list(name),
    recordChanges: async ({ crawlId }) => this.ports.store.records.changes(crawlId),
    pause: ({ crawlId }) => this.halt(crawlId, 'paused', 'paused by you'),
    stop: ({ crawlId }) => this.halt(crawlId, 'stopped', 'stopped by you'),
    resume: async ({ crawlId }) => {
      const crawl = await this.must(crawlId);
      if (crawl.state === 'finished' && frontierSize(crawl.stats) === 0) throw new Error('this crawl is finished: its frontier is empty');
      if (!(await this.ports.store.topics.getTopic(crawl.topicId))) throw new Error(`the topic of this crawl was deleted, so it has nothing to learn from`);
      // A crawl that ended on its budget continues with a budget extended by the same amount.
      const maxPages = crawl.stats.attempts >= crawl.config.budget.maxPages
        ? crawl.stats.attempts + crawl.config.budget.maxPages : crawl.config.budget.maxPages;
      return this.relaunch(crawl, maxPages);
    },
    status: async ({ crawlId }) => {
      const { store } = this.ports;
      const crawl = crawlId === undefined ? await store.newestCrawl() : await store.getCrawl(crawlId);
      return crawl ? this.statusOf(crawl) : null;
    },
    fetchingNow: async ({ crawlId }) => this.runners.get(crawlId)?.runner.inFlight() ?? [],
    recallHistory: async ({ crawlId }) => {
      await this.must(crawlId);
      return (await this.ports.store.recallHistory(crawlId)).map(({ fetched, estimate, low, high }) => ({ fetched, estimate, low, high }));
    },
    pages: ({ crawlId, afterSeq, limit }) => this.ports.store.pages.pagesAfter(crawlId, afterSeq, Math.min(Math.max(1, limit), 5000)),
    setSiteBlacklisted: async ({ crawlId, site, on }) => {
      if (typeof site !== 'string' || !site.trim()) throw new Error('name the site to blacklist');
      await this.must(crawlId);
      const row = await this.ports.store.setSiteBlacklisted(crawlId, siteOfHostOrUrl(site), on === true, this.ports.clock.now());
      return { site: row.site, blacklisted: row.blacklisted ?? null };
    },
    allowKept: async ({ crawlId, url, rule, match }) => {
      const crawl = await this.must(crawlId);
      const allowing = allowingOf(url, rule, match);
      const priority = createStrategy(crawl.config).seedPriority();
      const { allowed, allowances } = await this.ports.store.allowKept(crawlId, allowing, priority, this.ports.clock.now());
      if (allowed === 0) {
        throw new Error('url' in allowing ? `${allowing.url} is not kept from requesting in this crawl` : `no link of this crawl is kept by ${allowing.rule} "${allowing.match}"`);
      }
      // A running crawl follows at once. A finished one starts again to request what was allowed, with room in its budget
      // for that and no more; a paused or stopped one waits for the user to resume it.
      this.runners.get(crawlId)?.runner.allow(allowances);
      if (crawl.state === 'finished' && !this.runners.has(crawlId)) {
        return { allowed, crawl: await this.relaunch(crawl, Math.max(crawl.config.budget.maxPages, crawl.stats.attempts + allowed)) };
      }
      return { allowed, crawl: await this.must(crawlId) };
    },
    markExported: async ({ crawlId, format, seq }) => {
      if (!isExportFormat(format)) throw new Error(`"${format}" is not an export format`);
      if (!Number.isInteger(seq) || seq < 0) throw new Error('seq must be a whole number');
      await this.must(crawlId);
      await this.ports.store.setExportMark(crawlId, format, seq);
      return { seq };
    },
    deleteCrawl: async ({ crawlId }) => {
      const live = this.runners.get(crawlId);
      if (live) {
        live.runner.requestHalt('stopped', 'deleted');
        await live.done;
      }
      const crawl = await this.ports.store.getCrawl(crawlId);
      const deleted = await this.ports.store.deleteCrawl(crawlId);
      // A template's records go with its last crawl (they are kept across cycles, not across deletion).
      if (crawl?.config.template && !(await this.newestTemplateCrawl(crawl.name))) await this.ports.store.records.deleteAll(crawl.name);
      return { deleted };
    },
  };

  /** Starts a crawl that is not running again (training first if its link sources are not all read), with `maxPages`. */
  private async relaunch(crawl: CrawlRecord, maxPages: number): Promise<CrawlRecord> {
    const crawlId = crawl.id!;
    if (crawl.state !== 'running' && crawl.state !== 'training') {
      const trainingLeft = crawl.stats.trainPages < crawl.config.training.linkSources.length;
      await this.ports.store.updateCrawl(crawlId, {
        state: trainingLeft ? 'training' : 'running', message: undefined, finishedAt: undefined, sessionLost: undefined,
        config: { ...crawl.config, budget: { ...crawl.config.budget, maxPages } },
      });
    }
    this.launch(crawl);
    return this.must(crawlId);
  }

  /** The newest crawl of a template, by name. */
  private async newestTemplateCrawl(name: string): Promise<CrawlRecord | undefined> {
    const all = await this.ports.store.db.crawls.orderBy('createdAt').toArray();
    return all.reverse().find((c) => c.name === name && c.config.template);
  }

  /**
   * Design E.6: the next cycle of a template, as a new crawl of the same name and topic (its frontier starts
   * empty, so every page is requested again); records are kept by name, so they carry over.
   */
  async recrawl(name: string, raw?: unknown): Promise<{ crawlId: number }> {
    const { store, clock } = this.ports;
    const previous = await this.newestTemplateCrawl(name);
    if (!previous) throw new Error(`there is no template crawl named "${name}" to recrawl`);
    const live = [...this.runners.entries()].find(([id]) => id === previous.id);
    if (live || previous.state === 'running' || previous.state === 'training') throw new Error(`"${name}" is still running: recrawl it once it ends`);
    const config = raw === undefined ? { ...previous.config, seeds: [] } : parseConfig(raw);
    if (config.name !== name || !config.template) throw new ConfigError(`name: a recrawl keeps the template's name ("${name}") and its template`);
    const crawlId = await store.createCrawl({ ...config, topic: { ...config.topic, id: previous.topicId } }, previous.topicId, clock.now());
    await store.updateCrawl(crawlId, { templateRun: nextCycle(previous) });
    this.launch({ id: crawlId, topicId: previous.topicId, config });
    return { crawlId };
  }

  /** When each template with a schedule is due again: the newest cycle of each name that finished. */
  async recrawlsDue(): Promise<{ name: string; at: number }[]> {
    const newest = new Map<string, CrawlRecord>();
    for (const c of await this.ports.store.db.crawls.orderBy('createdAt').toArray()) if (c.config.template) newest.set(c.name, c);
    return [...newest.values()].flatMap((c) => (c.templateRun?.nextAt !== undefined && (c.state === 'finished' || c.state === 'failed') ? [{ name: c.name, at: c.templateRun.nextAt }] : []));
  }

  private async statusOf(crawl: CrawlRecord): Promise<CrawlStatus> {
    const { store } = this.ports;
    const s = crawl.stats;
    return {
      crawl,
      // From the runner's memory: in Chromium the [crawlId+state] index collects stale entries as a crawl goes
      // on, and the command-line runner asks for status twice a second.
      inFlight: this.runners.get(crawl.id!)?.runner.inFlight() ?? [],
      recentErrors: (await store.pages.recentErrors(crawl, 5)).map((p) => ({ url: p.url, error: p.error!, at: p.fetchedAt })),
      pagesPerMinute: pagesPerMinute(crawl),
      harvestRate: s.fetched > 0 ? s.relevant / s.fetched : 0,
      blacklistedSites: (await store.blacklistedSites(crawl)).length,
    };
  }
}
