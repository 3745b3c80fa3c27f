// A take walks hosts by their best queued URL (their head): it must pass a busy host's entries, however many, and take
// the best ready ones in order, with nothing taken twice or skipped for good.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate } from '../../lib/ports';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';

const config = parseConfig({ seeds: ['http://busy.test/'], topic: { keywords: ['x'] } });
const cand = (url: string, priority: number): Candidate => ({
  url, host: new URL(url).host, score: 0.5, priority, depth: 1, parentUrl: 'http://busy.test/', anchor: '', context: '',
});

describe('FrontierStore.take past a busy host', () => {
  let store: CrawlStore;
  let id: number;
  beforeEach(async () => {
    store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    id = await store.createCrawl(config, 1, 1);
    // 1,500 entries of a busy host above 5 of a ready one (more than any one page a take reads).
    const busy = Array.from({ length: 1500 }, (_, i) => cand(`http://busy.test/${i}`, 1000 - i / 10));
    const ready = Array.from({ length: 5 }, (_, i) => cand(`http://ready.test/${i}`, 10 - i));
    await store.frontier.enqueue(id, [...busy, ...ready], 1);
  });

  const busyHost = (e: { host: string }) => (e.host === 'busy.test' ? 500 : 0);

  it('takes the best ready entries below them, in order, and says how long the busy host waits', async () => {
    const { entries, waitMs } = await store.frontier.take(id, busyHost, 2, 3);
    expect(entries.map((e) => e.url)).toEqual(['http://ready.test/0', 'http://ready.test/1', 'http://ready.test/2']);
    expect(waitMs).toBe(0); // it found all it wanted
    const next = await store.frontier.take(id, busyHost, 3, 3);
    expect(next.entries.map((e) => e.url)).toEqual(['http://ready.test/3', 'http://ready.test/4']);
    expect(next.waitMs).toBe(500);
    // Once the host is free again its entries come first, best first, none lost.
    const later = await store.frontier.take(id, () => 0, 4, 2000);
    expect(later.entries).toHaveLength(1500);
    expect(later.entries[0]!.url).toBe('http://busy.test/0');
    expect(later.entries.at(-1)!.url).toBe('http://busy.test/1499');
    expect((await store.getCrawl(id))!.stats.queued).toBe(0);
  });

  it('finds the ready host below any number of busy entries: a busy host is passed in one step', async () => {
    // A scan limit far below the 1,500 busy entries: it counts hosts asked about, not the busy host's URLs.
    const { entries, waitMs } = await store.frontier.take(id, busyHost, 2, 3, 10);
    expect(entries.map((e) => e.url)).toEqual(['http://ready.test/0', 'http://ready.test/1', 'http://ready.test/2']);
    expect(waitMs).toBe(0);
    expect(await store.frontier.countByState(id, 'queued')).toBe(1502);
  });
});

describe('FrontierStore.take by a head row the worker holds', () => {
  it('takes the row as stored, not as a take past the busy host read it: a version shown meanwhile is kept', async () => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const id = await store.createCrawl(config, 1, 1);
    const thread = { ...cand('http://forum.test/thread/1', 5), revisit: '1' };
    await store.frontier.enqueue(id, [thread, cand('http://forum.test/2', 4), cand('http://other.test/1', 1)], 1);
    // The host is busy: the take passes it at its head, and the worker holds that row.
    const busy = (e: { host: string }) => (e.host === 'forum.test' ? 500 : 0);
    expect((await store.frontier.take(id, busy, 2, 1)).entries.map((e) => e.url)).toEqual(['http://other.test/1']);
    // The thread's link is seen again showing more replies: its row changes, its place in the queue does not.
    await store.frontier.enqueue(id, [{ ...thread, revisit: '2' }], 3);
    const [taken] = (await store.frontier.take(id, () => 0, 4, 1)).entries;
    expect(taken).toMatchObject({ url: thread.url, revisit: '2' });
    expect(await store.frontier.getEntry(id, thread.url)).toMatchObject({ state: 'inflight', revisit: '2' });
  });
});
