import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { PageJudge } from '../../lib/learning/page-judge';
import { parseConfig } from '../../lib/app/parse-config';
import { loadModel } from '../../lib/learning/model';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';

/** The v1 schema exactly as it shipped: labels and models belonged to a crawl. */
function openV1(indexedDB: IDBFactory): Dexie {
  const db = new Dexie('focus', { indexedDB, IDBKeyRange });
  db.version(1).stores({
    crawls: '++id, createdAt',
    frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+state]',
    pages: '[crawlId+seq], [crawlId+url]',
    bodies: '[crawlId+seq]',
    labels: '++id, crawlId, [crawlId+url]',
    models: 'crawlId',
    sites: '[crawlId+site]',
  });
  return db;
}

describe('schema v1 -> v2 (labels and models move to topics)', () => {
  it('gives every crawl a topic of its own, carrying its labels and its model', async () => {
    const indexedDB = new IDBFactory();
    const v1 = openV1(indexedDB);
    const solar = parseConfig({ name: 'Solar', seeds: ['http://a.test/'], topic: { keywords: ['solar', 'panel'] } });
    const chess = parseConfig({ name: 'Chess', seeds: ['http://b.test/'], topic: { keywords: ['chess'] } });
    const base = { state: 'paused', stats: {}, nextSeq: 1, nextOrder: 1, updatedAt: 1, activeMs: 0 };
    await v1.table('crawls').bulkAdd([{ ...base, name: 'Solar', config: solar, createdAt: 1 }, { ...base, name: 'Chess', config: chess, createdAt: 2 }]);
    const link = new LinkClassifier(['solar', 'panel']);
    link.learn({ anchor: 'solar roof', context: '' }, 1);
    await v1.table('labels').bulkAdd([
      { crawlId: 1, url: 'http://a.test/roof', anchor: 'solar roof', context: '', label: 1, source: 'auto', createdAt: 1 },
      { crawlId: 2, url: 'http://b.test/opening', anchor: 'openings', context: '', label: 1, source: 'auto', createdAt: 1 },
      { crawlId: 2, url: 'http://b.test/bread', anchor: 'bread', context: '', label: 0, source: 'verdict', createdAt: 1 },
    ]);
    await v1.table('models').put({ crawlId: 1, link: link.toJSON(), judge: new PageJudge(['solar']).toJSON(), lastLabelId: 1, updatedAt: 5 });
    v1.close();

    const store = new CrawlStore(new CrawlerDB('focus', { indexedDB, IDBKeyRange }));
    const topics = await store.topics.listTopics();
    expect(topics.map((t) => [t.name, t.keywords])).toEqual([['Solar', ['solar', 'panel']], ['Chess', ['chess']]]);
    const [solarCrawl, chessCrawl] = [(await store.getCrawl(1))!, (await store.getCrawl(2))!];
    expect(solarCrawl.topicId).toBe(topics[0].id);
    expect(chessCrawl.config.topic.id).toBe(topics[1].id);
    expect((await store.topics.allLabels(topics[1].id!)).map((l) => l.anchor)).toEqual(['openings', 'bread']);
    expect((await store.topics.allLabels(topics[0].id!)).map((l) => l.anchor)).toEqual(['solar roof']);
    // The saved model is the topic's now, and is used as it is (its one label is not learned twice).
    const saved = (await store.topics.getModel(topics[0].id!))!;
    expect(saved.lastLabelId).toBe(1);
    const model = await loadModel(store, topics[0].id!);
    expect(model.link.examples).toEqual({ pos: 1, neg: 0 });
    expect(model.link.score({ anchor: 'solar roof', context: '' })).toBeCloseTo(link.score({ anchor: 'solar roof', context: '' }), 12);
    // The old per-crawl table is gone.
    expect(store.db.tables.map((t) => t.name)).not.toContain('models');
  });

  it('opens an empty v1 database and a fresh one alike', async () => {
    const indexedDB = new IDBFactory();
    openV1(indexedDB).close();
    await new CrawlerDB('focus', { indexedDB, IDBKeyRange }).open();
    const fresh = new CrawlerDB('other', { indexedDB, IDBKeyRange });
    await fresh.open();
    expect(fresh.verno).toBeGreaterThanOrEqual(7);
  });
});
