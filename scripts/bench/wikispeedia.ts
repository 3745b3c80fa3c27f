// Benchmark: a focused crawl of the Wikispeedia corpus (shared/corpora/wikispeedia), served on loopback and
// crawled by the real extension in Chromium, scored against the corpus's hand-made topic labels.
//   npx tsx scripts/bench/wikispeedia.ts [--corpus DIR] [--topic Science] [--seed English_language] [--budget 1000]
//     [--strategy best-first|breadth-first] [--train-fraction 0.3] [--max-sources N (default: every training page)] [--split-seed 1]
//     [--keywords w1,w2,...] [--learning off|verdicts|rescore] [--user-labels N [--label-at PAGES]] [--out DIR]
//     [--classifier '{"smoothing":"laplace","parentPage":false}']
// The articles are split (seeded PRNG) into a training split, whose pages are the link sources and whose
// topic labels make the positive/negative patterns, and a scored split; harvest and recall are given over
// all crawl-phase pages and over scored-split pages only. Ground truth is labels.tsv, never the crawler's judge.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { rocAuc } from '../../lib/learning/evaluation-metrics';
import { STRATEGIES } from '../../lib/strategies/registry';
import { mulberry32, shuffled } from '../../lib/records/random';
import { formatSummary, runCrawl, type Summary } from '../crawl';
import type { Page } from 'playwright-core';
import { ROOT, send, workerHeapUsed, type Launched } from '../lib/browser';
import { articleOfUrl, articleUrl, loadArticles, loadLabels, loadLinks, loadSites, startCorpusServer } from './corpus-server';

/** A handful of words per top-level topic: the crawl's `topic.keywords` (its domain dictionary). */
export const TOPIC_KEYWORDS: Record<string, string[]> = {
  Science: ['science', 'scientific', 'biology', 'chemistry', 'physics', 'species', 'animal', 'plant', 'chemical',
    'element', 'cell', 'energy', 'organism', 'mineral', 'astronomy', 'geology'],
  Geography: ['geography', 'river', 'mountain', 'city', 'region', 'island', 'lake', 'climate', 'population', 'capital'],
  History: ['history', 'war', 'empire', 'battle', 'dynasty', 'kingdom', 'century', 'revolution', 'ancient'],
  People: ['born', 'died', 'king', 'writer', 'president', 'artist', 'scientist', 'leader', 'poet'],
  Religion: ['religion', 'god', 'church', 'christian', 'islam', 'buddhism', 'hindu', 'faith', 'bible', 'saint'],
  Music: ['music', 'musical', 'song', 'band', 'composer', 'album', 'opera', 'instrument', 'symphony'],
  Mathematics: ['mathematics', 'mathematical', 'number', 'theorem', 'geometry', 'algebra', 'equation', 'function'],
  IT: ['computer', 'software', 'internet', 'programming', 'data', 'network', 'digital', 'algorithm'],
  // The other seven top-level topics, for the topic sweep (scripts/bench/topic-sweep.ts): words a user would
  // type for the topic, chosen from its name and subcategory names, not from the pages.
  Countries: ['country', 'nation', 'republic', 'capital', 'population', 'government', 'independence', 'border'],
  Citizenship: ['citizenship', 'law', 'rights', 'politics', 'political', 'government', 'election', 'education', 'environment'],
  Design_and_Technology: ['engineering', 'technology', 'railway', 'transport', 'architecture', 'building', 'locomotive', 'vehicle', 'aircraft'],
  Everyday_life: ['food', 'sport', 'game', 'film', 'television', 'drink', 'team', 'cartoon', 'agriculture'],
  Language_and_literature: ['language', 'literature', 'novel', 'poetry', 'poem', 'theatre', 'author', 'linguistics'],
  Business_Studies: ['business', 'company', 'economy', 'economics', 'currency', 'market', 'trade', 'money', 'bank'],
  Art: ['art', 'painting', 'painter', 'sculpture', 'artist', 'museum', 'gallery', 'portrait'],
};

