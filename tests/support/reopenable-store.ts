// A crawl store on its own fake-indexeddb that a test can open again, as a service worker started after the last
// one was stopped opens the same database: what the store keeps in memory is gone, what it committed is there.
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';

const factories = new WeakMap<CrawlerDB, IDBFactory>();

function open(name: string, indexedDB: IDBFactory): CrawlStore {
  const db = new CrawlerDB(name, { indexedDB, IDBKeyRange });
  factories.set(db, indexedDB);
  return new CrawlStore(db);
}

/** A store on a new, empty database. */
export function freshStore(): CrawlStore {
  return open(`s${Math.random()}`, new IDBFactory());
}

/** The same database opened again; the store given is closed. */
export function reopenedStore(store: CrawlStore): CrawlStore {
  store.db.close();
  return open(store.db.name, factories.get(store.db)!);
}

/** Every frontier row of a crawl, in URL order. */
export const frontierRows = (store: CrawlStore, crawlId: number) =>
  store.db.frontier.where('[crawlId+url]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
