// Two workers' run stores (each its own IndexedDB) on one crawl through the runner's loopback bridge and a real
// redis-server: a link one worker's page found is taken by the other with the entry the first one's page queued,
// a host busy at one worker waits at the other, and a verdict's labeled links reach the other worker's store,
// whose model learns them at its next catch-up.
// @module-tag redis
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate, PageCommit } from '../../lib/ports';
import { httpBridge } from '../../lib/platform/shared-bridge';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { SharedRunStore } from '../../lib/store/shared/shared-store';
import type { FrontierEntry } from '../../lib/records/types';
import { openBridge } from '../../lib/store/shared/bridge-server';
import { RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import { seedEntries } from '../../lib/app/shared-run';
import { useSharedRedis } from '../support/shared-redis';

const config = parseConfig({ name: 'shared', seeds: ['http://a.test/', 'http://b.test/'], topic: { keywords: ['telescope'] }, politeness: { delayMs: 0, perHost: 1 } });
const params: CrawlParams = { maxPages: 100, perHost: 1, delayMs: 0, leaseMs: 30_000 };

describe('run stores of two workers on one shared frontier', () => {
  const shared = useSharedRedis();
  const bridges = shared.bridges;

  const worker = async (name: string, frontier: RedisFrontier) => {
    const local = new CrawlStore(new CrawlerDB(name, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const topic = await local.topics.createTopic('telescopes', ['telescope'], 1);
    const crawlId = await local.createCrawl(config, topic.id!, 1);
    const bridge = await openBridge(frontier, name, params, () => undefined);
    bridges.push(bridge);
    return { crawlId, topicId: topic.id!, local, store: new SharedRunStore(local, httpBridge(bridge)) };
  };

  it('shares the frontier, politeness and the labeled links between the workers', async () => {
    const frontier = new RedisFrontier(shared.redis, 'shared');
    await frontier.join(JSON.stringify(config), seedEntries(config, 1));
    const one = await worker('one', frontier);
    const two = await worker('two', frontier);
    const ready = () => 0;

    const first = await one.store.frontier.take(one.crawlId, ready, 10, 4);
    expect(first.entries.map((e) => e.url).sort()).toEqual(['http://a.test/', 'http://b.test/']);
    const busy = await two.store.frontier.take(two.crawlId, ready, 10, 4);
    expect(busy.entries).toEqual([]);
    expect(busy.waitMs).toBeLessThan(1000); // others hold the hosts: asks again soon, not "empty"

    const a = first.entries.find((e) => e.url === 'http://a.test/')!;
    const child: Candidate = {
      url: 'http://c.test/eyepieces', host: 'c.test', score: 0.9, priority: 2.2, depth: 1, parentUrl: a.url, anchor: 'eyepieces', context: 'telescope eyepieces',
    };
    await one.store.commitPages([commit(one.crawlId, a, [child])], 20);

    const second = await two.store.frontier.take(two.crawlId, ready, 3000, 4);
    expect(second.entries.map((e) => [e.url, e.anchor, e.state])).toEqual([['http://c.test/eyepieces', 'eyepieces', 'inflight']]);
    // The verdict's labeled link, learned by worker one, is in worker two's store as a label of the crawl.
    const labels = await two.local.topics.labelsAfter(two.topicId, 0);
    expect(labels.map((l) => [l.url, l.label, l.crawlId])).toEqual([['http://a.test/', 1, two.crawlId]]);
    expect(await one.local.topics.labelsAfter(one.topicId, 0)).toHaveLength(1); // its own, once

    // Leases taken from the other worker's store are its own: the other cannot complete them.
    const s = await frontier.status();
    expect([s.fetched, s.leased, s.queued]).toEqual([1, 2, 0]);
  });
});

describe('a worker started again under its name', () => {
  const shared = useSharedRedis();

  it("keeps none of its killed run's leases alive with its heartbeat; its pages count under its name", async () => {
    const frontier = new RedisFrontier(shared.redis, 'restarted');
    await frontier.join(JSON.stringify(config), seedEntries(config, 1));
    const p = { ...params, leaseMs: 400 };
    const killed = await openBridge(frontier, 'w2', p, () => undefined);
    const taken = await httpBridge(killed).take({ max: 1 });
    expect(taken.taken).toHaveLength(1);
    await killed.close(); // its runner is gone: no heartbeat, no completion
    const again = await openBridge(frontier, 'w2', p, () => undefined);
    shared.bridges.push(again);
    await new Promise((r) => setTimeout(r, 700)); // its heartbeat runs meanwhile
    const retaken = await httpBridge(again).take({ max: 4 });
    expect(retaken.reclaimed).toBe(1);
    expect(retaken.taken.map((t) => t.url).sort()).toEqual(['http://a.test/', 'http://b.test/']);
    await httpBridge(again).ack({ acks: retaken.taken.map((t) => ({ url: t.url, fence: t.fence, priority: 0, stats: { fetched: 1 }, children: [], aliases: [], labels: [] })) });
    expect((await frontier.status()).byWorker).toEqual({ w2: 2 });
  });

  it("reads on from where its earlier crawl in the profile read the crawl's labeled links: none twice in its topic", async () => {
    const frontier = new RedisFrontier(shared.redis, 'labels again');
    await frontier.join(JSON.stringify(config), seedEntries(config, 1));
    const label = (i: number) => ({ url: `http://a.test/${i}`, anchor: `comet ${i}`, context: 'telescope', label: 1 as const, source: 'verdict' as const, createdAt: i });
    await frontier.ack('other', [{ url: 'http://x.test/', fence: 0, priority: 0, stats: {}, children: [], aliases: [], labels: [label(1), label(2)] }], params);
    const local = new CrawlStore(new CrawlerDB('labels-again', { indexedDB: new IDBFactory(), IDBKeyRange }));
    const topic = await local.topics.createTopic('telescopes', ['telescope'], 1);
    const bridge = await openBridge(frontier, 'w3', params, () => undefined);
    shared.bridges.push(bridge);
    const start = async (cursor: number) => {
      const crawlId = await local.createCrawl(config, topic.id!, 1);
      await local.updateCrawl(crawlId, { shared: { worker: 'w3', labelsCursor: cursor } });
      const store = new SharedRunStore(local, httpBridge(bridge), undefined, { labelsCursor: cursor });
      await store.training.catchUp(crawlId, 1);
      return (await local.getCrawl(crawlId))!.shared!.labelsCursor!;
    };
    const first = await start(0);
    expect(first).toBe(2);
    await frontier.ack('other', [{ url: 'http://y.test/', fence: 0, priority: 0, stats: {}, children: [], aliases: [], labels: [label(3)] }], params);
    expect(await start(first)).toBe(3); // killed, started again: its new crawl reads only what came since
    expect((await local.topics.labelsAfter(topic.id!, 0)).map((l) => l.url)).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
  });
});

function commit(crawlId: number, entry: FrontierEntry, children: Candidate[]): PageCommit {
  return {
    crawlId, entry, outcome: 'done', children, aliases: [], site: 'a.test', stats: { fetched: 1, relevant: 1, attempts: 1 }, activeMs: 0,
    labels: [{ url: entry.url, anchor: 'home', context: 'telescope home', label: 1, source: 'verdict', createdAt: 5 }],
  };
}
