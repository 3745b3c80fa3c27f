// What a request that met a passing fault, a block or a stopped worker leaves behind.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { commitForNonPage, RETRY_AFTER_CAP_MS } from '../../lib/run/outcome';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { FrontierEntry } from '../../lib/records/types';

const entry: FrontierEntry = {
  crawlId: 1, url: 'http://a.test/x', host: 'a.test', state: 'inflight', score: 0.5, priority: 0, order: -1, depth: 1,
  parentUrl: 'http://a.test/', anchor: 'x', context: '', attempts: 1, discoveredAt: 0, updatedAt: 0,
};
const policy = { retries: 3, retryBaseMs: 10_000 };

describe('a passing fault', () => {
  it('re-queues the URL for the Retry-After the server named, without spending the budget', () => {
    const r = commitForNonPage(1, entry, { kind: 'retry', reason: 'HTTP 503', afterMs: 75_000, chain: [], robots: false }, 1_000, policy, 0);
    expect(r.retryInMs).toBe(75_000);
    expect(r.commit.outcome).toBe('retry');
    expect(r.commit.entry).toMatchObject({ notBefore: 76_000, retries: 1, reason: 'HTTP 503: asked again in 75 s' });
    expect(r.commit.page).toBeUndefined();
    expect(r.commit.stats).toEqual({});
  });

  it('caps a Retry-After at an hour, and backs off doubling when none is named', () => {
    expect(commitForNonPage(1, entry, { kind: 'retry', reason: 'HTTP 429', afterMs: 86_400_000, chain: [], robots: false }, 0, policy, 0).retryInMs).toBe(RETRY_AFTER_CAP_MS);
    const waits = [0, 1, 2].map((retries) => commitForNonPage(1, { ...entry, retries }, { kind: 'retry', reason: 'network error', chain: [], robots: false }, 0, policy, 0).retryInMs);
    expect(waits).toEqual([10_000, 20_000, 40_000]);
  });

  it('fails the URL once its retries are spent, saying how many were made', () => {
    const r = commitForNonPage(1, { ...entry, retries: 3 }, { kind: 'retry', reason: 'HTTP 503', chain: [], robots: false }, 0, policy, 0);
    expect(r.commit.outcome).toBe('failed');
    expect(r.commit.page?.error).toBe('HTTP 503 (gave up after 3 retries)');
    expect(r.commit.stats).toMatchObject({ failed: 1, attempts: 1 });
  });

  it('does not count waiting for robots.txt as a retry of the page', () => {
    const r = commitForNonPage(1, { ...entry, retries: 3 }, { kind: 'retry', reason: 'robots.txt unavailable', afterMs: 30_000, chain: [], robots: true }, 0, policy, 0);
    expect(r).toMatchObject({ requested: false, retryInMs: 30_000, commit: { outcome: 'retry', entry: { retries: 3 } } });
  });
});

describe('a URL in flight when the worker stopped', () => {
  it('is queued again twice, and failed with that sentence the third time', async () => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const config = parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] } });
    const topic = await store.topics.createTopic('t', ['x'], 1);
    const id = await store.createCrawl(config, topic.id!, 1);
    await store.frontier.enqueue(id, [{ url: 'http://a.test/', host: 'a.test', score: 1, priority: 1, depth: 0, parentUrl: null, anchor: '', context: '' }], 1);
    for (const expected of [{ requeued: 1, failed: 0 }, { requeued: 1, failed: 0 }, { requeued: 0, failed: 1 }]) {
      expect((await store.frontier.take(id, () => 0, 2, 1)).entries).toHaveLength(1);
      expect(await store.frontier.reclaimInFlight(id, 3)).toEqual(expected);
    }
    const [row] = await store.pages.pagesAfter(id, 0, 10);
    expect(row).toMatchObject({ outcome: 'failed', error: 'was being fetched each of the 3 times the service worker stopped: not tried again' });
    const crawl = (await store.getCrawl(id))!;
    expect(crawl.stats).toMatchObject({ queued: 0, failed: 1 });
  });
});
