// The shared frontier in Redis, as the command-line runner sees it: join a crawl by name, lease URLs, complete
// leases with their pages' children and counts, renew a worker's leases, and read the crawl's progress. The atomic
// steps are Lua (redis-scripts.ts); this file connects, names the keys and turns replies into records.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RobotsAnswer } from '../../net/shared-robots';
import type { SharedAck, SharedEntry, SharedLabel, SharedTake } from './shared-store';
import { ACK, JOIN, KEY_NAMES, RELEASE, RENEW, TAKE, TCLAIM, TRAINED, type KeyName } from './redis-scripts';

/** A Redis problem the user can fix (unreachable, refused password, another crawl of the same name): one line, exit 2. */
export class FrontierError extends Error {}

export interface CrawlParams {
  maxPages: number;
  perHost: number;
  delayMs: number;
  leaseMs: number;
}

export interface SharedStatus {
  name: string;
  workersAlive: number;
  fetched: number;
  relevant: number;
  failed: number;
  skipped: number;
  requests: number;
  queued: number;
  leased: number;
  seen: number;
  /** Link sources not read yet: while any is, the crawl is training. */
  training: number;
  ended: string | null;
  /** Pages committed by each worker. */
  byWorker: Record<string, number>;
}

const SCRIPTS = { join: JOIN, take: TAKE, ack: ACK, release: RELEASE, renew: RENEW, tclaim: TCLAIM, trained: TRAINED };
type ScriptName = keyof typeof SCRIPTS;

/** A worker counts as alive while it was heard from (a take, a completion or its heartbeat) this recently. */
export const ALIVE_MS = 30_000;

/** Connects, or says in one line why not (the URL, then what Redis answered). */
export async function connectRedis(url: string): Promise<Redis> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FrontierError(`--frontier: "${url}" is not a URL (give redis://HOST:PORT[/DB])`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new FrontierError(`--frontier: "${url}" is not a redis:// URL`);
  let connected = false;
  const redis = new Redis(url, {
    lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 2, enableOfflineQueue: true,
    // Before the first connection, fail at once; afterwards ride out a restart of Redis for a while.
    retryStrategy: (times) => (connected && times < 50 ? Math.min(times * 200, 2000) : null),
  });
  // Each command reports its own failure; a refused AUTH during the connection only comes as an event.
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => {
    lastError = err;
  });
  const where = `${parsed.hostname}:${parsed.port || 6379}`;
  try {
    await redis.connect();
    await redis.ping();
    connected = true;
    return redis;
  } catch (err) {
    redis.disconnect();
    const msg = [err instanceof Error ? err.message : String(err), lastError?.message ?? ''].find((m) => /WRONGPASS|NOAUTH|AUTH/i.test(m))
      ?? (err instanceof Error ? err.message : String(err));
    if (/WRONGPASS|NOAUTH|invalid password|AUTH/i.test(msg)) throw new FrontierError(`Redis at ${where} refused the password (${msg.split('\n')[0]})`);
    throw new FrontierError(`cannot reach Redis at ${where} (${msg.split('\n')[0]})`);
  }
}

export class RedisFrontier {
  private readonly keys: string[];
  private readonly shas = new Map<ScriptName, string>();

  constructor(readonly redis: Redis, readonly name: string) {
    // One hash tag for the whole crawl: every key lands in one slot of a Redis Cluster, so the scripts may touch them all.
    const tag = `focus:{${encodeURIComponent(name)}}:`;
    this.keys = KEY_NAMES.map((k) => tag + k);
  }

  key(k: KeyName): string {
    return this.keys[KEY_NAMES.indexOf(k)]!;
  }

  private async run(script: ScriptName, args: (string | number)[]): Promise<unknown> {
    let sha = this.shas.get(script);
    if (!sha) {
      sha = createHash('sha1').update(SCRIPTS[script]).digest('hex');
      this.shas.set(script, sha);
    }
    try {
      return await this.redis.evalsha(sha, this.keys.length, ...this.keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !/NOSCRIPT/.test(err.message)) throw err;
      return this.redis.eval(SCRIPTS[script], this.keys.length, ...this.keys, ...args);
    }
  }

  /** Joins the crawl of this name, creating it with its seeds (and its link sources to read first) when it is new. */
  async join(configJson: string, seeds: SharedEntry[], linkSources: string[] = []): Promise<{ joined: 'created' | 'joined' | 'ended'; ended?: string }> {
    const wire = JSON.stringify(seeds.map((s) => [s.url, String(s.priority), JSON.stringify(s)]));
    const [what, why] = (await this.run('join', [configJson, wire, JSON.stringify(linkSources)])) as [string, string];
    if (what === 'different') {
      throw new FrontierError(`a crawl named "${this.name}" already runs on this Redis with another config: give the same config, or another name`);
    }
    return what === 'ended' ? { joined: 'ended', ended: why } : { joined: what as 'created' | 'joined' };
  }

  async take(worker: string, max: number, p: CrawlParams, scan = 500): Promise<SharedTake> {
    const [flat, waitMs, queued, leased, reserved, ended, reclaimed] = (await this.run('take', [worker, max, p.leaseMs, p.maxPages, p.perHost, scan])) as
      [string[], number, number, number, number, string, number];
    const taken: SharedTake['taken'] = [];
    for (let i = 0; i < flat.length; i += 3) taken.push({ url: flat[i]!, fence: Number(flat[i + 1]), entry: JSON.parse(flat[i + 2]!) as SharedEntry });
    return { taken, waitMs, queued, leased, reserved, ended: ended || null, reclaimed };
  }

