// The shared frontier in Redis, as the command-line runner sees it: join a crawl by name, lease URLs, complete
// leases with their pages' children and counts, renew a worker's leases, and read the crawl's progress. The atomic
// steps are Lua (redis-scripts.ts); this file connects, names the keys and turns replies into records.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RobotsAnswer } from '../../net/shared-robots';
import type { JudgeLesson, LinkSourceTaught, RescoreMove, RescoreSlice, SharedAck, SharedEntry, SharedLabel, SharedTake } from './bridge';
import { ACK, JOIN, KEY_NAMES, RELEASE, RENEW, TAKE, type KeyName } from './redis-scripts';
import type { QueueLoad } from '../../strategies/types';
import { RLEAD, RLEAVE, RWRITE } from './redis-rescore';
import { TCLAIM, TRAINED } from './redis-training';
import { NEXT_CYCLE, SCLAIM, SDONE } from './redis-template';
import { childWire, decodeEntry, decodeLabel, encodeEntry, encodeLabel, inlinksField, parentNumber, urlKey } from './redis-entries';

/** A Redis problem the user can fix (unreachable, refused password, another crawl of the same name): one line, exit 2. */
export class FrontierError extends Error {}

export interface CrawlParams {
  maxPages: number;
  perHost: number;
  delayMs: number;
  leaseMs: number;
}

/** What the crawl's config says the scripts apply, stored by its first worker (lib/app/shared-run.ts, `crawlRules`). */
export interface CrawlRules {
  /**
   * How a link found again to a queued URL counts (`classifier.everyLink`): 'logodds' ranks the URL by all its links
   * (the crawl's priority is that log-odds), 'max' by its better link's priority, '' (off) raises it when better.
   */
  everyLink: 'logodds' | 'max' | '';
  /** Labeled links a judged page may teach (`learning.linksToJudged`; 0: off). */
  judged: number;
  /** Pages of the crawl between two re-score passes (`learning.rescoreEveryPages`; 0: never). */
  everyPages: number;
  /** Design B.4: URLs queued at most for a site with no relevant page yet (0: no cap), and why a URL is kept out then. */
  unknownSiteQueue: number;
  admitReason: string;
  /** Design B.5: off-topic pages of a site past which it is closed (0: never), and why, `%d` standing for how many. */
  blacklistAfter: number;
  closeReason: string;
  /** Design D.3: the number of FIFO queues a crawl takes by (0: by priority), and iFactor until list pages were read. */
  queues: number;
  iFactor: number;
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
  /** Links kept out of the frontier, by reason (by the strategy's plans, and by the site book); sites closed. */
  dropped: Record<string, number>;
  blacklistedSites: number;
  /** The crawl-wide re-score: passes opened so far, the last one's state and reason, what it read and moved, its leader. */
  rescore: {
    passes: number; state: 'open' | 'done'; why: string; scanned: number; changed: number; leader: string | null;
    /** Slices written by each worker, over every pass; passes taken over from a leader that went quiet. */
    slices: Record<string, number>; takeovers: number;
  } | null;
}

