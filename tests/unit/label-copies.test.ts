// The labeled links a context's page commits wrote are not read back by its learner's catch-up
// (lib/store/label-copies.ts). What must hold for a user: the model learns exactly what it would have read from the
// database (every label of the topic after its own, from whoever wrote it, in order), a label relabeled since is
// learned as relabeled, a deleted one not at all; and the labels a page commit wrote are not read back.
import { type DBCore, type DBCoreTable } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate, PageCommit } from '../../lib/ports';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { keepLabels } from '../../lib/store/label-copies';
import { packLabels } from '../../lib/store/label-packs';
import type { NewLabel } from '../../lib/store/topic-store';

/** Label rows read with their values (keys alone not counted). */
function countLabelReads(db: CrawlerDB) {
  const read = { rows: 0 };
  db.use({
    stack: 'dbcore', name: 'count-label-reads', level: -3,
    create: (down: DBCore): DBCore => ({
      ...down,
      table(name: string): DBCoreTable {
        const t = down.table(name);
        if (name !== 'labels') return t;
        return {
          ...t,
          getMany: (req) => t.getMany(req).then((rows) => ((read.rows += rows.filter(Boolean).length), rows)),
          get: (req) => t.get(req).then((row) => ((read.rows += row ? 1 : 0), row)),
          query: (req) => t.query(req).then((res) => ((read.rows += req.values ? res.result.length : 0), res)),
        };
      },
    }),
  });
  return read;
}

const label = (topicId: number, i: number, crawlId: number | null = 1): NewLabel =>
  ({ topicId, crawlId, url: `http://a.test/${i}`, anchor: `link ${i}`, context: `around ${i}`, label: i % 3 ? 1 : 0, source: 'verdict', createdAt: i });

describe('labels a commit wrote, taken by the catch-up from memory', () => {
  async function setup() {
    const indexedDB = new IDBFactory();
    const name = `copies${Math.random()}`;
    const db = new CrawlerDB(name, { indexedDB, IDBKeyRange });
    const reads = countLabelReads(db);
    const store = new CrawlStore(db);
    const topic = (await store.topics.createTopic('rocks', ['rocks'], 0)).id!;
    const other = (await store.topics.createTopic('birds', ['birds'], 0)).id!;
    /** Writes labels as a commit does (packed, a pack a topic) and keeps their copies. */
    const commit = async (rows: NewLabel[]) => {
      const packs = [...new Set(rows.map((r) => r.topicId))].flatMap((t) => packLabels(t, 1, rows.filter((r) => r.topicId === t)));
      const keys = (await db.labels.bulkAdd(packs, { allKeys: true })) as number[];
      keepLabels(db, packs.map((p, i) => ({ ...p, id: keys[i]! })));
    };
    /** The database as another context reads it: no copies. */
    const elsewhere = () => new CrawlStore(new CrawlerDB(name, { indexedDB, IDBKeyRange }));
    return { db, reads, store, topic, other, commit, elsewhere };
  }

  it('gives what the database holds, others\' labels included, in order, reading only those', async () => {
    const { reads, store, topic, other, commit, elsewhere } = await setup();
    await store.topics.changesSince(topic, 0); // a crawl's learner reads the topic when it starts
    await commit([label(topic, 1), label(topic, 2)]);
    await store.topics.addLabels([label(topic, 3, null), label(other, 4, null)]); // the user, on the web; another topic
    await commit([label(topic, 5), label(other, 6), label(topic, 7)]);
    await elsewhere().topics.addLabels([label(topic, 8, null)]);
    await commit([label(topic, 9)]);

    reads.rows = 0;
    const here = await store.topics.changesSince(topic, 0);
    expect(here.labels).toEqual((await elsewhere().topics.changesSince(topic, 0)).labels);
    expect(here.labels.map((l) => l.url.split('/').pop())).toEqual(['1', '2', '3', '5', '7', '8', '9']);
    expect(reads.rows).toBe(2); // labels 3 and 8, written by others

    // Asked again from where the model is: what it has not learned, read from the database as before.
    const after = here.labels[3]!.id!;
    await commit([label(topic, 10)]);
    reads.rows = 0;
    const next = await store.topics.changesSince(topic, after);
    expect(next.labels).toEqual((await elsewhere().topics.changesSince(topic, after)).labels);
    expect(next.labels.map((l) => l.url.split('/').pop())).toEqual(['7', '8', '9', '10']);
    expect(reads.rows).toBe(3); // taken once: the rows of 5 and 7 (one pack), 8, and 9 are read back now
  });

  it('learns a label relabeled since as relabeled, and a deleted one not at all', async () => {
    const { store, topic, commit, elsewhere } = await setup();
    await store.topics.changesSince(topic, 0);
    await commit([label(topic, 1), label(topic, 2), label(topic, 3)]);
    const [one, two] = (await elsewhere().topics.labelsAfter(topic, 0)).map((l) => l.id!);
    await elsewhere().topics.relabel([one!], 0, 5);
    await elsewhere().topics.deleteLabels([two!], 6);
    const here = await store.topics.changesSince(topic, 0);
    expect(here.labels).toEqual((await elsewhere().topics.changesSince(topic, 0)).labels);
    expect(here.labels.map((l) => [l.url.split('/').pop(), l.label, l.source])).toEqual([['1', 0, 'user'], ['3', 0, 'verdict']]);
  });

  it('the page commit hands its labels over: its learner reads back none of them', async () => {
    const { reads, store, topic, elsewhere } = await setup();
    const crawlId = await store.createCrawl(parseConfig({ seeds: ['http://a.test/0'], topic: { keywords: ['rocks'] } }), topic, 1);
    const links = (k: number): Candidate[] => [1, 2, 3].map((d) => ({ url: `http://a.test/${k * 3 + d}`, host: 'a.test', site: 'a.test',
      score: 0.5, priority: 0, depth: 1, parentUrl: 'http://a.test/0', anchor: `to ${k * 3 + d}`, context: 'c', logOdds: 0 }));
    await store.frontier.enqueue(crawlId, links(0), 1);
    await store.topics.changesSince(topic, 0); // the learner reads the topic when it starts
    let written = 0;
    for (let round = 1; round <= 6; round++) {
      const taken = (await store.frontier.take(crawlId, () => 0, round * 10, 2)).entries;
      const commits: PageCommit[] = taken.map((entry, i) => {
        const labels = [0, 1, 2].map((k) => ({ url: `http://a.test/${round}-${i}-${k}`, anchor: 'x', context: 'y', label: (k % 2) as 0 | 1, source: 'verdict' as const, createdAt: round }));
        written += labels.length;
        return { crawlId, entry, outcome: 'done', children: links(round * 2 + i), aliases: [], labels, site: 'a.test', stats: { attempts: 1 }, activeMs: round };
      });
      await store.commitPages(commits, round * 10);
    }
    expect(written).toBeGreaterThan(20);
    reads.rows = 0;
    const here = await store.topics.changesSince(topic, 0);
    expect(reads.rows).toBe(0);
    expect(here.labels).toHaveLength(written);
    expect(here.labels).toEqual((await elsewhere().topics.changesSince(topic, 0)).labels);
  });
});
