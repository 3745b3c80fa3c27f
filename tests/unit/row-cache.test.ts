// The worker's copy of frontier rows (lib/store/row-cache.ts): a page commit reads known rows from it instead of the
// database. Two stores run the same random crawl, one holding a few rows and one holding none: after every kind of
// write (commits, takes, re-scores, a blacklist, a reclaim, an aborted commit, a reopened database, a take and a commit
// at once) both databases hold the same rows, and the rows the copy answers are the database's.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate, PageCommit } from '../../lib/ports';
import { mulberry32 } from '../../lib/records/random';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { readEntries } from '../../lib/store/frontier-rows';
import { heldRowCount, setRowCacheRows } from '../../lib/store/row-cache';
import type { FrontierEntry } from '../../lib/records/types';
import { frontierRows } from '../support/reopenable-store';

const config = parseConfig({ seeds: ['http://h0.s0.test/'], topic: { keywords: ['x'] } });
const SITES = ['s0.test', 's1.test', 's2.test'];
const HOSTS = ['h0.s0.test', 'h1.s1.test', 'h2.s2.test', 'h3.s0.test'];

const factories = new WeakMap<CrawlerDB, IDBFactory>();

function open(name: string, indexedDB: IDBFactory, rows: number): CrawlStore {
  const db = new CrawlerDB(name, { indexedDB, IDBKeyRange });
  factories.set(db, indexedDB);
  setRowCacheRows(db, rows);
  return new CrawlStore(db);
}

/** The same database opened again, as by a service worker started after the last one was stopped. */
function reopened(store: CrawlStore, rows: number): CrawlStore {
  store.db.close();
  return open(store.db.name, factories.get(store.db)!, rows);
}

const rowsOf = frontierRows;

/** A number from a URL and a round, the same in both stores whatever order they ask in. */
function hashOf(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0) / 2 ** 32;
}

/** Links to a small set of URLs, so that most are found again (as a real crawl finds them). */
function links(r: () => number, n: number): Candidate[] {
  return Array.from({ length: n }, () => {
    const host = HOSTS[Math.floor(r() * HOSTS.length)]!;
    const url = `http://${host}/${Math.floor(r() * 40)}`;
    const logOdds = Math.round((r() * 6 - 3) * 100) / 100;
    return { url, host, site: host.split('.').slice(1).join('.'), score: 0.5, priority: logOdds, depth: 1 + Math.floor(r() * 3), parentUrl: null,
      anchor: `a${Math.floor(r() * 5)}`, context: '', logOdds, ...(r() < 0.04 ? { skip: 'unsafe link' } : {}) };
  });
}

const rerank = (_e: FrontierEntry, logOdds: number) => logOdds;

