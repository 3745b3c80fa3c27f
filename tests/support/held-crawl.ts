// A crawl service on a fresh in-memory store whose fetches hold after the seed and the page it leads to, so a
// test can answer questions while the rest of the crawl waits in the queue, then let it go.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import type { FrontierEntry } from '../../lib/records/types';

export function heldService(respond: (path: string) => Response) {
  const store = new CrawlStore(new CrawlerDB(`held${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let requests = 0;
  let reachedHold!: () => void;
  const holding = new Promise<void>((r) => (reachedHold = r));
  const service = new CrawlService({
    store, clock: realClock,
    fetch: async (url) => {
      const path = new URL(url).pathname;
      // Hold the crawl after the seed and the hub page: the hub's links wait in the queue while the user answers.
      if (path !== '/robots.txt' && ++requests > 2) (reachedHold(), await held);
      return respond(path);
    },
  });
  return { store, service, h: service.handlers, release, holding };
}

/** The crawl's queued entries by URL. */
export const queuedEntries = async (store: CrawlStore, crawlId: number) =>
  new Map((await store.db.frontier.where('[crawlId+state]').equals([crawlId, 'queued']).toArray()).map((e: FrontierEntry) => [e.url, e]));
