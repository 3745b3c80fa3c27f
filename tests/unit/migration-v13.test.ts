// Schema v12 -> v13: a crawl's config moves to a row of its own (lib/store/crawl-configs.ts) on its crawl row's next
// write, and labels lose their unused crawlId index. A crawl stored under v12 reads and resumes as it was, and its
// labels are all still there for its topic.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { openShipped } from '../support/shipped-schemas';

describe('schema v12 -> v13 (configs apart, labels without their crawl index)', () => {
  it('reads a v12 crawl with its config, moves the config on the next write, and keeps every label', async () => {
    const indexedDB = new IDBFactory();
    const v12 = openShipped(12, indexedDB);
    const config = { name: 'c', seeds: ['https://a.test/1'], topic: { keywords: ['rocks', ...Array.from({ length: 500 }, (_, i) => `w${i}`)] } };
    await v12.table('crawls').add({ id: 1, name: 'c', state: 'paused', createdAt: 5, updatedAt: 5, topicId: 1, nextSeq: 1, nextOrder: 3, config,
      stats: { queued: 0, fetched: 0, failed: 0, attempts: 0, skipped: 0, relevant: 0, trainPages: 0, labels: 2, bytes: 0 } });
    await v12.table('topics').add({ id: 1, name: 'rocks', keywords: ['rocks'], revision: 0, createdAt: 0, updatedAt: 0 });
    await v12.table('labels').bulkAdd([1, 2].map((i) => ({ topicId: 1, crawlId: 1, url: `https://a.test/${i}`, anchor: 'a', context: 'c', label: 1, source: 'verdict', createdAt: i })));
    v12.close();

    const store = new CrawlStore(new CrawlerDB('focus', { indexedDB, IDBKeyRange }));
    await store.db.open();
    expect(store.db.verno).toBeGreaterThanOrEqual(13);
    expect((await store.getCrawl(1))!.config).toEqual(config);
    expect((await store.topics.changesSince(1, 0)).labels.map((l) => l.url)).toEqual(['https://a.test/1', 'https://a.test/2']);
    expect(store.db.labels.schema.indexes.map((i) => i.name).sort()).toEqual(['[topicId+id]', '[topicId+url]']);

    await store.updateCrawl(1, { message: 'resumed' });
    store.db.close();
    const raw = new Dexie('focus', { indexedDB, IDBKeyRange });
    await raw.open();
    expect(await raw.table('crawls').get(1)).not.toHaveProperty('config');
    expect((await raw.table('crawlConfigs').get(1)).config).toEqual(config);
    raw.close();
    const again = new CrawlStore(new CrawlerDB('focus', { indexedDB, IDBKeyRange }));
    expect((await again.getCrawl(1))!).toMatchObject({ config, message: 'resumed' });
  });
});