describe('the worker-held copy of frontier rows', () => {
  it('leaves the database as a store without it would, through every kind of write, and answers what the database holds', async () => {
    for (let seed = 1; seed <= 8; seed++) {
      const r = mulberry32(seed);
      const name = `rc${seed}-${Math.random()}`;
      const small = 5 + Math.floor(r() * 60); // few rows, so that rows are also evicted
      let withCopy = open(`${name}a`, new IDBFactory(), small);
      let without = open(`${name}b`, new IDBFactory(), 0);
      const both = async <T>(f: (s: CrawlStore) => Promise<T>) => [await f(withCopy), await f(without)] as const;
      const [id] = await both((s) => s.createCrawl(config, 1, 1));
      await both((s) => s.frontier.enqueue(id!, links(mulberry32(seed * 7), 30), 1));
      const inflight: FrontierEntry[] = [];
      let now = 10;
      const check = async (what: string) => {
        const [a, b] = await both((s) => rowsOf(s, id!));
        expect(a, `seed ${seed}, after ${what}`).toEqual(b);
        const [ca, cb] = await both((s) => s.getCrawl(id!));
        expect(ca!.stats, `seed ${seed}, after ${what}: counters`).toEqual(cb!.stats);
        // What the copy answers, inside a transaction as a commit reads, is what the database holds.
        const urls = [...a.map((e) => e.url), 'http://h0.s0.test/never'];
        const db = withCopy.db;
        const answered = await db.transaction('rw', db.frontier, () => readEntries(db, id!, urls));
        expect(answered, `seed ${seed}, after ${what}: reads`).toEqual(await db.frontier.bulkGet(urls.map((u) => [id!, u] as [number, string])));
      };
      const commitsOf = (entries: FrontierEntry[], rr: () => number): PageCommit[] => entries.map((entry) => {
        const outcome = rr() < 0.75 ? 'done' : 'retry';
        return {
          crawlId: id!, entry: outcome === 'retry' ? { ...entry, notBefore: now + 5 } : entry, outcome, children: links(rr, 4 + Math.floor(rr() * 12)),
          aliases: rr() < 0.1 ? [`http://${entry.host}/${Math.floor(rr() * 40)}`] : [], labels: [], site: entry.site!, stats: { fetched: 1 }, activeMs: 0,
          ...(rr() < 0.7 ? { everyLink: rerank } : {}),
        };
      });
      for (let round = 0; round < 30; round++) {
        now += 10;
        const op = r();
        const s = Math.floor(r() * 1e9);
        if (op < 0.35) {
          // Takes and group commits of what was taken, as the crawl loop does.
          const [taken] = await both(async (st) => (await st.frontier.take(id!, () => 0, now, 1 + (s % 4))).entries);
          inflight.push(...taken);
          const pages = inflight.splice(0, 1 + (s % 3));
          await both((st) => st.commitPages(commitsOf(pages, mulberry32(s)), now));
          await check('takes and commits');
        } else if (op < 0.45) {
          // A take and a commit under way at once: the commit's reads are answered while the take is still to commit.
          const pages = inflight.splice(0, 2);
          const [taken] = await both(async (st) => {
            const [t] = await Promise.all([st.frontier.take(id!, () => 0, now, 3), st.commitPages(commitsOf(pages, mulberry32(s)), now)]);
            return t.entries;
          });
          inflight.push(...taken);
          await check('a take and a commit at once');
        } else if (op < 0.55) {
          await both((st) => st.frontier.rescoreQueued(id!, (e) => (hashOf(e.url + s) < 0.5 ? null : { score: 0.5, priority: e.priority + hashOf(e.url + round) - 0.5 }), now, { chunk: 7 }));
          await check('a full re-score');
        } else if (op < 0.62) {
          const reach = { urls: HOSTS.flatMap((h) => [`http://${h}/${s % 40}`, `http://${h}/${(s >> 3) % 40}`]) };
          await both((st) => st.frontier.rescoreReached(id!, reach, (e) => (hashOf(e.url + s) < 0.3 ? { score: 0, priority: -9, skip: 'off topic' } : { score: 0.5, priority: hashOf(e.url) * 8 - 4 }), now));
          await check('a re-score of reached URLs');
        } else if (op < 0.68) {
          await both((st) => st.setSiteBlacklisted(id!, SITES[s % SITES.length]!, true, now));
          await check('a site blacklisted');
        } else if (op < 0.74) {
          await both((st) => st.frontier.reclaimInFlight(id!, now));
          inflight.length = 0;
          await check('a reclaim');
        } else if (op < 0.84) {
          // A commit whose transaction throws after its frontier writes: nothing of it stays, in the database or the copy.
          if (inflight.length === 0) inflight.push(...(await both(async (st) => (await st.frontier.take(id!, () => 0, now, 2)).entries))[0]);
          const pages = inflight.slice(0, 2);
          if (pages.length === 0) continue;
          const commits = commitsOf(pages, mulberry32(s)).map((c) => ({ ...c, record: { crawlName: 'x', url: c.entry!.url, record: null, change: {} } } as unknown as PageCommit));
          await both(async (st) => {
            const write = st.records.write;
            st.records.write = () => Promise.reject(new Error('the disk is full'));
            await expect(st.commitPages(commits, now)).rejects.toThrow('the disk is full');
            st.records.write = write;
          });
          await check('an aborted commit');
        } else if (op < 0.9) {
          [withCopy, without] = [reopened(withCopy, small), reopened(without, 0)];
          await both((st) => st.frontier.reclaimInFlight(id!, now));
          inflight.length = 0;
          await check('a reopened database');
        } else {
          await both((st) => st.frontier.enqueue(id!, links(mulberry32(s), 10), now));
          await check('an enqueue');
        }
      }
      expect(heldRowCount(withCopy.db)).toBeGreaterThan(0);
      expect(heldRowCount(withCopy.db)).toBeLessThanOrEqual(small);
      await both((st) => st.deleteCrawl(id!));
      withCopy.db.close();
      without.db.close();
    }
  });

  it('a commit under way while a take marks its link in flight plans from the row in flight, not the copy', async () => {
    const store = open(`rc-race-${Math.random()}`, new IDBFactory(), 100);
    const id = await store.createCrawl(config, 1, 1);
    const link = (url: string, priority: number): Candidate => ({ url, host: 'h0.s0.test', site: 's0.test', score: 0.5, priority, depth: 1, parentUrl: null, anchor: '', context: '' });
    await store.frontier.enqueue(id, [link('http://h0.s0.test/a', 5), link('http://h0.s0.test/b', 1)], 1);
    const [first] = (await store.frontier.take(id, () => 0, 2, 1)).entries;
    // The commit reads /b into the copy (queued), then a take of /b and a commit naming /b again by a better link
    // start together: the take commits first, and the commit must see /b in flight.
    await store.commitPage({ crawlId: id, entry: first!, outcome: 'done', children: [link('http://h0.s0.test/b', 1)], aliases: [], labels: [], site: 's0.test', stats: {}, activeMs: 0 }, 3);
    expect(heldRowCount(store.db)).toBeGreaterThan(0);
    const [taken] = await Promise.all([
      store.frontier.take(id, () => 0, 4, 1),
      store.commitPage({ crawlId: id, outcome: 'done', children: [link('http://h0.s0.test/b', 9)], aliases: [], labels: [], site: 's0.test', stats: {}, activeMs: 0 }, 4),
    ]);
    expect(taken.entries.map((e) => e.url)).toEqual(['http://h0.s0.test/b']);
    // Planned from the copy's stale row, the better link would have put /b back in the queue while it is fetched.
    expect((await store.frontier.getEntry(id, 'http://h0.s0.test/b'))!.state).toBe('inflight');
    store.db.close();
  });
});
