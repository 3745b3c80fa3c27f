// The runner (`npm run crawl`) told budget.targetRecall: the crawl ends once its estimate reaches it, well inside its
// page budget; summary.json carries the estimate, its interval and its history, and the final lines say it.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatSummary, runCrawl, type Summary } from '../../scripts/crawl';
import { ensureBuilt } from '../../scripts/lib/browser';
import { serveTopicWeb, type TopicWeb } from '../fixtures/sites/topic-web';

let site: { web: TopicWeb; close(): Promise<void> };

beforeAll(async () => {
  ensureBuilt();
  site = await serveTopicWeb(2000, 7);
});
afterAll(() => site?.close());

it('ends at budget.targetRecall and writes the estimate and its history into summary.json', async () => {
  const { web } = site;
  const labeled = Array.from({ length: 60 }, (_, k) => k + 1);
  const out = mkdtempSync(join(tmpdir(), 'focus-recall-'));
  const summary = await runCrawl({
    config: {
      name: 'sky to 80%', seeds: [web.url(0)], topic: { keywords: ['astronomy', 'telescope', 'planet'] },
      training: {
        linkSources: labeled.slice(0, 40).map(web.url),
        positive: labeled.filter(web.onTopic).map(web.url),
        negative: labeled.filter((i) => !web.onTopic(i)).map(web.url),
      },
      budget: { maxPages: 1500, targetRecall: 0.8 }, politeness: { delayMs: 0, concurrency: 4, perHost: 4, robots: false },
    },
    out, log: () => {},
  });
  expect(summary.state).toBe('finished');
  const written = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
  const recall = written.recall!;
  expect(recall.estimate).toBeGreaterThanOrEqual(0.8);
  expect(written.message).toBe(`target recall reached: about ${Math.round(recall.estimate! * 100)}% of the topic found`);
  expect(recall.low).toBeLessThanOrEqual(recall.estimate!);
  expect(recall.high).toBeGreaterThanOrEqual(recall.estimate!);
  // One estimate every hundred pages fetched, from the first with enough to go on; the last is the one that stopped it.
  expect(recall.history.length).toBeGreaterThanOrEqual(2);
  // The crawl ends on the estimate that reached the target; the pages in flight then are fetched and counted after it.
  expect(recall.history.at(-1)).toMatchObject({ estimate: recall.estimate, low: recall.low, high: recall.high });
  expect(recall.history.at(-1)!.fetched).toBeLessThanOrEqual(written.fetched);
  expect(recall.history.at(-1)!.fetched).toBeGreaterThan(written.fetched - 50);
  for (let i = 1; i < recall.history.length; i++) expect(recall.history[i]!.fetched - recall.history[i - 1]!.fetched).toBeLessThan(150);
  expect(formatSummary(written)).toContain(`  recall: about ${Math.round(recall.estimate! * 100)}% of the topic found (${Math.round(recall.low! * 100)}-${Math.round(recall.high! * 100)}%)`);

  // What the server saw: well inside the budget, and the share of the topic it served close to what was said.
  const topic = [...web.reachable].filter(web.onTopic);
  const served = topic.filter((i) => (web.hits.get(`/p/${i}`) ?? 0) > 0).length / topic.length;
  expect([...web.hits.keys()].filter((p) => p.startsWith('/p/')).length).toBeLessThan(1200);
  // Within 0.2 of what the server served: the goal is 0.1, not met on every topic (docs/benchmarks.md, Recall estimate).
  expect(Math.abs(served - recall.estimate!)).toBeLessThanOrEqual(0.2);
}, 420_000);
