import Dexie, { liveQuery, RangeSet, type ObservabilitySet } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { paceChangeSignals } from '../../lib/store/change-signal';
import { CrawlerDB } from '../../lib/store/db';
import type { PageRecord } from '../../lib/records/types';

const page = (crawlId: number, seq: number): PageRecord =>
  ({ crawlId, seq, url: `http://a.test/p/${seq}`, site: 'a.test', kind: 'relevant', score: 0.9, fetchedAt: 1 }) as unknown as PageRecord;

describe('the crawl’s writes, as the pages showing them hear of them', () => {
  const heard: ObservabilitySet[] = [];
  const hear = (parts: ObservabilitySet) => void heard.push(parts);
  afterEach(() => {
    Dexie.on.storagemutated.unsubscribe(hear);
    heard.length = 0;
  });

  it('come a few times a second, not once a write, and cover every key written', async () => {
    const db = new CrawlerDB('paced', { indexedDB: new IDBFactory(), IDBKeyRange });
    paceChangeSignals(db, 150);
    await db.open();
    Dexie.on('storagemutated', hear);

    const began = performance.now();
    // Sixty commits, one transaction each, as a crawl makes them: two crawls, and each commit also writes the crawl row.
    for (let seq = 0; seq < 60; seq++) {
      const crawlId = 1 + (seq % 2);
      await db.transaction('rw', db.pages, db.crawls, async () => {
        await db.pages.add(page(crawlId, seq));
        await db.crawls.put({ id: crawlId, createdAt: 1, pagesFetched: seq } as never);
      });
    }
    const took = performance.now() - began;
    await new Promise((r) => setTimeout(r, 400));

    // Unpaced, Dexie announces each of the sixty transactions.
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.length).toBeLessThanOrEqual(Math.ceil(took / 150) + 1);
    const written = (part: string, key: unknown) => heard.some((p) => p[part] && RangeSet(p[part]).hasKey(key as never));
    for (let seq = 0; seq < 60; seq++) {
      const crawlId = 1 + (seq % 2);
      expect(written('idb://paced/pages/', [crawlId, seq])).toBe(true);
      expect(written('idb://paced/pages/[crawlId+kind+seq]', [crawlId, 'relevant', seq])).toBe(true);
    }
    expect(written('idb://paced/crawls/', 2)).toBe(true);
    // Nothing outside what was written: crawl 3's pages are not announced as changed.
    expect(written('idb://paced/pages/', [3, 0])).toBe(false);
    db.close();
  });

  it('still move a live query in the same context, at most the pace late', async () => {
    // liveQuery reads through Dexie's global dependencies.
    Dexie.dependencies.indexedDB = new IDBFactory();
    Dexie.dependencies.IDBKeyRange = IDBKeyRange;
    const db = new CrawlerDB('paced-live', { indexedDB: Dexie.dependencies.indexedDB, IDBKeyRange });
    paceChangeSignals(db, 100);
    const counts: number[] = [];
    const sub = liveQuery(() => db.pages.where('[crawlId+seq]').between([1, 0], [1, Infinity]).count()).subscribe((n) => counts.push(n));
    await expect.poll(() => counts.at(-1)).toBe(0);
    for (let seq = 0; seq < 20; seq++) await db.pages.add(page(1, seq));
    await expect.poll(() => counts.at(-1)).toBe(20);
    // Another crawl's pages fall outside the range the query read, and outside the range announced.
    const before = counts.length;
    await db.pages.add(page(2, 0));
    await new Promise((r) => setTimeout(r, 300));
    expect(counts.length).toBe(before);
    sub.unsubscribe();
    db.close();
  });
});
