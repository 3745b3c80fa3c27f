// Issue 34: the time from an answer to the next question, with N queued URLs (Node, fake-indexeddb: figures to
// compare side by side, not the extension's). A crawl's learner on a frontier of N queued links, a model of
// thousands of labeled links; each answer is stored, learned, its reach re-scored (`rescoreReached`), then the
// labeling queue's next question is read (queueCandidates + labelingQueue, as the dashboard does). Against it,
// one full re-score of the same frontier (`rescoreQueued`, no pauses), as every answer used to wait for.
//   npx tsx scripts/bench/labels-latency.ts [--urls 100000] [--answers 10]
import { parseArgs } from 'node:util';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { parseConfig } from '../../lib/crawl/parse-config';
import { createStrategy } from '../../lib/strategies/registry';
import { CrawlLearner, RESCORE_EPSILON } from '../../lib/crawl/learner';
import { buildModel } from '../../lib/crawl/model';
import { labelingQueue } from '../../lib/classifier/uncertainty';
import { queueCandidates } from '../../lib/ui/label-queries';
import { mulberry32 } from '../../lib/random';
import type { Candidate } from '../../lib/ports';

const { values: v } = parseArgs({ options: { urls: { type: 'string', default: '100000' }, answers: { type: 'string', default: '10' } } });
const N = Number(v.urls), ANSWERS = Number(v.answers);
const rand = mulberry32(34);
const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
const progress = (s: string) => process.stderr.write(`${s}\n`);

// A vocabulary with a long tail, as anchors have: a few common words, many names.
const word = () => `w${Math.floor(Math.pow(rand(), 3) * 20000)}`;
const anchor = () => `${word()} ${word()}`;
const context = () => Array.from({ length: 12 }, word).join(' ');

const store = new CrawlStore(new CrawlerDB(`latency-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
const config = parseConfig({ name: 'latency', seeds: ['http://lat.test/'], topic: { keywords: ['history'] }, politeness: { robots: false } });
const topic = await store.topics.createTopic('latency', ['history'], clock.now());
const topicId = topic.id!;
await store.topics.addLabels(Array.from({ length: 10000 }, (_, i) => ({
  topicId, crawlId: null, url: `http://lab.test/${i}`, anchor: anchor(), context: context(), label: (rand() < 0.3 ? 1 : 0) as 0 | 1, source: 'auto' as const, createdAt: 0,
})));
const crawlId = await store.createCrawl(config, topicId, clock.now());
await store.updateCrawl(crawlId, { state: 'running' });
const model = await buildModel(store, await store.topics.mustGetTopic(topicId));
const strategy = createStrategy(config);
const learner = new CrawlLearner({ store, clock, crawlId, topicId, config, strategy, halted: () => false, fail: (e) => { throw e; } }, model);
await learner.loadAnswers();

progress(`filling a frontier of ${N} queued links…`);
for (let i = 0; i < N; i += 5000) {
  const batch: Candidate[] = [];
  for (let j = i; j < Math.min(N, i + 5000); j++) {
    const link = { url: `http://lat.test/p${j}`, host: 'lat.test', site: 'lat.test', depth: 1, parentUrl: 'http://lat.test/', anchor: anchor(), context: context() };
    const { logOdds, score } = model.link.rank(link, config.classifier);
    batch.push({ ...link, score, logOdds, priority: strategy.rerank({ depth: 1 } as never, logOdds) ?? logOdds, inlinks: undefined } as Candidate);
  }
  await store.frontier.enqueue(crawlId, batch, clock.now());
}

const answerTimes: number[] = [], questionTimes: number[] = [], reached: number[] = [];
for (let a = 0; a < ANSWERS; a++) {
  const t0 = performance.now();
  const candidates = await queueCandidates(store.db, topicId);
  const [item] = labelingQueue(candidates, learner.model.link, { limit: 1 });
  const t1 = performance.now();
  if (!item) break;
  await store.topics.setUserLabel({ topicId, crawlId: null, url: item.link.url, anchor: item.link.anchor, context: item.link.context, createdAt: clock.now() }, rand() < 0.3 ? 1 : 0);
  await learner.requestSync();
  const t2 = performance.now();
  questionTimes.push(t1 - t0);
  answerTimes.push(t2 - t1);
  reached.push(learner.lastAnswer?.reached ?? 0);
}
const t = performance.now();
const full = await store.frontier.rescoreQueued(crawlId, (e) => learner.rankEntry(e), clock.now(), { chunk: 500, epsilon: RESCORE_EPSILON });
const fullMs = performance.now() - t;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const answer = median(answerTimes), question = median(questionTimes);
console.log(`| queued URLs | answer taken in (re-score where it reaches), median ms | next question read, median ms | answer to next question, ms | links reached, median | full re-score, ms | full / answer-to-next |`);
console.log(`|---|---|---|---|---|---|---|`);
console.log(`| ${N} | ${answer.toFixed(0)} | ${question.toFixed(0)} | ${(answer + question).toFixed(0)} | ${median(reached)} | ${fullMs.toFixed(0)} (${full.changed} moved) | ${(fullMs / (answer + question)).toFixed(1)} |`);
store.db.close();
