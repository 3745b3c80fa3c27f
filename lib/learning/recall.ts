// How much of the topic the crawl holds: an estimate of recall with an interval (docs/recall.md). The crawl's
// relevant pages F are known; what is left is estimated from the queue: each queued URL is on topic with the chance
// its log-odds has earned among the pages the crawl took, judged, at the same log-odds. That chance is a fitted
// curve, c * logistic(a + b * logOdds): the pages a best-first crawl takes at a log-odds are the best of it, and the
// curve carries what they say down to the log-odds of the links still queued. Recall = F / (F + expected on topic
// in the queue); the interval is the estimate's spread over resampled verdicts, widened by how far the method was
// off on the Wikispeedia topics it was tuned on. Pure: the crawl row's counters and the queue's counts go in.
import { mulberry32 } from '../records/random';
import type { RecallPoint, TakenBins } from '../records/rows';
import { logistic } from './naive-bayes';

/** Width of a log-odds bin, and the log-odds beyond which pages and links count as at the edge. */
export const RECALL_BIN = 0.5;
export const RECALL_EDGE = 15;
const FIRST_BIN = -RECALL_EDGE / RECALL_BIN;
const LAST_BIN = RECALL_EDGE / RECALL_BIN - 1;
/** An estimate is made every this many pages fetched (`CrawlStats.fetched`), and kept in the history. */
export const RECALL_EVERY = 100;

/** The note while too little is known; other reasons (the strategy, the topic) are said where they are known. */
export const NOT_ENOUGH = 'not enough to estimate yet';

/**
 * Before an estimate is made: pages judged, and of them relevant and not. Under 200 pages the estimates of the
 * tuning topics were off by up to 0.35 (a small topic's first pages are nearly all on topic, a big one's too).
 */
export const MIN_JUDGED = 200;
export const MIN_EACH = 10;
/**
 * The resampled interval of what is left is widened by this factor each way: resampling shows how unsure the curve
 * is, not how wrong its shape can be. At 2 the truth of the tuning topics fell inside the interval at 44 of their 48
 * points at 500, 1,000 and 2,000 pages, and at 82% of every point from 200 pages on (docs/recall.md).
 */
export const MODEL_SPREAD = 2;
/** An estimate whose interval is wider than this says nothing: "not enough to estimate yet" instead. */
export const MAX_WIDTH = 0.6;
/** Resamplings of the verdicts for the interval, and the quantiles taken of them. */
const RESAMPLES = 30;
const LOW_Q = 0.1;
const HIGH_Q = 0.9;

export const binOf = (logOdds: number): number => Math.min(LAST_BIN, Math.max(FIRST_BIN, Math.floor(logOdds / RECALL_BIN)));
const centreOf = (bin: number): number => (bin + 0.5) * RECALL_BIN;

/**
 * The priorities between the bins, lowest first, for counting the queue by them: `edges.length + 1` counts, the first
 * below `edges[0]`, the last at or above the last edge. Bin i of the counts is bin `FIRST_BIN + i`.
 */
export const QUEUE_EDGES: readonly number[] = Array.from({ length: LAST_BIN - FIRST_BIN }, (_, i) => (FIRST_BIN + 1 + i) * RECALL_BIN);

/** The calibration with one more judged page taken at `logOdds` (a new object; `taken` is not changed). */
export function withTaken(taken: TakenBins, logOdds: number, relevant: boolean): TakenBins {
  const key = String(binOf(logOdds));
  const [n, on] = taken[key] ?? [0, 0];
  return { ...taken, [key]: [n + 1, on + (relevant ? 1 : 0)] };
}

/** The chance a link of some log-odds leads on topic: c * logistic(a + b * logOdds). */
export interface Calibration {
  a: number;
  b: number;
  c: number;
}

export const chanceAt = (cal: Calibration, logOdds: number): number => cal.c * logistic(cal.a + cal.b * logOdds);

interface Bin {
  x: number;
  n: number;
  on: number;
}

const binsOf = (taken: TakenBins): Bin[] =>
  Object.entries(taken).filter(([, [n]]) => n > 0).map(([k, [n, on]]) => ({ x: centreOf(Number(k)), n, on }));

