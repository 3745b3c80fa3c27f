// A window of the Pages table follows the crawl: it is read again when a page row lands in the range it can
// change in, and not when one lands elsewhere; a window the user paged to, or a search's, keeps its first row.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import Dexie from 'dexie';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import type { PageRecord } from '../../lib/records/types';
import { ALL_PAGES, keyOf, pageWindow, windowChanges, type PageCursor, type PageQuery, type PageWindow } from '../../lib/ui/page-query';
import { watch, watchThrottled } from '../../lib/ui/queries';
import { crawlOf, realisticPages } from '../e2e/pages-fixture';

const seqs = (rows: PageRecord[]) => rows.map((p) => p.seq);
const settle = (ms = 60) => new Promise((r) => setTimeout(r, ms));
/** Waits until `done()` holds (a live read arrives later on a busy machine), for a minute at most. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 60_000; !done(); await settle(10)) if (Date.now() > end) throw new Error(`never: ${what}`);
}

describe('a live window of pages', () => {
  let db: CrawlerDB;
  let pages: PageRecord[];
  let stops: (() => void)[];
  beforeEach(async () => {
    // liveQuery runs only where Dexie has an IndexedDB of its own to watch.
    Dexie.dependencies.indexedDB = new IDBFactory();
    Dexie.dependencies.IDBKeyRange = IDBKeyRange;
    db = new CrawlerDB('live', { indexedDB: Dexie.dependencies.indexedDB, IDBKeyRange });
    pages = realisticPages({ crawlId: 1, count: 400, start: 1_700_000_000_000 }).filter((p) => !p.error);
    await db.crawls.put(crawlOf(1, 'Sky', pages, 1_700_010_000_000));
    stops = [];
  });
  afterEach(() => stops.forEach((stop) => stop()));

  /** Follows a window as the Pages table does; returns the windows read, in order. */
  function follow(q: PageQuery, cursor: PageCursor, size: number) {
    const seen: PageWindow[] = [];
    const pace = { everyMs: 0, last: -Infinity };
    let stop = () => {};
    stops.push(() => stop());
    const go = (at: PageCursor, watched: PageWindow['watch'] | undefined) => {
      stop();
      stop = watchThrottled(() => windowChanges(db, 1, watched), () => pageWindow(db, 1, q, at, size), (w) => {
        seen.push(w);
        const first = w.rows[0];
        const next: PageCursor = (w.hasPrev || q.search) && first ? { from: keyOf(first, q.sort), hasPrev: w.hasPrev } : { at: 'start' };
        if (JSON.stringify([next, w.watch]) !== JSON.stringify([at, watched])) go(next, w.watch);
      }, (err) => { throw err; }, pace);
    };
    go(cursor, undefined);
    return seen;
  }

  it('is read again when rows land in it, on the first window, oldest and newest first', async () => {
    await db.pages.bulkPut(pages.slice(0, 3));
    const oldest = follow(ALL_PAGES, { at: 'start' }, 10);
    const newest = follow({ ...ALL_PAGES, sort: 'newest' }, { at: 'start' }, 10);
    await settle();
    for (const p of pages.slice(3, 14)) {
      await db.pages.add(p);
      await settle(20);
    }
    await until(() => newest.at(-1)?.rows[0]?.seq === pages[13]!.seq && oldest.at(-1)?.hasNext === true, 'both windows read the new rows');
    expect(seqs(oldest.at(-1)!.rows)).toEqual(seqs(pages.slice(0, 10)));
    expect(oldest.at(-1)!.hasNext).toBe(true);
    expect(seqs(newest.at(-1)!.rows)).toEqual(seqs(pages.slice(4, 14)).reverse());
  });

  it('a full first window in time order, and a window paged to, stay put while the crawl adds pages', async () => {
    await db.pages.bulkPut(pages.slice(0, 40));
    const first = follow(ALL_PAGES, { at: 'start' }, 10);
    const later = follow({ ...ALL_PAGES, sort: 'newest' }, { after: [pages[30]!.seq] }, 10);
    // Each window reads twice: where it was opened, then again once it knows the range to watch.
    await until(() => first.length >= 2 && later.length >= 2, 'both windows read where they settled');
    await settle(150);
    const [firstReads, laterReads] = [first.length, later.length];
    expect(seqs(later.at(-1)!.rows)).toEqual(seqs(pages.slice(20, 30)).reverse());
    for (const p of pages.slice(40, 50)) await db.pages.add(p);
    await settle(150);
    // Nothing landed in either window's range: neither was read again, and the later window did not move.
    expect([first.length, later.length]).toEqual([firstReads, laterReads]);
    expect(seqs(later.at(-1)!.rows)).toEqual(seqs(pages.slice(20, 30)).reverse());
  });

  it('a search keeps its rows while newer matching pages come in, and then offers them through First', async () => {
    await db.pages.bulkPut(pages.slice(0, 40));
    const q: PageQuery = { ...ALL_PAGES, search: 'saturn', sort: 'newest' };
    const saturn = (rows: PageRecord[]) => seqs(rows.filter((p) => /saturn/i.test(p.title + p.url))).reverse();
    const seen = follow(q, { at: 'start' }, 3);
    await until(() => seen.length > 0, 'the search read');
    const before = saturn(pages.slice(0, 40)).slice(0, 3);
    expect([seqs(seen.at(-1)!.rows), seen.at(-1)!.hasPrev]).toEqual([before, false]);
    for (const p of pages.slice(40, 60)) await db.pages.add(p);
    await until(() => seen.at(-1)?.hasPrev === true, 'the search offers the newer pages');
    expect(saturn(pages.slice(40, 60)).length).toBeGreaterThan(0);
    expect([seqs(seen.at(-1)!.rows), seen.at(-1)!.hasPrev]).toEqual([before, true]);
  });

  // It lost track of them while pageWindow awaited the choice of index before reading the window (why the table
  // was frozen, and why the table reads through `watch`); the index is now chosen without an await, and a plain
  // liveQuery sees the rows it reads.
  it('a plain liveQuery of the first window follows the rows it reads', async () => {
    await db.pages.bulkPut(pages.slice(0, 3));
    const seen: number[] = [];
    stops.push(watch(() => pageWindow(db, 1, ALL_PAGES, { at: 'start' }, 10), (w) => seen.push(w.rows.length), () => {}));
    await until(() => seen.length > 0, 'the window read');
    await db.pages.add(pages[3]!);
    await until(() => seen.length > 1, 'the window read again');
    expect(seen).toEqual([3, 4]);
  });
});