export function reachableFrom(seed: string, links: Map<string, string[]>): Set<string> {
  const seen = new Set([seed]);
  const queue = [seed];
  for (let i = 0; i < queue.length; i++) {
    for (const t of links.get(queue[i]!) ?? []) if (!seen.has(t)) (seen.add(t), queue.push(t));
  }
  return seen;
}

interface PageLine {
  seq: number; url: string; finalUrl: string; status: number; phase: 'train' | 'crawl'; depth: number;
  score: number; relevant: boolean | null; relevance: number | null; error?: string; fetchedAt: string; copyOf?: number;
}

export const CHECKPOINTS = [100, 250, 500, 1000, 2000];

const round = (x: number, d = 3) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : null);
const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);

/** Area under the ROC curve of `score` for telling on-topic from off-topic items (ties count half). */
export function auc(items: { score: number; on: boolean }[]): number {
  return rocAuc(items.map((i) => ({ label: i.on ? 1 : 0, rank: i.score }))) ?? NaN;
}

function confusion(rows: { pred: boolean; on: boolean }[]) {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (const r of rows) r.pred ? (r.on ? tp++ : fp++) : r.on ? fn++ : tn++;
  const precision = ratio(tp, tp + fp), recall = ratio(tp, tp + fn);
  return {
    n: rows.length, tp, fp, fn, tn, accuracy: round(ratio(tp + tn, rows.length)), precision: round(precision),
    recall: round(recall), f1: round((2 * precision * recall) / (precision + recall)),
  };
}

export interface CaseOptions {
  corpus: string;
  topic: string;
  seed: string;
  budget: number;
  strategy: string;
  /** The strategy's parameters (lib/strategies), e.g. `{ maxTunnel: 3 }`. */
  strategyParams?: Record<string, number | string>;
  /** `sites`: the web of sites of sites.tsv (147 hosts, absolute links across them); default one site. */
  web?: 'one-site' | 'sites';
  trainFraction?: number;
  maxSources?: number;
  splitSeed?: number;
  keywords?: string[];
  concurrency?: number;
  /** Every answer of the site's server waits this long (ms) before its first byte, as across the web; default 0. */
  latencyMs?: number;
  /**
   * Online learning: `off` learns nothing while crawling; `verdicts` learns from the judge's verdicts; `rescore`
   * also re-scores the queued links every 500 pages (the default of a crawl).
   */
  learning?: 'off' | 'verdicts' | 'rescore';
  /** With `rescore`: re-score the queued links every this many pages (default 500). */
  rescoreEveryPages?: number;
  /** `learning.linksToJudged` (the crawler's default when absent). */
  linksToJudged?: boolean;
  /** `judge.smoothing` (the crawler's default when absent; 1 is design A's Laplace). */
  judgeSmoothing?: number;
  /**
   * A simulated user: once the crawl has made `labelAt` requests, label the `userLabels` queued links the model
   * is least sure about (the dashboard's labeling queue), with the corpus's truth, then Retrain.
   */
  userLabels?: number;
  labelAt?: number;
  /** The link classifier's settings (the config's `classifier`), when not the defaults. */
  classifier?: Record<string, unknown>;
  out?: string;
  log?: (line: string) => void;
  /** Called once the crawl has started (crawl-speed.ts profiles the service worker from here). */
  onStarted?: (launched: Launched, crawlId: number) => Promise<void> | void;
  /** Called once the crawl has ended, before the browser closes. */
  onFinished?: (launched: Launched, crawlId: number) => Promise<void> | void;
}

