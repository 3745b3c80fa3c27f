// Whole crawls in Node of a generated web whose truth is known (tests/fixtures/sites/topic-web.ts): the recall
// estimate as the crawl keeps it (its row, its history, the service's answer), against the share of the topic's
// reachable pages the crawl fetched; `budget.targetRecall` ending a crawl; a strategy with no estimate saying so.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlService } from '../../lib/app/service';
import { realClock } from '../../lib/net/fetcher';
import type { RecallPoint } from '../../lib/records/rows';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { topicWeb } from '../fixtures/sites/topic-web';

const web = topicWeb(2000);

function config(overrides: Record<string, unknown> = {}) {
  // Training as the benchmark's recipe, small: the first 60 pages are labeled by the truth, 40 of them read for links.
  const labeled = Array.from({ length: 60 }, (_, k) => k + 1);
  return {
    name: 'astronomy', seeds: [web.url(0)], topic: { keywords: ['astronomy', 'telescope', 'planet'] },
    training: {
      linkSources: labeled.slice(0, 40).map(web.url),
      positive: labeled.filter(web.onTopic).map(web.url),
      negative: labeled.filter((i) => !web.onTopic(i)).map(web.url),
    },
    budget: { maxPages: 600 }, politeness: { delayMs: 0, concurrency: 4, perHost: 4, robots: false },
    ...overrides,
  };
}

async function crawl(overrides: Record<string, unknown> = {}) {
  const store = new CrawlStore(new CrawlerDB(`recall-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: web.fetch, clock: realClock });
  const { crawlId } = await service.handlers.start(config(overrides));
  await service.settled(crawlId);
  const row = (await store.getCrawl(crawlId))!;
  const pages = (await store.pages.pagesAfter(crawlId, 0, 100_000)).filter((p) => p.phase === 'crawl' && p.outcome === 'done');
  const topic = [...web.reachable].filter(web.onTopic);
  const held = new Set(pages.map((p) => web.pageOf(p.url)).filter((i): i is number => i !== null && web.onTopic(i)));
  return { store, service, crawlId, row, truth: held.size / topic.length, history: await service.handlers.recallHistory({ crawlId }) };
}

const point = (r: unknown): RecallPoint => {
  if (!r || typeof r !== 'object' || !('estimate' in r)) throw new Error(`no estimate: ${JSON.stringify(r)}`);
  return r as RecallPoint;
};

describe('the recall estimate of a crawl', () => {
  it('is kept on the crawl row and in its history every hundred pages, close to the true recall', async () => {
    const { row, truth, history } = await crawl();
    expect(row.state).toBe('finished');
    const last = point(row.recall);
    expect(last.fetched).toBe(row.stats.fetched);
    expect(Math.abs(last.estimate - truth)).toBeLessThanOrEqual(0.1);
    expect(truth).toBeGreaterThanOrEqual(last.low);
    expect(truth).toBeLessThanOrEqual(last.high);
    // Once there is enough to go on (200 pages judged, ten of each verdict), one estimate every hundred pages fetched
    // (a few more or less when pages were in flight), and the last for the pages fetched at the end.
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(history[0]!.fetched).toBeGreaterThanOrEqual(200);
    for (let i = 1; i < history.length - 1; i++) {
      expect(history[i]!.fetched - history[i - 1]!.fetched).toBeGreaterThan(50);
      expect(history[i]!.fetched - history[i - 1]!.fetched).toBeLessThan(150);
    }
    expect(history.at(-1)).toEqual(last);
  }, 180_000);

  it('ends a crawl told budget.targetRecall once two estimates in a row reach it, whatever is left of its budget', async () => {
    const { row, truth, history } = await crawl({ budget: { maxPages: 1500, targetRecall: 0.8 } });
    expect(row.state).toBe('finished');
    expect(row.message).toMatch(/^target recall reached: about \d+% of the topic found$/);
    expect(row.stats.attempts).toBeLessThan(1000);
    const [before, last] = history.slice(-2);
    expect(before!.estimate).toBeGreaterThanOrEqual(0.8);
    expect(last!.estimate).toBeGreaterThanOrEqual(0.8);
    expect(row.message).toBe(`target recall reached: about ${Math.round(last!.estimate * 100)}% of the topic found`);
    expect(point(row.recall)).toEqual(last);
    // Not ended early: the crawl holds at least the target less the 0.1 the estimate may be off by.
    expect(truth).toBeGreaterThanOrEqual(0.7);
  }, 180_000);

  it('says why a breadth-first crawl has none, and keeps no calibration or history', async () => {
    const { row, history } = await crawl({ strategy: { name: 'breadth-first' }, budget: { maxPages: 250 } });
    expect(row.recall).toEqual({ note: 'no estimate: breadth-first does not take pages in the order of their link score' });
    expect(row.recallTaken).toBeUndefined();
    expect(history).toEqual([]);
  }, 180_000);

  it('says it has not enough to go on while the crawl is young', async () => {
    const { row, history } = await crawl({ budget: { maxPages: 150 } });
    expect(row.recall).toEqual({ note: 'not enough to estimate yet' });
    expect(history).toEqual([]);
  }, 180_000);
});

describe('budget.targetRecall in a config', () => {
  it('takes a share of the topic above 0 and at most 1', () => {
    expect(parseConfig(config({ budget: { maxPages: 100, targetRecall: 0.8 } })).budget).toEqual({ maxPages: 100, maxDepth: 50, targetRecall: 0.8 });
    expect(parseConfig(config()).budget.targetRecall).toBeUndefined();
    for (const bad of [0, -0.1, 1.2, '0.8', Number.NaN]) {
      expect(() => parseConfig(config({ budget: { targetRecall: bad } }))).toThrow(/^budget\.targetRecall must be a share of the topic above 0 and at most 1/);
    }
  });

  it('is refused with a strategy that gives no estimate, rather than left to run to the page budget', () => {
    expect(() => parseConfig(config({ strategy: { name: 'breadth-first' }, budget: { targetRecall: 0.8 } })))
      .toThrow('budget.targetRecall needs a strategy that takes pages in the order of their link score (best-first, sparse-tunneling): breadth-first gives no recall estimate');
    expect(parseConfig(config({ strategy: { name: 'sparse-tunneling' }, budget: { targetRecall: 0.8 } })).budget.targetRecall).toBe(0.8);
  });
});
