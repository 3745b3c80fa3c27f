// Schema v10 -> v11: per-host queue heads. A crawl stored under v10 must resume as it was: its heads built from its
// queued rows (one per host, at the host's best queued position), best-first takes in the same order, a busy host
// passed, and a site's queued URLs still counted.
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import { openShipped } from '../support/shipped-schemas';
import { FrontierStore } from '../../lib/store/frontier-store';
import { queuedOf } from '../../lib/store/site-book';

const entry = (crawlId: number, url: string, state: string, priority: number, order: number) => {
  const host = new URL(url).host;
  return { crawlId, url, host, site: host.split('.').slice(-2).join('.'), state, priority, order, score: 0.5, depth: 1, parentUrl: null,
    anchor: '', context: '', attempts: 0, discoveredAt: 0, updatedAt: 0 };
};

describe('schema v10 -> v11 (per-host queue heads)', () => {
  it('builds each host\'s head from its queued rows, and the stored crawl resumes in the same order', async () => {
    const indexedDB = new IDBFactory();
    const v10 = openShipped(10, indexedDB);
    await v10.table('crawls').add({ id: 1, name: 'c', state: 'paused', createdAt: 0, updatedAt: 0, topicId: 1, nextSeq: 0, nextOrder: 20,
      stats: { queued: 6, fetched: 0, failed: 0, attempts: 0, skipped: 0, relevant: 0, irrelevant: 0, bytes: 0 } });
    await v10.table('frontier').bulkAdd([
      entry(1, 'https://www.busy.org/1', 'queued', 9, -1),
      entry(1, 'https://www.busy.org/2', 'queued', 8, -2),
      entry(1, 'https://www.busy.org/3', 'queued', 7, -3),
      entry(1, 'https://news.busy.org/1', 'queued', 6, -4),
      entry(1, 'https://calm.net/1', 'queued', 5, -5),
      entry(1, 'https://calm.net/2', 'queued', 5, -6),
      entry(1, 'https://calm.net/done', 'done', 10, -7),
      entry(1, 'https://gone.net/1', 'skipped', 10, -8),
      entry(2, 'https://calm.net/1', 'queued', 1, -1),
    ]);
    v10.close();

    const db = new CrawlerDB('focus', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(11);
    const heads = (await db.hostHeads.toArray()).map((h) => `${h.crawlId} ${h.host} ${h.priority}`).sort();
    expect(heads).toEqual(['1 calm.net 5', '1 news.busy.org 6', '1 www.busy.org 9', '2 calm.net 1']);
    expect(await queuedOf(db, 1, 'busy.org')).toBe(4);
    const frontier = new FrontierStore(db);
    // www.busy.org is busy: its three URLs are passed, the others taken best first.
    const busy = (e: { host: string }) => (e.host === 'www.busy.org' ? 1000 : 0);
    const { entries } = await frontier.take(1, busy, 1, 3);
    expect(entries.map((e) => e.url)).toEqual(['https://news.busy.org/1', 'https://calm.net/1', 'https://calm.net/2']);
    expect((await frontier.take(1, () => 0, 1, 5)).entries.map((e) => e.url)).toEqual(['https://www.busy.org/1', 'https://www.busy.org/2', 'https://www.busy.org/3']);
    expect(await db.hostHeads.where('[crawlId+site+host]').between([1, Dexie.minKey, Dexie.minKey], [1, Dexie.maxKey, Dexie.maxKey]).count()).toBe(0);
  });
});