export const DEFAULT_CORPUS = join(ROOT, '..', 'shared', 'corpora', 'wikispeedia');

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS }, topic: { type: 'string', default: 'Science' },
      seed: { type: 'string', default: 'English_language' }, budget: { type: 'string', default: '1000' },
      strategy: { type: 'string', default: 'best-first' }, 'train-fraction': { type: 'string', default: '0.3' },
      'max-sources': { type: 'string', default: 'Infinity' }, 'split-seed': { type: 'string', default: '1' },
      keywords: { type: 'string' }, learning: { type: 'string', default: 'rescore' }, out: { type: 'string' },
      'user-labels': { type: 'string', default: '0' }, 'label-at': { type: 'string', default: '300' },
      web: { type: 'string', default: 'one-site' }, 'strategy-params': { type: 'string' }, classifier: { type: 'string' },
    },
  });
  if (!['off', 'verdicts', 'rescore'].includes(v.learning!)) throw new Error(`--learning: off, verdicts or rescore, not ${v.learning}`);
  const results = await runWikispeedia({
    corpus: v.corpus!, topic: v.topic!, seed: v.seed!, budget: Number(v.budget), strategy: v.strategy!,
    trainFraction: Number(v['train-fraction']), maxSources: Number(v['max-sources']), splitSeed: Number(v['split-seed']),
    keywords: v.keywords ? v.keywords.split(',').map((s) => s.trim()).filter(Boolean) : undefined, out: v.out,
    learning: v.learning as CaseOptions['learning'], userLabels: Number(v['user-labels']), labelAt: Number(v['label-at']),
    web: v.web === 'sites' ? 'sites' : 'one-site',
    strategyParams: v['strategy-params'] ? (JSON.parse(v['strategy-params']) as Record<string, number | string>) : undefined,
    classifier: v.classifier ? (JSON.parse(v.classifier) as Record<string, unknown>) : undefined,
  });
  printResults(results);
}

/**
 * Harvest and recall at each checkpoint of a fetch order (pages fetched twice already removed): over all
 * pages, and over scored-split pages only (the training split's pages cannot flatter the result).
 */
export function harvestTable(order: readonly { on: boolean; scored: boolean }[], reachOn: number, reachOnScored: number) {
  const points = [...CHECKPOINTS.filter((n) => n < order.length), order.length];
  return points.map((n) => {
    const head = order.slice(0, n);
    const scored = head.filter((r) => r.scored);
    const on = head.filter((r) => r.on).length;
    const onScored = scored.filter((r) => r.on).length;
    return {
      fetched: n, harvest: round(on / n), recall: round(ratio(on, reachOn)),
      scoredFetched: scored.length, scoredHarvest: round(ratio(onScored, scored.length)), scoredRecall: round(ratio(onScored, reachOnScored)),
    };
  });
}

/** The corpus facts a case is scored with: topic labels, the training split, the pages reachable from the seed. */
export function caseGroundTruth(corpus: string, topic: string, seed: string, trainFraction = 0.3, splitSeed = 1) {
  const articles = loadArticles(corpus);
  const labels = loadLabels(corpus);
  const links = loadLinks(corpus);
  const onTopic = (a: string) => labels.get(a)?.has(topic) ?? false;
  if (!articles.some((a) => a.article === seed)) throw new Error(`no article ${seed} in the corpus`);
  const order = shuffled(articles.map((a) => a.article), mulberry32(splitSeed));
  const nTrain = Math.round(trainFraction * order.length);
  const trainSet = new Set(order.slice(0, nTrain));
  const reachOn = [...reachableFrom(seed, links)].filter(onTopic);
  return { articles, links, onTopic, order, nTrain, trainSet, reachOn, reachOnScored: reachOn.filter((a) => !trainSet.has(a)) };
}

/** Scores any crawler's fetch order (URLs) of a served corpus: a page fetched twice counts once. */
export function scoreUrls(urls: readonly string[], truth: ReturnType<typeof caseGroundTruth>) {
  const seen = new Set<string>();
  const order: { on: boolean; scored: boolean }[] = [];
  for (const url of urls) {
    const article = articleOfUrl(url);
    if (!article || seen.has(article)) continue;
    seen.add(article);
    order.push({ on: truth.onTopic(article), scored: !truth.trainSet.has(article) });
  }
  return harvestTable(order, truth.reachOn.length, truth.reachOnScored.length);
}

