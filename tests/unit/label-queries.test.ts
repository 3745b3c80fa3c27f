import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { DBCore, DBCoreCursor, Middleware } from 'dexie';
import { beforeEach, describe, expect, it } from 'vitest';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { CrawlerDB } from '../../lib/store/db';
import { emptyStats, type CrawlRecord } from '../../lib/records/rows';
import type { FrontierEntry, LabeledLink, LabelSource, Topic } from '../../lib/records/types';
import { DEFAULTS } from '../../lib/records/config';
import {
  ALL_LABELS,
  currentLinkClassifier,
  filteredCount,
  forEachLabelChunk,
  LabelTally,
  labelWindow,
  linkTotals,
  modelSummary,
  queueCandidates,
  siteQuery,
  userLabeledUrls,
  type LabelFilter,
} from '../../lib/ui/label-queries';

const T0 = 1_700_000_000_000;
const SOURCES: LabelSource[] = ['user', 'page', 'verdict', 'auto'];

/** Label i of a topic: hosts cycle a, b, c; sources cycle user, page, verdict, auto; even i on topic. */
function label(topicId: number, i: number): Omit<LabeledLink, 'id'> {
  return {
    topicId, crawlId: null, url: `https://${'abc'[i % 3]}.example/${topicId}/${i}`, anchor: `link ${i}`, context: `context ${i}`,
    label: i % 2 === 0 ? 1 : 0, source: SOURCES[i % 4], createdAt: T0 + i,
  };
}

function topic(id: number, name: string, keywords: string[] = []): Topic {
  return { id, name, keywords, revision: 0, createdAt: T0, updatedAt: T0 };
}

function crawl(id: number, topicId: number): CrawlRecord {
  return {
    id, topicId, name: `crawl ${id}`, config: structuredClone(DEFAULTS) as CrawlRecord['config'], state: 'running', stats: emptyStats(),
    nextSeq: 0, nextOrder: 0, createdAt: T0 + id, updatedAt: T0, activeMs: 0,
  };
}

function entry(crawlId: number, path: string, priority: number, state: FrontierEntry['state'] = 'queued', order = 0): FrontierEntry {
  const url = `https://site.example/${path}`;
  return {
    crawlId, url, host: 'site.example', state, score: 1 / (1 + Math.exp(-priority)), priority, order, depth: 1, parentUrl: 'https://site.example/',
    anchor: path, context: '', attempts: 0, discoveredAt: T0, updatedAt: T0,
  };
}

const ids = (rows: LabeledLink[]) => rows.map((l) => l.id);

/** A Dexie middleware under which rows of `table` matching `which` are read as `as(row)` (by cursor, get and query). */
function staleRowMiddleware(table: string, which: (row: unknown) => boolean, as: (row: unknown) => unknown): Middleware<DBCore> {
  const patch = (row: unknown) => (row && which(row) ? as(row) : row);
  return {
    stack: 'dbcore',
    name: 'stale-rows',
    create: (down) => ({
      ...down,
      table: (name) => {
        const t = down.table(name);
        if (name !== table) return t;
        return {
          ...t,
          get: async (req) => patch(await t.get(req)),
          getMany: async (req) => (await t.getMany(req)).map(patch),
          query: async (req) => {
            const res = await t.query(req);
            return req.values ? { ...res, result: res.result.map(patch) } : res;
          },
          openCursor: async (req) => {
            const cursor = await t.openCursor(req);
            if (!cursor) return cursor;
            return new Proxy(cursor, {
              get: (target, prop) => {
                if (prop === 'value') return patch(target.value);
                const v = Reflect.get(target, prop, target) as unknown;
                return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
              },
            }) as DBCoreCursor;
          },
        };
      },
    }),
  };
}

