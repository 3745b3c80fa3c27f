// The frontier under concurrency: takes, commits and re-scorings interleaved at random, and whole crawls of a
// generated tree site at concurrency 4 to 8 with random server latencies. Awaiting each step in turn cannot
// show a race; these runs can. Every run must fetch every page exactly once and end only when nothing is queued.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import type { Candidate } from '../../lib/ports';
import { CrawlerDB } from '../../lib/store/db';
import { startTreeSite, type TreeSite } from '../fixtures/sites/tree-site';
import { mulberry32 } from '../../lib/records/random';
import { realClock } from '../../lib/net/fetcher';

const freshStore = () => new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let tree: TreeSite;
beforeAll(async () => {
  tree = await startTreeSite();
});
afterAll(() => tree.close());

describe('the frontier under concurrent take, commit and re-score', () => {
  it('hands out every queued URL exactly once, and says "nothing queued" only when nothing is', async () => {
    const rand = mulberry32(7);
    for (let run = 0; run < 5; run++) {
      const store = freshStore();
      const topic = await store.topics.createTopic('t', ['x'], 1);
      const crawlId = await store.createCrawl(parseConfig({ seeds: ['http://h0.test/'], topic: { keywords: ['x'] } }), topic.id!, 1);
      let next = 0;
      const cand = (): Candidate => {
        const n = next++;
        return { url: `http://h${n % 5}.test/${n}`, host: `h${n % 5}.test`, score: rand(), priority: rand() * 10, depth: 1, parentUrl: null, anchor: '', context: '' };
      };
      await store.frontier.enqueue(crawlId, [cand(), cand(), cand()], 1);
      const taken = new Map<string, number>();
      let committed = 0;
      const workers = Array.from({ length: 6 }, async () => {
        for (let idle = 0; idle < 50; ) {
          const { entries } = await store.frontier.take(crawlId, () => 0, 2, 1 + Math.floor(rand() * 3));
          if (entries.length === 0) {
            // Nothing handed out: the store must really hold nothing queued, or a commit is still landing.
            idle++;
            await pause(1);
            continue;
          }
          idle = 0;
          for (const e of entries) {
            taken.set(e.url, (taken.get(e.url) ?? 0) + 1);
            await pause(rand() * 3);
            // Each page finds 1 to 3 new links, some better than anything queued, until 300 exist (at least one, so
            // no interleaving ends the run at a handful of URLs).
            const found = next < 300 ? Array.from({ length: 1 + Math.floor(rand() * 3) }, cand) : [];
            await store.commitPage({ crawlId, entry: e, outcome: 'done', children: found, aliases: [], labels: [], site: e.host, stats: { attempts: 1, fetched: 1 }, activeMs: 0,
              page: { url: e.url, finalUrl: e.url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0, relevant: true, relevance: 1, title: '', textLength: 0, contentType: 'text/html', bytes: 0, truncated: false, linkCount: 0, fetchedAt: 0, durationMs: 0 } }, 2);
            committed++;
          }
        }
      });
      let working = true;
      const rescorer = (async () => {
        while (working) {
          await store.frontier.rescoreQueued(crawlId, () => ({ score: rand(), priority: rand() * 20 }), 3, { chunk: 7 });
          await pause(2);
        }
      })();
      await Promise.all(workers);
      working = false;
      await rescorer;
      expect(next, `run ${run}`).toBeGreaterThanOrEqual(300);
      expect(await store.frontier.countByState(crawlId, 'queued'), `run ${run}`).toBe(0);
      expect(taken.size, `run ${run}`).toBe(next);
      expect([...taken.values()].every((n) => n === 1), `run ${run}`).toBe(true);
    }
  });
});

describe('crawls of a generated tree at concurrency 4 to 8, random latencies', () => {
  it('fetch every page exactly once, every run', async () => {
    const rand = mulberry32(11);
    tree.setLatency(() => Math.floor(rand() * 25));
    for (let run = 0; run < 8; run++) {
      tree.hits.clear();
      const store = freshStore();
      const service = new CrawlService({ store, fetch: (u, i) => fetch(u, i), clock: realClock });
      const concurrency = 4 + (run % 5);
      const { crawlId } = await service.handlers.start({
        name: `tree ${run}`, seeds: [`${tree.origin}/p/0`], topic: { keywords: ['astronomy', 'planets'] },
        budget: { maxPages: 1000 }, politeness: { delayMs: 0, concurrency, perHost: concurrency, robots: false },
        learning: { rescoreEveryPages: 20 },
      });
      await service.settled(crawlId);
      const crawl = (await store.getCrawl(crawlId))!;
      expect(crawl.message, `run ${run}`).toMatch(/frontier empty/);
      expect(tree.hits.size, `run ${run} (concurrency ${concurrency})`).toBe(tree.size);
      expect([...tree.hits.values()].every((n) => n === 1), `run ${run}`).toBe(true);
      expect(crawl.stats.fetched).toBe(tree.size);
      expect(crawl.stats.queued).toBe(0);
    }
  });
});