interface UserLabeling {
  atRequests: number;
  labeled: number;
  onTopic: number;
  /** How many queued links were read to choose them, and the score range they came from. */
  candidates: number;
  retrainMs: number;
}

/**
 * The simulated user of `--user-labels`: waits for the crawl to reach `at` requests, reads the queued links
 * closest to P = 0.5 (log-odds in [-2, 2], as the labeling queue does), scores them with the current model,
 * labels the `n` least sure (one per anchor and context) with the corpus's truth, then retrains.
 */
async function labelLikeAUser(
  page: Page, crawlId: number, n: number, at: number, onTopic: (a: string) => boolean, log: (s: string) => void,
): Promise<UserLabeling | null> {
  type Status = { crawl: { topicId: number; state: string; stats: { attempts: number } } };
  let status: Status;
  for (;;) {
    status = await send<Status>(page, 'status', { crawlId });
    if (status.crawl.stats.attempts >= at) break;
    if (['finished', 'stopped', 'failed'].includes(status.crawl.state)) return null;
    await new Promise((r) => setTimeout(r, 200));
  }
  const queued = await page.evaluate((crawlId) => new Promise<{ url: string; anchor: string; context: string }[]>((resolve, reject) => {
    const open = indexedDB.open('focus');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const index = open.result.transaction('frontier').objectStore('frontier').index('[crawlId+state+priority+order]');
      const req = index.getAll(IDBKeyRange.bound([crawlId, 'queued', -2, -Infinity], [crawlId, 'queued', 2, Infinity]), 5000);
      req.onsuccess = () => {
        open.result.close();
        resolve((req.result as { url: string; anchor: string; context: string; state: string }[])
          .filter((e) => e.state === 'queued').map(({ url, anchor, context }) => ({ url, anchor, context })));
      };
    };
  }), crawlId);
  const topicId = status.crawl.topicId;
  const { scores } = await send<{ scores: number[] }>(page, 'scoreLinks', { topicId, links: queued });
  const seen = new Set<string>();
  const chosen = queued.map((l, i) => ({ ...l, score: scores[i]! }))
    .sort((a, b) => Math.abs(a.score - 0.5) - Math.abs(b.score - 0.5))
    .filter((l) => {
      const key = `${l.anchor}\u0000${l.context}`;
      return articleOfUrl(l.url) !== null && !seen.has(key) && (seen.add(key), true);
    })
    .slice(0, n);
  let on = 0;
  for (const l of chosen) {
    const label = onTopic(articleOfUrl(l.url)!) ? 1 : 0;
    on += label;
    await send(page, 'labelLink', { topicId, url: l.url, anchor: l.anchor, context: l.context, label });
  }
  const t = Date.now();
  await send(page, 'retrain', { topicId });
  const result = { atRequests: status.crawl.stats.attempts, labeled: chosen.length, onTopic: on, candidates: queued.length, retrainMs: Date.now() - t };
  log(`simulated user: labeled ${result.labeled} queued links (${on} on topic) of ${queued.length} near P = 0.5 at ${result.atRequests} requests, then retrained`);
  return result;
}

