// Unnamed crawls are named after what they are (topic, host, day), and one name is one topic: starting
// several crawls "for a new topic" with the same keywords, or the same crawl name, adds no second topic.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import { CrawlService, describedCrawlName, newTopicName } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { VirtualClock } from '../support/virtual-clock';

const NOV_26 = Date.UTC(2026, 10, 26, 12);

function service() {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const clock = new VirtualClock(NOV_26);
  // No request succeeds: these tests look at the rows a start writes, not at the crawl.
  const svc = new CrawlService({ store, fetch: () => Promise.reject(new Error('offline')), clock });
  return { store, svc, clock };
}

it('names a crawl after its topic, host and day, and its new topic after its keywords', () => {
  expect(describedCrawlName('astronomy', 'https://example.org/sky', NOV_26)).toBe('astronomy on example.org, 26 Nov');
  expect(newTopicName({ seeds: ['https://example.org/'], topic: { keywords: ['astronomy', 'planet', 'telescope', 'comet'] } })).toBe('astronomy, planet, telescope');
  expect(newTopicName({ seeds: ['https://example.org/'], topic: { keywords: [] } })).toBe('example.org');
});

it('gives two unnamed crawls of one topic and host distinct names and one topic', async () => {
  const { store, svc, clock } = service();
  const start = () => svc.handlers.start({ seeds: ['http://127.0.0.1:9/'], topic: { keywords: ['astronomy'] }, budget: { maxPages: 1 } });
  const a = await start();
  const b = await start();
  const names = [(await store.getCrawl(a.crawlId))!.name, (await store.getCrawl(b.crawlId))!.name];
  expect(names).toEqual(['astronomy on 127.0.0.1, 26 Nov', 'astronomy on 127.0.0.1, 26 Nov (2)']);
  const topics = await store.topics.listTopics();
  expect(topics.map((t) => t.name)).toEqual(['astronomy']);
  expect((await store.getCrawl(b.crawlId))!.topicId).toBe(topics[0]!.id);
  await Promise.all([...[a, b].map(({ crawlId }) => svc.handlers.stop({ crawlId })), clock.runUntilIdle()]);
});

it('takes the topic of a crawl name already used, with the keywords given, instead of a second of that name', async () => {
  const { store, svc, clock } = service();
  const a = await svc.handlers.start({ name: 'Moon', seeds: ['http://127.0.0.1:9/'], topic: { keywords: ['moon'] }, budget: { maxPages: 1 } });
  const b = await svc.handlers.start({ name: 'moon ', seeds: ['http://127.0.0.1:9/x'], topic: { keywords: ['moon', 'lunar'] }, budget: { maxPages: 1 } });
  const topics = await store.topics.listTopics();
  expect(topics.map((t) => [t.name, t.keywords])).toEqual([['Moon', ['moon', 'lunar']]]);
  // A named crawl keeps the name it was given.
  expect((await store.getCrawl(b.crawlId))!.name).toBe('moon');
  await Promise.all([...[a, b].map(({ crawlId }) => svc.handlers.stop({ crawlId })), clock.runUntilIdle()]);
});
