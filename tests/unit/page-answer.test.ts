// A page the user judges gives its queued children the user's verdict as their parent page's, not the
// judge's verdict they were queued with (the parent-page feature of the link classifier).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { parseConfig } from '../../lib/app/parse-config';
import { createStrategy } from '../../lib/strategies/registry';
import { CrawlLearner } from '../../lib/learning/learner';
import { buildModel } from '../../lib/learning/model';
import type { FrontierEntry } from '../../lib/records/types';

const clock = { now: () => 1_700_000_000_000, sleep: async () => {} };

describe('a page answer re-ranks the links found on that page', () => {
  it('ranks a queued child by the parent verdict the user gave, and the others as before', async () => {
    const store = new CrawlStore(new CrawlerDB(`pa-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const config = parseConfig({ name: 'pa', seeds: ['http://h.test/'], topic: { keywords: ['history'] }, politeness: { robots: false } });
    const topic = await store.topics.createTopic('history', ['history'], clock.now());
    const topicId = topic.id!;
    // What a crawl learns from its verdicts: links on on-topic pages lead to on-topic pages far more often.
    await store.topics.addLabels(Array.from({ length: 200 }, (_, i) => ({
      topicId, crawlId: null, url: `http://l.test/${i}`, anchor: `name${i}`, context: '', parentOnTopic: i % 2 === 0,
      label: (i % 2 === 0 ? (i % 10 === 0 ? 0 : 1) : i % 10 === 1 ? 1 : 0) as 0 | 1, source: 'verdict' as const, createdAt: 0,
    })));
    const crawlId = await store.createCrawl(config, topicId, clock.now());
    const model = await buildModel(store, await store.topics.mustGetTopic(topicId));
    const learner = new CrawlLearner({ store, clock, crawlId, topicId, config, strategy: createStrategy(config), halted: () => false, fail: (e) => { throw e; } }, model);
    const child = (parentUrl: string): FrontierEntry => ({
      crawlId, url: `${parentUrl}child`, host: 'h.test', state: 'queued', score: 0.5, priority: 0, order: 0, depth: 2, parentUrl,
      anchor: 'Unseen name', context: '', parentOnTopic: true, attempts: 0, discoveredAt: 0, updatedAt: 0,
    });
    const judged = child('http://h.test/judged/'), other = child('http://h.test/other/');
    await learner.loadAnswers();
    const before = learner.rankEntry(judged)!.priority;
    expect(learner.rankEntry(other)!.priority).toBe(before);

    // The judge said the page is on topic; the user says it is not.
    await store.topics.setPageLabel({ topicId, crawlId, seq: 7, url: 'http://h.test/judged/' }, 0, [], clock.now());
    await learner.loadAnswers();
    expect(learner.rankEntry(judged)!.priority).toBeLessThan(before - 1);
    expect(learner.rankEntry(other)!.priority).toBe(before);
  });
});
