import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlStore } from '../../lib/store/crawl-store';
import type { Candidate } from '../../lib/ports';
import { CrawlerDB } from '../../lib/store/db';

const config = parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] } });
const cand = (url: string, priority: number, extra: Partial<Candidate> = {}): Candidate => ({
  url, host: new URL(url).host, score: priority, priority, depth: 1, parentUrl: 'http://a.test/', anchor: '', context: '', ...extra,
});

describe('CrawlStore frontier', () => {
  let store: CrawlStore;
  let id: number;
  beforeEach(async () => {
    store = new CrawlStore(new CrawlerDB('t', { indexedDB: new IDBFactory(), IDBKeyRange }));
    id = await store.createCrawl(config, 1, 1);
  });

  it('takes the highest score first, earliest found first among equals', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/low', 0.2), cand('http://a.test/high', 0.9), cand('http://a.test/tie1', 0.5), cand('http://a.test/tie2', 0.5)], 1);
    const order: string[] = [];
    for (;;) {
      const { entry } = await store.frontier.takeNext(id, () => 0, 2);
      if (!entry) break;
      order.push(entry.url.replace('http://a.test/', ''));
    }
    expect(order).toEqual(['high', 'tie1', 'tie2', 'low']);
    expect((await store.getCrawl(id))!.stats.queued).toBe(0);
  });

  it('raises a queued URL found again by a better link, never lowers it (design A.7)', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/p', 0.3), cand('http://a.test/q', 0.4)], 1);
    await store.frontier.enqueue(id, [cand('http://a.test/p', 0.8, { anchor: 'better' })], 2);
    await store.frontier.enqueue(id, [cand('http://a.test/q', 0.1)], 3);
    const first = (await store.frontier.takeNext(id, () => 0, 4)).entry!;
    expect(first.url).toBe('http://a.test/p');
    expect(first.score).toBe(0.8);
    expect(first.anchor).toBe('better');
    expect((await store.frontier.takeNext(id, () => 0, 4)).entry!.score).toBe(0.4);
    expect((await store.getCrawl(id))!.stats.queued).toBe(0);
  });

  it('never requests a URL any link names unsafely, whichever link came first or scores higher', async () => {
    const signOut = 'unsafe link (anchor text "sign out"): never requested, its text names an action that could change your account';
    // One page links /u/78 as "Profile" (high score) and as "Sign out".
    await store.frontier.enqueue(id, [cand('http://a.test/u/78', 0.9, { anchor: 'Profile' }), cand('http://a.test/u/78', 0, { anchor: 'Sign out', skip: signOut })], 1);
    // Another URL is queued by an innocent link first and named "Sign out" by a later page.
    await store.frontier.enqueue(id, [cand('http://a.test/u/79', 0.8, { anchor: 'Your page' }), cand('http://a.test/keep', 0.2)], 2);
    await store.frontier.enqueue(id, [cand('http://a.test/u/79', 0, { anchor: 'Sign out', skip: signOut })], 3);
    // And an innocent link after the unsafe one changes nothing.
    await store.frontier.enqueue(id, [cand('http://a.test/u/79', 0.95, { anchor: 'Home' })], 4);
    const taken: string[] = [];
    for (;;) {
      const { entry } = await store.frontier.takeNext(id, () => 0, 5);
      if (!entry) break;
      taken.push(entry.url);
    }
    expect(taken).toEqual(['http://a.test/keep']);
    for (const url of ['http://a.test/u/78', 'http://a.test/u/79']) {
      expect(await store.frontier.getEntry(id, url)).toMatchObject({ state: 'skipped', reason: signOut, anchor: 'Sign out' });
    }
    expect((await store.getCrawl(id))!.stats).toMatchObject({ queued: 0, skipped: 2 });
  });

  it('skips hosts that are not ready and reports how long to wait', async () => {
    await store.frontier.enqueue(id, [cand('http://busy.test/1', 0.9), cand('http://free.test/1', 0.1)], 1);
    const r = await store.frontier.takeNext(id, ({ host: h }) => (h === 'busy.test' ? 700 : 0), 2);
    expect(r.entry!.url).toBe('http://free.test/1');
    const none = await store.frontier.takeNext(id, () => 700, 2);
    expect(none.entry).toBeUndefined();
    expect(none.waitMs).toBe(700);
  });

  it('reclaims entries left in flight by a stopped worker', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/1', 0.5), cand('http://a.test/2', 0.4)], 1);
    await store.frontier.takeNext(id, () => 0, 2);
    expect(await store.frontier.countByState(id, 'inflight')).toBe(1);
    expect(await store.frontier.reclaimInFlight(id, 3)).toEqual({ requeued: 1, failed: 0 });
    expect(await store.frontier.countByState(id, 'queued')).toBe(2);
    expect((await store.getCrawl(id))!.stats.queued).toBe(2);
  });

  it('records unsafe links as skipped with their reason, never queued', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/logout', 0, { skip: 'unsafe link ("logout")' })], 1);
    expect((await store.frontier.takeNext(id, () => 0, 2)).entry).toBeUndefined();
    const row = await store.db.frontier.get([id, 'http://a.test/logout']);
    expect(row?.state).toBe('skipped');
    expect(row?.reason).toContain('logout');
    expect((await store.getCrawl(id))!.stats.skipped).toBe(1);
  });

  it('deletes a crawl and everything it stored', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/1', 0.5)], 1);
    const other = await store.createCrawl(config, 1, 1);
    await store.frontier.enqueue(other, [cand('http://a.test/1', 0.5)], 1);
    expect(await store.deleteCrawl(id)).toBe(true);
    expect(await store.db.frontier.count()).toBe(1);
    expect(await store.getCrawl(id)).toBeUndefined();
  });

  it('after taking from the top, still takes a URL queued above, a raised one, and one left for a busy host', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/1', 0.9), cand('http://b.test/1', 0.8), cand('http://a.test/2', 0.5), cand('http://a.test/3', 0.4)], 1);
    // b.test is busy: a.test/1 is taken, b.test/1 is left queued above the rest.
    expect((await store.frontier.takeNext(id, ({ host: h }) => (h === 'b.test' ? 500 : 0), 2)).entry!.url).toBe('http://a.test/1');
    expect((await store.frontier.takeNext(id, () => 0, 3)).entry!.url).toBe('http://b.test/1');
    // A new URL queued above everything taken so far.
    await store.frontier.enqueue(id, [cand('http://a.test/new', 0.95)], 4);
    expect((await store.frontier.takeNext(id, () => 0, 5)).entry!.url).toBe('http://a.test/new');
    // A queued URL raised above what was taken.
    await store.frontier.enqueue(id, [cand('http://a.test/3', 0.99)], 6);
    expect((await store.frontier.takeNext(id, () => 0, 7)).entry!.url).toBe('http://a.test/3');
    expect((await store.frontier.takeNext(id, () => 0, 8)).entry!.url).toBe('http://a.test/2');
    expect((await store.frontier.takeNext(id, () => 0, 9)).entry).toBeUndefined();
  });

  it('takes again what a reclaim put back, however high it sits', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/1', 0.9), cand('http://a.test/2', 0.1)], 1);
    await store.frontier.takeNext(id, () => 0, 2);
    await store.frontier.reclaimInFlight(id, 3);
    expect((await store.frontier.takeNext(id, () => 0, 4)).entry!.url).toBe('http://a.test/1');
  });

  it('takes a batch in priority order, reserving each host once per slot', async () => {
    await store.frontier.enqueue(id, [cand('http://a.test/1', 0.9), cand('http://a.test/2', 0.8), cand('http://b.test/1', 0.7), cand('http://c.test/1', 0.6)], 1);
    const slots = new Map<string, number>();
    const reserve = ({ host: h }: { host: string }) => ((slots.get(h) ?? 0) >= 1 ? Infinity : (slots.set(h, (slots.get(h) ?? 0) + 1), 0));
    const { entries } = await store.frontier.take(id, reserve, 2, 3);
    expect(entries.map((e) => e.url)).toEqual(['http://a.test/1', 'http://b.test/1', 'http://c.test/1']);
    expect((await store.frontier.takeNext(id, () => 0, 3)).entry!.url).toBe('http://a.test/2');
  });
});

