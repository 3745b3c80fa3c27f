// Every strategy's state on a shared frontier, against a real redis-server: the site book of sparse tunneling (design
// B.4's cap on unknown sites, B.5's blacklist, the config's list) kept for the whole crawl with the rules read from the
// strategy itself; the multi-queue strategy's FIFO queues taken heaviest first as its own ranking says (design D.3),
// a busy host passed over (D.4); a fetched thread whose reply count changed queued again (D.5).
// @module-tag redis
import { describe, expect, it } from 'vitest';
import { crawlRules, rulesProblem } from '../../lib/app/shared-rules';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate } from '../../lib/ports';
import type { QueueLoad } from '../../lib/strategies/types';
import { rankQueues } from '../../lib/strategies/multi-queue/weights';
import type { SharedAck } from '../../lib/store/shared/bridge';
import { RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import { useSharedRedis } from '../support/shared-redis';

const params = (p: Partial<CrawlParams> = {}): CrawlParams => ({ maxPages: 1000, perHost: 1, delayMs: 0, leaseMs: 60_000, ...p });
const link = (url: string, priority: number, patch: Partial<Candidate> = {}): Candidate => ({
  url, host: new URL(url).host, site: new URL(url).hostname, score: 0.5, priority, depth: 1, parentUrl: 'http://a.test/', anchor: 'a link', context: '', ...patch,
});
/** A page's completion, from a worker that holds no lease on it (as a late result is taken). */
const page = (url: string, stats: SharedAck['stats'], children: Candidate[] = [], more: Partial<SharedAck> = {}): SharedAck => ({
  url, site: new URL(url).hostname, fence: 0, priority: 0, stats, children, aliases: [], labels: [], ...more,
});

describe('the rules a shared frontier keeps, read from the strategy', () => {
  it("sparse tunneling's cap, blacklist and their reasons; none for best-first", () => {
    const sparse = parseConfig({ name: 's', seeds: ['http://a.test/'], topic: { keywords: ['comet'] }, strategy: { name: 'sparse-tunneling', unknownSiteQueue: 2, blacklistAfter: 1 } });
    expect(crawlRules(sparse)).toMatchObject({
      unknownSiteQueue: 2, admitReason: 'unknown site full', blacklistAfter: 1, closeReason: 'more than 1 off-topic pages fetched (%d)', queues: 0, everyLink: 'logodds',
    });
    expect(rulesProblem(sparse)).toBeNull();
    const best = parseConfig({ name: 'b', seeds: ['http://a.test/'], topic: { keywords: ['comet'] } });
    expect(crawlRules(best)).toMatchObject({ unknownSiteQueue: 0, blacklistAfter: 0, queues: 0 });
    const queues = parseConfig({ name: 'q', seeds: ['http://a.test/'], topic: { keywords: ['comet'] }, strategy: { name: 'multi-queue', maxPriority: 4, iFactor: 3 } });
    expect(crawlRules(queues)).toMatchObject({ queues: 4, iFactor: 3, everyLink: '', everyPages: 0 });
  });
});

describe('strategies on a shared frontier', () => {
  const shared = useSharedRedis();
  let n = 0;

  it('keeps the site book for the whole crawl: unknown sites capped, a site closed by its off-topic pages, the config\'s list', async () => {
    const config = parseConfig({
      name: 'sparse', seeds: ['http://a.test/'], topic: { keywords: ['comet'] }, siteBlacklist: ['listed.test'],
      strategy: { name: 'sparse-tunneling', unknownSiteQueue: 2, blacklistAfter: 1 },
    });
    const f = new RedisFrontier(shared.redis, `sparse ${++n}`);
    await f.join('{}', [], [], crawlRules(config), ['listed.test']);
    const p = params({ perHost: 9 });
    // An on-topic page of a.test: its links to unknown.test fill that site's cap; a.test is known now, uncapped.
    await f.ack('w1', [page('http://a.test/', { fetched: 1, relevant: 1 }, [
      ...[1, 2, 3].map((i) => link(`http://unknown.test/${i}`, 3 - i)), link('http://listed.test/x', 9), ...[1, 2, 3].map((i) => link(`http://a.test/${i}`, 1)),
    ])], p);
    let s = await f.status();
    expect(s.queued).toBe(5);
    expect(s.dropped).toEqual({ 'unknown site full': 1, 'site blacklisted': 1 });
    // Another worker's page finds unknown.test again: still full.
    await f.ack('w2', [page('http://b.test/', { fetched: 1, relevant: 1 }, [link('http://unknown.test/4', 5)])], p);
    expect((await f.status()).dropped['unknown site full']).toBe(2);
    // Two off-topic pages of unknown.test, fetched by two workers: more than one closes it, and its queued URLs leave
    // the queue as takes meet them; no link to it is queued any more.
    await f.ack('w1', [page('http://unknown.test/a', { fetched: 1, relevant: 0 })], p);
    await f.ack('w2', [page('http://unknown.test/b', { fetched: 1, relevant: 0 }, [link('http://unknown.test/5', 1)])], p);
    const taken = await f.take('w3', 10, p);
    expect(taken.taken.map((t) => t.url).sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
    s = await f.status();
    expect(s.queued).toBe(0);
    expect(s.blacklistedSites).toBe(2);
    expect(s.dropped).toEqual({ 'unknown site full': 2, 'site blacklisted': 4 });
    expect(await shared.redis.hget(f.key('closed'), 'unknown.test')).toBe('more than 1 off-topic pages fetched (2)');
  });

  it('takes by queues as the strategy ranks them, first in first out, a busy host passed over for the next URL', async () => {
    const config = parseConfig({ name: 'mq', seeds: ['http://a.test/'], topic: { keywords: ['forum'] }, strategy: { name: 'multi-queue', maxPriority: 3, iFactor: 2 } });
    const f = new RedisFrontier(shared.redis, `queues ${++n}`);
    await f.join('{}', [], [], crawlRules(config));
    const sizes: Record<number, number> = { 3: 3, 2: 7, 1: 13 };
    const children = [3, 2, 1].flatMap((q) => Array.from({ length: sizes[q]! }, (_, i) => link(`http://q${q}h${i}.test/${i}`, q)));
    // Queue 3's second URL is on the host of its first: passed over while that host is busy.
    children.splice(1, 0, link('http://q3h0.test/second', 3));
    await f.ack('w1', [page('http://a.test/', { fetched: 1 }, children)], params());
    const loads = new Map<number, QueueLoad>([3, 2, 1].map((q) => [q, { priority: q, queued: sizes[q]! + (q === 3 ? 1 : 0), inFlight: 0 }]));
    const order: number[] = [], expected: number[] = [];
    const urls: string[] = [];
    for (let i = 0; i < 12; i++) {
      const t = await f.take(`w${i % 2}`, 1, params());
      order.push(t.taken[0]!.entry.priority);
      urls.push(t.taken[0]!.url);
      // The local strategy: its ranking of the queues as they are (the busy host's URL stays queued, not in flight).
      const first = rankQueues([...loads.values()].filter((l) => l.queued > 0), 3, 2)[0]!;
      expected.push(first.priority);
      loads.get(first.priority)!.queued--;
      loads.get(first.priority)!.inFlight++;
    }
    expect(order).toEqual(expected);
    const fromQueue3 = urls.filter((u) => u.startsWith('http://q3'));
    expect(fromQueue3.slice(0, 2)).toEqual(['http://q3h0.test/0', 'http://q3h1.test/1']); // first in first out; its busy host's next passed over
    expect(fromQueue3).not.toContain('http://q3h0.test/second');
  });

  it('queues a fetched thread again when a list page shows another reply count for it, not when it shows the same', async () => {
    const config = parseConfig({ name: 'mq2', seeds: ['http://a.test/'], topic: { keywords: ['forum'] }, strategy: { name: 'multi-queue' } });
    const f = new RedisFrontier(shared.redis, `revisit ${++n}`);
    await f.join('{}', [], [], crawlRules(config));
    const thread = (replies: string) => link('http://forum.test/t/1', 4, { revisit: replies, strategy: { urlClass: 'content' } });
    await f.ack('w1', [page('http://forum.test/list', { listPages: 1 }, [thread('3')])], params());
    const [t] = (await f.take('w1', 1, params())).taken;
    expect(t!.entry.revisit).toBe('3');
    await f.ack('w1', [{ ...page(t!.url, { fetched: 1 }), fence: t!.fence, revisit: '3' }], params());
    // The list read again (its refresh, under another address here: each completion is of one fetch).
    await f.ack('w2', [page('http://forum.test/list?2', { listPages: 1 }, [thread('3')])], params());
    expect((await f.status()).queued).toBe(0); // the same count: nothing new in the thread
    await f.ack('w2', [page('http://forum.test/list?3', { listPages: 1 }, [thread('5')])], params());
    const again = await f.take('w1', 1, params());
    expect(again.taken.map((x) => [x.url, x.entry.revisit])).toEqual([['http://forum.test/t/1', '5']]);
  });
});
