// A crawl's config is stored once, apart from the crawl row that every page commit rewrites (schema v13,
// lib/store/crawl-configs.ts). What a user would notice: a crawl with a big config crawls without writing it again
// and again, and every view still reads the crawl with its whole config, however it reads it, before and after a
// commit, from rows written before v13, after a crawl is deleted and after the database is wiped.
import Dexie, { liveQuery, type DBCore, type DBCoreTable } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlService } from '../../lib/app/service';
import { realClock, type FetchPort } from '../../lib/net/fetcher';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';

/** A chain of pages, each linking the next two. */
const site: FetchPort = async (url) => {
  const i = Number(new URL(url).pathname.split('/').pop());
  return new Response(`<!doctype html><title>rocks ${i}</title><p>basalt granite rocks minerals</p>`
    + `<a href="/p/${i + 1}">rocks ${i + 1}</a> <a href="/p/${i + 2}">minerals ${i + 2}</a>`, { headers: { 'content-type': 'text/html' } });
};

/** A config with a keyword list of a few thousand words: about 40 KB, as a big training set makes one. */
const bigConfig = (budget: number) => parseConfig({
  name: 'rocks', seeds: ['http://rocks.test/p/1'], budget: { maxPages: budget }, politeness: { delayMs: 0, concurrency: 2 },
  topic: { keywords: ['rocks', 'basalt', ...Array.from({ length: 3000 }, (_, i) => `mineral${i}`)] },
});

/** Rows written and bytes handed to IndexedDB per table, counted below the store's own middlewares. */
function countWrites(db: Dexie) {
  const writes: Record<string, { rows: number; bytes: number }> = {};
  db.use({
    stack: 'dbcore', name: 'count-writes', level: -3,
    create: (down: DBCore): DBCore => ({
      ...down,
      table(name: string): DBCoreTable {
        const t = down.table(name);
        return {
          ...t,
          mutate(req) {
            if (req.type === 'add' || req.type === 'put') {
              const w = (writes[name] ??= { rows: 0, bytes: 0 });
              w.rows += req.values.length;
              for (const v of req.values) w.bytes += JSON.stringify(v).length;
            }
            return t.mutate(req);
          },
        };
      },
    }),
  });
  return writes;
}

/** The database as stored, read without the store's middlewares (Dexie opened on the existing schema). */
async function raw(indexedDB: IDBFactory, name: string) {
  const db = new Dexie(name, { indexedDB, IDBKeyRange });
  await db.open();
  return db;
}

function fresh() {
  const indexedDB = new IDBFactory();
  const name = `configs${Math.random()}`;
  const db = new CrawlerDB(name, { indexedDB, IDBKeyRange });
  return { indexedDB, name, db, writes: countWrites(db) };
}