/** The crawl config of a case (the benchmark's recipe): the same for the extension and for the Node crawl path. */
export function caseConfig(
  o: Pick<CaseOptions, 'topic' | 'seed' | 'budget' | 'strategy' | 'strategyParams' | 'maxSources' | 'concurrency' | 'learning' | 'rescoreEveryPages' | 'linksToJudged' | 'judgeSmoothing' | 'classifier'>,
  truth: ReturnType<typeof caseGroundTruth>, urlOf: (article: string) => string, anywhere: boolean, keywords: string[],
) {
  const { topic, seed, budget, strategy } = o;
  const trainList = truth.order.slice(0, truth.nTrain);
  const sources = trainList.slice(0, o.maxSources ?? Infinity);
  return {
    name: `Wikispeedia: ${topic} from ${seed} (${strategy}, ${budget} pages)`,
    seeds: [urlOf(seed)],
    topic: { keywords },
    training: {
      linkSources: sources.map(urlOf),
      positive: trainList.filter(truth.onTopic).map(urlOf),
      negative: trainList.filter((a) => !truth.onTopic(a)).map(urlOf),
    },
    strategy: { name: strategy, ...o.strategyParams },
    budget: { maxPages: budget },
    ...(anywhere ? { scope: { mode: 'anywhere' } } : {}),
    politeness: { delayMs: 0, concurrency: o.concurrency ?? 4, perHost: o.concurrency ?? 4, robots: false },
    learning: {
      fromVerdicts: (o.learning ?? 'rescore') !== 'off',
      rescoreEveryPages: (o.learning ?? 'rescore') === 'rescore' ? o.rescoreEveryPages ?? 500 : 0,
      rescoreEveryLabels: 0,
      ...(o.linksToJudged === undefined ? {} : { linksToJudged: o.linksToJudged }),
    },
    ...(o.classifier ? { classifier: o.classifier } : {}),
    ...(o.judgeSmoothing === undefined ? {} : { judge: { smoothing: o.judgeSmoothing } }),
  };
}

