// Benchmark: the crawl's recall estimate (lib/learning/recall.ts) against the true recall on the Wikispeedia corpus.
// Each case is crawled once by the crawl core in Node with everything the estimate is made from written down
// (recall-trace.ts); the estimate is then made from those rows at every hundred pages, as the crawl makes it, and
// compared with the truth: the share of the topic's pages reachable from the seed that the crawl has fetched.
//   npx tsx scripts/bench/recall.ts --set tune|held [--traces DIR] [--budget 3000] [--target 0.8] [--out DIR]
// Topics are split in two: the estimator's constants were set on `tune`, and `held` is what is reported.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { QUEUE_EDGES, RECALL_EVERY, binOf, estimateRecall, withTaken, type RecallResult } from '../../lib/learning/recall';
import type { TakenBins } from '../../lib/records/rows';
import { ROOT } from '../lib/browser';
import { candidates } from './recall-candidates';
import { traceCase, writeTrace, type Trace } from './recall-trace';
import { DEFAULT_CORPUS } from './wikispeedia';

/** The topic sweep's cases (scripts/bench/topic-sweep.ts, sweepSeeds), split by topic. */
export const CASES: Record<'tune' | 'held', string[]> = {
  tune: ['Science:English_language', 'Science:Mecca', 'Science:Quartz', 'People:Electron_beam_welding', 'People:Sikkim',
    'Everyday_life:Lake_Titicaca', 'Everyday_life:Faroe_Islands', 'Design_and_Technology:Quantity', 'Design_and_Technology:Pony',
    'Religion:Bread', 'Religion:Fiji', 'IT:Dunnock', 'IT:Crime', 'Art:Ununoctium', 'Art:United_Malays_National_Organisation', 'Geography:Human'],
  held: ['Geography:Electromagnetic_radiation', 'Geography:Guqin', 'History:Armenia', 'History:Bull_shark',
    'Countries:Scottish_Episcopal_Church', 'Countries:Theatre_Royal%2C_Drury_Lane', 'Citizenship:Charles_Etienne_Brasseur_de_Bourbourg',
    'Citizenship:12th_century', 'Language_and_literature:Alberto_Santos-Dumont', 'Language_and_literature:Recorder',
    'Music:Enigma_machine', 'Music:History_of_post-Soviet_Russia', 'Business_Studies:Hong_Kong', 'Business_Studies:Dover',
    'Mathematics:B_vitamins', 'Mathematics:Monty_Python'],
};

export const POINTS = [500, 1000, 2000];

export interface ReplayPoint {
  fetched: number;
  truth: number;
  result: RecallResult;
  /**
   * What any estimate made from the queue could say at best: the on-topic pages found, over those and the on-topic
   * pages queued, by the corpus's labels (a calibration that knew each queued URL's verdict). Its distance from the
   * truth is the topic's pages no fetched page links to yet, which no queue shows.
   */
  queueBound: number;
}

const logit = (p: number) => Math.log(Math.max(p, 1e-12) / Math.max(1 - p, 1e-12));

/** The estimate at each snapshot of a trace, made as the crawl makes it, with the true recall there. */
export function replay(trace: Trace): ReplayPoint[] {
  const onTopic = new Set(trace.onTopic);
  const reachable = new Set(trace.reachable);
  const total = trace.onTopic.filter((a) => reachable.has(a)).length;
  const crawl = trace.pages.filter((p) => p.phase === 'crawl');
  const held = new Set<string>();
  let taken: TakenBins = {};
  let relevant = 0;
  let i = 0;
  const out: ReplayPoint[] = [];
  for (const snap of trace.snapshots) {
    for (; i < crawl.length && crawl[i]!.fetched <= snap.fetched; i++) {
      const p = crawl[i]!;
      if (onTopic.has(p.article) && reachable.has(p.article)) held.add(p.article);
      if (p.relevant === null) continue;
      if (p.relevant) relevant++;
      // Seeds are taken first whatever their score: they say nothing of a log-odds.
      if (p.priority < Number.MAX_VALUE) taken = withTaken(taken, p.priority, p.relevant);
    }
    const queued = new Array<number>(QUEUE_EDGES.length + 1).fill(0);
    const first = binOf(-Infinity);
    for (const [, score] of snap.queued) queued[binOf(logit(score)) - first]! += 1;
    const queuedOnTopic = new Set(snap.queued.map(([a]) => a).filter((a) => onTopic.has(a) && reachable.has(a) && !held.has(a))).size;
    out.push({
      fetched: snap.fetched, truth: held.size / total, result: estimateRecall({ fetched: snap.fetched, relevant, taken, queued }),
      queueBound: held.size / (held.size + queuedOnTopic),
    });
  }
  return out;
}

/** The replayed point nearest `n` pages fetched (snapshots fall a few pages past each fifty). */
export const pointAt = (points: readonly ReplayPoint[], n: number): ReplayPoint | undefined =>
  points.filter((p) => p.fetched >= n - 10 && p.fetched <= n + 60).sort((a, b) => Math.abs(a.fetched - n) - Math.abs(b.fetched - n))[0];

/**
 * Where a crawl told `targetRecall` would stop: at the second estimate in a row (they are made every hundred pages) at
 * or above it, as lib/run/recall-watch.ts stops.
 */
