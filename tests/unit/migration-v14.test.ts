// Schema v13 -> v14: a table of the pages' content sketches (docs/duplicates.md). Nothing of a v13 crawl changes: it
// reads and resumes as it was, holds no sketch (its pages are not compared with later ones), and its next pages'
// sketches are kept.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { contentSketch } from '../../lib/parse/content-sketch';
import { openShipped } from '../support/shipped-schemas';

describe('schema v13 -> v14 (content sketches)', () => {
  it('opens a v13 crawl as it was, with no sketch, and keeps the sketches of its next pages', async () => {
    const indexedDB = new IDBFactory();
    const v13 = openShipped(13, indexedDB);
    const stats = { queued: 1, fetched: 1, failed: 0, attempts: 1, skipped: 0, relevant: 1, trainPages: 0, labels: 0, bytes: 10 };
    await v13.table('crawls').add({ id: 1, name: 'c', state: 'paused', createdAt: 5, updatedAt: 5, topicId: 1, nextSeq: 2, nextOrder: 3, stats });
    await v13.table('crawlConfigs').add({ crawlId: 1, config: { name: 'c', seeds: ['https://a.test/'] } });
    await v13.table('pages').add({ crawlId: 1, seq: 1, url: 'https://a.test/', finalUrl: 'https://a.test/', status: 200, title: 'A', kind: 'relevant' });
    v13.close();

    const store = new CrawlStore(new CrawlerDB('focus', { indexedDB, IDBKeyRange }));
    await store.db.open();
    expect(store.db.verno).toBeGreaterThanOrEqual(14);
    expect((await store.getCrawl(1))!.stats).toEqual(stats);
    expect(await store.pages.getPage(1, 1)).toMatchObject({ title: 'A' });
    expect(await store.sketches(1)).toEqual([]);

    const sketch = contentSketch(['Planets and their moons seen through a small telescope on a clear night']);
    const [seq] = await store.commitPages([{
      crawlId: 1, outcome: 'done', children: [], aliases: [], labels: [], site: 'a.test', stats: {}, activeMs: 0,
      page: { url: 'https://a.test/b', finalUrl: 'https://a.test/b', status: 200, phase: 'crawl', depth: 1, parentUrl: 'https://a.test/', score: 0.5,
        relevant: true, relevance: 0.9, title: 'B', textLength: 10, contentType: 'text/html', bytes: 10, truncated: false, linkCount: 0, fetchedAt: 6, durationMs: 1 },
      sketch: { url: 'https://a.test/b', ...sketch, relevant: true },
    }], 6);
    const kept = await store.sketches(1);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ seq, url: 'https://a.test/b', exact: sketch.exact, shingles: sketch.shingles });
    expect([...kept[0]!.bins]).toEqual([...sketch.bins]);
    expect(await store.deleteCrawl(1)).toBe(true);
    expect(await store.sketches(1)).toEqual([]);
  });
});