describe('Topics view reads', () => {
  let db: CrawlerDB;
  beforeEach(async () => {
    db = new CrawlerDB('labels', { indexedDB: new IDBFactory(), IDBKeyRange });
    await db.topics.bulkPut([topic(1, 'Astronomy', ['astronomy']), topic(2, 'Cooking')]);
    // Interleaved, so each topic's ids are not one contiguous run: topic 1 gets 120 labels, topic 2 gets 40.
    for (let i = 0; i < 120; i++) {
      await db.labels.add(label(1, i));
      if (i < 40) await db.labels.add(label(2, i));
    }
  });

  it('pages a topic\'s labels newest first by key range, forward, back and to either end', async () => {
    const newest = await labelWindow(db, 1, ALL_LABELS, { at: 'newest' }, 50);
    expect(newest.rows).toHaveLength(50);
    expect(newest.rows.every((l) => l.topicId === 1)).toBe(true);
    expect(newest.rows[0].anchor).toBe('link 119');
    expect([newest.hasNewer, newest.hasOlder]).toEqual([false, true]);

    const older = await labelWindow(db, 1, ALL_LABELS, { olderThan: newest.rows.at(-1)!.id! }, 50);
    expect(older.rows[0].anchor).toBe('link 69');
    expect(older.rows.at(-1)!.anchor).toBe('link 20');
    expect([older.hasNewer, older.hasOlder]).toEqual([true, true]);

    const oldest = await labelWindow(db, 1, ALL_LABELS, { at: 'oldest' }, 50);
    expect(oldest.rows[0].anchor).toBe('link 49');
    expect(oldest.rows.at(-1)!.anchor).toBe('link 0');
    expect([oldest.hasNewer, oldest.hasOlder]).toEqual([true, false]);

    const newer = await labelWindow(db, 1, ALL_LABELS, { newerThan: older.rows[0].id! }, 50);
    expect(ids(newer.rows)).toEqual(ids(newest.rows));
    // Paging forward into the newest rows gives a full newest page, not the 30 left over.
    const link89 = newest.rows.find((l) => l.anchor === 'link 89')!;
    const back = await labelWindow(db, 1, ALL_LABELS, { newerThan: link89.id! }, 50);
    expect(ids(back.rows)).toEqual(ids(newest.rows));
    expect(back.hasNewer).toBe(false);
    // Past the oldest row: the oldest full page, never an empty one.
    const past = await labelWindow(db, 1, ALL_LABELS, { olderThan: oldest.rows.at(-1)!.id! }, 50);
    expect(ids(past.rows)).toEqual(ids(oldest.rows));
  });

  it('filters by label, source and site without mixing topics', async () => {
    const read = (f: Partial<LabelFilter>) => labelWindow(db, 1, { ...ALL_LABELS, ...f }, { at: 'newest' }, 500).then((w) => w.rows);
    const on = await read({ label: 'on' });
    expect(on).toHaveLength(60);
    expect(on.every((l) => l.label === 1)).toBe(true);
    const userOff = await read({ label: 'off', source: 'user' });
    expect(userOff).toHaveLength(0); // user labels are i % 4 == 0: always even, on topic
    const verdict = await read({ source: 'verdict' });
    expect(verdict).toHaveLength(30);
    expect(verdict.every((l) => l.source === 'verdict')).toBe(true);
    const siteB = await read({ site: 'https://B.example/anything' });
    expect(siteB).toHaveLength(40);
    expect(siteB.every((l) => l.url.startsWith('https://b.example/'))).toBe(true);
    expect(await read({ site: 'nowhere.test' })).toHaveLength(0);
    expect(siteQuery('  HTTPS://Example.org/path?q ')).toBe('example.org');

    // A sparse filter pages too: the next page starts after the last match, not after 50 rows read.
    const first = await labelWindow(db, 1, { ...ALL_LABELS, source: 'auto' }, { at: 'newest' }, 10);
    const second = await labelWindow(db, 1, { ...ALL_LABELS, source: 'auto' }, { olderThan: first.rows.at(-1)!.id! }, 10);
    expect(first.rows.map((l) => l.anchor)).toEqual([119, 115, 111, 107, 103, 99, 95, 91, 87, 83].map((i) => `link ${i}`));
    expect(second.rows[0].anchor).toBe('link 79');
  });

  it('exports every matching label in chunks, oldest first', async () => {
    const chunks: number[] = [];
    const seen: string[] = [];
    const total = await forEachLabelChunk(db, 1, { ...ALL_LABELS, label: 'off' }, 25, (rows) => {
      chunks.push(rows.length);
      seen.push(...rows.map((l) => l.anchor));
    });
    expect(total).toBe(60);
    expect(seen[0]).toBe('link 1');
    expect(seen.at(-1)).toBe('link 119');
    expect(new Set(seen).size).toBe(60);
    expect(chunks.every((n) => n <= 25)).toBe(true);
  });

  it('counts labels by source and label, reading only new labels until the revision changes', async () => {
    const tally = new LabelTally(db);
    const first = await tally.read(1);
    expect(linkTotals(first.links)).toEqual({ on: 60, off: 60 });
    expect(first.links.user).toEqual({ on: 30, off: 0 });
    expect(first.links.page).toEqual({ on: 0, off: 30 });
    expect(filteredCount(first.links, { ...ALL_LABELS, label: 'on', source: 'user' })).toBe(30);
    expect(filteredCount(first.links, ALL_LABELS)).toBe(120);
    expect(filteredCount(first.links, { ...ALL_LABELS, site: 'a.example' })).toBeNull();

    // An added label is counted on top of the last count.
    await db.labels.add({ ...label(1, 200), source: 'user', label: 0 } as LabeledLink);
    expect((await tally.read(1)).links.user).toEqual({ on: 30, off: 1 });

    // A relabel bumps the topic's revision (as the worker does): everything is counted again.
    const some = await db.labels.where('[topicId+url]').equals([1, 'https://a.example/1/0']).first();
    await db.transaction('rw', db.labels, db.topics, async () => {
      await db.labels.update(some!.id!, { label: 0 } as Partial<LabeledLink>);
      await db.topics.update(1, { revision: 1 });
    });
    const after = await tally.read(1);
    expect(after.links.user).toEqual({ on: 29, off: 2 });
    expect((await tally.read(2)).links.user).toEqual({ on: 10, off: 0 });

    await db.pageLabels.bulkAdd([
      { topicId: 1, crawlId: 1, seq: 0, url: 'https://a.example/', label: 1, source: 'user', createdAt: T0 },
      { topicId: 2, crawlId: 1, seq: 1, url: 'https://b.example/', label: 0, source: 'user', createdAt: T0 },
    ]);
    expect((await tally.read(1)).pages).toEqual({ on: 1, off: 0 });
  });

  it('summarises the saved model and rebuilds the current link classifier like the worker', async () => {
    const t = (await db.topics.get(1))!;
    const none = await modelSummary(db, t);
    expect(none).toEqual({ examples: null, savedAt: null, outdated: false, pending: 120 });

    // Saved after the first 100 labels of topic 1.
    const labels = (await db.labels.where('[topicId+id]').between([1, 0], [1, Infinity]).toArray()) as LabeledLink[];
    const saved = new LinkClassifier(t.keywords);
    for (const l of labels.slice(0, 100)) saved.learn(l, l.label);
    await db.topicModels.put({ topicId: 1, link: saved.toJSON(), judge: null, lastLabelId: labels[99].id!, revision: 0, updatedAt: T0 + 5 });
    expect(await modelSummary(db, t)).toEqual({ examples: { pos: 50, neg: 50 }, savedAt: T0 + 5, outdated: false, pending: 20 });

    // The classifier in the page learns the 20 labels added since: the same as one built from all 120.
    const all = new LinkClassifier(t.keywords);
    for (const l of labels) all.learn(l, l.label);
    const current = await currentLinkClassifier(db, t);
    expect(current.examples).toEqual({ pos: 60, neg: 60 });
    const probe = { anchor: 'link 7 astronomy', context: 'context 3' };
    expect(current.score(probe)).toBeCloseTo(all.score(probe), 12);

    // A model of an older revision is not used: the classifier is rebuilt from the keywords and every label.
    await db.topics.update(1, { revision: 3 });
    const t3 = (await db.topics.get(1))!;
    expect((await modelSummary(db, t3)).outdated).toBe(true);
    expect((await currentLinkClassifier(db, t3)).score(probe)).toBeCloseTo(all.score(probe), 12);
  });

  it('takes queue candidates from the topic\'s crawls around priority 0, nearest first, skipping stale index entries', async () => {
    // Chromium can leave a frontier row under 'queued' in the [crawlId+state+...] index after its state changed:
    // the index finds the row, the row says 'inflight'. Reads of the frontier here return this row that way.
    const staleUrl = 'https://site.example/stale';
    db = new CrawlerDB('stale', { indexedDB: new IDBFactory(), IDBKeyRange });
    db.use(staleRowMiddleware('frontier', (row) => (row as FrontierEntry).url === staleUrl, (row) => ({ ...(row as FrontierEntry), state: 'inflight' })));
    await db.topics.bulkPut([topic(1, 'Astronomy'), topic(2, 'Cooking')]);
    await db.crawls.bulkPut([crawl(1, 1), crawl(2, 1), crawl(3, 2)]);
    await db.frontier.bulkPut([
      entry(1, 'p0', 0),
      entry(1, 'p-half', -0.5),
      entry(1, 'p1', 1),
      entry(1, 'p-1.5', -1.5),
      entry(1, 'far-up', 5),
      entry(1, 'far-down', -6),
      entry(1, 'done', 0.1, 'done'),
      entry(2, 'other-crawl', 0.2),
      entry(3, 'other-topic', 0),
    ]);
    await db.frontier.put(entry(1, 'stale', 0.05));
    expect((await db.frontier.get([1, staleUrl]))?.state).toBe('inflight');

    const urls = (await queueCandidates(db, 1)).map((e) => e.url.replace('https://site.example/', ''));
    expect(urls.sort()).toEqual(['other-crawl', 'p-1.5', 'p-half', 'p0', 'p1'].sort());

    // With a small limit (shared by the crawls and the two sides of 0) the entries nearest to priority 0 win.
    const few = (await queueCandidates(db, 1, { limit: 4 })).map((e) => e.url.replace('https://site.example/', ''));
    expect(few.sort()).toEqual(['other-crawl', 'p-half', 'p0']);
    expect(await queueCandidates(db, 2, { around: 0.5 })).toHaveLength(1);
    expect(await queueCandidates(db, 99)).toEqual([]);
  });

  it('finds which URLs the user has labeled, ignoring labels from other sources and topics', async () => {
    const urls = ['https://a.example/1/0', 'https://b.example/1/1', 'https://b.example/1/4', 'https://nowhere.example/'];
    // 0 and 4 are user labels (i % 4 == 0); 1 is a page label.
    expect([...(await userLabeledUrls(db, 1, urls))].sort()).toEqual(['https://a.example/1/0', 'https://b.example/1/4']);
    expect((await userLabeledUrls(db, 2, urls)).size).toBe(0);
    expect((await userLabeledUrls(db, 1, [])).size).toBe(0);
  });
});