  async ack(worker: string, acks: SharedAck[], p: CrawlParams): Promise<('ok' | 'late' | 'dup')[]> {
    // Priorities cross as strings: a number handed to redis.call in Lua would lose its fraction.
    const wire = acks.map((a) => ({
      url: a.url, fence: a.fence, requeue: a.requeue ?? false, priority: String(a.priority), notBefore: a.notBefore ?? 0,
      entry: a.entry ? JSON.stringify(a.entry) : '', stats: a.stats, aliases: a.aliases,
      children: a.children.map((c) => [c.url, String(c.priority), JSON.stringify(c)]),
      labels: a.labels.map((l) => JSON.stringify(l)),
    }));
    return (await this.run('ack', [worker, p.delayMs, JSON.stringify(wire)])) as ('ok' | 'late' | 'dup')[];
  }

  /**
   * Labeled links other workers added after `cursor` (a position in the crawl's list of them), at most `limit`,
   * and the cursor to ask from next time.
   */
  async labelsAfter(worker: string, cursor: number, limit = 2000): Promise<{ labels: SharedLabel[]; next: number }> {
    const rows = await this.redis.lrange(this.key('labels'), cursor, cursor + limit - 1);
    const labels = rows.flatMap((r) => {
      const tab = r.indexOf('\t');
      return r.slice(0, tab) === worker ? [] : [JSON.parse(r.slice(tab + 1)) as SharedLabel];
    });
    return { labels, next: cursor + rows.length };
  }

  /** robots.txt answers: read one, claim the reading of one (for 10 s), or store one. */
  async robots(url: string, claim: boolean, answer?: RobotsAnswer): Promise<{ answer: RobotsAnswer | null; claimed: boolean }> {
    if (answer) {
      await this.redis.hset(this.key('robots'), url, JSON.stringify(answer));
      return { answer, claimed: false };
    }
    if (claim) {
      // The claim's key shares the crawl's hash tag, so it lives on the crawl's node of a cluster too.
      const claimed = (await this.redis.set(`${this.key('robots')}:claim:${url}`, '1', 'PX', 10_000, 'NX')) === 'OK';
      return { answer: null, claimed };
    }
    const known = await this.redis.hget(this.key('robots'), url);
    return { answer: known ? (JSON.parse(known) as RobotsAnswer) : null, claimed: false };
  }

  /** Claims a link source not read yet for this worker to read (null: none free now), and whether all are read. */
  async claimLinkSource(worker: string, urls: string[], leaseMs: number): Promise<{ url: string | null; done: boolean }> {
    const [url, left] = (await this.run('tclaim', [worker, leaseMs, JSON.stringify(urls)])) as [string, number];
    return { url: url || null, done: left === 0 };
  }

  /** A link source read, with the labeled links learned from it: 'dup' when another worker's read came first. */
  async linkSourceRead(worker: string, url: string, labels: SharedLabel[], addresses: string[] = [url]): Promise<'ok' | 'dup'> {
    const wire = [worker, url, JSON.stringify(labels.map((l) => JSON.stringify(l))), JSON.stringify(addresses)];
    return (await this.run('trained', wire)) as 'ok' | 'dup';
  }

  async release(worker: string, leases: [string, number][]): Promise<number> {
    return (await this.run('release', [worker, JSON.stringify(leases)])) as number;
  }

  async renew(worker: string, leaseMs: number): Promise<number> {
    return (await this.run('renew', [worker, leaseMs])) as number;
  }

  /** Whether a crawl of this name exists here. */
  async exists(): Promise<boolean> {
    return (await this.redis.exists(this.key('config'))) === 1;
  }

  async status(): Promise<SharedStatus> {
    const [t] = (await this.redis.time()) as [string | number, string | number];
    const now = Number(t) * 1000;
    const r = await this.redis.multi()
      .zcount(this.key('workers'), now - ALIVE_MS, '+inf')
      .hgetall(this.key('stats'))
      .zcard(this.key('q')).zcard(this.key('delayed')).zcard(this.key('leaseAt'))
      .scard(this.key('seen')).get(this.key('ended')).hgetall(this.key('wpages'))
      .scard(this.key('tpending'))
      .exec();
    const v = (i: number) => r![i]![1];
    const stats = v(1) as Record<string, string>;
    const n = (k: string) => Math.round(Number(stats[k] ?? 0));
    return {
      name: this.name, workersAlive: v(0) as number, fetched: n('fetched'), relevant: n('relevant'), failed: n('failed'), skipped: n('skipped'),
      requests: n('reserved'), queued: (v(2) as number) + (v(3) as number), leased: v(4) as number, seen: v(5) as number, training: v(8) as number,
      ended: (v(6) as string | null) ?? null,
      byWorker: Object.fromEntries(Object.entries(v(7) as Record<string, string>).map(([w, c]) => [w, Number(c)])),
    };
  }
}

export function formatStatus(s: SharedStatus): string {
  const state = s.ended ? `ended: ${s.ended}` : s.training ? `training: ${s.training} link source(s) to read` : 'running';
  return `${s.name}: ${state}\n  workers alive ${s.workersAlive}, fetched ${s.fetched}, relevant ${s.relevant}, failed ${s.failed}, ` +
    `queued ${s.queued}, in flight ${s.leased}, requests ${s.requests}, URLs seen ${s.seen}`;
}
