// The command-line runner's part in a shared crawl (docs/scale-out.md): check the crawl can be shared, connect to
// Redis and join the crawl of the config's name before the browser starts (so a bad URL, a refused password or
// another config is one line and exit 2 before any request to a site), then serve the bridge the extension uses.
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { seedCandidates } from '../learning/children';
import type { CrawlConfig } from '../records/config';
import { crawlRules, rulesProblem } from './shared-rules';
import type { SharedEntry } from '../store/shared/bridge';
import { openBridge, type Bridge } from '../store/shared/bridge-server';
import { connectRedis, FrontierError, RedisFrontier, type CrawlParams, type SharedStatus } from '../store/shared/redis-frontier';
import { nextCycle, records } from '../store/shared/redis-cycles';
import type { FieldRecord, RecordChange } from '../records/rows';

/** Strategies whose queue, site book and state Redis keeps (docs/scale-out.md). */
export const SHARED_STRATEGIES = ['best-first', 'breadth-first', 'sparse-tunneling', 'multi-queue', 'hits-fusion', 'template'];

export interface SharedOptions {
  /** redis://HOST:PORT[/DB] (a password as redis://:PASSWORD@HOST:PORT). */
  url: string;
  /** How long a lease lasts without its worker's heartbeat (default 30 s). */
  leaseMs?: number;
  /** This worker's name in the crawl (default: host name and process id). */
  worker?: string;
  /** A template crawl's next cycle, once the one before ended (design E.6); a cycle under way is joined. */
  recrawl?: boolean;
}

export interface SharedJoin {
  frontier: RedisFrontier;
  worker: string;
  params: CrawlParams;
  /** Set when the crawl had already ended when this worker came: it crawls nothing. */
  ended: string | null;
  redis: Redis;
}

/** Why a config cannot run on a shared frontier yet, or null. */
export function sharedProblem(config: CrawlConfig): string | null {
  if (!SHARED_STRATEGIES.includes(config.strategy.name)) {
    return `strategy "${config.strategy.name}" cannot run on a shared frontier yet (the shared frontier runs ${SHARED_STRATEGIES.join(' and ')})`;
  }
  return rulesProblem(config);
}

/** The seeds as the frontier's first entries (what a local crawl's store would queue). */
export function seedEntries(config: CrawlConfig, now: number): SharedEntry[] {
  return seedCandidates(config).map((c, i) => ({
    url: c.url, ...(c.href === undefined ? {} : { href: c.href }), host: c.host, site: c.site, score: c.score, priority: c.priority,
    order: -i, depth: 0, parentUrl: null, anchor: '', context: '', attempts: 0, discoveredAt: now, updatedAt: now,
    ...(c.strategy ? { strategy: c.strategy } : {}),
  }));
}

/** Politeness, the budget, and how long a lease outlives its worker's last heartbeat. */
export function crawlParams(config: CrawlConfig, leaseMs: number): CrawlParams {
  return { maxPages: config.budget.maxPages, perHost: config.politeness.perHost, delayMs: config.politeness.delayMs, leaseMs };
}

/**
 * Joins the crawl of the config's name in Redis, creating it with its rules, the sites its config closes, its seeds (a
 * template's come from each cycle's search, design E.2) and its link sources; `recrawl`: a template crawl that ended
 * goes on to its next cycle (design E.6).
 */
export async function joinCrawl(frontier: RedisFrontier, config: CrawlConfig, recrawl = false): Promise<{ joined: 'created' | 'joined' | 'ended'; ended?: string }> {
  const seeds = config.template ? [] : seedEntries(config, Date.now());
  const joined = await frontier.join(JSON.stringify(config), seeds, config.training.linkSources, crawlRules(config), config.siteBlacklist ?? []);
  if (!recrawl || joined.joined !== 'ended') return joined;
  await nextCycle(frontier);
  return { joined: 'joined' };
}

export async function joinShared(config: CrawlConfig, opts: SharedOptions): Promise<SharedJoin> {
  const problem = sharedProblem(config);
  if (problem) throw new FrontierError(problem);
  const redis = await connectRedis(opts.url);
  try {
    const frontier = new RedisFrontier(redis, config.name);
    const joined = await joinCrawl(frontier, config, opts.recrawl);
    const params = crawlParams(config, opts.leaseMs ?? 30_000);
    return { frontier, worker: opts.worker ?? `${hostname()}-${process.pid}`, params, ended: joined.ended ?? null, redis };
  } catch (err) {
    redis.disconnect();
    throw err;
  }
}

export function serveBridge(j: SharedJoin, log: (line: string) => void): Promise<Bridge> {
  return openBridge(j.frontier, j.worker, j.params, log);
}

/** `--status NAME`: the shared crawl's progress, without crawling. */
export async function sharedStatus(url: string, name: string): Promise<SharedStatus> {
  const redis = await connectRedis(url);
  try {
    const frontier = new RedisFrontier(redis, name);
    if (!(await frontier.exists())) throw new FrontierError(`there is no crawl named "${name}" on this Redis`);
    return await frontier.status();
  } finally {
    redis.disconnect();
  }
}

/** A shared template crawl's records and what its cycle under way changed, as the whole crawl wrote them. */
export async function sharedRecords(j: SharedJoin): Promise<{ records: FieldRecord[]; changes: RecordChange[] }> {
  return records(j.frontier);
}
