// Best-first fused with HITS in whole crawls, in Node: the crawled graph is kept in the store with each
// relevant page's commit, so a worker stopped mid-crawl resumes HITS over the whole graph, not an empty one.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCandidates } from '../../lib/learning/children';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlRunner } from '../../lib/run/runner';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';

let site: DemoServer;
beforeAll(async () => {
  site = await startDemoServer();
});
afterAll(() => site.close());

type Round = { nodes: number; edges: number; pages: number; at: number };

describe('hits-fusion across a stopped worker', () => {
  for (const text of ['naive-bayes', 'tfidf']) {
    it(`resumes HITS over the graph stored before the stop (${text})`, async () => {
      const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
      const config = parseConfig({
        ...demoConfig(site.origin), budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 2 },
        strategy: { name: 'hits-fusion', text, every: 10, minPages: 3, threshold: 0 },
      });
      const topic = await store.topics.createTopic(config.name, config.topic.keywords, Date.now());
      const crawlId = await store.createCrawl(config, topic.id!, Date.now());
      await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
      const ports = { store, fetch: (u: string, i: RequestInit) => fetch(u, i), clock: realClock };
      const first = new CrawlRunner(ports, crawlId);
      const done = first.run();
      while ((await store.getCrawl(crawlId))!.stats.attempts < 22) await realClock.sleep(5);
      first.requestHalt('paused', 'the worker stopped');
      await done;
      const before = await store.strategyMemory(crawlId);
      expect(before.graph.length).toBeGreaterThan(3);
      // What the crawl detail shows of the last round before the stop: when, over how many pages and links.
      const shown = (await store.getCrawl(crawlId))!.strategyReport as { round: Round };
      expect(shown.round.pages).toBeGreaterThanOrEqual(3);
      expect(shown.round.pages).toBeLessThanOrEqual(before.graph.length);
      const stoppedAt = Date.now();
      expect(shown.round.at).toBeLessThanOrEqual(stoppedAt);
      if (text === 'tfidf') expect(before.saved).toMatchObject({ topic: { docs: expect.any(Number) } });

      // A new worker: the crawl's config is read again from the store, so the strategy object is new.
      await store.updateCrawl(crawlId, { state: 'running' });
      const second = await new CrawlRunner(ports, crawlId).run();
      expect(second.state).toBe('finished');
      const after = await store.strategyMemory(crawlId);
      const relevant = (await store.pages.pagesAfter(crawlId, 0, 1000)).filter((p) => p.relevant);
      // Every relevant page has its out-links stored, once.
      expect(after.graph.map((g) => g.url).sort()).toEqual(relevant.map((p) => p.url).sort());
      // The last round ran over every stored edge, those from before the stop included.
      const nodes = new Set(after.graph.flatMap((g) => [g.url, ...g.links]));
      const edges = after.graph.reduce((n, g) => n + new Set(g.links.filter((l) => l !== g.url)).size, 0);
      const round = (second.strategyReport as { round: Round }).round;
      expect(round.edges).toBe(edges);
      expect(round.nodes).toBe(nodes.size);
      expect(round.pages).toBe(after.graph.length);
      expect(round.at).toBeGreaterThanOrEqual(stoppedAt);
    });
  }

  it('deleting the crawl deletes its graph and saved state', async () => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const config = parseConfig({ ...demoConfig(site.origin), budget: { maxPages: 20 }, politeness: { delayMs: 0, concurrency: 2 },
      strategy: { name: 'hits-fusion', text: 'tfidf', every: 10, minPages: 1, threshold: 0 } });
    const topic = await store.topics.createTopic(config.name, config.topic.keywords, Date.now());
    const crawlId = await store.createCrawl(config, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    await new CrawlRunner({ store, fetch: (u: string, i: RequestInit) => fetch(u, i), clock: realClock }, crawlId).run();
    expect((await store.strategyMemory(crawlId)).graph.length).toBeGreaterThan(0);
    await store.deleteCrawl(crawlId);
    expect(await store.strategyMemory(crawlId)).toEqual({ graph: [], saved: undefined });
  });
});