describe('CrawlStore re-scoring', () => {
  it('re-scores queued links in chunks, leaving others alone, and takes follow the new order', async () => {
    const store = new CrawlStore(new CrawlerDB('r', { indexedDB: new IDBFactory(), IDBKeyRange }));
    const id = await store.createCrawl(config, 1, 1);
    const urls = Array.from({ length: 23 }, (_, i) => `http://a.test/${String(i).padStart(2, '0')}`);
    await store.frontier.enqueue(id, urls.map((u, i) => cand(u, i)), 1); // the last is best
    const taken = (await store.frontier.takeNext(id, () => 0, 2)).entry!;
    expect(taken.url).toBe(urls[22]);
    // The new model likes the first URLs best; a seed-like entry (rank null) keeps its place.
    const r = await store.frontier.rescoreQueued(id, (e) => (e.url === urls[5] ? null : { score: 0.5, priority: -Number(e.url.slice(-2)) }), 3, { chunk: 4 });
    // 23 read; the taken one, the one `rank` leaves, and /00 (priority 0 before and after) are not rewritten.
    expect(r).toEqual({ scanned: 23, changed: 20, complete: true });
    const order: string[] = [];
    for (;;) {
      const { entry } = await store.frontier.takeNext(id, () => 0, 4);
      if (!entry) break;
      order.push(entry.url.slice(-2));
    }
    expect(order).toEqual(['05', '00', '01', '02', '03', '04', ...Array.from({ length: 16 }, (_, i) => String(i + 6).padStart(2, '0'))]);
    // The in-flight entry was not touched.
    expect((await store.frontier.getEntry(id, urls[22]))!.priority).toBe(22);
  });

  it('lets takes run between its chunks', async () => {
    const store = new CrawlStore(new CrawlerDB('r2', { indexedDB: new IDBFactory(), IDBKeyRange }));
    const id = await store.createCrawl(config, 1, 1);
    await store.frontier.enqueue(id, Array.from({ length: 400 }, (_, i) => cand(`http://a.test/${i}`, i)), 1);
    let chunks = 0;
    const rescoring = store.frontier.rescoreQueued(id, (e) => (chunks++, { score: 0, priority: e.priority + 1000 }), 2, { chunk: 50 });
    const take = store.frontier.takeNext(id, () => 0, 2);
    const first = await Promise.race([take.then(() => 'take'), rescoring.then(() => 'rescore')]);
    expect(first).toBe('take');
    await rescoring;
    expect(chunks).toBeGreaterThan(300);
  });

  it('stops at a pause that says so, and says it did not finish', async () => {
    const store = new CrawlStore(new CrawlerDB('r3', { indexedDB: new IDBFactory(), IDBKeyRange }));
    const id = await store.createCrawl(config, 1, 1);
    await store.frontier.enqueue(id, Array.from({ length: 100 }, (_, i) => cand(`http://a.test/${i}`, i)), 1);
    let pauses = 0;
    const r = await store.frontier.rescoreQueued(id, (e) => ({ score: 0, priority: e.priority + 1 }), 2, { chunk: 30, pause: async () => ++pauses < 2 });
    expect(r).toEqual({ scanned: 60, changed: 60, complete: false });
    expect(await store.frontier.rescoreQueued(id, () => null, 3, { chunk: 30, pause: async () => true })).toEqual({ scanned: 100, changed: 0, complete: true });
  });
});
