// Enqueue adds each URL as a new row first and plans only the ones already known: a batch that mixes new URLs
// with queued, in-flight and fetched ones must end exactly as a read-then-write enqueue would.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate } from '../../lib/ports';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';

const config = parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] } });
const cand = (url: string, priority: number, skip?: string): Candidate => ({
  url, host: new URL(url).host, score: 0.5, priority, depth: 1, parentUrl: 'http://a.test/', anchor: `to ${url}`, context: '', ...(skip ? { skip } : {}),
});

describe('FrontierStore.enqueue of new and known URLs together', () => {
  let store: CrawlStore;
  let id: number;
  beforeEach(async () => {
    store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    id = await store.createCrawl(config, 1, 1);
    await store.frontier.enqueue(id, [cand('http://a.test/queued', 1), cand('http://a.test/fetched', 5), cand('http://b.test/away', 4)], 1);
    const { entries } = await store.frontier.take(id, () => 0, 2, 2); // fetched, away: in flight
    expect(entries.map((e) => e.url)).toEqual(['http://a.test/fetched', 'http://b.test/away']);
  });

  it('adds the new, raises a queued one found by a better link, leaves the others, and counts each once', async () => {
    await store.frontier.enqueue(id, [
      cand('http://c.test/new-1', 2),
      cand('http://a.test/queued', 9), // found again, better
      cand('http://b.test/away', 9), // in flight: not queued again
      cand('http://c.test/new-2', 3),
      cand('http://c.test/new-2', 7), // twice in one batch: the better link wins
      cand('http://c.test/logout', 8, 'a log-out link'),
    ], 3);
    const get = (u: string) => store.frontier.getEntry(id, u);
    expect((await get('http://a.test/queued'))).toMatchObject({ state: 'queued', priority: 9, anchor: 'to http://a.test/queued' });
    expect((await get('http://b.test/away'))).toMatchObject({ state: 'inflight', priority: 4 });
    expect((await get('http://c.test/new-2'))).toMatchObject({ state: 'queued', priority: 7 });
    expect((await get('http://c.test/logout'))).toMatchObject({ state: 'skipped', reason: 'a log-out link' });
    const stats = (await store.getCrawl(id))!.stats;
    expect(stats.queued).toBe(3); // queued, new-1, new-2
    expect(stats.skipped).toBe(1);
    expect(await store.frontier.countByState(id, 'queued')).toBe(3);
    // Best first, and among equals the first found first.
    const { entries } = await store.frontier.take(id, () => 0, 4, 10);
    expect(entries.map((e) => e.url)).toEqual(['http://a.test/queued', 'http://c.test/new-2', 'http://c.test/new-1']);
  });

  it('keeps the discovery order among equal priorities across batches with known URLs in them', async () => {
    await store.frontier.enqueue(id, [cand('http://d.test/1', 0), cand('http://a.test/queued', 0), cand('http://d.test/2', 0)], 3);
    await store.frontier.enqueue(id, [cand('http://b.test/away', 0), cand('http://d.test/3', 0)], 4);
    const { entries } = await store.frontier.take(id, () => 0, 5, 10);
    expect(entries.map((e) => e.url)).toEqual(['http://a.test/queued', 'http://d.test/1', 'http://d.test/2', 'http://d.test/3']);
  });
});