/** One benchmark case through the real extension: crawl, then score the fetch order against labels.tsv. */
export async function runWikispeedia(o: CaseOptions) {
  const { topic, seed, budget, strategy } = o;
  const trainFraction = o.trainFraction ?? 0.3, maxSources = o.maxSources ?? Infinity, splitSeed = o.splitSeed ?? 1;
  if (!(STRATEGIES as readonly string[]).includes(strategy)) throw new Error(`--strategy: one of ${STRATEGIES.join(', ')}, not ${strategy}`);
  const keywords = o.keywords ?? TOPIC_KEYWORDS[topic];
  if (!keywords?.length) throw new Error(`no keywords known for topic ${topic}: pass --keywords`);
  const out = o.out ?? join(ROOT, 'out', 'wikispeedia', `${topic}-${strategy}-${budget}${o.web === 'sites' ? '-sites' : ''}`);
  // The split: shuffle with the seeded PRNG, the first fraction is training.
  const truth = caseGroundTruth(o.corpus, topic, seed, trainFraction, splitSeed);
  const { articles, links, onTopic, order, nTrain, trainSet, reachOn, reachOnScored } = truth;
  const pathOf = new Map(articles.map((a) => [a.article, a.path]));

  const sites = o.web === 'sites' ? loadSites(o.corpus) : undefined;
  const site = await startCorpusServer(o.corpus, 0, { sites, latencyMs: o.latencyMs ?? 0 });
  const urlOf = (a: string) => articleUrl(site.origin, pathOf.get(a)!, sites);
  const hostRules = sites ? `MAP *.test 127.0.0.1:${new URL(site.origin).port}` : undefined;
  const trainList = order.slice(0, nTrain);
  const sources = trainList.slice(0, maxSources);
  const config = caseConfig(o, truth, urlOf, hostRules !== undefined, keywords);
  // Labeled links the training reads will yield (every link on a source page into the training split).
  const sourceSet = new Set(sources);
  let posLinks = 0, negLinks = 0;
  for (const s of sourceSet) for (const t of links.get(s) ?? []) if (trainSet.has(t)) onTopic(t) ? posLinks++ : negLinks++;
  const log = o.log ?? ((line: string) => process.stderr.write(line + '\n'));
  log(`corpus: ${site.size} pages at ${site.origin}; split seed ${splitSeed}: ${nTrain} training articles ` +
    `(${trainList.filter(onTopic).length} ${topic}), ${sources.length} link sources -> ~${posLinks} positive / ${negLinks} negative labeled links`);
  log(`keywords: ${keywords.join(', ')}`);

  const t0 = Date.now();
  const heap: number[] = [];
  let heapTimer: ReturnType<typeof setInterval> | undefined;
  let summary: Summary;
  let userLabeling: Promise<UserLabeling | null> = Promise.resolve(null);
  try {
    summary = await runCrawl({
      config, out, log, hostRules,
      onStarted: async (launched, crawlId) => {
        await o.onStarted?.(launched, crawlId);
        if (o.userLabels) userLabeling = labelLikeAUser(launched.page, crawlId, o.userLabels, o.labelAt ?? 300, onTopic, log);
        // Sample the service worker's heap every 2 s while the crawl runs.
        heapTimer = setInterval(() => {
          workerHeapUsed(launched).then((b) => b !== null && heap.push(b), () => {});
        }, 2000);
      },
      ...(o.onFinished ? { onFinished: o.onFinished } : {}),
    });
  } finally {
    clearInterval(heapTimer);
    await site.close();
  }
  const wallSeconds = (Date.now() - t0) / 1000;
  log(formatSummary(summary));

  // ---- evaluation against labels.tsv ----
  const rows = readFileSync(join(out, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PageLine);
  const fetched = rows.filter((r) => r.phase === 'crawl' && !r.error && r.status === 200).sort((a, b) => a.seq - b.seq);
  const seen = new Set<string>();
  const crawl: (PageLine & { article: string; on: boolean; scored: boolean })[] = [];
  for (const r of fetched) {
    const article = articleOfUrl(r.finalUrl || r.url);
    if (!article || seen.has(article)) continue; // a page fetched twice counts once
    seen.add(article);
    crawl.push({ ...r, article, on: onTopic(article), scored: !trainSet.has(article) });
  }
  const reachable = reachableFrom(seed, links);
  const table = harvestTable(crawl, reachOn.length, reachOnScored.length);
  const judged = crawl.filter((r) => r.relevant !== null).map((r) => ({ pred: r.relevant!, on: r.on, scored: r.scored }));
  const linkScores = crawl.filter((r) => r.depth > 0);
  const results = {
    topic, seed, strategy, budget, keywords, trainFraction, splitSeed, maxSources,
    split: { train: nTrain, trainOnTopic: trainList.filter(onTopic).length, scored: order.length - nTrain, linkSources: sources.length,
      expectedLabeledLinks: { positive: posLinks, negative: negLinks } },
    reachable: { pages: reachable.size, onTopic: reachOn.length, onTopicScored: reachOnScored.length },
    summary, wallSeconds: round(wallSeconds, 1), code: codeVersion(), userLabeling: await userLabeling,
    serverRequests: [...site.hits.values()].reduce((a, b) => a + b, 0), serverPaths: site.hits.size,
    crawlPages: crawl.length, table, web: o.web ?? 'one-site', strategyParams: o.strategyParams ?? {},
    // The crawl config's classifier setting as given (absent: the crawler's defaults), so a result says what ran.
    classifier: o.classifier ?? null,
    irrelevantDownloads: crawl.filter((r) => !r.on).length,
    frontierLeft: summary.frontierLeft, blacklistedSites: summary.blacklistedSites, dropped: summary.dropped,
    // Crawl-phase throughput from the fetch timestamps (training reads excluded), and the worker's JS heap. A page
    // judged from training's copy carries that read's time, so a short crawl of copies can span no time, or less than
    // none: no rate then.
    pagesPerSecond: round(crawlRate(fetched), 1),
    // The same span's pages that made a request: like for like with a crawler that reads nothing before its crawl (the
    // pages judged from a training read's copy were requested in the training phase, outside the span).
    requestsPerSecond: round(crawlRate(fetched.filter((r) => r.copyOf === undefined)), 1),
    copies: fetched.filter((r) => r.copyOf !== undefined).length,
    workerHeapMB: heap.length ? { peak: round(Math.max(...heap) / 2 ** 20, 1), median: round([...heap].sort((a, b) => a - b)[heap.length >> 1] / 2 ** 20, 1), samples: heap.length } : null,
    judge: { all: confusion(judged), scoredOnly: confusion(judged.filter((r) => r.scored)) },
    // How well the link score the crawler used (P(+|anchor, context) at fetch time) ranked what it fetched.
    linkScore: {
      aucFetched: round(auc(linkScores.map((r) => ({ score: r.score, on: r.on })))),
      meanOnTopic: round(mean(linkScores.filter((r) => r.on).map((r) => r.score))),
      meanOffTopic: round(mean(linkScores.filter((r) => !r.on).map((r) => r.score))),
      saturatedAbove099: linkScores.filter((r) => r.score > 0.99).length,
      below001: linkScores.filter((r) => r.score < 0.01).length,
      maxDepth: Math.max(0, ...crawl.map((r) => r.depth)),
    },
  };
  writeFileSync(join(out, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  // Not in results.json: every request the site's server saw, for a caller that asks how many were open at once.
  return { ...results, out, serverSpans: site.spans };
}

export type CaseResults = Awaited<ReturnType<typeof runWikispeedia>>;

function printResults(results: CaseResults): void {
  const pct = (x: number | null) => (x === null ? '   -  ' : x.toFixed(3).padStart(6));
  const { topic, seed, strategy, budget } = results;
  console.log(`\n${topic} from ${seed}, ${strategy}, budget ${budget}: ${results.reachable.onTopic} ${topic} pages reachable ` +
    `(${results.reachable.onTopicScored} in the scored split); wall ${results.wallSeconds} s`);
  console.log('fetched  harvest  recall | scored: fetched  harvest  recall');
  for (const t of results.table) {
    console.log(`${String(t.fetched).padStart(7)}  ${pct(t.harvest)}  ${pct(t.recall)} | ${String(t.scoredFetched).padStart(15)}  ${pct(t.scoredHarvest)}  ${pct(t.scoredRecall)}`);
  }
  const j = results.judge.all;
  console.log(`judge vs labels.tsv: accuracy ${j.accuracy}, precision ${j.precision}, recall ${j.recall}, F1 ${j.f1} ` +
    `(tp ${j.tp} fp ${j.fp} fn ${j.fn} tn ${j.tn})`);
  console.log(`link score on fetched pages: AUC ${results.linkScore.aucFetched}, mean on-topic ${results.linkScore.meanOnTopic}, ` +
    `off-topic ${results.linkScore.meanOffTopic}; >0.99: ${results.linkScore.saturatedAbove099}, <0.01: ${results.linkScore.below001}`);
  console.log(`results: ${join(results.out, 'results.json')}`);
}

/** The commit the extension was built from, and whether lib/ or entrypoints/ had uncommitted changes. */
function codeVersion(): { commit: string; dirty: boolean } | null {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    return { commit: git('rev-parse', '--short', 'HEAD'), dirty: git('status', '--porcelain', '--', 'lib', 'entrypoints') !== '' };
  } catch {
    return null;
  }
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`wikispeedia: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}

/** Crawl-phase pages a second, over the span of those that made a request; NaN when it is no time. */
function crawlRate(fetched: readonly { fetchedAt: string; copyOf?: number }[]): number {
  // The span runs from the first to the last page that made a request: a copy carries its training read's time, and
  // the last page by seq may be one when more pages are in hand than requests.
  const times = fetched.filter((r) => r.copyOf === undefined).map((r) => Date.parse(r.fetchedAt));
  if (fetched.length < 2 || times.length < 2) return NaN;
  const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
  return seconds > 0 ? (fetched.length - 1) / seconds : NaN;
}
