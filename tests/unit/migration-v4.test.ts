// Schema v3 -> v4: frontier entries gain their site (and room for strategy state); a crawl of v3 resumes under
// a strategy that counts sites.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { openShipped } from '../support/shipped-schemas';

const entry = (url: string, state: string, priority: number, order: number) => ({
  crawlId: 1, url, host: new URL(url).host, state, score: 0.5, priority, order, depth: 1, parentUrl: 'http://a.example.org/',
  anchor: '', context: '', attempts: 0, discoveredAt: 1, updatedAt: 1,
});

describe('schema v3 -> v4 (frontier entries know their site)', () => {
  it('gives every entry its registrable domain, counts queued URLs per site, and the crawl takes on', async () => {
    const indexedDB = new IDBFactory();
    const v3 = openShipped(3, indexedDB);
    const config = parseConfig({ name: 'old', seeds: ['http://a.example.org/'], topic: { keywords: ['x'] } });
    await v3.table('topics').add({ name: 'old', keywords: ['x'], revision: 0, createdAt: 1, updatedAt: 1 });
    await v3.table('crawls').add({ topicId: 1, name: 'old', config, state: 'paused', stats: { queued: 3 }, nextSeq: 1, nextOrder: 5, createdAt: 1, updatedAt: 1, activeMs: 0 });
    await v3.table('frontier').bulkAdd([
      entry('http://a.example.org/', 'done', 1, -1),
      entry('http://news.example.org/1', 'queued', 2, -2),
      entry('http://docs.example.org/2', 'queued', 1, -3),
      entry('http://other.test/3', 'queued', 0.5, -4),
    ]);
    v3.close();

    const db = new CrawlerDB('focus', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(7);
    const rows = await db.frontier.toArray();
    expect(Object.fromEntries(rows.map((e) => [e.url, e.site]))).toEqual({
      'http://a.example.org/': 'example.org', 'http://news.example.org/1': 'example.org',
      'http://docs.example.org/2': 'example.org', 'http://other.test/3': 'other.test',
    });
    expect(await db.frontier.where('[crawlId+site+state]').equals([1, 'example.org', 'queued']).count()).toBe(2);
    const store = new CrawlStore(db);
    const { entries } = await store.frontier.take(1, () => 0, 2, 3);
    expect(entries.map((e) => e.url)).toEqual(['http://news.example.org/1', 'http://docs.example.org/2', 'http://other.test/3']);
    expect(entries.every((e) => e.strategy === undefined)).toBe(true);
  });
});
