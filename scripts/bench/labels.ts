// Labels that teach: a simulated user answers questions from the corpus's labels while a crawl runs,
// and the crawl's scored harvest at 500 fetches shows what the answers were worth. Node crawl path
// (node-crawl.ts): the crawl core on fake-indexeddb, pages from memory. At `--at` requests the crawl's fetches
// are held; the user answers `n` questions one at a time, each through the service's labelLink (or labelPage)
// as the dashboard sends it, waiting for the crawl to take the answer in, and the next question is chosen on
// the frontier that answer left; then the fetches go on.
//
// Question choices (`--modes`):
//   doubt   the labeling queue as it was: queued links nearest P = 0.5, most representative first (uncertainty.ts)
//   random  queued links drawn at random (seeded): what any choice of questions gives
//   next    rankQuestions with the direct effect only: the next links to fetch that are likeliest off topic
//   reach   rankQuestions with the direct effect and the links an answer re-ranks through shared anchor words
//   pages   rankQuestions' page questions only: fetched pages by the judge's doubt and their queued children
//   queue   the dashboard's labeling queue exactly (labelQuestions: the best 2,000 queued links and the pages they
//           came from, link and page questions together)
//   hold    a control, not a choice: the crawl is held at `--at` as long as `n` answers take (300 ms each), and
//           nothing is asked (what holding the fetches alone does to the crawl's four workers)
//   rescore a control, as hold, but the crawl first re-scores its whole frontier (the dashboard's Retrain): what one
//           full re-score at `--at`, with no answer, does to the crawl
//   truth   a bound, not a choice a user could make: queued links to pages the corpus says are on topic, of the
//           scored split, that the crawl would not fetch in its next 250, best ranked first (every answer a "yes"
//           that brings forward a page the score counts)
//
// `--off-topic model` leaves a URL answered "off topic" in the queue, ranked by the model (learner.ts); `skip`, the
// default, takes it out.
// `--answer-policy full,ignore,full/words` runs each choice with each way the link model learns an answer's words
// (classifier/answer-evidence.ts): `full` counts each answer once, as an automatic label (what ships); `ignore`
// learns nothing from it (only the URL answered moves); `/words` leaves the class totals alone.
//
// `--drift-rescore on,off`: whether answers that moved the class counts past the learner's epsilon start a
// whole-frontier re-score (learner.ts, `answerRescore`), or re-score their reach only.
// `--at 200,250,300` runs each case and count with the answers given at each point (the crawl's sensitivity to
// when they come).
//
//   npx tsx scripts/bench/labels.ts [--cases History:Bull_shark,People:Electron_beam_welding] [--answers 0,20,50,100]
//     [--modes reach,random] [--at 250] [--drift-rescore on] [--budget 500] [--out DIR] [--json]
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock, type FetchPort } from '../../lib/net/fetcher';
import { labelingQueue } from '../../lib/learning/uncertainty';
import { rankQuestions, type Question } from '../../lib/learning/question-value';
import { mulberry32, shuffled } from '../../lib/records/random';
import { labelQuestions, queueCandidates } from '../../lib/ui/label-queries';
import type { FrontierEntry } from '../../lib/records/types';
import { articleOfUrl } from './corpus-server';
import { memoryFetch } from './node-crawl';
import { answerLearning, type AnswerPolicy } from '../../lib/learning/answer-evidence';
import { answeredOffTopic, answerRescore } from '../../lib/learning/learner';
import { DEFAULT_CORPUS, TOPIC_KEYWORDS, caseConfig, caseGroundTruth, harvestTable } from './wikispeedia';
import { markdownTable } from './report';

const ORIGIN = 'http://wikispeedia.test';
export const MODES = ['doubt', 'random', 'next', 'reach', 'pages', 'queue', 'truth', 'hold', 'rescore'] as const;
export type Mode = (typeof MODES)[number];

interface UserRun {
  atRequests: number;
  answered: number;
  onTopic: number;
  pageQuestions: number;
  /** Mean time from sending an answer to having the next question, ms. */
  answerToNextMs: number;
  /** Queued links the answers re-scored, and URLs they moved into the next 100. */
  rescored: number;
  enteredTop: number;
}

