// Which run store a crawl gets in the extension: a crawl the runner started on its bridge runs on the shared
// store; a shared crawl resumed without its runner (the browser restarted) pauses rather than crawl alone from
// its local queue; a local crawl keeps the local store.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { SharedCrawls } from '../../lib/platform/shared-bridge';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { SharedRunStore } from '../../lib/store/shared/shared-store';

const config = parseConfig({ name: 'telescopes', seeds: ['http://a.test/'], topic: { keywords: ['telescope'] } });
const local = () => new CrawlStore(new CrawlerDB('shared-crawls', { indexedDB: new IDBFactory(), IDBKeyRange }));

describe('the run store of a crawl', () => {
  it('a local crawl: none (the store itself)', () => {
    expect(new SharedCrawls(local()).storeFor({ id: 1, config })).toBeUndefined();
  });

  it('the crawl the runner started by that name: the shared store, once', () => {
    const crawls = new SharedCrawls(local());
    crawls.expect('telescopes', { url: 'http://127.0.0.1:9', token: 't', worker: 'w' });
    expect(crawls.storeFor({ id: 1, config })).toBeInstanceOf(SharedRunStore);
    expect(crawls.storeFor({ id: 1, config })).toBeInstanceOf(SharedRunStore); // the same crawl again (resumed in this worker)
    expect(crawls.storeFor({ id: 2, config })).toBeUndefined(); // another crawl of that name later: local
  });

  it('a shared crawl resumed without its runner: its take fails, saying how to rejoin', async () => {
    const store = new SharedCrawls(local()).storeFor({ id: 1, config, shared: { worker: 'w' } })!;
    await expect(store.frontier.take(1, () => 0, 0, 1)).rejects.toThrow(/shared frontier whose command-line runner is gone: start the runner again/);
    expect(await store.frontier.reclaimInFlight(1, 0)).toEqual({ requeued: 0, failed: 0 });
  });
});
