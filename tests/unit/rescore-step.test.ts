// A full re-score rewrites a queued URL only when the new model moves its rank by more than RESCORE_STEP: a row
// rewritten is a row and its index entries written again, and a move below the step changes little of what is
// fetched next (docs/benchmarks.md, "A re-score's writes").
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlLearner, RESCORE_STEP } from '../../lib/learning/learner';
import { buildModel } from '../../lib/learning/model';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate } from '../../lib/ports';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { createStrategy } from '../../lib/strategies/registry';

const clock = { now: () => 1_700_000_000_000, sleep: async () => {} };

describe('a full re-score', () => {
  it('leaves a URL its rank moved by less than RESCORE_STEP as written, and moves the others', async () => {
    const store = new CrawlStore(new CrawlerDB(`rs-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const config = parseConfig({ name: 'rs', seeds: ['http://h.test/'], topic: { keywords: ['moon'] }, politeness: { robots: false } });
    const topicId = (await store.topics.createTopic('moon', ['moon'], clock.now())).id!;
    await store.topics.addLabels(Array.from({ length: 40 }, (_, i) => ({
      topicId, crawlId: null, url: `http://l.test/${i}`, anchor: i % 2 ? `moon crater ${i}` : `bus timetable ${i}`, context: '',
      label: (i % 2) as 0 | 1, source: 'user' as const, createdAt: 0,
    })));
    const crawlId = await store.createCrawl(config, topicId, clock.now());
    const model = await buildModel(store, await store.topics.mustGetTopic(topicId));
    const learner = new CrawlLearner({ store, clock, crawlId, topicId, config, strategy: createStrategy(config), halted: () => false, fail: (e) => { throw e; } }, model);
    const link = (path: string, anchor: string): Candidate => ({
      url: `http://h.test/${path}`, host: 'h.test', score: 0.5, priority: 0, depth: 1, parentUrl: 'http://h.test/', anchor, context: '',
    });
    const links = [link('a', 'moon landing'), link('b', 'moon crater'), link('c', 'bus timetable'), link('d', 'bus stop')];
    // Each queued at its rank under the model, off by a little (below the step) or by more.
    const off = [RESCORE_STEP * 0.6, -RESCORE_STEP * 0.9, RESCORE_STEP * 1.5, -RESCORE_STEP * 4];
    const rank = links.map((l) => learner.rankEntry({ ...l, crawlId, state: 'queued', order: 0, attempts: 0, discoveredAt: 0, updatedAt: 0 })!.priority);
    await store.frontier.enqueue(crawlId, links.map((l, i) => ({ ...l, priority: rank[i]! + off[i]! })), clock.now());

    learner.scheduleRescore('test');
    await expect.poll(async () => (await store.getCrawl(crawlId))!.lastRescore?.complete).toBe(true);
    const after = await Promise.all(links.map((l) => store.frontier.getEntry(crawlId, l.url)));
    expect(after.map((e) => e!.priority)).toEqual([rank[0]! + off[0]!, rank[1]! + off[1]!, rank[2], rank[3]]);
    expect((await store.getCrawl(crawlId))!.lastRescore).toMatchObject({ scanned: 4, changed: 2 });
  });
});
