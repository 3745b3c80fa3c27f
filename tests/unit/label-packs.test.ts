// A crawl's page commits store their labels a commit's worth to a row (lib/store/label-packs.ts). What a user must not
// notice: the Labels view pages through every label once, newest first, in the order they were made; its counts, the
// export and the model see every label; a packed label relabeled keeps its place, becomes the user's (found by its
// URL, as the labeler and the labeling queue look it up) and is learned as such; a deleted one is gone everywhere.
import { serialize } from 'node:v8';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import { isPack, packLabels } from '../../lib/store/label-packs';
import { labelChunks, TopicStore } from '../../lib/store/topic-store';
import { ALL_LABELS, forEachLabelChunk, LabelTally, labelWindow, modelSummary, userLabeledUrls, type LabelCursor } from '../../lib/ui/label-queries';
import type { LabeledLink } from '../../lib/records/types';

const T0 = 1_700_000_000_000;

/** Label n of a crawl: off topic every third. */
const made = (n: number, text = ''): Omit<LabeledLink, 'id'> => ({
  topicId: 1, crawlId: 7, url: `https://a.example/${n}`, anchor: `link ${n}${text}`, context: `near ${n}`, label: n % 3 ? 1 : 0, source: 'verdict',
  createdAt: T0 + n,
});

/** Every label of the topic as the Labels view pages through it, newest first, `size` a page. */
async function pageThrough(db: CrawlerDB, size: number): Promise<{ older: string[]; newer: string[] }> {
  const older: string[] = [];
  let cursor: LabelCursor = { at: 'newest' };
  for (;;) {
    const w = await labelWindow(db, 1, ALL_LABELS, cursor, size);
    older.push(...w.rows.map((l) => l.url));
    if (!w.hasOlder) break;
    cursor = { olderThan: w.rows[w.rows.length - 1]!.id! };
  }
  // And back: from the oldest page, newer and newer.
  let w = await labelWindow(db, 1, ALL_LABELS, { at: 'oldest' }, size);
  let newer = w.rows.map((l) => l.url);
  while (w.hasNewer) {
    w = await labelWindow(db, 1, ALL_LABELS, { newerThan: w.rows[0]!.id! }, size);
    // The newest page is shown full, so it may repeat labels already seen.
    const seen = new Set(newer);
    newer = [...w.rows.map((l) => l.url).filter((u) => !seen.has(u)), ...newer];
  }
  return { older, newer };
}

