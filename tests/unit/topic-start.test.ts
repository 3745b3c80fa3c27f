// A crawl for an existing topic without keywords needs labels to rank by: refused with a sentence when the topic has
// none, started when it has any (a crawl's packed labels count as much as the user's).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { packLabels } from '../../lib/store/label-packs';
import { VirtualClock } from '../support/virtual-clock';

const T0 = Date.UTC(2026, 10, 27, 12);

it('starts a crawl of a topic without keywords only once the topic has a label', async () => {
  const db = new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  const store = new CrawlStore(db);
  const clock = new VirtualClock(T0);
  // No request succeeds: only whether the start is taken matters here.
  const svc = new CrawlService({ store, fetch: () => Promise.reject(new Error('offline')), clock });
  const bare = await store.topics.createTopic('Bare', [], T0);
  const packed = await store.topics.createTopic('Packed', [], T0);
  const start = (id: number) => svc.handlers.start({ seeds: ['http://127.0.0.1:9/'], topic: { keywords: [], id }, budget: { maxPages: 1 } });

  await expect(start(bare.id!)).rejects.toThrow('topic "Bare" has no keywords and no labels yet: give keywords, or label some links first');
  await db.labels.bulkAdd(packLabels(packed.id!, 1, [
    { topicId: packed.id!, crawlId: 1, url: 'http://a.test/x', anchor: 'x', context: '', label: 1, source: 'verdict', createdAt: T0 },
  ]));
  const { crawlId } = await start(packed.id!);
  expect((await store.getCrawl(crawlId))!.topicId).toBe(packed.id);
  await store.topics.setUserLabel({ topicId: bare.id!, crawlId: null, url: 'http://a.test/y', anchor: 'y', context: '', createdAt: T0 }, 0);
  const second = await start(bare.id!);
  await Promise.all([...[crawlId, second.crawlId].map((id) => svc.handlers.stop({ crawlId: id })), clock.runUntilIdle()]);
});
