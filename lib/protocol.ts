// The one message protocol between the extension's pages (popup, dashboard, runner) and the service worker.
import type { CrawlConfig } from './crawl/config';
import type { CrawlRecord } from './store/db';
import type { PageRecord } from './types';

export interface ProtocolMap {
  /** Validates the config, creates a crawl and starts it. */
  start(config: unknown): { crawlId: number };
  pause(req: { crawlId: number }): CrawlRecord;
  resume(req: { crawlId: number }): CrawlRecord;
  stop(req: { crawlId: number }): CrawlRecord;
  /** The crawl's row (state and counters) plus what is being fetched now; the newest crawl when no id is given. */
  status(req: { crawlId?: number }): CrawlStatus | null;
  /** Page rows in fetch order after `afterSeq`, at most `limit`. */
  pages(req: { crawlId: number; afterSeq: number; limit: number }): PageRecord[];
  deleteCrawl(req: { crawlId: number }): { deleted: boolean };
}

export interface CrawlStatus {
  crawl: CrawlRecord;
  /** URLs being fetched right now. */
  inFlight: string[];
  /** The newest failures, newest first. */
  recentErrors: { url: string; error: string; at: number }[];
  /** Pages per minute over the crawl's active time. */
  pagesPerMinute: number;
  harvestRate: number;
}

export type MessageType = keyof ProtocolMap;
export type Request<K extends MessageType> = Parameters<ProtocolMap[K]>[0];
export type Response<K extends MessageType> = ReturnType<ProtocolMap[K]>;

/** What travels over runtime messaging: a request, and either a result or an error sentence. */
export interface Envelope<K extends MessageType = MessageType> {
  type: K;
  data: Request<K>;
}
export type Reply<K extends MessageType> = { ok: true; result: Response<K> } | { ok: false; error: string };

export type { CrawlConfig };
