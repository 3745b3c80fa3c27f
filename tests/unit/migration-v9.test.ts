// Schema v8 -> v9: page rows stored before the search words existed gain them, and a search finds those pages
// through the *terms index.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import { openShipped } from '../support/shipped-schemas';
import { ALL_PAGES, pageWindow } from '../../lib/ui/page-query';

const page = (crawlId: number, url: string, title: string) => ({
  crawlId, seq: 0, url, finalUrl: url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0.5, relevant: true,
  relevance: 0.9, title, textLength: 100, contentType: 'text/html', bytes: 100, truncated: false, linkCount: 0, fetchedAt: 0,
  durationMs: 1, outcome: 'done', kind: 'relevant', site: new URL(url).hostname,
});

describe('schema v8 -> v9 (page rows carry their search words)', () => {
  it('gives every old page row its words, and a search finds them in their crawl only', async () => {
    const indexedDB = new IDBFactory();
    const v8 = openShipped(8, indexedDB);
    await v8.table('pages').bulkAdd([
      page(1, 'https://example.org/moon/landing', 'Apollo 11'),
      page(1, 'https://example.org/mars', 'Red planet'),
      page(2, 'https://example.org/moon', 'Another crawl'),
    ].map((p, i) => ({ ...p, seq: i })));
    v8.close();

    const db = new CrawlerDB('focus', { indexedDB, IDBKeyRange });
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(9);
    const first = await db.pages.get([1, 0]);
    expect(first?.terms).toEqual(expect.arrayContaining(['1 apollo', '1 moon', '1 landing', '1 example']));
    const moon = await pageWindow(db, 1, { ...ALL_PAGES, search: 'Moon' }, { at: 'start' }, 10);
    expect(moon.rows.map((p) => p.title)).toEqual(['Apollo 11']);
    const planet = await pageWindow(db, 1, { ...ALL_PAGES, search: 'plan' }, { at: 'start' }, 10);
    expect(planet.rows.map((p) => p.title)).toEqual(['Red planet']);
  });
});
