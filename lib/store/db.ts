import Dexie, { type EntityTable, type Table } from 'dexie';
import type { FrontierEntry, PageBody, PageLabel, PageRecord, Topic } from '../records/types';
import type { CrawlRecord, FieldRecord, GraphRow, HostHead, ModelRecord, RecallRow, RecordChange, SeedBatch, Setting, SiteStats, SketchRow, StrategyStateRow } from '../records/rows';
import type { Candidate } from '../ports';
import { upgradeToTopics } from './migrations/v2-topics';
import { addEntrySites } from './migrations/v4-entry-sites';
import { addPageListKeys } from './migrations/v7-page-list-keys';
import { addPageTerms } from './migrations/v9-page-terms';
import { addHostHeads } from './migrations/v11-host-heads';
import { type CrawlConfigRow, crawlConfigMiddleware } from './crawl-configs';
import type { LabelRow } from './label-packs';
import type { BodyRow } from './body-packs';

/** A packed row of a big seed list (lib/store/seed-lists.ts): what its seeds share is a candidate without its URL. */
export type PackedSeeds = SeedBatch<Omit<Candidate, 'url' | 'href' | 'host' | 'site'>>;

export class CrawlerDB extends Dexie {
  crawls!: EntityTable<CrawlRecord, 'id'>;
  frontier!: Table<FrontierEntry, [number, string]>;
  pages!: Table<PageRecord, [number, number]>;
  /** A page's body, or a few pages' packed (body-packs.ts): read them through `readBodies`. */
  bodies!: Table<BodyRow, [number, number]>;
  /** A label, or a page commit's labels packed in one row (label-packs.ts): read them through `unpack`. */
  labels!: EntityTable<LabelRow, 'id'>;
  pageLabels!: EntityTable<PageLabel, 'id'>;
  topics!: EntityTable<Topic, 'id'>;
  topicModels!: Table<ModelRecord, number>;
  settings!: Table<Setting, string>;
  sites!: Table<SiteStats, [number, string]>;
  graph!: Table<GraphRow, [number, number]>;
  strategyStates!: Table<StrategyStateRow, number>;
  records!: Table<FieldRecord, [string, string]>;
  recordChanges!: Table<RecordChange, [number, string]>;
  hostHeads!: Table<HostHead, [number, string, string]>;
  seedLists!: Table<PackedSeeds, [number, number]>;
  crawlConfigs!: Table<CrawlConfigRow, number>;
  sketches!: Table<SketchRow, [number, number]>;
  /** A crawl's recall estimates, one every RECALL_EVERY pages fetched (lib/run/recall-watch.ts). */
  recallHistory!: Table<RecallRow, [number, number]>;

