import Dexie, { type EntityTable, type Table } from 'dexie';
import type { CrawlConfig } from '../crawl/config';
import type { FrontierEntry, LabeledLink, PageBody, PageRecord } from '../types';

export type CrawlState = 'training' | 'running' | 'paused' | 'stopped' | 'finished' | 'failed';

/** Counters kept on the crawl row, updated in the same transaction as the page that changes them. */
export interface CrawlStats {
  /** Crawl-phase requests made (the budget counts these). */
  attempts: number;
  /** Crawl-phase HTML pages obtained and judged. */
  fetched: number;
  relevant: number;
  failed: number;
  /** URLs dropped before fetching (unsafe, robots, too deep, ...). */
  skipped: number;
  queued: number;
  /** Training-phase pages read (not counted in the budget). */
  trainPages: number;
  labels: number;
  bytes: number;
}

export interface CrawlRecord {
  id?: number;
  name: string;
  config: CrawlConfig;
  state: CrawlState;
  stats: CrawlStats;
  /** Next page sequence number and next discovery order. */
  nextSeq: number;
  nextOrder: number;
  createdAt: number;
  updatedAt: number;
  /** Milliseconds spent running (excludes pauses and time the worker was stopped). */
  activeMs: number;
  finishedAt?: number;
  /** Why it stopped, failed or paused, in a sentence. */
  message?: string;
}

/** Serialized classifier state of a crawl. */
export interface ModelRecord {
  crawlId: number;
  link: unknown;
  judge: unknown;
  /** Id of the newest labeled link the link classifier has learned; newer ones are replayed on load. */
  lastLabelId: number;
  updatedAt: number;
}

/** Per-site counters (SPEC B.5 blacklisting reads these). */
export interface SiteStats {
  crawlId: number;
  site: string;
  fetched: number;
  relevant: number;
  failed: number;
}

export const emptyStats = (): CrawlStats => ({
  attempts: 0, fetched: 0, relevant: 0, failed: 0, skipped: 0, queued: 0, trainPages: 0, labels: 0, bytes: 0,
});

export class CrawlerDB extends Dexie {
  crawls!: EntityTable<CrawlRecord, 'id'>;
  frontier!: Table<FrontierEntry, [number, string]>;
  pages!: Table<PageRecord, [number, number]>;
  bodies!: Table<PageBody, [number, number]>;
  labels!: EntityTable<LabeledLink, 'id'>;
  models!: Table<ModelRecord, number>;
  sites!: Table<SiteStats, [number, string]>;

  constructor(name = 'focus', deps?: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }) {
    super(name, deps);
    this.version(1).stores({
      crawls: '++id, createdAt',
      // The frontier is taken best-first through [crawlId+state+priority+order]; [crawlId+state] counts and lists by state.
      frontier: '[crawlId+url], [crawlId+state+priority+order], [crawlId+state]',
      pages: '[crawlId+seq], [crawlId+url]',
      bodies: '[crawlId+seq]',
      labels: '++id, crawlId, [crawlId+url]',
      models: 'crawlId',
      sites: '[crawlId+site]',
    });
  }
}
