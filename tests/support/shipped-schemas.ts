// The schemas Focus shipped, each spelled out once: a migration test opens a database exactly as an older version
// left it, writes rows as that version wrote them, and lets lib/store/db.ts upgrade it.
import Dexie from 'dexie';
import { IDBKeyRange } from 'fake-indexeddb';

const V3: Record<string, string> = {
  crawls: '++id, createdAt, topicId',
  frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+state]',
  pages: '[crawlId+seq], [crawlId+url]',
  bodies: '[crawlId+seq]',
  labels: '++id, [topicId+id], [topicId+url], crawlId',
  pageLabels: '++id, topicId, [crawlId+seq]',
  topics: '++id',
  topicModels: 'topicId',
  settings: 'key',
  sites: '[crawlId+site]',
};
/** v4 and v5: frontier rows counted per site; the crawled link graph and strategies' saved state. */
const V5 = {
  ...V3,
  frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+state], [crawlId+site+state]',
  graph: '[crawlId+seq]',
  strategyStates: 'crawlId',
};
/** v7 and v8: the Pages table's indexes; template records and what each cycle changed. */
const V8 = {
  ...V5,
  pages: '[crawlId+seq], [crawlId+url], [crawlId+score+seq], [crawlId+kind+seq], [crawlId+kind+score+seq], [crawlId+site+seq], [crawlId+site+score+seq]',
  records: '[crawlName+url], crawlName',
  recordChanges: '[crawlId+url]',
};
/** v9: page rows carry their search words. */
const V9 = {
  ...V8,
  pages: '[crawlId+seq], [crawlId+url], [crawlId+score+seq], [crawlId+kind+seq], [crawlId+kind+score+seq], [crawlId+site+seq], [crawlId+site+score+seq], [crawlId+site+kind+seq], [crawlId+site+kind+score+seq], *terms',
};
/** v10: the frontier without its [crawlId+state] index. */
const V10 = { ...V9, frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+site+state]' };

/** v11: per-host queue heads. */
const V11 = {
  ...V10,
  frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+site+state+host+priority+order]',
  hostHeads: '[crawlId+site+host]',
};

/** v12: big seed lists, packed. */
const V12 = { ...V11, seedLists: '[crawlId+batch]' };

/** v13: configs in a table of their own; labels without their crawlId index. */
const V13 = { ...V12, crawlConfigs: 'crawlId', labels: '++id, [topicId+id], [topicId+url]' };

/** v14: the pages' content sketches. */
const V14 = { ...V13, sketches: '[crawlId+seq]' };

const SHIPPED = { 3: V3, 5: V5, 8: V8, 9: V9, 10: V10, 11: V11, 12: V12, 13: V13, 14: V14 };

/** A database named like Focus's, at schema `version` exactly as it shipped. */
export function openShipped(version: keyof typeof SHIPPED, indexedDB: IDBFactory): Dexie {
  const db = new Dexie('focus', { indexedDB, IDBKeyRange });
  db.version(version).stores(SHIPPED[version]);
  return db;
}
