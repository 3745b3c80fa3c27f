// The shared frontier's Lua steps against a real redis-server: leases of the best URL whose host is ready across
// workers, the budget held in total, the raise on rediscovery, leases retaken after their worker went quiet, a
// slow worker's late result kept once, and the one-line errors a user sees for a bad Redis.
// @module-tag redis
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectRedis, FrontierError, RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import type { SharedAck, SharedEntry } from '../../lib/store/shared/bridge';
import { decodeEntry, urlKey } from '../../lib/store/shared/redis-entries';
import { startRedis, type RedisProcess } from '../support/redis-server';

const entry = (url: string, priority: number, depth = 1): SharedEntry => ({
  url, host: new URL(url).host, site: new URL(url).hostname, score: 0.5, priority, order: 0, depth, parentUrl: null, anchor: '', context: '',
  attempts: 0, discoveredAt: 0, updatedAt: 0,
});
const ack = (url: string, fence: number, children: SharedEntry[] = [], more: Partial<SharedAck> = {}): SharedAck => ({
  url, fence, priority: 0, stats: { fetched: 1, relevant: 1 }, children, aliases: [], labels: [], ...more,
});
const params = (p: Partial<CrawlParams> = {}): CrawlParams => ({ maxPages: 100, perHost: 1, delayMs: 0, leaseMs: 10_000, ...p });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the shared frontier in Redis', () => {
  let server: RedisProcess;
  let redis: Redis;
  let n = 0;
  let f: RedisFrontier;
  beforeAll(async () => {
    server = await startRedis();
    redis = await connectRedis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  beforeEach(() => {
    f = new RedisFrontier(redis, `crawl ${++n}`);
  });

  it('the first worker creates the crawl with its seeds; the same config joins; another config is refused in one line', async () => {
    expect((await f.join('{"a":1}', [entry('http://a.test/', 10, 0)])).joined).toBe('created');
    expect((await f.join('{"a":1}', [entry('http://a.test/', 10, 0)])).joined).toBe('joined');
    await expect(f.join('{"a":2}', [])).rejects.toThrow(FrontierError);
    await expect(f.join('{"a":2}', [])).rejects.toThrow(/already runs on this Redis with another config/);
    expect((await f.status()).queued).toBe(1); // the seed once, not once per worker
  });

  it('leases the best URL whose host is ready: a host in flight at one worker waits for every worker', async () => {
    await f.join('{}', [entry('http://a.test/1', 5), entry('http://a.test/2', 9), entry('http://b.test/1', 1)]);
    const w1 = await f.take('w1', 4, params());
    expect(w1.taken.map((t) => t.url)).toEqual(['http://a.test/2', 'http://b.test/1']);
    const w2 = await f.take('w2', 4, params());
    expect(w2.taken).toEqual([]);
    expect(w2.waitMs).toBe(-1); // a.test is busy elsewhere: no time to give
    expect(await f.ack('w1', [ack('http://a.test/2', w1.taken[0]!.fence)], params({ delayMs: 60_000 }))).toEqual(['ok']);
    // The delay runs from the end of that request, for w2 as well.
    const again = await f.take('w2', 4, params());
    expect(again.taken).toEqual([]);
    expect(again.waitMs).toBeGreaterThan(50_000);
  });

  it('says a budget of one page in the singular', async () => {
    await f.join('{}', [entry('http://a.test/', 1), entry('http://b.test/', 1)]);
    const p = params({ maxPages: 1 });
    const w = await f.take('w1', 2, p);
    expect(w.taken).toHaveLength(1);
    await f.ack('w1', w.taken.map((t) => ack(t.url, t.fence)), p);
    expect((await f.take('w1', 2, p)).ended).toBe('page budget reached (1 page)');
  });

  it('holds the page budget across workers, then says the crawl ended on it', async () => {
    await f.join('{}', ['a', 'b', 'c', 'd'].map((h) => entry(`http://${h}.test/`, 1)));
    const p = params({ maxPages: 3 });
    const w1 = await f.take('w1', 2, p);
    const w2 = await f.take('w2', 2, p);
    expect(w1.taken.length + w2.taken.length).toBe(3);
    expect(w2.ended).toBeNull(); // leases are out: not ended yet
    await f.ack('w1', w1.taken.map((t) => ack(t.url, t.fence)), p);
    await f.ack('w2', w2.taken.map((t) => ack(t.url, t.fence)), p);
    const last = await f.take('w1', 2, p);
    expect(last.taken).toEqual([]);
    expect(last.ended).toMatch(/page budget reached \(3 pages\)/);
    const s = await f.status();
    expect([s.fetched, s.requests, s.queued]).toEqual([3, 3, 1]);
  });

  it('queues children once, raises a queued one found by a better link, and never queues a done URL again', async () => {
    await f.join('{}', [entry('http://a.test/', 1, 0)]);
    const [seed] = (await f.take('w1', 1, params())).taken;
    const p = params();
    await f.ack('w1', [ack(seed!.url, seed!.fence, [entry('http://b.test/x', 1), entry('http://c.test/y', 2), entry('http://a.test/', 50)])], p);
    expect(await redis.zscore(f.key('q'), urlKey('http://a.test/'))).toBeNull(); // done: not queued again
    await f.ack('w2', [ack('http://nowhere.test/', 0, [{ ...entry('http://b.test/x', 7), anchor: 'better' }, entry('http://c.test/y', 0.5)])], p);
    expect(Number(await redis.zscore(f.key('q'), urlKey('http://b.test/x')))).toBe(7); // raised
    expect(Number(await redis.zscore(f.key('q'), urlKey('http://c.test/y')))).toBe(2); // a worse link leaves it
    expect(decodeEntry((await redis.hget(f.key('e'), urlKey('http://b.test/x')))!, 7, null, 0).anchor).toBe('better'); // with the better link's entry
  });

  it("retakes a killed worker's leases once they expire; a heartbeat keeps a live worker's", async () => {
    await f.join('{}', [entry('http://a.test/', 1), entry('http://b.test/', 1)]);
    // Leases run on Redis's clock, the real one: the live worker renews every tenth of its lease, so that a busy
    // machine may slow each heartbeat ten times over and still keep it, until the dead worker's has lapsed.
    const p = params({ leaseMs: 1000 });
    const dead = await f.take('dead', 1, p);
    const live = await f.take('live', 1, p);
    for (const lapsed = Date.now() + 1.5 * p.leaseMs; Date.now() < lapsed; ) {
      await sleep(p.leaseMs / 10);
      await f.renew('live', p.leaseMs);
    }
    const other = await f.take('other', 4, p);
    expect(other.taken.map((t) => t.url)).toEqual([dead.taken[0]!.url]);
    expect(other.reclaimed).toBe(1);
    expect(await f.ack('live', [ack(live.taken[0]!.url, live.taken[0]!.fence)], p)).toEqual(['ok']);
  });

  it("keeps a slow worker's page when it finishes first, and counts the page once when both finish", async () => {
    await f.join('{}', [entry('http://a.test/', 1), entry('http://b.test/', 1)]);
    const p = params({ leaseMs: 100 });
    const slow = await f.take('slow', 2, p);
    await sleep(150);
    // a.test: its lease lapsed, but the slow worker finishes before anyone retook it: kept, and no one is given it again.
    expect(await f.ack('slow', [ack('http://a.test/', slow.taken.find((t) => t.url === 'http://a.test/')!.fence)], p)).toEqual(['ok']);
    // b.test: retaken (its lease lapsed); then both finish, the first one's page counts.
    const fast = await f.take('fast', 4, p);
    expect(fast.taken.map((t) => t.url)).toEqual(['http://b.test/']);
    expect(await f.ack('fast', [ack('http://b.test/', fast.taken[0]!.fence)], p)).toEqual(['ok']);
    expect(await f.ack('slow', [ack('http://b.test/', slow.taken.find((t) => t.url === 'http://b.test/')!.fence)], p)).toEqual(['dup']);
    const s = await f.status();
    expect(s.fetched).toBe(2);
    expect(s.byWorker).toEqual({ slow: 1, fast: 1 });
    expect((await f.take('fast', 4, p)).ended).toMatch(/frontier empty/);
  });

  it('a lapsed lease put back in the queue, then finished by its slow worker, is not given to anyone', async () => {
    await f.join('{}', [entry('http://a.test/', 2), entry('http://a.test/2', 1)]);
    const p = params({ leaseMs: 100 });
    const slow = await f.take('slow', 1, p);
    await sleep(150);
    // The take puts the lapsed lease back and leases it at once (best URL, host free again).
    const other = await f.take('other', 1, p);
    expect(other.reclaimed).toBe(1);
    expect(other.taken[0]!.url).toBe(slow.taken[0]!.url);
    await f.release('other', [[other.taken[0]!.url, other.taken[0]!.fence]]); // back in the queue, unleased
    expect(await f.ack('slow', [ack(slow.taken[0]!.url, slow.taken[0]!.fence)], p)).toEqual(['late']);
    const next = await f.take('other', 4, p);
    expect(next.taken.map((t) => t.url)).toEqual(['http://a.test/2']);
  });

  it('a retry goes back to the queue, not before its time; released leases are not counted', async () => {
    await f.join('{}', [entry('http://a.test/', 1), entry('http://b.test/', 1)]);
    const p = params();
    const t = await f.take('w1', 2, p);
    expect(await f.release('w1', [[t.taken[1]!.url, t.taken[1]!.fence]])).toBe(1);
    const a = t.taken[0]!;
    await f.ack('w1', [ack(a.url, a.fence, [], { requeue: true, priority: 1, notBefore: Date.now() + 60_000, entry: a.entry, stats: { attempts: 1 } })], p);
    const next = await f.take('w1', 2, p);
    expect(next.taken.map((x) => x.url)).toEqual([t.taken[1]!.url]);
    expect(next.reserved).toBe(2); // a's request, and b's once (its release gave its first lease back)
    expect(next.queued).toBe(1); // a waits in the delayed set
  });

  it('a held crawl gives nothing and does not end until it is let go', async () => {
    await f.join('{}', [entry('http://a.test/', 1)]);
    await redis.set(f.key('held'), '1');
    const held = await f.take('w1', 4, params());
    expect([held.taken.length, held.ended, held.waitMs]).toEqual([0, null, 100]);
    expect((await f.status()).workersAlive).toBe(1);
    await redis.del(f.key('held'));
    expect((await f.take('w1', 4, params())).taken).toHaveLength(1);
  });

  it("each worker reads the labeled links the others' pages made, from where it left off", async () => {
    await f.join('{}', [entry('http://a.test/', 1)]);
    const [t] = (await f.take('w1', 1, params())).taken;
    const label = { url: 'http://a.test/', anchor: 'home', context: 'telescopes', label: 1 as const, source: 'verdict' as const, createdAt: 1 };
    await f.ack('w1', [ack(t!.url, t!.fence, [], { labels: [label] })], params());
    expect(await f.labelsAfter('w2', 0)).toEqual({ labels: [label], next: 1 });
    expect(await f.labelsAfter('w1', 0)).toEqual({ labels: [], next: 1 }); // its own are in its store already
    expect(await f.labelsAfter('w2', 1)).toEqual({ labels: [], next: 1 });
  });

  it('an unreachable Redis and a refused password are one sentence each', async () => {
    await expect(connectRedis('redis://127.0.0.1:1')).rejects.toThrow(/^cannot reach Redis at 127\.0\.0\.1:1 /);
    await expect(connectRedis('http://x')).rejects.toThrow(/not a redis:\/\/ URL/);
    const locked = await startRedis(['--requirepass', 'right']);
    try {
      await expect(connectRedis(`redis://:wrong@127.0.0.1:${locked.port}`)).rejects.toThrow(/refused the password/);
      await expect(connectRedis(`redis://127.0.0.1:${locked.port}`)).rejects.toThrow(/refused the password/);
      (await connectRedis(`redis://:right@127.0.0.1:${locked.port}`)).disconnect();
    } finally {
      await locked.stop();
    }
  });
});
