// Schema v14 -> v15: a table of each crawl's recall estimates (docs/recall.md). Nothing of a v14 crawl changes: it
// reads as it was, has no estimate and no history, and the estimates made once it resumes are kept, in order of
// pages fetched, and deleted with it.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { openShipped } from '../support/shipped-schemas';

describe('schema v14 -> v15 (recall history)', () => {
  it('opens a v14 crawl as it was, with no estimate, and keeps the estimates made after', async () => {
    const indexedDB = new IDBFactory();
    const v14 = openShipped(14, indexedDB);
    const stats = { queued: 3, fetched: 2, failed: 0, attempts: 2, skipped: 0, relevant: 1, trainPages: 0, labels: 0, bytes: 20 };
    await v14.table('crawls').add({ id: 1, name: 'c', state: 'paused', createdAt: 5, updatedAt: 5, topicId: 1, nextSeq: 3, nextOrder: 4, stats });
    await v14.table('crawlConfigs').add({ crawlId: 1, config: { name: 'c', seeds: ['https://a.test/'] } });
    await v14.table('pages').add({ crawlId: 1, seq: 1, url: 'https://a.test/', finalUrl: 'https://a.test/', status: 200, title: 'A', kind: 'relevant' });
    await v14.table('sketches').add({ crawlId: 1, seq: 1, url: 'https://a.test/', bins: new Uint32Array(64), shingles: 9, exact: 'x', heading: 0, relevant: true });
    v14.close();

    const store = new CrawlStore(new CrawlerDB('focus', { indexedDB, IDBKeyRange }));
    await store.db.open();
    expect(store.db.verno).toBeGreaterThanOrEqual(15);
    const crawl = (await store.getCrawl(1))!;
    expect(crawl.stats).toEqual(stats);
    expect(crawl.recall).toBeUndefined();
    expect(await store.recallHistory(1)).toEqual([]);
    expect(await store.sketches(1)).toHaveLength(1);

    // Saved out of order, read in the order of pages fetched; a note replaces the newest estimate without a history row.
    await store.saveRecall(1, { fetched: 200, estimate: 0.5, low: 0.4, high: 0.6 }, 7);
    await store.saveRecall(1, { fetched: 100, estimate: 0.3, low: 0.2, high: 0.5 }, 6);
    expect((await store.recallHistory(1)).map((r) => r.fetched)).toEqual([100, 200]);
    await store.saveRecall(1, { note: 'not enough to estimate yet' }, 8);
    expect((await store.getCrawl(1))!.recall).toEqual({ note: 'not enough to estimate yet' });
    expect(await store.recallHistory(1)).toHaveLength(2);
    expect((await store.getCrawl(1))!.stats).toEqual(stats);

    expect(await store.deleteCrawl(1)).toBe(true);
    expect(await store.recallHistory(1)).toEqual([]);
  });
});