// The fit maximizes the verdicts' likelihood with weak priors: a ~ N(0, 10), b ~ N(1, 1) (the classifier's log-odds
// as they are), logit(c) ~ N(3, 10). The prior on b keeps a fit on a narrow range of log-odds from a wild slope.
const PRIOR = { a: [0, 100], b: [1, 1], g: [3, 100] } as const;

function logLikelihood(bins: readonly Bin[], [a, b, g]: readonly number[]): number {
  const c = logistic(g!);
  let ll = -((a! - PRIOR.a[0]) ** 2) / (2 * PRIOR.a[1]) - ((b! - PRIOR.b[0]) ** 2) / (2 * PRIOR.b[1]) - ((g! - PRIOR.g[0]) ** 2) / (2 * PRIOR.g[1]);
  for (const { x, n, on } of bins) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, c * logistic(a! + b! * x)));
    ll += on * Math.log(p) + (n - on) * Math.log(1 - p);
  }
  return ll;
}

/** The penalized likelihood's gradient and Hessian in (a, b, logit c). */
function derivatives(bins: readonly Bin[], [a, b, g]: readonly number[]): { grad: number[]; hess: number[][] } {
  const c = logistic(g!);
  const grad = [-(a! - PRIOR.a[0]) / PRIOR.a[1], -(b! - PRIOR.b[0]) / PRIOR.b[1], -(g! - PRIOR.g[0]) / PRIOR.g[1]];
  const hess = [[-1 / PRIOR.a[1], 0, 0], [0, -1 / PRIOR.b[1], 0], [0, 0, -1 / PRIOR.g[1]]];
  for (const { x, n, on } of bins) {
    const s = logistic(a! + b! * x);
    const p = Math.min(1 - 1e-12, Math.max(1e-12, c * s));
    // The likelihood's first and second derivatives in p, and p's in the parameters.
    const d1 = on / p - (n - on) / (1 - p);
    const d2 = -on / (p * p) - (n - on) / ((1 - p) * (1 - p));
    const q = c * s * (1 - s);
    const dp = [q, q * x, s * c * (1 - c)];
    const qq = q * (1 - 2 * s);
    const cross = s * (1 - s) * c * (1 - c);
    const ddp = [[qq, qq * x, cross], [qq * x, qq * x * x, cross * x], [cross, cross * x, s * c * (1 - c) * (1 - 2 * c)]];
    for (let i = 0; i < 3; i++) {
      grad[i]! += d1 * dp[i]!;
      for (let j = 0; j < 3; j++) hess[i]![j]! += d2 * dp[i]! * dp[j]! + d1 * ddp[i]![j]!;
    }
  }
  return { grad, hess };
}

