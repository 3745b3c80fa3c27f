import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import type { PageRecord } from '../../lib/types';
import { forEachPageChunk, pageCount, pageWindow, recentErrors } from '../../lib/ui/queries';
import { sampleFixture } from '../e2e/ui-fixtures';

const seqs = (rows: PageRecord[]) => rows.map((p) => p.seq);

describe('dashboard page queries', () => {
  let db: CrawlerDB;
  beforeEach(async () => {
    db = new CrawlerDB('ui', { indexedDB: new IDBFactory(), IDBKeyRange });
    const f = sampleFixture(1_700_000_000_000);
    await db.crawls.bulkPut(f.crawls);
    await db.pages.bulkPut(f.pages); // crawl 1: seq 0..259; crawl 2: seq 0..39
  });

  it('pages forward, back and to the end by seq, 100 at a time, within one crawl', async () => {
    const first = await pageWindow(db, 1, 'all', { at: 'start' }, 100);
    expect(seqs(first.rows)).toEqual([...Array(100).keys()]);
    expect([first.hasPrev, first.hasNext]).toEqual([false, true]);

    const second = await pageWindow(db, 1, 'all', { after: 99 }, 100);
    expect(second.rows[0].seq).toBe(100);
    expect(second.rows.at(-1)!.seq).toBe(199);

    const last = await pageWindow(db, 1, 'all', { at: 'end' }, 100);
    expect(last.rows[0].seq).toBe(160);
    expect(last.rows.at(-1)!.seq).toBe(259);
    expect([last.hasPrev, last.hasNext]).toEqual([true, false]);

    const back = await pageWindow(db, 1, 'all', { before: 160 }, 100);
    expect(back.rows[0].seq).toBe(60);
    expect(back.rows.at(-1)!.seq).toBe(159);
    // Paging back into the first rows shows a full first page.
    const start = await pageWindow(db, 1, 'all', { before: 60 }, 100);
    expect(start.rows[0].seq).toBe(0);
    expect(start.rows).toHaveLength(100);
    expect(start.hasPrev).toBe(false);
    expect((await pageWindow(db, 2, 'all', { at: 'start' }, 100)).rows).toHaveLength(40);
  });

  it('filters failed, relevant and irrelevant pages without mixing them', async () => {
    const failed = await pageWindow(db, 1, 'failed', { at: 'start' }, 100);
    expect(failed.rows.length).toBeGreaterThan(5);
    expect(failed.rows.every((p) => p.error)).toBe(true);
    const relevant = await pageWindow(db, 1, 'relevant', { at: 'start' }, 100);
    expect(relevant.rows.every((p) => p.relevant === true && !p.error)).toBe(true);
    const irrelevant = await pageWindow(db, 1, 'irrelevant', { at: 'start' }, 100);
    expect(irrelevant.rows.every((p) => p.relevant === false)).toBe(true);
    expect(relevant.rows.length + irrelevant.rows.length).toBeGreaterThan(100);
  });

  it('lists the newest failures first and counts pages per crawl', async () => {
    const crawl = (await db.crawls.get(1))!;
    const errors = await recentErrors(db, crawl, 5);
    expect(errors).toHaveLength(5);
    expect(seqs(errors)).toEqual([259, 239, 219, 199, 179]);
    expect(await pageCount(db, 1)).toBe(260);
    expect(await pageCount(db, 2)).toBe(40);
  });

  it('reads every page of a crawl in chunks, in seq order', async () => {
    const chunks: number[][] = [];
    const total = await forEachPageChunk(db, 1, 64, (rows) => chunks.push(seqs(rows)));
    expect(total).toBe(260);
    expect(chunks.map((c) => c.length)).toEqual([64, 64, 64, 64, 4]);
    expect(chunks.flat()).toEqual([...Array(260).keys()]);
  });
});