export function stopAt(points: readonly ReplayPoint[], target: number): ReplayPoint | undefined {
  let next = RECALL_EVERY;
  let before: RecallResult | undefined;
  for (const p of points) {
    if (p.fetched < next) continue;
    next = (Math.floor(p.fetched / RECALL_EVERY) + 1) * RECALL_EVERY;
    const reached = (r: RecallResult | undefined) => r !== undefined && 'point' in r && r.point.estimate >= target;
    if (reached(p.result) && reached(before)) return p;
    before = p.result;
  }
  return undefined;
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      set: { type: 'string', default: 'held' }, traces: { type: 'string' }, budget: { type: 'string', default: '3000' },
      target: { type: 'string', default: '0.8' }, out: { type: 'string' }, cases: { type: 'string' },
    },
  });
  const set = v.set === 'tune' ? 'tune' : 'held';
  const dir = v.traces ?? join(ROOT, 'out', 'recall-traces', set);
  mkdirSync(dir, { recursive: true });
  const cases = v.cases ? v.cases.split(',') : CASES[set];
  const target = Number(v.target);
  const rows: string[] = [];
  const stops: string[] = [];
  let within = 0, inside = 0, shown = 0;
  /** Per method: points with an estimate, within 0.1, and the sum of |error|, at the checkpoints. */
  const methods: Record<string, { n: number; within: number; err: number }> = {};
  const score = (method: string, estimate: number | null, truth: number) => {
    const m = (methods[method] ??= { n: 0, within: 0, err: 0 });
    if (estimate === null) return;
    m.n++;
    m.err += Math.abs(estimate - truth);
    if (Math.abs(estimate - truth) <= 0.1) m.within++;
  };
  for (const c of cases) {
    const [topic, seed] = c.split(':') as [string, string];
    const file = join(dir, `${topic}-${seed}-best-first.json`.replace(/[^\w.-]+/g, '_'));
    if (!existsSync(file)) {
      process.stderr.write(`${c}: crawling ${v.budget} pages in Node for its trace\n`);
      writeTrace(file, await traceCase({ corpus: DEFAULT_CORPUS, topic, seed, budget: Number(v.budget), strategy: 'best-first', maxSources: 300 }));
    }
    const trace = JSON.parse(readFileSync(file, 'utf8')) as Trace;
    const replayed = replay(trace);
    const others = candidates(trace);
    for (const n of POINTS) {
      const p = pointAt(replayed, n);
      const o = others.filter((x) => x.fetched === p?.fetched)[0];
      if (!p || !o) continue;
      score('queue, calibrated (kept)', 'point' in p.result ? p.result.point.estimate : null, p.truth);
      score('capture-recapture', o.captureRecapture, o.truth);
      score('harvest fit', o.harvestFit, o.truth);
      score('queue, every verdict known (bound)', p.queueBound, p.truth);
    }
    const cells = POINTS.map((n) => {
      const p = pointAt(replayed, n);
      if (!p) return '- | -';
      if (!('point' in p.result)) return `${p.truth.toFixed(2)} | ${p.result.note}`;
      const { estimate, low, high } = p.result.point;
      shown++;
      if (Math.abs(estimate - p.truth) <= 0.1) within++;
      if (p.truth >= low && p.truth <= high) inside++;
      return `${p.truth.toFixed(2)} | ${estimate.toFixed(2)} (${low.toFixed(2)}-${high.toFixed(2)})`;
    });
    rows.push(`| ${topic.replace(/_/g, ' ')} | ${seed.replace(/_/g, ' ')} | ${cells.join(' | ')} |`);
    const stop = stopAt(replayed, target);
    stops.push(`| ${topic.replace(/_/g, ' ')} | ${seed.replace(/_/g, ' ')} | ${stop ? `${stop.fetched} | ${'point' in stop.result ? stop.result.point.estimate.toFixed(2) : ''} | ${stop.truth.toFixed(2)}` : 'never | - | -'} |`);
  }
  const goodStops = stops.filter((s) => {
    const t = Number(s.split('|').at(-2));
    return t >= 0.7 && t <= 0.9;
  }).length;
  const report = [
    `| topic | seed | ${POINTS.map((n) => `truth @${n} | estimate (interval) @${n}`).join(' | ')} |`,
    `|---|---|${POINTS.map(() => '---|---|').join('')}`,
    ...rows,
    '',
    `Points with an estimate: ${shown}; within 0.10 of the truth: ${within}; truth inside the interval: ${inside}.`,
    '',
    `| topic | seed | stops at (pages) | estimate there | true recall there |`,
    '|---|---|---|---|---|',
    ...stops,
    '',
    `targetRecall ${target}: ${goodStops} of ${stops.length} stops with a true recall between 0.7 and 0.9.`,
    '',
    `| method | points with an estimate (of ${cases.length * POINTS.length}) | within 0.10 | mean abs. error |`,
    '|---|---|---|---|',
    ...Object.entries(methods).map(([m, r]) => `| ${m} | ${r.n} | ${r.within} | ${r.n ? (r.err / r.n).toFixed(3) : '-'} |`),
  ].join('\n');
  console.log(report);
  if (v.out) {
    mkdirSync(v.out, { recursive: true });
    writeFileSync(join(v.out, `recall-${set}.md`), report + '\n');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`recall: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}
