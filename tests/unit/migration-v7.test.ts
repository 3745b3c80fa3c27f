// Schema v5 -> v7: page rows of a crawl stored before the Pages table's filter keys existed gain them, and the
// table filters that crawl by site and verdict through the new indexes.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import { openShipped } from '../support/shipped-schemas';
import { ALL_PAGES, pageWindow } from '../../lib/ui/page-query';

const page = (seq: number, url: string, over: object) => ({
  crawlId: 1, seq, url, finalUrl: url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 1 - seq / 10,
  relevant: true, relevance: 0.9, title: `page ${seq}`, textLength: 100, contentType: 'text/html', bytes: 100,
  truncated: false, linkCount: 0, fetchedAt: seq, durationMs: 1, ...over,
});

describe('schema v5 -> v7 (page rows carry their kind and site)', () => {
  it('keys every old page row by kind and site, and the table filters them by both', async () => {
    const indexedDB = new IDBFactory();
    const v5 = openShipped(5, indexedDB);
    await v5.table('pages').bulkAdd([
      page(0, 'https://news.example.org/a', {}),
      page(1, 'https://www.example.org/b', { relevant: false, relevance: 0.1 }),
      page(2, 'https://other.test/c', { status: 404, error: 'HTTP 404 Not Found', relevant: null, relevance: null }),
      page(3, 'https://other.test/d', { outcome: 'skipped', error: 'redirect not followed', relevant: null, relevance: null }),
      page(4, 'https://docs.example.org/e', { phase: 'train', relevant: null, relevance: null }),
    ]);
    v5.close();

    const db = new CrawlerDB('focus', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(7);
    const rows = await db.pages.toArray();
    expect(rows.map((p) => [p.seq, p.kind, p.site])).toEqual([
      [0, 'relevant', 'example.org'], [1, 'irrelevant', 'example.org'], [2, 'failed', 'other.test'],
      [3, 'skipped', 'other.test'], [4, 'unjudged', 'example.org'],
    ]);
    const onExample = await pageWindow(db, 1, { ...ALL_PAGES, site: 'example.org', sort: 'score-high' }, { at: 'start' }, 10);
    expect(onExample.rows.map((p) => p.seq)).toEqual([0, 1, 4]);
    expect((await pageWindow(db, 1, { ...ALL_PAGES, kind: 'failed' }, { at: 'start' }, 10)).rows.map((p) => p.seq)).toEqual([2]);
  });
});
