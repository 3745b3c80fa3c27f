// The crawl-wide re-score of a shared frontier against a real redis-server: a pass opens once for the whole crawl by
// its page count, one worker leads it at a time in slices, a killed leader's slice is taken over from where the pass
// was, a URL raised meanwhile keeps its raise; and through two workers' run stores: one leads, the other does not
// re-score, and takes the pass over when the leader goes quiet.
// @module-tag redis
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { httpBridge } from '../../lib/platform/shared-bridge';
import type { FrontierEntry } from '../../lib/records/types';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { openBridge } from '../../lib/store/shared/bridge-server';
import type { SharedAck, SharedEntry } from '../../lib/store/shared/bridge';
import { urlKey } from '../../lib/store/shared/redis-entries';
import { formatStatus, RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import { SharedRunStore } from '../../lib/store/shared/shared-store';
import { useSharedRedis } from '../support/shared-redis';

const link = (url: string, priority: number): SharedEntry => ({
  url, host: new URL(url).host, site: new URL(url).hostname, score: 0.5, priority, order: 0, depth: 1, parentUrl: 'http://seed.test/',
  anchor: `anchor ${url}`, context: 'telescope mirrors', attempts: 0, discoveredAt: 0, updatedAt: 0,
});
const params = (p: Partial<CrawlParams> = {}): CrawlParams => ({ maxPages: 1000, perHost: 100, delayMs: 0, leaseMs: 10_000, ...p });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The new priority every re-score below gives a URL: its last path segment, as a number. */
const ranked = (url: string) => Number(url.split('/').pop());

describe('the crawl-wide re-score of a shared frontier', () => {
  const shared = useSharedRedis();
  let n = 0;

  /** A crawl with `links` URLs queued (priority 0), its seed fetched: one page of the crawl. */
  const crawlWith = async (links: number, p = params()) => {
    const f = new RedisFrontier(shared.redis, `rescore ${++n}`);
    // A pass every 2 pages of the crawl.
    await f.join('{}', [{ ...link('http://seed.test/', 1), parentUrl: null }], [], { everyPages: 2 });
    const [seed] = (await f.take('w1', 1, p)).taken;
    const children = Array.from({ length: links }, (_, i) => link(`http://h${i % 7}.test/p/${i}`, 0));
    await f.ack('w1', [ack(seed!.url, seed!.fence, children)], p);
    return f;
  };
  const ack = (url: string, fence: number, children: SharedEntry[] = []): SharedAck => ({
    url, fence, priority: 0, stats: { fetched: 1, relevant: 1 }, children, aliases: [], labels: [],
  });
  /** One page more for the crawl, from a worker that holds no lease (as a late result would be). */
  const onePage = (f: RedisFrontier, url: string, p = params()) => f.ack('w9', [ack(url, 0)], p);
  /** Reads and writes one slice as a leader would, every URL moved to `ranked`. */
  const slice = async (f: RedisFrontier, worker: string, fence: string, cursor: string, count = 100) => {
    const s = await f.rescoreSlice(cursor, count);
    const moves = s.entries.map((e) => ({ key: e.key, from: e.priority, to: ranked(e.entry.url) }));
    return { read: s, written: await f.rescoreWrite(worker, fence, 300, cursor, s.next, s.entries.length, moves) };
  };
  const priorities = async (f: RedisFrontier) => {
    const flat = await shared.redis.zrange(f.key('q'), 0, -1, 'WITHSCORES');
    return new Map(flat.flatMap((v, i) => (i % 2 ? [] : [[v, Number(flat[i + 1])] as const])));
  };

  it('opens one pass every N pages of the crawl, whichever worker fetched them', async () => {
    const f = await crawlWith(20);
    expect((await f.status()).rescore).toBeNull(); // one page of the crawl: not yet
    await onePage(f, 'http://elsewhere.test/1');
    const s = await f.status();
    expect(s.rescore).toMatchObject({ passes: 1, state: 'open', why: '2 pages fetched', leader: null });
    expect(formatStatus(s)).toMatch(/\n {2}re-scores of the queue: 1, the last under way \(2 pages fetched\): 0 of 0 links moved$/);
    expect((await f.take('w2', 0, params())).rescore).toBe('2 pages fetched'); // every worker's take says a pass waits for a leader
    await onePage(f, 'http://elsewhere.test/2');
    await onePage(f, 'http://elsewhere.test/3');
    expect((await f.status()).rescore!.passes).toBe(1); // still the same pass: once per change, not once per worker
  });

  it("is led by one worker at a time, a slice at a time; a killed leader's slice is taken over where the pass was", { timeout: 30_000 }, async () => {
    const f = await crawlWith(1000);
    await onePage(f, 'http://elsewhere.test/1');
    const first = await f.rescoreLead('w1', 300, '');
    expect(first.lead).toMatchObject({ pass: 1, cursor: '0' });
    expect(await f.rescoreLead('w2', 300, '')).toEqual({ lead: null, leader: 'w1' });
    expect((await f.take('w2', 0, params())).rescore).toBeNull(); // led: no other worker is asked to

    const one = await slice(f, 'w1', first.lead!.fence, '0');
    expect(one.written.state).toBe('more');
    // Each entry comes with the page it was found on (a seed, with none, is left where it is by a re-score).
    expect(new Set(one.read.entries.map((e) => e.entry.parentUrl))).toEqual(new Set(['http://seed.test/']));
    // w1 reads its second slice and dies before writing it: its lead lapses, w2 takes over at the cursor it had.
    const lost = await f.rescoreSlice(one.read.next, 100);
    await sleep(350);
    expect((await f.take('w2', 0, params())).rescore).toBe('2 pages fetched');
    const second = await f.rescoreLead('w2', 300, '');
    expect(second.lead).toMatchObject({ pass: 1, cursor: one.read.next });
    let cursor = second.lead!.cursor;
    let last;
    do {
      last = await slice(f, 'w2', second.lead!.fence, cursor);
      cursor = last.read.next;
    } while (last.written.state === 'more');
    expect(last.written.state).toBe('done');
    // The dead leader's write comes back after all: refused, the pass is another's.
    expect((await f.rescoreWrite('w1', first.lead!.fence, 300, one.read.next, lost.next, lost.entries.length, [])).state).toBe('lost');

    const moved = await priorities(f);
    expect(moved.size).toBe(1000);
    for (let i = 0; i < 1000; i++) expect(moved.get(urlKey(`http://h${i % 7}.test/p/${i}`)), String(i)).toBe(i);
    const s = (await f.status()).rescore!;
    expect(s).toMatchObject({ state: 'done', leader: null, changed: 1000 });
    expect(s.scanned).toBeGreaterThanOrEqual(1000);
    expect((await f.rescoreLead('w2', 300, '')).lead).toBeNull(); // nothing open: nothing to lead
  });

  it('leaves a URL raised by a better link while its slice was ranked at its raise', async () => {
    const f = await crawlWith(50);
    await onePage(f, 'http://elsewhere.test/1');
    const { lead } = await f.rescoreLead('w1', 10_000, '');
    const read = await f.rescoreSlice('0', 1000);
    // Meanwhile another worker's page finds h3.test/p/3 again by a better link.
    await f.ack('w2', [ack('http://elsewhere.test/2', 0, [link('http://h3.test/p/3', 77)])], params());
    const moves = read.entries.map((e) => ({ key: e.key, from: e.priority, to: ranked(e.entry.url) }));
    expect((await f.rescoreWrite('w1', lead!.fence, 10_000, '0', read.next, read.entries.length, moves)).state).toBe('done');
    const moved = await priorities(f);
    expect(moved.get(urlKey('http://h3.test/p/3'))).toBe(77);
    expect(moved.get(urlKey('http://h4.test/p/4'))).toBe(4);
  });

  it('a pass asked for while another is under way follows it; the same reason again is the same pass', async () => {
    const f = await crawlWith(300);
    expect((await f.rescoreLead('w1', 10_000, 'retrained')).lead).toMatchObject({ pass: 1, why: 'retrained' });
    expect((await f.rescoreLead('w2', 10_000, 'retrained')).leader).toBe('w1');
    const first = await slice(f, 'w1', (await f.rescoreLead('w1', 10_000, '')).lead!.fence, '0', 50);
    expect(first.written.state).toBe('more');
    await f.rescoreLead('w2', 10_000, 'the link graph was re-ranked (HITS)');
    const { lead } = await f.rescoreLead('w1', 10_000, '');
    let cursor = lead!.cursor, state = 'more';
    while (state === 'more') {
      const s = await slice(f, 'w1', lead!.fence, cursor, 1000);
      cursor = s.read.next;
      state = s.written.state;
    }
    expect((await f.status()).rescore).toMatchObject({ passes: 2, state: 'open', why: 'the link graph was re-ranked (HITS)' });
  });

  it("through two workers' run stores: one leads, the other does not re-score, and takes over when the leader goes quiet", async () => {
    const config = parseConfig({ name: 'stores', seeds: ['http://seed.test/'], topic: { keywords: ['telescope'] } });
    const f = await crawlWith(600, params({ leaseMs: 400 }));
    await onePage(f, 'http://elsewhere.test/1', params({ leaseMs: 400 }));
    const store = async (name: string) => {
      const local = new CrawlStore(new CrawlerDB(`rescore-${name}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
      const topic = await local.topics.createTopic('telescopes', ['telescope'], 1);
      const crawlId = await local.createCrawl(config, topic.id!, 1);
      const bridge = await openBridge(f, name, params({ leaseMs: 400 }), () => undefined);
      shared.bridges.push(bridge);
      return { crawlId, store: new SharedRunStore(local, httpBridge(bridge)) };
    };
    const one = await store('one');
    const two = await store('two');
    const rank = (e: FrontierEntry) => ({ score: 0.5, priority: ranked(e.url) });
    await one.store.frontier.take(one.crawlId, () => 0, 0, 1);
    expect(one.store.frontier.rescoreWanted!()).toBe('2 pages fetched');

    // Worker one leads and stalls after its first slice, as a killed browser would (its pause never ends).
    let stalled!: () => void;
    const stall = new Promise<boolean>((resolve) => (stalled = () => resolve(false)));
    const led = one.store.frontier.rescoreQueued(one.crawlId, rank, 0, { chunk: 100, pause: () => stall });
    await expect.poll(async () => (await f.status()).rescore!.scanned).toBeGreaterThan(0);
    expect(await two.store.frontier.rescoreQueued(two.crawlId, rank, 0, { chunk: 100 })).toEqual({ scanned: 0, changed: 0, complete: true, ledElsewhere: 'one' });
    await sleep(450);
    await two.store.frontier.take(two.crawlId, () => 0, 0, 1);
    expect(two.store.frontier.rescoreWanted!()).toBe('2 pages fetched');
    const took = await two.store.frontier.rescoreQueued(two.crawlId, rank, 0, { chunk: 100 });
    const moved = await priorities(f);
    expect(moved.size).toBe(598); // two URLs are leased, one by each worker's take
    expect(took).toMatchObject({ complete: true, changed: 598 });
    stalled();
    expect(await led).toMatchObject({ complete: false });
    for (let i = 0; i < 600; i++) {
      const key = urlKey(`http://h${i % 7}.test/p/${i}`);
      if (moved.has(key)) expect(moved.get(key), String(i)).toBe(i);
    }
  }, 30_000);
});