const SCRIPTS = {
  join: JOIN, take: TAKE, ack: ACK, release: RELEASE, renew: RENEW, tclaim: TCLAIM, trained: TRAINED, rlead: RLEAD, rwrite: RWRITE, rleave: RLEAVE,
  sclaim: SCLAIM, sdone: SDONE, nextCycle: NEXT_CYCLE,
};
export type ScriptName = keyof typeof SCRIPTS;

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

  async run(script: ScriptName, args: (string | number)[]): Promise<unknown> {
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

  /**
   * Joins the crawl of this name, creating it when it is new with its rules, the sites its config closes, its seeds,
   * and its link sources to read first.
   */
  async join(configJson: string, seeds: SharedEntry[], linkSources: string[] = [], rules: Partial<CrawlRules> = {}, closedSites: string[] = []):
    Promise<{ joined: 'created' | 'joined' | 'ended'; ended?: string }> {
    const wire = JSON.stringify(seeds.map((s) => [urlKey(s.url), String(s.priority), encodeEntry(s), '', s.site ?? '']));
    const [what, why] = (await this.run('join', [configJson, wire, JSON.stringify(linkSources), JSON.stringify(rules), JSON.stringify(closedSites)])) as [string, string];
    if (what === 'different') {
      throw new FrontierError(`a crawl named "${this.name}" already runs on this Redis with another config: give the same config, or another name`);
    }
    return what === 'ended' ? { joined: 'ended', ended: why } : { joined: what as 'created' | 'joined' };
  }

  async take(worker: string, max: number, p: CrawlParams, scan = 500): Promise<SharedTake> {
    const [flat, waitMs, queued, leased, reserved, ended, reclaimed, rescore, loads] = (await this.run('take', [worker, max, p.leaseMs, p.maxPages, p.perHost, scan])) as
      [string[], number, number, number, number, string, number, string, string];
    const taken: SharedTake['taken'] = [];
    const now = Date.now();
    for (let i = 0; i < flat.length; i += 5) {
      const entry = decodeEntry(flat[i + 2]!, Number(flat[i + 3]), flat[i + 4] || null, now);
      taken.push({ url: entry.url, fence: Number(flat[i + 1]), entry });
    }
    return { taken, waitMs, queued, leased, reserved, ended: ended || null, reclaimed, rescore: rescore || null, ...(loads ? { queues: JSON.parse(loads) as QueueLoad[] } : {}) };
  }

  async ack(worker: string, acks: SharedAck[], p: CrawlParams): Promise<('ok' | 'late' | 'dup')[]> {
    // Priorities cross as strings: a number handed to redis.call in Lua would lose its fraction.
    const wire = acks.map((a) => ({
      key: urlKey(a.url), url: a.url, site: a.site ?? '', fence: a.fence, requeue: a.requeue ?? false, priority: String(a.priority), notBefore: a.notBefore ?? 0,
      entry: a.entry ? encodeEntry(a.entry, a.priority) : '', stats: a.stats, kept: a.aliases.map(urlKey), dropped: a.dropped ?? {},
      children: a.children.map(childWire), labels: a.labels.map(encodeLabel), verdict: a.verdict === undefined ? '' : String(a.verdict),
      revisit: a.revisit ?? '', outlinks: a.outlinks?.join(' ') ?? '',
      record: a.record ? { url: a.record.url, value: a.record.record ? JSON.stringify(a.record.record) : '', change: JSON.stringify(a.record.change) } : null,
    }));
    return (await this.run('ack', [worker, p.delayMs, JSON.stringify(wire)])) as ('ok' | 'late' | 'dup')[];
  }

  /**
   * Labeled links added after `cursor` (a position in the crawl's list of them) by the other workers and by the crawl
   * itself (links to judged pages), at most `limit`, and the cursor to ask from next time.
   */
  async labelsAfter(worker: string, cursor: number, limit = 2000): Promise<{ labels: SharedLabel[]; next: number }> {
    const rows = await this.redis.lrange(this.key('labels'), cursor, cursor + limit - 1);
    const labels = rows.flatMap((r) => {
      const tab = r.indexOf('\t');
      return r.slice(0, tab) === worker ? [] : [decodeLabel(r.slice(tab + 1))];
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

  /**
   * A link source read, with what it taught (its labeled links; a labeled page's label and out-links): 'dup' when
   * another worker's read came first.
   */
  async linkSourceRead(worker: string, url: string, labels: SharedLabel[], addresses: string[] = [url], taught: LinkSourceTaught = {}): Promise<'ok' | 'dup'> {
    const { outlinks, judge } = taught;
    const links = outlinks ? [String(outlinks.label), ...outlinks.links].join('\t') : '';
    const terms = judge ? `${judge.label}\t${judge.terms.map(([w, n]) => `${w} ${n}`).join(' ')}` : '';
    const wire = [worker, url, JSON.stringify(labels.map(encodeLabel)), JSON.stringify(addresses.map(urlKey)), links, terms];
    return (await this.run('trained', wire)) as 'ok' | 'dup';
  }

  /** The labeled link sources other workers read, as their judges learned them, after `cursor`; and the next cursor. */
  async judgeLessonsAfter(worker: string, cursor: number): Promise<{ lessons: JudgeLesson[]; next: number }> {
    const rows = await this.redis.lrange(this.key('tjudge'), cursor, -1);
    const lessons = rows.flatMap((r) => {
      const [by, label, terms] = r.split('\t') as [string, string, string];
      if (by === worker) return [];
      const words = terms ? terms.split(' ') : [];
      return [{ label: label === '1' ? 1 : 0, terms: Array.from({ length: words.length / 2 }, (_, i) => [words[2 * i]!, Number(words[2 * i + 1])] as [string, number]) } as JudgeLesson];
    });
    return { lessons, next: cursor + rows.length };
  }

  /** Every labeled link source's label and out-links, as published by the workers that read them. */
  async trainingLinks(): Promise<{ label: 0 | 1; links: string[] }[]> {
    return (await this.redis.lrange(this.key('tlinks'), 0, -1)).map((line) => {
      const [label, ...links] = line.split('\t');
      return { label: label === '1' ? 1 : 0, links };
    });
  }

  /** The relevant pages other runs committed after `cursor`, with their out-links, and the next cursor. */
  async graphAfter(run: string, cursor: number, limit = 2000): Promise<{ pages: { url: string; links: string[] }[]; next: number }> {
    const rows = await this.redis.lrange(this.key('graph'), cursor, cursor + limit - 1);
    const pages = rows.flatMap((r) => {
      const [by, url, links] = r.split('\t') as [string, string, string];
      return by === run ? [] : [{ url, links: links ? links.split(' ') : [] }];
    });
    return { pages, next: cursor + rows.length };
  }

  /** What a worker's strategy saved (a crawl by queues sums its list pages' counts over every worker, for iFactor). */
  async saveStrategyState(worker: string, state: unknown): Promise<void> {
    await this.redis.hset(this.key('sstate'), worker, JSON.stringify(state ?? null));
  }

  async release(worker: string, leases: [string, number][]): Promise<number> {
    return (await this.run('release', [worker, JSON.stringify(leases.map(([url, fence]) => [urlKey(url), fence]))])) as number;
  }

  async renew(worker: string, leaseMs: number): Promise<number> {
    return (await this.run('renew', [worker, leaseMs])) as number;
  }

  /** Leads the open re-score pass (or opens one for `why` and leads it): the fence to write with, and where it is. */
  async rescoreLead(worker: string, leaseMs: number, why: string): Promise<{ lead: { pass: number; fence: string; cursor: string; why: string } | null; leader: string | null }> {
    const r = (await this.run('rlead', [worker, leaseMs, why])) as string[];
    if (r[0] === 'lead') return { lead: { pass: Number(r[1]), fence: r[2]!, cursor: r[3]!, why: r[4]! }, leader: worker };
    return { lead: null, leader: r[0] === 'led' ? r[1]! : null };
  }

  /** A slice of the queue from `cursor`: its URLs' keys, priorities (as Redis spells them) and entries. */
  async rescoreSlice(cursor: string, count: number): Promise<RescoreSlice> {
    const [next, flat] = await this.redis.zscan(this.key('q'), cursor, 'COUNT', count);
    const keys = flat.filter((_, i) => i % 2 === 0);
    const values = keys.length ? await this.redis.hmget(this.key('e'), ...keys) : [];
    // Their parents' URLs: a seed has none (a re-score leaves it where it is), a page answer reaches a page's links by it.
    const pids = [...new Set(values.flatMap((v) => (v ? [parentNumber(v)] : [])).filter(Boolean))];
    const parents = new Map(pids.length ? (await this.redis.hmget(this.key('pages'), ...pids)).map((u, i) => [pids[i]!, u] as const) : []);
    const now = Date.now();
    const entries = keys.flatMap((key, i) => {
      const v = values[i];
      return v ? [{ key, priority: flat[2 * i + 1]!, entry: decodeEntry(v, Number(flat[2 * i + 1]), parents.get(parentNumber(v)) ?? null, now) }] : [];
    });
    return { next, entries };
  }

  /** The ranked slice written back; 'lost' when another worker leads the pass now. */
  async rescoreWrite(worker: string, fence: string, leaseMs: number, from: string, next: string, scanned: number, moves: RescoreMove[]) {
    const wire = moves.map((m) => [m.key, m.from, String(m.to), m.inlinks ? inlinksField(m.inlinks) : '']);
    const [state, total, changed] = (await this.run('rwrite', [worker, fence, leaseMs, from, next, scanned, JSON.stringify(wire)])) as [string, number, number];
    return { state: state as 'more' | 'done' | 'lost', scanned: total, changed };
  }

  async rescoreLeave(worker: string, fence: string): Promise<void> {
    await this.run('rleave', [worker, fence]);
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
      .hlen(this.key('e')).get(this.key('ended')).hgetall(this.key('wpages'))
      .scard(this.key('tpending')).scard(this.key('done')).hgetall(this.key('rescore')).hlen(this.key('closed'))
      .exec();
    const v = (i: number) => r![i]![1];
    const stats = v(1) as Record<string, string>;
    const n = (k: string) => Math.round(Number(stats[k] ?? 0));
    const rescore = v(10) as Record<string, string>;
    return {
      name: this.name, workersAlive: v(0) as number, fetched: n('fetched'), relevant: n('relevant'), failed: n('failed'), skipped: n('skipped'),
      requests: n('reserved'), queued: (v(2) as number) + (v(3) as number), leased: v(4) as number, seen: (v(5) as number) + (v(9) as number),
      training: v(8) as number, ended: (v(6) as string | null) ?? null,
      byWorker: Object.fromEntries(Object.entries(v(7) as Record<string, string>).map(([w, c]) => [w, Number(c)])),
      dropped: Object.fromEntries(Object.entries(stats).flatMap(([k, c]) => (k.startsWith('dropped:') ? [[k.slice(8), Number(c)]] : []))),
      blacklistedSites: v(11) as number,
      rescore: rescore.pass ? {
        passes: Number(rescore.pass), state: rescore.state as 'open' | 'done', why: rescore.why ?? '', scanned: Number(rescore.scanned ?? 0),
        changed: Number(rescore.changed ?? 0), leader: rescore.leader || null, takeovers: Number(rescore.takeovers ?? 0),
        slices: Object.fromEntries(Object.entries(rescore).flatMap(([k, c]) => (k.startsWith('slices:') ? [[k.slice(7), Number(c)]] : []))),
      } : null,
    };
  }
}

export function formatStatus(s: SharedStatus): string {
  const state = s.ended ? `ended: ${s.ended}` : s.training ? `training: ${s.training} link source(s) to read` : 'running';
  const r = s.rescore;
  return `${s.name}: ${state}\n  workers alive ${s.workersAlive}, fetched ${s.fetched}, relevant ${s.relevant}, failed ${s.failed}, ` +
    `queued ${s.queued}, in flight ${s.leased}, requests ${s.requests}, URLs seen ${s.seen}` +
    (r ? `\n  re-scores of the queue: ${r.passes}, the last ${r.state === 'open' ? 'under way' : 'done'} (${r.why}): ${r.changed} of ${r.scanned} links moved` : '');
}