/** One crawl of a case with `n` answers at `at` requests chosen by `mode`; the scored harvest at 500 and the user's record. */
export async function runLabelCase(o: { corpus: string; topic: string; seed: string; budget: number; at: number; n: number; mode: Mode }) {
  const truth = caseGroundTruth(o.corpus, o.topic, o.seed);
  const pathOf = new Map(truth.articles.map((a) => [a.article, a.path]));
  const config = caseConfig({ topic: o.topic, seed: o.seed, budget: o.budget, strategy: 'best-first', concurrency: 4, learning: 'rescore' },
    truth, (a) => ORIGIN + pathOf.get(a)!, false, TOPIC_KEYWORDS[o.topic]!);
  const db = new CrawlerDB(`labels-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  const store = new CrawlStore(db);
  const pages = memoryFetch(o.corpus);
  let crawlId = 0;
  let requests = 0;
  let turn: Promise<UserRun | null> | null = null;
  const service: CrawlService = new CrawlService({
    store, clock: realClock, ...(process.env.LABELS_DEBUG ? { log: (line: string) => console.error(line) } : {}),
    fetch: (async (url, init) => {
      const crawl = crawlId ? await store.getCrawl(crawlId) : undefined;
      if (crawl?.state === 'running' && o.n > 0) {
        if (++requests >= o.at) turn ??= answerQuestions(service, store, crawlId, o, truth.onTopic, requests, (a) => !truth.trainSet.has(a));
        if (turn) await turn;
      }
      return pages(url, init);
    }) as FetchPort,
  });
  ({ crawlId } = await service.handlers.start(config));
  await service.settled(crawlId);
  const user: UserRun | null = await (turn as Promise<UserRun | null> | null);
  const rows = await store.pages.pagesAfter(crawlId, 0, 1e6);
  const crawled = rows.filter((r) => r.phase === 'crawl' && r.outcome === 'done' && r.status === 200).sort((a, b) => a.seq - b.seq);
  const seen = new Set<string>();
  const order: { on: boolean; scored: boolean }[] = [];
  for (const r of crawled) {
    const article = articleOfUrl(r.finalUrl || r.url);
    if (!article || seen.has(article)) continue;
    seen.add(article);
    order.push({ on: truth.onTopic(article), scored: !truth.trainSet.has(article) });
  }
  db.close();
  const table = harvestTable(order, truth.reachOn.length, truth.reachOnScored.length);
  const at500 = table.find((r) => r.fetched === Math.min(500, order.length));
  return { scoredHarvest500: at500?.scoredHarvest ?? 0, user };
}

/** The simulated user: `n` answers, each question chosen on the frontier the previous answer left. */
async function answerQuestions(
  service: CrawlService, store: CrawlStore, crawlId: number, o: { topic: string; n: number; mode: Mode; seed: string },
  onTopic: (article: string) => boolean, atRequests: number, scored: (article: string) => boolean,
): Promise<UserRun> {
  const crawl = (await store.getCrawl(crawlId))!;
  const topicId = crawl.topicId;
  if (process.env.LABELS_DEBUG) console.error(`user's turn at ${atRequests} requests`);
  const rand = mulberry32(o.seed.length * 7919 + o.n);
  const asked = new Set<string>();
  const run: UserRun = { atRequests, answered: 0, onTopic: 0, pageQuestions: 0, answerToNextMs: 0, rescored: 0, enteredTop: 0 };
  let waited = 0;
  let sentAt: number | null = null;
  if (o.mode === 'hold' || o.mode === 'rescore') {
    if (o.mode === 'rescore') await service.handlers.retrain({ topicId });
    await new Promise((r) => setTimeout(r, 300 * o.n));
    return run;
  }
  while (run.answered < o.n) {
    const q = await nextQuestion(service, store, crawlId, topicId, o.mode, asked, rand, (a) => onTopic(a) && scored(a));
    if (sentAt !== null) waited += Date.now() - sentAt;
    if (!q) break;
    sentAt = Date.now();
    if (q.kind === 'link') {
      const article = articleOfUrl(q.url);
      asked.add(q.url);
      if (!article) continue;
      const label = onTopic(article) ? 1 : 0;
      const { effect } = await service.handlers.labelLink({ topicId, url: q.url, anchor: q.anchor, context: q.context, label, wait: true, ...(q.pageUrl ? { pageUrl: q.pageUrl } : {}) });
      run.onTopic += label;
      run.rescored += effect?.changed ?? 0;
      run.enteredTop += effect?.enteredTop ?? 0;
    } else {
      asked.add(q.url);
      const article = articleOfUrl(q.url);
      if (!article) continue;
      const label = onTopic(article) ? 1 : 0;
      const { effect } = await service.handlers.labelPage({ crawlId, seq: q.seq, label, wait: true });
      run.onTopic += label;
      run.rescored += effect?.changed ?? 0;
      run.enteredTop += effect?.enteredTop ?? 0;
      run.pageQuestions++;
    }
    run.answered++;
    if (process.env.LABELS_DEBUG) console.error(`answer ${run.answered} (${q.kind} ${q.url}): ${Date.now() - sentAt} ms`);
  }
  run.answerToNextMs = run.answered > 1 ? Math.round(waited / (run.answered - 1)) : 0;
  return run;
}

type Asked = { kind: 'link'; url: string; anchor: string; context: string; pageUrl?: string } | { kind: 'page'; url: string; seq: number };

async function nextQuestion(
  service: CrawlService, store: CrawlStore, crawlId: number, topicId: number, mode: Mode, asked: Set<string>, rand: () => number,
  countedOnTopic: (article: string) => boolean,
): Promise<Asked | null> {
  const db = store.db;
  const asLink = (e: FrontierEntry): Asked => ({ kind: 'link', url: e.url, anchor: e.anchor, context: e.context, ...(e.parentUrl ? { pageUrl: e.parentUrl } : {}) });
  if (mode === 'doubt') {
    const model = await service.topics.modelOf(topicId);
    const item = labelingQueue(await queueCandidates(db, topicId), model.link, { labeled: asked, limit: 1 })[0];
    return item ? asLink(item.link) : null;
  }
  if (mode === 'queue') {
    const topic = await store.topics.mustGetTopic(topicId);
    const [q] = await labelQuestions(db, topic, { handled: asked, limit: 1 });
    if (!q) return null;
    return q.kind === 'link' ? asLink(q.link.entry) : { kind: 'page', url: q.page.url, seq: q.page.seq };
  }
  const t0 = Date.now();
  const queued = (await db.frontier.where('[crawlId+state]').equals([crawlId, 'queued']).toArray()).filter((e) => e.parentUrl !== null);
  if (process.env.LABELS_DEBUG) console.error(`read ${queued.length} queued in ${Date.now() - t0} ms`);
  if (mode === 'random') {
    const open = queued.filter((e) => !asked.has(e.url)).sort((a, b) => (a.url < b.url ? -1 : 1));
    return open.length ? asLink(shuffled(open, rand)[0]!) : null;
  }
  queued.sort((a, b) => b.priority - a.priority || b.order - a.order);
  if (mode === 'truth') {
    const e = queued.slice(250).find((e) => !asked.has(e.url) && countedOnTopic(articleOfUrl(e.url) ?? ''));
    return e ? asLink(e) : null;
  }
  const model = await service.topics.modelOf(topicId);
  const links = mode === 'pages' ? [] : queued.map((e, rank) => ({ url: e.url, anchor: e.anchor, context: e.context, score: e.score, rank, entry: e }));
  const fetched = mode === 'pages' ? (await store.pages.pagesAfter(crawlId, 0, 1e6)).filter((p) => p.phase === 'crawl' && p.outcome === 'done' && p.relevance !== null) : [];
  const children = new Map<string, number>();
  for (const e of queued) if (e.parentUrl) children.set(e.parentUrl, (children.get(e.parentUrl) ?? 0) + 1);
  const pageCandidates = fetched.map((p) => ({ url: p.url, relevance: p.relevance!, children: children.get(p.url) ?? 0, seq: p.seq }));
  if (process.env.LABELS_DEBUG) console.error(`model and candidates in ${Date.now() - t0} ms`);
  const [q]: Question[] = rankQuestions(links, pageCandidates, model.link, { answered: asked, limit: 1, reachWeight: mode === 'next' ? 0 : undefined });
  if (!q) return null;
  if (q.kind === 'link') return asLink((q.link as (typeof links)[number]).entry);
  return { kind: 'page', url: q.page.url, seq: (q.page as (typeof pageCandidates)[number]).seq };
}

function readPolicy(spec: string): AnswerPolicy {
  const [kind, words] = spec.split('/');
  if ((kind === 'full' || kind === 'ignore') && (words === undefined || words === 'words')) return { kind, ...(words ? { wordsOnly: true } : {}) };
  throw new Error(`--answer-policy: full, ignore, full/words or ignore/words, not ${spec}`);
}

function policyName(p: AnswerPolicy): string {
  return p.wordsOnly ? `${p.kind}/words` : p.kind;
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS },
      cases: { type: 'string', default: 'History:Bull_shark,History:Armenia,People:Electron_beam_welding' },
      answers: { type: 'string', default: '0,20,50,100' },
      modes: { type: 'string', default: 'reach,random' },
      'answer-policy': { type: 'string' },
      'off-topic': { type: 'string', default: 'skip' },
      at: { type: 'string', default: '250' },
      'drift-rescore': { type: 'string', default: 'on' },
      budget: { type: 'string', default: '500' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  answeredOffTopic.policy = v['off-topic'] === 'model' ? 'model' : 'skip';
  const shipped = answerLearning.policy;
  const policies = v['answer-policy'] ? v['answer-policy'].split(',').map(readPolicy) : [shipped];
  const cases = v.cases!.split(',').map((c) => c.split(':') as [string, string]);
  const answers = v.answers!.split(',').map(Number);
  const modes = v.modes!.split(',') as Mode[];
  const ats = v.at!.split(',').map(Number);
  const drifts = v['drift-rescore']!.split(',').map((d) => d === 'on');
  for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes: one of ${MODES.join(', ')}, not ${m}`);
  const rows: Record<string, string | number>[] = [];
  const all: unknown[] = [];
  for (const [topic, seed] of cases) {
    const runs: { n: number; mode: Mode | 'none'; policy: AnswerPolicy; at: number; drift: boolean }[] = [];
    // With no answers nothing is held or asked: `--at` and the drift re-score play no part.
    if (answers.includes(0)) runs.push({ n: 0, mode: 'none', policy: shipped, at: ats[0]!, drift: answerRescore.drift });
    for (const mode of modes) for (const policy of policies) for (const drift of drifts) for (const n of answers) for (const at of ats) {
      if (n > 0) runs.push({ n, mode, policy, at, drift });
    }
    for (const r of runs) {
      const t = Date.now();
      answerLearning.policy = r.policy;
      answerRescore.drift = r.drift;
      const res = await runLabelCase({ corpus: v.corpus!, topic, seed, budget: Number(v.budget), at: r.at, n: r.n, mode: r.mode === 'none' ? 'random' : r.mode });
      const u = res.user;
      const row = {
        case: `${topic} from ${seed}`, questions: r.mode, 'answers learned': r.n ? policyName(r.policy) : '-',
        'drift re-score': r.n ? (r.drift ? 'on' : 'off') : '-', at: r.n ? r.at : '-', answers: r.n, 'scored harvest at 500': res.scoredHarvest500,
        'on topic': u?.onTopic ?? '-', 'page questions': u?.pageQuestions ?? '-', 're-scored': u?.rescored ?? '-', 'into next 100': u?.enteredTop ?? '-',
        'answer to next question ms': u?.answerToNextMs ?? '-', 'wall s': Math.round((Date.now() - t) / 1000),
      };
      rows.push(row);
      all.push({ ...row, user: u });
      console.error(JSON.stringify(row));
    }
  }
  const header = Object.keys(rows[0] ?? {});
  let md = markdownTable(header, rows.map((r) => header.map((h) => r[h]!)));
  // One run's harvest moves with when the answers come (any re-score of the frontier does): with several `--at`,
  // each cell is judged on its mean over them, with the spread.
  if (ats.length > 1) md += '\n\n' + timingSummary(rows);
  console.log(md);
  if (v.out) {
    mkdirSync(v.out, { recursive: true });
    writeFileSync(join(v.out, 'labels.md'), md + '\n');
    writeFileSync(join(v.out, 'labels.json'), JSON.stringify(all, null, 2));
  }
  if (v.json) console.log(JSON.stringify(all));
}

/** Per case, choice, policy, drift re-score and count: the mean scored harvest over the answer times, and its range. */
function timingSummary(rows: Record<string, string | number>[]): string {
  const cells = new Map<string, { key: (string | number)[]; h: number[] }>();
  for (const r of rows) {
    const key = [r.case!, r.questions!, r['answers learned']!, r['drift re-score']!, r.answers!];
    const cell = cells.get(key.join('|')) ?? { key, h: [] };
    cell.h.push(Number(r['scored harvest at 500']));
    cells.set(key.join('|'), cell);
  }
  return markdownTable(['case', 'questions', 'answers learned', 'drift re-score', 'answers', 'runs', 'mean', 'min', 'max'],
    [...cells.values()].map(({ key, h }) => [...key, h.length, (h.reduce((a, b) => a + b, 0) / h.length).toFixed(4), Math.min(...h), Math.max(...h)]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