describe('a crawl config stored apart from its row', () => {
  it('is written once while the crawl commits page after page, and the crawl row stays small', async () => {
    const { db, writes, indexedDB, name } = fresh();
    const store = new CrawlStore(db);
    const service = new CrawlService({ store, fetch: site, clock: realClock });
    const config = bigConfig(40);
    const { crawlId } = await service.handlers.start(config);
    await service.settled(crawlId);
    const crawl = (await store.getCrawl(crawlId))!;
    expect(crawl.stats.fetched).toBe(40);
    expect(crawl.config.topic.keywords).toEqual(config.topic.keywords);

    const configBytes = JSON.stringify(crawl.config).length;
    expect(configBytes).toBeGreaterThan(30_000);
    // The crawl row was written with every commit; the config with the crawl's creation and a few status changes.
    expect(writes.crawls!.rows).toBeGreaterThan(20);
    expect(writes.crawlConfigs!.rows).toBeLessThan(writes.crawls!.rows / 4);
    expect(writes.crawls!.bytes / writes.crawls!.rows).toBeLessThan(configBytes / 10);

    const stored = await raw(indexedDB, name);
    const row = await stored.table('crawls').get(crawlId);
    expect(row).not.toHaveProperty('config');
    expect((await stored.table('crawlConfigs').get(crawlId)).config).toEqual(crawl.config);
    stored.close();
  });

  it('is read back whole by every kind of read, in every context', async () => {
    const { db, indexedDB, name } = fresh();
    const store = new CrawlStore(db);
    const config = bigConfig(5);
    const topicId = (await store.topics.createTopic('rocks', [], 1000)).id!;
    const a = await store.createCrawl(config, topicId, 1000);
    const b = await store.createCrawl({ ...config, name: 'other' }, topicId, 2000);
    await store.updateCrawl(a, { message: 'patched' });
    // A second context (the dashboard beside the worker) has seen no config yet: it reads them from their rows.
    for (const reader of [db, new CrawlerDB(name, { indexedDB, IDBKeyRange })]) {
      const reads = {
        get: [await reader.crawls.get(a)],
        bulkGet: await reader.crawls.bulkGet([a, b]),
        toArray: await reader.crawls.toArray(),
        reversed: await reader.crawls.orderBy('createdAt').reverse().toArray(),
        each: await new Promise<unknown[]>((done) => {
          const seen: unknown[] = [];
          void reader.crawls.each((c) => seen.push(c)).then(() => done(seen));
        }),
        filtered: await reader.crawls.filter((c) => c.createdAt > 0).toArray(),
        first: [await reader.crawls.where('topicId').equals(topicId).first()],
        inTransaction: await reader.transaction('r', reader.crawls, () => reader.crawls.toArray()),
      };
      for (const [how, rows] of Object.entries(reads)) {
        expect(rows.length, how).toBeGreaterThan(0);
        for (const r of rows as { id: number; config: { name: string; topic: { keywords: string[] } } }[]) {
          expect(r.config?.topic.keywords, `${how}: crawl ${r.id}`).toEqual(config.topic.keywords);
          expect(r.config.name, how).toBe(r.id === a ? 'rocks' : 'other');
        }
      }
      expect((await reader.crawls.get(a))!.message).toBe('patched');
    }
  });

  it('is in every row a live view shows while another context creates and commits crawls', async () => {
    // liveQuery runs only where Dexie has an IndexedDB of its own to watch.
    const indexedDB = (Dexie.dependencies.indexedDB = new IDBFactory());
    Dexie.dependencies.IDBKeyRange = IDBKeyRange;
    const db = new CrawlerDB('live-configs', { indexedDB, IDBKeyRange });
    const worker = new CrawlStore(new CrawlerDB('live-configs', { indexedDB, IDBKeyRange }));
    const shown: { id?: number; config?: unknown; message?: string }[][] = [];
    const failures: unknown[] = [];
    // The dashboard's crawl list: a live query, answered from Dexie's cache between the worker's writes.
    const view = liveQuery(() => db.crawls.orderBy('createdAt').toArray()).subscribe({ next: (rows) => shown.push(rows), error: (e) => failures.push(e) });
    await expect.poll(() => shown.length).toBe(1);
    for (let i = 0; i < 4; i++) {
      const id = await worker.createCrawl({ ...bigConfig(5), name: `crawl ${i}` }, 1, 1000 + i);
      await new Promise((r) => setTimeout(r, 20));
      for (let k = 0; k < 3; k++) {
        await worker.updateCrawl(id, { message: `step ${k}` });
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    // The view's last read, however late a busy machine makes it, shows every crawl's last write.
    await expect.poll(() => shown.at(-1)!.map((c) => c.message)).toEqual(['step 2', 'step 2', 'step 2', 'step 2']);
    view.unsubscribe();
    expect(failures).toEqual([]);
    for (const rows of shown) for (const c of rows) expect(c.config, `crawl ${c.id}`).toBeDefined();
  });

  it('reads a row written before v13 as it is, and moves its config out on its next write', async () => {
    const { db, indexedDB, name } = fresh();
    const store = new CrawlStore(db);
    const config = bigConfig(5);
    const id = await store.createCrawl(config, 1, 1000);
    const stored = await raw(indexedDB, name);
    const whole = { ...(await db.crawls.get(id))!, name: 'old' };
    await stored.table('crawlConfigs').clear();
    await stored.table('crawls').put(whole);
    expect(await stored.table('crawls').get(id)).toHaveProperty('config');

    const other = new CrawlerDB(name, { indexedDB, IDBKeyRange });
    expect((await other.crawls.get(id))!.config.topic.keywords).toEqual(config.topic.keywords);
    await new CrawlStore(other).updateCrawl(id, { message: 'moved' });
    expect(await stored.table('crawls').get(id)).not.toHaveProperty('config');
    expect((await stored.table('crawlConfigs').get(id)).config.topic.keywords).toEqual(config.topic.keywords);
    expect((await other.crawls.get(id))!.config.topic.keywords).toEqual(config.topic.keywords);
    stored.close();
  });

  it('goes with its crawl, and a wiped database does not give a new crawl an old config', async () => {
    const { db, indexedDB, name } = fresh();
    const store = new CrawlStore(db);
    const id = await store.createCrawl(bigConfig(5), 1, 1000);
    expect(await store.deleteCrawl(id)).toBe(true);
    const stored = await raw(indexedDB, name);
    expect(await stored.table('crawlConfigs').count()).toBe(0);
    stored.close();

    const first = await store.createCrawl(bigConfig(5), 1, 2000);
    expect((await db.crawls.get(first))!.config.topic.keywords.length).toBe(3002);
    // Wiped, and the first crawl of the new database (id 1 again) created by another context.
    await db.delete();
    const other = new CrawlerDB(name, { indexedDB, IDBKeyRange });
    const again = await new CrawlStore(other).createCrawl(parseConfig({ name: 'small', seeds: ['http://rocks.test/p/1'], topic: { keywords: ['rocks'] } }), 1, 3000);
    expect(again).toBe(id);
    await db.open();
    for (const reader of [db, other]) expect((await reader.crawls.get(again))!.config.topic.keywords).toEqual(['rocks']);
  });
});
