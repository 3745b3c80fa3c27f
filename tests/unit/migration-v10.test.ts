// Schema v9 -> v10: the frontier's [crawlId+state] index is dropped. A crawl stored under v9 must resume as it was:
// its queued URLs taken best-first, its in-flight ones reclaimed, its counts by state the same.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import { openShipped } from '../support/shipped-schemas';
import { FrontierStore } from '../../lib/store/frontier-store';

const entry = (url: string, state: string, priority: number, order: number) => ({
  crawlId: 1, url, host: 'example.org', site: 'example.org', state, priority, order, score: 0.5, depth: 1, parentUrl: null,
  anchor: '', context: '', attempts: state === 'queued' ? 0 : 1, discoveredAt: 0, updatedAt: 0,
});

describe('schema v9 -> v10 (the frontier without its [crawlId+state] index)', () => {
  it('resumes a stored crawl: best-first takes, in-flight reclaimed, counts by state', async () => {
    const indexedDB = new IDBFactory();
    const v9 = openShipped(9, indexedDB);
    await v9.table('crawls').add({ id: 1, name: 'c', state: 'paused', createdAt: 0, updatedAt: 0, topicId: 1, nextSeq: 0, nextOrder: 10,
      stats: { queued: 3, fetched: 0, failed: 0, attempts: 0, skipped: 1, relevant: 0, irrelevant: 0, bytes: 0 } });
    await v9.table('frontier').bulkAdd([
      entry('https://example.org/low', 'queued', 1, 0),
      entry('https://example.org/best', 'queued', 5, 1),
      entry('https://example.org/mid', 'queued', 3, 2),
      entry('https://example.org/away', 'inflight', 9, 3),
      entry('https://example.org/done', 'done', 9, 4),
      entry('https://example.org/skip', 'skipped', 9, 5),
    ]);
    v9.close();

    const db = new CrawlerDB('focus', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(10);
    expect(db.frontier.schema.indexes.map((i) => i.name)).not.toContain('[crawlId+state]');
    const frontier = new FrontierStore(db);
    expect(await frontier.countByState(1, 'queued')).toBe(3);
    expect(await frontier.countByState(1, 'skipped')).toBe(1);
    const inFlight = await db.frontier.where('[crawlId+state]').equals([1, 'inflight']).toArray();
    expect(inFlight.map((e) => e.url)).toEqual(['https://example.org/away']);
    expect(await frontier.reclaimInFlight(1, 1)).toEqual({ requeued: 1, failed: 0 });
    const { entries } = await frontier.take(1, () => 0, 1, 4);
    expect(entries.map((e) => e.url)).toEqual(['https://example.org/away', 'https://example.org/best', 'https://example.org/mid', 'https://example.org/low']);
    expect(await frontier.countByState(1, 'inflight')).toBe(4);
  });
});