describe('labels packed a commit to a row', () => {
  let db: CrawlerDB;
  let topics: TopicStore;
  /** What a page commit writes: its labels packed (crawl-store.ts addLabels). */
  const commit = (labels: Omit<LabeledLink, 'id'>[]) => db.labels.bulkAdd(packLabels(1, 7, labels));

  let factory: IDBFactory;

  beforeEach(async () => {
    factory = new IDBFactory();
    db = new CrawlerDB(`packs${Math.random()}`, { indexedDB: factory, IDBKeyRange });
    topics = new TopicStore(db);
    await db.topics.add({ name: 'Rocks', keywords: ['rocks'], revision: 0, createdAt: T0, updatedAt: T0 });
  });

  it('are read by every view as the labels they hold, in the order made', async () => {
    // 450 commits of 3 labels, a user's label between some of them: more rows than the view reads at a time.
    let n = 0;
    const order: string[] = [];
    for (let c = 0; c < 450; c++) {
      const labels = [made(n++), made(n++), made(n++)];
      await commit(labels);
      order.push(...labels.map((l) => l.url));
      if (c % 50 === 0) {
        await topics.setUserLabel({ topicId: 1, crawlId: null, url: `https://u.example/${c}`, anchor: 'mine', context: '', createdAt: T0 }, 1);
        order.push(`https://u.example/${c}`);
      }
    }
    expect(await db.labels.count()).toBe(450 + 9);
    const all = await topics.allLabels(1);
    expect(all.map((l) => l.url)).toEqual(order);
    expect(new Set(all.map((l) => l.id)).size).toBe(order.length);

    const { older, newer } = await pageThrough(db, 25);
    expect(older).toEqual([...order].reverse());
    expect(newer).toEqual([...order].reverse());

    const exported: string[] = [];
    expect(await forEachLabelChunk(db, 1, ALL_LABELS, 64, (rows) => exported.push(...rows.map((l) => l.url)))).toBe(order.length);
    expect(exported).toEqual(order);

    const counts = await new LabelTally(db).read(1);
    expect(counts.links.verdict).toEqual({ on: 900, off: 450 });
    expect(counts.links.user).toEqual({ on: 9, off: 0 });
    expect((await modelSummary(db, (await db.topics.get(1))!)).pending).toBe(order.length);
    // A model saved after the 100th label has the rest to learn.
    await db.topicModels.put({ topicId: 1, link: null as never, judge: null, lastLabelId: all[99]!.id!, revision: 0, updatedAt: T0 });
    expect((await topics.labelsAfter(1, all[99]!.id!)).map((l) => l.url)).toEqual(order.slice(100));
  });

  it('relabeled, keep their place and become the user\'s; deleted, are gone', async () => {
    let n = 0;
    for (let c = 0; c < 300; c++) await commit([made(n++), made(n++), made(n++), made(n++)]);
    const before = await topics.allLabels(1);
    // Labels read at the edges of the view's reads (200 rows), and a whole pack.
    const relabeled = [before[3]!, before[799]!, before[800]!, before[803]!, before[1000]!];
    const deleted = [before[5]!, before[802]!, ...before.slice(1196, 1200)];
    expect(await topics.relabel(relabeled.map((l) => l.id!), 0, T0 + 1)).toBe(5);
    expect(await topics.deleteLabels(deleted.map((l) => l.id!), T0 + 2)).toBe(6);
    expect((await db.topics.get(1))!.revision).toBe(2);

    const after = await topics.allLabels(1);
    const gone = new Set(deleted.map((l) => l.id));
    expect(after.map((l) => l.id)).toEqual(before.filter((l) => !gone.has(l.id)).map((l) => l.id));
    const asUser = new Set(relabeled.map((l) => l.id));
    for (const l of after) expect([l.source, l.label], l.url).toEqual(asUser.has(l.id) ? ['user', 0] : ['verdict', l.label]);
    expect(await db.labels.count()).toBe(300 - 1 + 5); // the last pack emptied; five labels in rows of their own

    const { older, newer } = await pageThrough(db, 30);
    expect(older).toEqual(after.map((l) => l.url).reverse());
    expect(newer).toEqual(older);
    // Whatever rows a read stops at, a pack and the labels moved out of it come out in order.
    for (const [chunk, firstChunk] of [[1, 1], [2, 2], [3, 3], [7, 7], [50, 1], [200, 8]] as const) {
      const read = async (reverse: boolean) => {
        const out: number[] = [];
        for await (const labels of labelChunks(db, 1, { chunk, firstChunk, reverse })) out.push(...labels.map((l) => l.id!));
        return out;
      };
      expect(await read(false), `chunk ${chunk}`).toEqual(after.map((l) => l.id));
      expect(await read(true), `chunk ${chunk}, newest first`).toEqual(after.map((l) => l.id).reverse());
    }
    // Found by URL, as the labeler and the labeling queue look up the user's labels.
    const urls = relabeled.map((l) => l.url);
    expect(await topics.userLabels(1, [...urls, before[4]!.url])).toEqual([0, 0, 0, 0, 0, null]);
    expect(await userLabeledUrls(db, 1, [...urls, before[4]!.url])).toEqual(new Set(urls));
    // Labeled again by the user on the page: one user label, the newest.
    await topics.setUserLabel({ topicId: 1, crawlId: null, url: urls[0]!, anchor: 'again', context: '', createdAt: T0 + 3 }, 1);
    expect((await topics.allLabels(1)).filter((l) => l.url === urls[0]).map((l) => [l.source, l.label])).toEqual([['user', 1]]);
    // Relabeled twice, and deleted after: found by its id wherever it is.
    expect(await topics.relabel([relabeled[1]!.id!], 1, T0 + 4)).toBe(1);
    expect(await topics.deleteLabels([relabeled[1]!.id!], T0 + 5)).toBe(1);
    expect((await topics.allLabels(1)).some((l) => l.url === relabeled[1]!.url)).toBe(false);
  });

  it('relabeled and deleted while a crawl commits more, lose nothing and keep their order', async () => {
    let n = 0;
    for (let c = 0; c < 50; c++) await commit([made(n++), made(n++), made(n++), made(n++)]);
    const first = await topics.allLabels(1);
    const relabeled = first.filter((_, i) => i % 10 === 3);
    const deleted = first.filter((_, i) => i % 20 === 2); // in the packs of relabeled ones
    // The crawl's commits and the user's changes run at once, as the worker and the dashboard's messages do.
    await Promise.all([
      (async () => { for (let c = 0; c < 50; c++) await commit([made(n++), made(n++), made(n++), made(n++)]); })(),
      ...relabeled.map((l) => topics.relabel([l.id!], l.label === 1 ? 0 : 1, T0)),
      ...deleted.map((l) => topics.deleteLabels([l.id!], T0)),
    ]);
    const after = await topics.allLabels(1);
    expect(after).toHaveLength(400 - deleted.length);
    const ids = after.map((l) => l.id!);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const byId = new Map(after.map((l) => [l.id, l]));
    for (const l of relabeled) expect(byId.get(l.id)).toMatchObject({ url: l.url, source: 'user', label: l.label === 1 ? 0 : 1 });
    for (const l of deleted) expect(byId.has(l.id)).toBe(false);
    expect(after.filter((l) => l.source === 'verdict').map((l) => l.url)).toEqual(
      Array.from({ length: 400 }, (_, i) => `https://a.example/${i}`).filter((u) => !relabeled.concat(deleted).some((l) => l.url === u)));
    const { older } = await pageThrough(db, 40);
    expect(older).toEqual(after.map((l) => l.url).reverse());
  });

  it('make a page of the Labels view a read of a few rows', async () => {
    let n = 0;
    for (let c = 0; c < 300; c++) await commit([made(n++), made(n++), made(n++), made(n++), made(n++), made(n++)]);
    let rows = 0;
    // The view's own connection, counting the label rows its reads return.
    const view = new CrawlerDB(db.name, { indexedDB: factory, IDBKeyRange });
    view.use({
      stack: 'dbcore', name: 'count-label-rows',
      create: (down) => ({
        ...down,
        table: (name) => {
          const t = down.table(name);
          return name !== 'labels' ? t : { ...t, query: async (req) => {
            const res = await t.query(req);
            rows += req.values ? res.result.length : 0;
            return res;
          } };
        },
      }),
    });
    const w = await labelWindow(view, 1, ALL_LABELS, { at: 'newest' }, 50);
    expect(w.rows.map((l) => l.url)).toEqual(Array.from({ length: 50 }, (_, i) => `https://a.example/${1799 - i}`));
    expect(rows).toBeLessThanOrEqual(16); // nine packs hold the 51 labels asked for; 200 rows were read at once
  });

  it('go with their topic', async () => {
    await commit([made(1), made(2)]);
    await db.topics.add({ name: 'Birds', keywords: [], revision: 0, createdAt: T0, updatedAt: T0 });
    await db.labels.bulkAdd(packLabels(2, 8, [{ ...made(3), topicId: 2 }]));
    expect(await topics.deleteTopic(1)).toBe(true);
    expect((await db.labels.toArray()).map((r) => r.topicId)).toEqual([2]);
  });

  it('split where a pack would grow past what Chromium stores inline', () => {
    // Short labels (the serializer's per-label cost dominates), long ones, and text outside Latin-1 (two bytes a char).
    for (const text of ['', ' '.repeat(150), '金融'.repeat(60)]) {
      const labels = Array.from({ length: 2_000 }, (_, i) => ({ ...made(i, text), pageUrl: 'https://a.example/', parentOnTopic: true, parentHub: 2 }));
      const packs = packLabels(1, 7, labels);
      expect(packs.length, JSON.stringify(text)).toBeGreaterThan(3);
      for (const p of packs) {
        expect(isPack(p)).toBe(true);
        // What IndexedDB stores: the value as V8's serializer writes it.
        expect(serialize(p).length, JSON.stringify(text)).toBeLessThan(64 * 1024);
      }
      expect(packs.flatMap((p) => p.pack.map((l) => l!.url))).toEqual(labels.map((l) => l.url));
    }
  });
});
