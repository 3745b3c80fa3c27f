// Schema v11 -> v12 adds the packed seed lists' table (lib/store/seed-lists.ts) and changes no row: a crawl stored
// under v11 resumes as it was, its frontier size is its queued URLs, and a big seed list given after the upgrade packs.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { frontierSize } from '../../lib/records/rows';
import { CrawlerDB } from '../../lib/store/db';
import { CrawlStore } from '../../lib/store/crawl-store';
import { PACK_ABOVE } from '../../lib/store/seed-lists';
import { openShipped } from '../support/shipped-schemas';

const entry = (url: string, priority: number, order: number) => {
  const host = new URL(url).host;
  return { crawlId: 1, url, host, site: host, state: 'queued', priority, order, score: 0.5, depth: 0, parentUrl: null,
    anchor: '', context: '', attempts: 0, discoveredAt: 0, updatedAt: 0 };
};

describe('schema v11 -> v12 (packed seed lists)', () => {
  it('keeps a stored crawl as it was, and packs a big seed list given after the upgrade', async () => {
    const indexedDB = new IDBFactory();
    const v11 = openShipped(11, indexedDB);
    await v11.table('crawls').add({ id: 1, name: 'c', state: 'paused', createdAt: 0, updatedAt: 0, topicId: 1, nextSeq: 1, nextOrder: 3,
      config: { seeds: ['https://a.test/1'] }, stats: { queued: 2, fetched: 0, failed: 0, attempts: 0, skipped: 0, relevant: 0, trainPages: 0, labels: 0, bytes: 0 } });
    await v11.table('frontier').bulkAdd([entry('https://a.test/1', 5, -1), entry('https://a.test/2', 4, -2)]);
    await v11.table('hostHeads').add({ crawlId: 1, site: 'a.test', host: 'a.test', priority: 5, order: -1 });
    v11.close();

    const store = new CrawlStore(new CrawlerDB('focus', { indexedDB, IDBKeyRange }));
    await store.db.open();
    expect(store.db.verno).toBeGreaterThanOrEqual(12);
    const crawl = (await store.getCrawl(1))!;
    expect(frontierSize(crawl.stats)).toBe(2);
    const { entries } = await store.frontier.take(1, () => 0, Date.now(), 5);
    expect(entries.map((e) => e.url)).toEqual(['https://a.test/1', 'https://a.test/2']);

    const seeds = Array.from({ length: PACK_ABOVE + 10 }, (_, i) => ({ url: `https://b.test/${i}`, host: 'b.test', site: 'b.test', score: 1,
      priority: 9, depth: 0, parentUrl: null, anchor: '', context: '' }));
    await store.frontier.enqueue(1, seeds, Date.now());
    expect((await store.getCrawl(1))!.stats.packedSeeds).toBe(10);
    expect(await store.db.seedLists.count()).toBe(1);
  });
});
