// The service worker's side of the command-line runner's loopback bridge to Redis (a shared frontier, many
// browsers on one crawl). The extension cannot speak Redis: the runner serves each call as a POST on 127.0.0.1,
// under a path that holds its secret token, and answers JSON.
import type { CrawlRecord } from '../records/rows';
import type { CrawlStore } from '../store/crawl-store';
import { detachedBridge, SharedRunStore, type SharedBridge } from '../store/shared/shared-store';
import type { RunStorePort } from '../ports';

/** Where the runner's bridge listens and the worker's name there. */
export interface BridgeAddress {
  url: string;
  token: string;
  worker: string;
  /** How far an earlier crawl of this shared crawl in this browser read its labeled links and judge lessons (its topic has them). */
  labelsCursor?: number;
  lessonsCursor?: number;
}

export function httpBridge(at: BridgeAddress): SharedBridge {
  const call = async <T>(path: string, body: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${at.url.replace(/\/$/, '')}/${at.token}/${path}`, { method: 'POST', body: JSON.stringify(body), cache: 'no-store' });
    } catch (err) {
      throw new Error(`the shared frontier's runner does not answer (${err instanceof Error ? err.message : String(err)})`);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`the shared frontier: ${text || `HTTP ${res.status}`}`);
    return JSON.parse(text) as T;
  };
  return {
    take: (req) => call('take', req),
    ack: (req) => call('ack', req),
    release: (req) => call('release', req),
    queued: (req) => call('queued', req),
    labels: (req) => call('labels', req),
    robots: (req) => call('robots', req),
    trainClaim: (req) => call('trainClaim', req),
    trained: (req) => call('trained', req),
    trainingLinks: (req) => call('trainingLinks', req),
    judgeLessons: (req) => call('judgeLessons', req),
    strategyState: (req) => call('strategyState', req),
    graph: (req) => call('graph', req),
    searchClaim: (req) => call('searchClaim', req),
    searchDone: (req) => call('searchDone', req),
    records: (req) => call('records', req),
    record: (req) => call('record', req),
    recordApply: (req) => call('recordApply', req),
    rescoreLead: (req) => call('rescoreLead', req),
    rescoreSlice: (req) => call('rescoreSlice', req),
    rescoreWrite: (req) => call('rescoreWrite', req),
    rescoreLeave: (req) => call('rescoreLeave', req),
  };
}

/**
 * Which crawls run on a shared frontier: the runner names the crawl when it starts it; the crawl's row keeps
 * `shared`, so that a crawl resumed after the browser restarted without its runner pauses, saying so, instead of
 * crawling on alone from its local queue.
 */
export class SharedCrawls {
  private readonly pending = new Map<string, BridgeAddress>();
  private readonly byCrawl = new Map<number, BridgeAddress>();

  constructor(private readonly local: CrawlStore, private readonly log?: (line: string) => void) {}

  /** The next crawl started with this name runs on the bridge. */
  expect(name: string, at: BridgeAddress): void {
    this.pending.set(name, at);
  }

  /** The run's store for a crawl being launched: undefined for a local crawl. */
  storeFor(crawl: Pick<CrawlRecord, 'id' | 'config'> & { shared?: CrawlRecord['shared'] }): RunStorePort | undefined {
    const id = crawl.id!;
    let at = this.byCrawl.get(id);
    if (!at && !crawl.shared) {
      at = this.pending.get(crawl.config.name);
      if (!at) return undefined;
      this.pending.delete(crawl.config.name);
      this.byCrawl.set(id, at);
    }
    return new SharedRunStore(this.local, at ? httpBridge(at) : detachedBridge(crawl.config.name), this.log, { labelsCursor: at?.labelsCursor, lessonsCursor: at?.lessonsCursor });
  }
}
