// The measurement of labels-latency.ts, on any IndexedDB: Node's fake-indexeddb or Chromium's own (run in a page,
// labels-latency-page.ts). A crawl's learner on a frontier of N queued links and a model of 10,000 labeled links;
// each answer is stored and learned, the queued links it reaches re-scored (`rescoreReached`), then the labeling
// queue's next question read as the dashboard reads it (`labelQuestions`). Answers alternate between the learner's
// reach index and the scan of every queued row it replaces, so both are measured side by side on one frontier.
import type { Candidate } from '../../lib/ports';
import { CrawlStore } from '../../lib/store/crawl-store';
import type { CrawlerDB } from '../../lib/store/db';
import { parseConfig } from '../../lib/app/parse-config';
import { createStrategy } from '../../lib/strategies/registry';
import { CrawlLearner, RESCORE_EPSILON } from '../../lib/learning/learner';
import { buildModel } from '../../lib/learning/model';
import { labelQuestions } from '../../lib/ui/label-queries';
import { mulberry32 } from '../../lib/records/random';

export interface LatencyRun {
  urls: number;
  fillMs: number;
  /** The first answer (read the queue, and started the reach index's build), and when the index was ready after it. */
  firstAnswerMs: number;
  indexBuildMs: number;
  /** Per answer after the first: answer taken in, next question read, links reached. */
  index: { answerMs: number[]; questionMs: number[]; reached: number[] };
  scan: { answerMs: number[]; questionMs: number[]; reached: number[] };
  fullRescoreMs: number;
  /** Listing the queued URLs, keys only: what an answer adds while a crawl runs. */
  listKeysMs: number;
}

export async function measureLatency(db: CrawlerDB, n: number, answers: number, progress: (s: string) => void = () => {}): Promise<LatencyRun> {
  const rand = mulberry32(34);
  const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
  // A vocabulary with a long tail, as anchors have: a few common words, many names.
  const word = () => `w${Math.floor(Math.pow(rand(), 3) * 20000)}`;
  const anchor = () => `${word()} ${word()}`;
  const context = () => Array.from({ length: 12 }, word).join(' ');

  const store = new CrawlStore(db);
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
  // A running crawl saves its model every few seconds; the dashboard starts from the saved one.
  await learner.save();

  const t0 = performance.now();
  for (let i = 0; i < n; i += 5000) {
    const batch: Candidate[] = [];
    for (let j = i; j < Math.min(n, i + 5000); j++) {
      const link = { url: `http://lat.test/p${j}`, host: 'lat.test', site: 'lat.test', depth: 1, parentUrl: 'http://lat.test/', anchor: anchor(), context: context() };
      const { logOdds, score } = model.link.rank(link, config.classifier);
      batch.push({ ...link, score, logOdds, priority: strategy.rerank({ depth: 1 } as never, logOdds) ?? logOdds } as Candidate);
    }
    await store.frontier.enqueue(crawlId, batch, clock.now());
    if ((i / 5000) % 4 === 3) progress(`queued ${i + 5000}`);
  }
  const fillMs = performance.now() - t0;

  const run: LatencyRun = { urls: n, fillMs, firstAnswerMs: 0, indexBuildMs: 0, index: { answerMs: [], questionMs: [], reached: [] }, scan: { answerMs: [], questionMs: [], reached: [] }, fullRescoreMs: 0, listKeysMs: 0 };
  const topicRow = await store.topics.mustGetTopic(topicId);
  const handled = new Set<string>();
  for (let a = 0; a <= answers; a++) {
    const way = a % 2 === 1 ? run.index : run.scan;
    learner.useReachIndex = a === 0 || a % 2 === 1;
    const q0 = performance.now();
    const question = (await labelQuestions(db, topicRow, { handled, limit: 5 })).find((q) => q.kind === 'link');
    const q1 = performance.now();
    if (!question || question.kind !== 'link') break;
    handled.add(question.link.url);
    const { url, anchor: text, context: around } = question.link.entry;
    await store.topics.setUserLabel({ topicId, crawlId: null, url, anchor: text, context: around, createdAt: clock.now() }, rand() < 0.3 ? 1 : 0);
    await learner.requestSync();
    const q2 = performance.now();
    if (a === 0) {
      run.firstAnswerMs = q2 - q1;
      // The first answer starts the index's build in the background; the answers measured come after it.
      const b = performance.now();
      while (!learner.reachIndexReady) await clock.sleep(50);
      run.indexBuildMs = performance.now() - b + (q2 - q1);
    }
    else {
      way.questionMs.push(q1 - q0);
      way.answerMs.push(q2 - q1);
      way.reached.push(learner.lastAnswer?.reached ?? 0);
    }
    progress(`answer ${a} (${a === 0 ? 'starts the index' : learner.useReachIndex ? 'index' : 'scan'}): next question ${(q1 - q0).toFixed(0)} ms, answer ${(q2 - q1).toFixed(0)} ms, reached ${learner.lastAnswer?.reached}`);
  }
  // With a crawl running, an answer's index also lists the queue's keys to find the URLs queued since.
  const l0 = performance.now();
  await store.frontier.queuedUrls(crawlId);
  run.listKeysMs = performance.now() - l0;
  const t = performance.now();
  await store.frontier.rescoreQueued(crawlId, (e) => learner.rankEntry(e), clock.now(), { chunk: 500, epsilon: RESCORE_EPSILON });
  run.fullRescoreMs = performance.now() - t;
  return run;
}