  constructor(name = 'focus', deps?: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) {
    super(name, deps);
    this.version(1).stores({
      crawls: '++id, createdAt',
      // The frontier is taken best-first through [crawlId+state+priority+order]; [crawlId+state] counts and lists by state (until v10).
      frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+state]',
      pages: '[crawlId+seq], [crawlId+url]',
      bodies: '[crawlId+seq]',
      labels: '++id, crawlId, [crawlId+url]',
      models: 'crawlId',
      sites: '[crawlId+site]',
    });
    // v2: labels and models belong to topics (crawl profiles) rather than to one crawl; pages can be labeled.
    this.version(2)
      .stores({
        crawls: '++id, createdAt, topicId',
        topics: '++id',
        // [topicId+id] replays a topic's labels newer than a model; [topicId+url] finds a URL's labels.
        labels: '++id, [topicId+id], [topicId+url], crawlId',
        pageLabels: '++id, topicId, [crawlId+seq]',
        topicModels: 'topicId',
        settings: 'key',
      })
      .upgrade((tx) => upgradeToTopics(tx));
    // Dexie reads a table in an upgrade only if it is dropped in a later version than the one reading it.
    this.version(3).stores({ models: null });
    // v4: frontier entries carry their site, counted per site through [crawlId+site+state] (design B.4), and
    // room for strategy state.
    this.version(4)
      .stores({ frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+state], [crawlId+site+state]' })
      .upgrade((tx) => addEntrySites(tx));
    // v5: the crawled link graph (relevant pages' out-links) and strategies' saved state, so a restarted
    // worker resumes HITS where it was (design C.2).
    this.version(5).stores({ graph: '[crawlId+seq]', strategyStates: 'crawlId' });
    // v7: the Pages table pages through a crawl by time or score, narrowed to one kind of page (verdict or
    // outcome) or one site, a window at a time from these indexes (lib/ui/page-query.ts).
    this.version(7)
      .stores({
        pages:
          '[crawlId+seq], [crawlId+url], [crawlId+score+seq], [crawlId+kind+seq], [crawlId+kind+score+seq], [crawlId+site+seq], [crawlId+site+score+seq]',
      })
      .upgrade((tx) => addPageListKeys(tx));
    // v8: a template's records (design E.5) by crawl name and URL, and what each cycle changed (design E.6).
    this.version(8).stores({ records: '[crawlName+url], crawlName', recordChanges: '[crawlId+url]' });
    // v9: the Pages table finds a search's pages through the words of their URL and title (*terms, "crawlId word"
    // strings), and narrows to one site and one kind of page at once through an index of both.
    this.version(9)
      .stores({
        pages:
          '[crawlId+seq], [crawlId+url], [crawlId+score+seq], [crawlId+kind+seq], [crawlId+kind+score+seq], [crawlId+site+seq], [crawlId+site+score+seq], [crawlId+site+kind+seq], [crawlId+site+kind+score+seq], *terms',
      })
      .upgrade((tx) => addPageTerms(tx));
    // v10: the frontier drops its [crawlId+state] index. Each queued row wrote one more B-tree entry for it, and
    // every query by state is answered as well by the prefix of [crawlId+state+priority+order] (Dexie reads
    // where('[crawlId+state]') through it). The rows themselves do not change.
    this.version(10).stores({ frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+site+state]' });
    // v11: per-host queue heads (lib/store/host-heads.ts). [crawlId+site+state] grows into
    // [crawlId+site+state+host+priority+order], so a host's queued URLs are read best first through it (its prefix
    // still counts a site's): no more index entries per row than before. hostHeads holds each host's best queued
    // position (the take walks them in memory, best first); the upgrade builds it from the queued rows.
    this.version(11)
      .stores({
        frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+site+state+host+priority+order]',
        hostHeads: '[crawlId+site+host]',
      })
      .upgrade((tx) => addHostHeads(tx));
    // v12: big seed lists stored packed, a few thousand seeds to a row in the order given, fed to the frontier as the
    // crawl needs them (lib/store/seed-lists.ts). A new table: no row of an older version changes.
    this.version(12).stores({ seedLists: '[crawlId+batch]' });
    // v13: a crawl's config in a row of its own, written once (lib/store/crawl-configs.ts): the crawl row is written
    // with every page commit, and a config with a big training set made it ~150 KB. Rows are moved on their next write.
    // The labels' crawlId index goes: nothing reads labels by crawl, and a crawl that learns from links to judged pages
    // writes about sixteen labels a page (one B-tree entry fewer each).
    this.version(13).stores({ crawlConfigs: 'crawlId', labels: '++id, [topicId+id], [topicId+url]' });
    // v14: each page's content sketch (lib/parse/content-sketch.ts), by its seq: a resumed run rebuilds from them what
    // content the crawl holds (docs/duplicates.md). A new table: no row of an older version changes, and a crawl stored
    // before holds no sketch (its pages are not compared with the new ones).
    this.version(14).stores({ sketches: '[crawlId+seq]' });
    // v15: a crawl's recall estimates, one row each (the crawl row, written with every page, keeps only the newest).
    // A new table: no row of an older version changes.
    this.version(15).stores({ recallHistory: '[crawlId+fetched]' });
    this.use(crawlConfigMiddleware());
  }
}

/** A crawl's row inside a transaction; a crawl deleted meanwhile is an error. */
export async function crawlRow(db: CrawlerDB, id: number): Promise<CrawlRecord> {
  const c = await db.crawls.get(id);
  if (!c) throw new Error(`crawl ${id} does not exist (deleted?)`);
  return c;
}