/** Solves the 3x3 system h d = g (null when it is singular). */
function solve3(h: number[][], g: number[]): number[] | null {
  const m = h.map((row, i) => [...row, g[i]!]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let r = col + 1; r < 3; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let k = col; k < 4; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  return m.map((row, i) => row[3]! / row[i]!);
}

/**
 * The calibration that best explains the judged pages: Newton's method on the penalized likelihood, from a few
 * starting points (a flat curve, c alone, is a local top the climb can end on), the best of them kept.
 */
export function fitCalibration(taken: TakenBins, from?: Calibration): Calibration {
  const bins = binsOf(taken);
  const starts = from ? [[from.a, from.b, logit(from.c)]] : START_A.map((a) => [a, 1, 3]);
  let best = { theta: starts[0]!, ll: -Infinity };
  for (const start of starts) {
    const fit = climb(bins, start);
    if (fit.ll > best.ll) best = fit;
  }
  const [a, b, g] = best.theta;
  return { a: a!, b: b!, c: logistic(g!) };
}

const logit = (p: number): number => Math.log(Math.max(p, 1e-12) / Math.max(1 - p, 1e-12));

/** Where the fit starts: the curve's midpoint at log-odds 4, 2, 0, -2 (b = 1). */
const START_A = [-4, -2, 0, 2];

function climb(bins: readonly Bin[], start: number[]): { theta: number[]; ll: number } {
  let theta = start;
  let ll = logLikelihood(bins, theta);
  for (let it = 0; it < 100; it++) {
    const { grad: g, hess: h } = derivatives(bins, theta);
    // Newton's step on -H (the likelihood is concave near its top); a gradient step where that is not a way up.
    let dir = solve3(h.map((row) => row.map((v) => -v)), g);
    if (!dir || dir.reduce((s, d, k) => s + d * g[k]!, 0) <= 0) dir = g.map((v) => v / Math.max(1, Math.hypot(...g)));
    let t = 1;
    let next = theta;
    let nextLl = ll;
    for (let k = 0; k < 30; k++, t /= 2) {
      const cand = theta.map((v, j) => v + t * dir[j]!);
      const candLl = logLikelihood(bins, cand);
      if (candLl > ll) {
        next = cand;
        nextLl = candLl;
        break;
      }
    }
    const moved = Math.max(...next.map((v, j) => Math.abs(v - theta[j]!)));
    theta = next;
    const gained = nextLl - ll;
    ll = nextLl;
    if (moved < 1e-7 || gained < 1e-9) break;
  }
  return { theta, ll };
}

/** Expected on-topic URLs among the queued ones, counted by bin (`queued[i]` is bin FIRST_BIN + i). */
export function expectedOnTopic(cal: Calibration, queued: readonly number[]): number {
  let sum = 0;
  queued.forEach((count, i) => {
    if (count > 0) sum += count * chanceAt(cal, centreOf(FIRST_BIN + i));
  });
  return sum;
}

/** What an estimate is made from: the crawl's judged pages, its calibration and its queue counted by bin. */
export interface RecallInput {
  fetched: number;
  relevant: number;
  taken: TakenBins;
  queued: readonly number[];
}

export type RecallResult = { point: RecallPoint } | { note: string };

/** A binomial draw: exact for small n, by the normal approximation above. */
function binomial(n: number, p: number, rand: () => number): number {
  if (n <= 60) {
    let k = 0;
    for (let i = 0; i < n; i++) if (rand() < p) k++;
    return k;
  }
  // Box-Muller.
  const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Math.min(n, Math.max(0, Math.round(n * p + z * Math.sqrt(n * p * (1 - p)))));
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;

/**
 * Recall with its interval, or why there is none. Deterministic: the resampling is seeded by the count of pages, so
 * the same rows give the same figures.
 */
export function estimateRecall(input: RecallInput): RecallResult {
  const { fetched, relevant, taken, queued } = input;
  const judged = Object.values(taken).reduce((s, [n]) => s + n, 0);
  const takenRelevant = Object.values(taken).reduce((s, [, on]) => s + on, 0);
  if (fetched < MIN_JUDGED || judged < MIN_JUDGED / 2 || relevant < MIN_EACH || takenRelevant < MIN_EACH || judged - takenRelevant < MIN_EACH) {
    return { note: NOT_ENOUGH };
  }
  const cal = fitCalibration(taken);
  const left = expectedOnTopic(cal, queued);
  // The verdicts resampled, each bin's relevant count drawn from its own (smoothed) rate: the spread of what is left.
  const rand = mulberry32(fetched);
  const spread: number[] = [];
  for (let r = 0; r < RESAMPLES; r++) {
    const drawn: TakenBins = {};
    for (const [k, [n, on]] of Object.entries(taken)) drawn[k] = [n, binomial(n, (on + 0.5) / (n + 1), rand)];
    // Each resampling's fit climbs from the verdicts' own: the curve moves a little, not to another top.
    spread.push(expectedOnTopic(fitCalibration(drawn, cal), queued));
  }
  spread.sort((x, y) => x - y);
  const leftLow = quantile(spread, LOW_Q) / MODEL_SPREAD;
  const leftHigh = quantile(spread, HIGH_Q) * MODEL_SPREAD;
  const share = (l: number) => relevant / (relevant + l);
  const point = { fetched, estimate: share(left), low: share(Math.max(leftHigh, left)), high: share(Math.min(leftLow, left)) };
  if (point.high - point.low > MAX_WIDTH) return { note: NOT_ENOUGH };
  return { point };
}
