// Offline evaluation of the link classifier on labeled links (design A.8): precision, recall, F1, accuracy and
// ROC AUC of the two feature groups of design A.3 side by side, on a seeded stratified hold-out split (7:3, as
// the paper splits its labeled links, design A.6) and by seeded stratified k-fold cross-validation; and the
// strongest features of a model trained on all the labels.
//
// Runs in the dashboard page on up to ~70,000 labels, so it is asynchronous and gives the event loop a turn
// every few tens of milliseconds, and k-fold does not retrain k models from scratch (see `CellModels`).
import { mulberry32, shuffled } from '../records/random';
import { LinkClassifier, type Evidence, type LinkClassifierJSON, type LinkText } from './link-classifier';
import { ANCHOR_DICT_FEATURE, CONTEXT_DICT_FEATURE, PARENT_OFF_FEATURE, PARENT_ON_FEATURE, SHAPE_PREFIX, type FeatureGroup } from './link-features';
import type { Label } from './naive-bayes';

export interface LabeledLinkText extends LinkText {
  label: Label;
}

export interface ClassCounts {
  pos: number;
  neg: number;
}

/** Outcomes on a test set for the positive (on-topic) class, a link predicted positive when P(+|F) >= threshold. */
export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/** Each figure is null where it is undefined, never NaN. */
export interface Figures {
  /** tp / (tp + fp); null when no link was predicted positive. */
  precision: number | null;
  /** tp / (tp + fn); null when the test set has no positive link. */
  recall: number | null;
  /** 2tp / (2tp + fp + fn), the harmonic mean of precision and recall; null when both are undefined. */
  f1: number | null;
  accuracy: number | null;
  /** ROC AUC: the chance that a random positive link outranks a random negative one (ties half); threshold-free. */
  auc: number | null;
}

export interface TestResult extends Figures {
  n: number;
  confusion: Confusion;
}

export type ByGroup<T> = Record<FeatureGroup, T>;

/** Why an evaluation could not run, as a sentence for the user. */
export interface Problem {
  ok: false;
  problem: string;
}

export type HoldoutReport =
  | Problem
  | { ok: true; seed: number; trainFraction: number; byTarget: boolean; train: ClassCounts; test: ClassCounts; groups: ByGroup<TestResult> };

export interface FoldResult {
  test: ClassCounts;
  groups: ByGroup<TestResult>;
}

export type CrossValidationReport =
  | Problem
  | { ok: true; seed: number; k: number; byTarget: boolean; folds: FoldResult[]; mean: ByGroup<Figures>; sd: ByGroup<Figures> };

export interface ReadableFeature {
  /** The model's feature string (`a:stock`, `c:market`, `A:dict`, `C:dict`). */
  feature: string;
  /** The same in words: anchor "stock", context "market", anchor has a keyword word. */
  text: string;
  /** log P(F|class) - log P(F|other class). */
  weight: number;
  /** Labeled links (keyword pseudo-examples not counted) of each class that have the feature. */
  pos: number;
  neg: number;
}

export interface TopFeatures {
  positive: ReadableFeature[];
  negative: ReadableFeature[];
}

export interface EvaluationOptions<T extends LabeledLinkText = LabeledLinkText> {
  /** The topic keywords: the classifier's domain dictionary (design A.3) and its cold-start pseudo-examples. */
  keywords: readonly string[];
  /**
   * The page a link points to (its URL). When given, all links to one page stay on the same side of the
   * split and in the same fold, so no page is both learned from and tested on. Many links point to the same
   * page, usually with the same anchor, and a split of links alone then tests partly on pages the model has
   * already seen through other links: it measures recognition of known pages, not prediction for new ones.
   */
  targetOf?: (link: T) => string;
  evidence?: Evidence;
  alpha?: number;
  /** Seed of the split and of the fold assignment; the same seed gives the same figures. Default 1. */
  seed?: number;
  /** Training share of the hold-out split. Default 0.7 (design A.6). */
  trainFraction?: number;
  /** k of k-fold cross-validation. Default 5. */
  folds?: number;
  /** A link is predicted on topic when P(+|F) >= threshold. Default 0.5. */
  threshold?: number;
  /** Features listed per class. Default 10. */
  topFeatures?: number;
}

export interface EvaluationReport {
  labels: ClassCounts;
  holdout: HoldoutReport;
  crossValidation: CrossValidationReport;
  /** Of a group-2 model trained on every label; null without labels. */
  topFeatures: TopFeatures | null;
  ms: number;
}

const GROUPS: readonly FeatureGroup[] = [1, 2];

/** Hold-out split, k-fold cross-validation and the top features, sharing one learning pass per feature group. */
export async function evaluateLinks<T extends LabeledLinkText>(examples: readonly T[], opts: EvaluationOptions<T>): Promise<EvaluationReport> {
  const t0 = now();
  const { holdout, crossValidation, full } = await run(examples, opts, { holdout: true, crossValidation: true });
  const topFeatures = full ? topFeaturesOf(full, opts.topFeatures ?? 10) : null;
  return { labels: countClasses(examples), holdout, crossValidation, topFeatures, ms: now() - t0 };
}

/** Both feature groups trained on a seeded stratified share of the labels and tested on the rest. */
export async function evaluateHoldout<T extends LabeledLinkText>(examples: readonly T[], opts: EvaluationOptions<T>): Promise<HoldoutReport> {
  return (await run(examples, opts, { holdout: true, crossValidation: false })).holdout;
}

/** Both feature groups by seeded stratified k-fold cross-validation: every label is tested exactly once. */
export async function crossValidate<T extends LabeledLinkText>(examples: readonly T[], opts: EvaluationOptions<T>): Promise<CrossValidationReport> {
  return (await run(examples, opts, { holdout: false, crossValidation: true })).crossValidation;
}

// ---- splits ----

/**
 * A stratified split of example indices. Each class is shuffled (one seeded PRNG, positives first) and its
 * first round(trainFraction * n) go to training, but at least one and at most n - 1 when the class has two
 * or more, so both sides see both classes. With `targets` (the target page of each example), the links to
 * one page move together: pages are shuffled and taken until the class's training share of links is
 * reached, each page counting in the class of most of its links. Indices come back in ascending order.
 */
export function stratifiedSplit(
  labels: readonly Label[],
  trainFraction = 0.7,
  seed = 1,
  targets?: readonly string[],
): { train: number[]; test: number[] } {
  if (!(trainFraction > 0 && trainFraction < 1)) throw new RangeError(`trainFraction must be in (0, 1), got ${trainFraction}`);
  const rand = mulberry32(seed);
  const train: number[] = [];
  const test: number[] = [];
  for (const classUnits of unitsByClass(labels, targets)) {
    const order = shuffled(classUnits, rand);
    const wanted = Math.round(trainFraction * order.reduce((a, u) => a + u.length, 0));
    let nTrain = 0;
    for (let taken = 0; nTrain < order.length && taken < wanted; nTrain++) taken += order[nTrain]!.length;
    if (order.length >= 2) nTrain = Math.min(order.length - 1, Math.max(1, nTrain));
    order.forEach((unit, u) => (u < nTrain ? train : test).push(...unit));
  }
  return { train: train.sort((a, b) => a - b), test: test.sort((a, b) => a - b) };
}

/**
 * The fold (0..k-1) of each example for stratified k-fold. Each class is shuffled (one seeded PRNG, positives
 * first) and each example, or with `targets` the links to each page, goes to the fold with the fewest of its class so far,
 * then the fewest overall, then the lowest number. Without groups that is a round-robin deal in which the
 * negatives continue where the positives stopped: every fold holds floor or ceil of n_c / k of each class,
 * and fold sizes differ by at most one.
 */
export function stratifiedFolds(labels: readonly Label[], k: number, seed = 1, targets?: readonly string[]): number[] {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`k must be an integer >= 2, got ${k}`);
  const rand = mulberry32(seed);
  const fold = new Array<number>(labels.length);
  const total = new Array<number>(k).fill(0);
  for (const classUnits of unitsByClass(labels, targets)) {
    const ofClass = new Array<number>(k).fill(0);
    for (const unit of shuffled(classUnits, rand)) {
      let best = 0;
      for (let f = 1; f < k; f++) {
        if (ofClass[f]! < ofClass[best]! || (ofClass[f] === ofClass[best] && total[f]! < total[best]!)) best = f;
      }
      for (const i of unit) fold[i] = best;
      ofClass[best]! += unit.length;
      total[best]! += unit.length;
    }
  }
  return fold;
}

/**
 * What a split moves, as lists of example indices: each example alone, or all the examples with the same
 * target; positives' units first, then negatives'. A target is in the class of most of its links (ties
 * positive).
 */
function unitsByClass(labels: readonly Label[], targets?: readonly string[]): [number[][], number[][]] {
  const units: number[][] = [];
  if (!targets) labels.forEach((_, i) => units.push([i]));
  else {
    const byTarget = new Map<string, number[]>();
    targets.forEach((target, i) => {
      const unit = byTarget.get(target);
      if (unit) unit.push(i);
      else byTarget.set(target, [i]);
    });
    units.push(...byTarget.values());
  }
  const pos: number[][] = [];
  const neg: number[][] = [];
  for (const unit of units) {
    const positives = unit.reduce((a, i) => a + labels[i]!, 0);
    (2 * positives >= unit.length ? pos : neg).push(unit);
  }
  return [pos, neg];
}

// ---- figures ----

/** Precision, recall, F1, accuracy and AUC of scored test links. `rank` orders them (AUC); `score` is P(+|F). */
export function testResult(scored: readonly { label: Label; score: number; rank: number }[], threshold = 0.5): TestResult {
  const confusion: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const s of scored) {
    if (s.score >= threshold) s.label === 1 ? confusion.tp++ : confusion.fp++;
    else s.label === 1 ? confusion.fn++ : confusion.tn++;
  }
  return { n: scored.length, confusion, ...figuresOf(confusion), auc: rocAuc(scored) };
}

export function figuresOf({ tp, fp, fn, tn }: Confusion): Omit<Figures, 'auc'> {
  const share = (a: number, b: number): number | null => (b > 0 ? a / b : null);
  return { precision: share(tp, tp + fp), recall: share(tp, tp + fn), f1: share(2 * tp, 2 * tp + fp + fn), accuracy: share(tp + tn, tp + fp + fn + tn) };
}

/**
 * Area under the ROC curve by the rank-sum (Mann-Whitney U) formula, ties counting half; null unless both
 * classes occur. Ranked by log-odds rather than the posterior, which rounds to 1.0 for confident links.
 */
export function rocAuc(scored: readonly { label: Label; rank: number }[]): number | null {
  const sorted = [...scored].sort((x, y) => x.rank - y.rank);
  let rankSum = 0;
  let pos = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.rank === sorted[i]!.rank) j++;
    const midRank = (i + 1 + j) / 2;
    for (let m = i; m < j; m++) if (sorted[m]!.label === 1) (rankSum += midRank, pos++);
    i = j;
  }
  const neg = sorted.length - pos;
  return pos > 0 && neg > 0 ? (rankSum - (pos * (pos + 1)) / 2) / (pos * neg) : null;
}

const FIGURES: readonly (keyof Figures)[] = ['precision', 'recall', 'f1', 'accuracy', 'auc'];

/** Mean and sample standard deviation of each figure over the folds where it is defined. */
function summarize(results: readonly Figures[]): { mean: Figures; sd: Figures } {
  const mean = {} as Figures;
  const sd = {} as Figures;
  for (const key of FIGURES) {
    const xs = results.map((r) => r[key]).filter((x): x is number => x !== null);
    const m = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
    mean[key] = m;
    sd[key] = m !== null && xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)) : null;
  }
  return { mean, sd };
}

// ---- features in words ----

/** The hub buckets of link-features.ts (`hubBucket`) in words. */
const HUB_SHARES = ['never', 'under half as often as the labeled pages do', 'under as often as the labeled pages do',
  'up to twice as often as the labeled pages do', 'two to four times as often as the labeled pages do', 'four times as often as the labeled pages do or more'];

/** The anchor-shape codes of link-features.ts (`anchorShape`) as the shape of a word. */
const SHAPE_WORDS: Record<string, string> = { Aa: 'Xxx', a: 'xxx', A: 'XXX', '0': '123', '+': '…' };

/** `a:word` -> anchor "word", `c:word` -> context "word", the two dictionary flags of design A.3, and the others Focus adds. */
export function describeFeature(feature: string): string {
  if (feature === ANCHOR_DICT_FEATURE) return 'anchor has a keyword word';
  if (feature === CONTEXT_DICT_FEATURE) return 'context has a keyword word';
  if (feature.startsWith('a:')) return `anchor "${feature.slice(2)}"`;
  if (feature.startsWith('c:')) return `context "${feature.slice(2)}"`;
  if (feature === PARENT_ON_FEATURE) return 'on a page judged on topic';
  if (feature === PARENT_OFF_FEATURE) return 'on a page judged off topic';
  const hub = /^H:(on|off|)([0-5])$/.exec(feature);
  if (hub) {
    const page = hub[1] === 'on' ? 'on an on-topic page' : hub[1] === 'off' ? 'on an off-topic page' : 'on a page';
    return `${page} whose links to labeled pages lead on topic ${HUB_SHARES[Number(hub[2])]}`;
  }
  if (feature.startsWith(SHAPE_PREFIX)) {
    const words = feature.slice(SHAPE_PREFIX.length).split(' ').map((w) => SHAPE_WORDS[w] ?? w);
    return `anchor shaped like "${words.join(' ')}"`;
  }
  return feature;
}

/** The `n` strongest features of each class, in words, with how many labeled links of each class have them. */
export function topFeaturesOf(classifier: LinkClassifier, n: number): TopFeatures {
  const positive = classifier.topFeatures(1, n);
  const negative = classifier.topFeatures(0, n);
  const counts = labeledCounts(classifier.toJSON(), new Set([...positive, ...negative].map((f) => f.feature)));
  const readable = ({ feature, weight }: { feature: string; weight: number }): ReadableFeature => {
    const [pos, neg] = counts.get(feature) ?? [0, 0];
    return { feature, text: describeFeature(feature), weight, pos, neg };
  };
  return { positive: positive.map(readable), negative: negative.map(readable) };
}

// ---- the evaluation ----

const NOT_ASKED: Problem = { ok: false, problem: 'not asked for' };

/**
 * Every label is learned once per feature group, into the model of its cell: (its fold, its side of the
 * hold-out split). The hold-out training model, each fold's model and the model of all labels are then
 * assembled from the cells (see `CellModels`), so the work is one learning pass and 1 + (1 - trainFraction)
 * scoring passes over the labels per group, whatever k is.
 */
async function run<T extends LabeledLinkText>(
  examples: readonly T[],
  opts: EvaluationOptions<T>,
  want: { holdout: boolean; crossValidation: boolean },
): Promise<{ holdout: HoldoutReport; crossValidation: CrossValidationReport; full: LinkClassifier | null }> {
  const slicer = new TimeSlicer();
  const labels = examples.map((e) => e.label);
  const targetOf = opts.targetOf;
  const targets = targetOf ? examples.map((e) => targetOf(e)) : undefined;
  const byTarget = targets !== undefined;
  // What the split moves (links, or the links to one page) per class: both sides need one of each class.
  const [posUnits, negUnits] = unitsByClass(labels, targets);
  const have = { pos: posUnits.length, neg: negUnits.length };
  const seed = opts.seed ?? 1;
  const trainFraction = opts.trainFraction ?? 0.7;
  const k = opts.folds ?? 5;

  let holdout: HoldoutReport = NOT_ASKED;
  let inTest: boolean[] | null = null;
  if (want.holdout && (have.pos < 2 || have.neg < 2)) holdout = { ok: false, problem: tooFew(2, 'to evaluate', have, byTarget) };
  else if (want.holdout) {
    inTest = new Array<boolean>(examples.length).fill(false);
    for (const i of stratifiedSplit(labels, trainFraction, seed, targets).test) inTest[i] = true;
  }
  let crossValidation: CrossValidationReport = NOT_ASKED;
  let foldOf: number[] | null = null;
  if (want.crossValidation && (have.pos < k || have.neg < k)) {
    crossValidation = { ok: false, problem: tooFew(k, `for ${k}-fold cross-validation`, have, byTarget) };
  } else if (want.crossValidation) foldOf = stratifiedFolds(labels, k, seed, targets);
  if (examples.length === 0) return { holdout, crossValidation, full: null };

  // Cell of example i: 2 * fold + (1 if in the hold-out test set).
  const cellOf = examples.map((_, i) => 2 * (foldOf?.[i] ?? 0) + (inTest?.[i] ? 1 : 0));
  const holdoutGroups = {} as ByGroup<TestResult>;
  const foldGroups: ByGroup<TestResult>[] = foldOf ? Array.from({ length: k }, () => ({}) as ByGroup<TestResult>) : [];
  let full: LinkClassifier | null = null;
  for (const group of GROUPS) {
    const cells = await CellModels.learn(examples, cellOf, 2 * (foldOf ? k : 1), opts, group, slicer);
    if (inTest) {
      const test = examples.filter((_, i) => inTest![i]);
      const model = await slicer.after(() => cells.model((cell) => cell % 2 === 1));
      holdoutGroups[group] = testResult(await scoreAll(model, test, slicer), opts.threshold);
    }
    for (let f = 0; foldOf && f < k; f++) {
      const test = examples.filter((_, i) => foldOf![i] === f);
      const model = await slicer.after(() => cells.model((cell) => cell >> 1 === f));
      foldGroups[f]![group] = testResult(await scoreAll(model, test, slicer), opts.threshold);
    }
    if (group === 2) full = await slicer.after(() => cells.model(() => false));
  }

  if (inTest) {
    const train = examples.filter((_, i) => !inTest![i]);
    const test = examples.filter((_, i) => inTest![i]);
    holdout = { ok: true, seed, trainFraction, byTarget, train: countClasses(train), test: countClasses(test), groups: holdoutGroups };
  }
  if (foldOf) {
    const folds = foldGroups.map((groups, f) => ({ test: countClasses(examples.filter((_, i) => foldOf![i] === f)), groups }));
    const mean = {} as ByGroup<Figures>;
    const sd = {} as ByGroup<Figures>;
    for (const group of GROUPS) ({ mean: mean[group], sd: sd[group] } = summarize(folds.map((f) => f.groups[group])));
    crossValidation = { ok: true, seed, k, byTarget, folds, mean, sd };
  }
  return { holdout, crossValidation, full };
}

/**
 * Models of unions of cells without learning any label twice: every label is learned once, into the model
 * of its own cell; the model of "every cell but those left out" is then assembled from the counts, the total
 * minus the left-out cells. Naive Bayes counts are additive, so this is exactly the model that learning
 * those labels gives (a unit test holds it to that); the alternative, k-fold by retraining, learns every label
 * k - 1 times. The keyword pseudo-examples every new LinkClassifier learns (see its constructor) are counted
 * once, not once per cell. Counts are kept in arrays indexed by feature, so assembling a model of a
 * 100,000-feature vocabulary is a few array sums.
 */
class CellModels {
  private constructor(
    private readonly template: LinkClassifierJSON,
    private readonly features: string[],
    /** Per cell: examples of each class, and per feature the count of each class (pseudo-examples excluded). */
    private readonly cells: CellCounts[],
    /** Every cell plus the pseudo-examples: the model of all labels. */
    private readonly total: CellCounts,
  ) {}

  static async learn<T extends LabeledLinkText>(
    examples: readonly T[],
    cellOf: readonly number[],
    nCells: number,
    opts: EvaluationOptions<T>,
    group: FeatureGroup,
    slicer: TimeSlicer,
  ): Promise<CellModels> {
    const classifiers = Array.from({ length: nCells }, () => newClassifier(opts, group));
    await slicer.each(examples, (e, i) => classifiers[cellOf[i]!]!.learn(e, e.label));
    const template = newClassifier(opts, group).toJSON();
    // Feature ids: the pseudo-examples' features first, so they are ids 0..nSeed-1.
    const idOf = new Map<string, number>();
    const features: string[] = [];
    const cellModels: LinkClassifierJSON['model'][] = [];
    for (const [f] of template.model.features) (idOf.set(f, features.length), features.push(f));
    for (const c of classifiers) {
      await slicer.after(() => {
        const model = c.toJSON().model;
        for (const [f] of model.features) if (!idOf.has(f)) (idOf.set(f, features.length), features.push(f));
        cellModels.push(model);
      });
    }
    const nSeed = template.model.features.length;
    const counts = (model: LinkClassifierJSON['model']): CellCounts => {
      const featurePos = new Int32Array(features.length);
      const featureNeg = new Int32Array(features.length);
      for (const [f, p, n] of model.features) (featurePos[idOf.get(f)!] = p, featureNeg[idOf.get(f)!] = n);
      return { pos: model.pos, neg: model.neg, featurePos, featureNeg };
    };
    const seed = counts(template.model);
    const total = counts(template.model);
    const cells: CellCounts[] = [];
    for (const model of cellModels) {
      const cell = await slicer.after(() => counts(model));
      // Each cell's classifier learned the pseudo-examples too: take them out, then add the cell to the total.
      cell.pos -= seed.pos;
      cell.neg -= seed.neg;
      for (let id = 0; id < nSeed; id++) (cell.featurePos[id]! -= seed.featurePos[id]!, cell.featureNeg[id]! -= seed.featureNeg[id]!);
      total.pos += cell.pos;
      total.neg += cell.neg;
      addInto(total, cell, 1);
      cells.push(cell);
    }
    return new CellModels(template, features, cells, total);
  }

  /** The model trained on the labels of every cell for which `leftOut` is false. */
  model(leftOut: (cell: number) => boolean): LinkClassifier {
    const out = this.cells.filter((_, cell) => leftOut(cell));
    const kept: CellCounts = { ...this.total, featurePos: this.total.featurePos.slice(), featureNeg: this.total.featureNeg.slice() };
    for (const o of out) {
      kept.pos -= o.pos;
      kept.neg -= o.neg;
      addInto(kept, o, -1);
    }
    const { pos, neg, featurePos, featureNeg } = kept;
    const rows: [string, number, number][] = [];
    for (let id = 0; id < featurePos.length; id++) {
      if (featurePos[id]! + featureNeg[id]! > 0) rows.push([this.features[id]!, featurePos[id]!, featureNeg[id]!]);
    }
    return LinkClassifier.fromJSON({ ...this.template, model: { ...this.template.model, pos, neg, features: rows } });
  }
}

/** Class totals and per-feature counts of each class, indexed by feature id: a Naive Bayes model's sufficient statistics. */
interface CellCounts {
  pos: number;
  neg: number;
  featurePos: Int32Array;
  featureNeg: Int32Array;
}

function addInto(into: CellCounts, from: CellCounts, sign: 1 | -1): void {
  for (let id = 0; id < into.featurePos.length; id++) {
    into.featurePos[id]! += sign * from.featurePos[id]!;
    into.featureNeg[id]! += sign * from.featureNeg[id]!;
  }
}

/** [pos, neg] counts of `wanted` features among the labeled links a model learned (pseudo-examples not counted). */
function labeledCounts(json: LinkClassifierJSON, wanted: ReadonlySet<string>): Map<string, [number, number]> {
  const seed = new Map<string, [number, number]>();
  if (json.seeded) {
    const fresh = new LinkClassifier(json.keywords, { group: json.group, alpha: json.model.alpha, evidence: json.evidence });
    for (const [f, p, n] of fresh.toJSON().model.features) seed.set(f, [p, n]);
  }
  const counts = new Map<string, [number, number]>();
  for (const [f, p, n] of json.model.features) {
    if (!wanted.has(f)) continue;
    const s = seed.get(f);
    counts.set(f, [p - (s?.[0] ?? 0), n - (s?.[1] ?? 0)]);
  }
  return counts;
}

// ---- training and scoring ----

function newClassifier(opts: { keywords: readonly string[]; alpha?: number; evidence?: Evidence }, group: FeatureGroup): LinkClassifier {
  return new LinkClassifier(opts.keywords, { group, alpha: opts.alpha, evidence: opts.evidence });
}

async function scoreAll(classifier: LinkClassifier, test: readonly LabeledLinkText[], slicer: TimeSlicer) {
  const scored: { label: Label; score: number; rank: number }[] = [];
  await slicer.each(test, (e) => {
    const { logOdds, score } = classifier.rank(e);
    scored.push({ label: e.label, score, rank: logOdds });
  });
  return scored;
}

function countClasses(examples: readonly { label: Label }[]): ClassCounts {
  let pos = 0;
  for (const e of examples) if (e.label === 1) pos++;
  return { pos, neg: examples.length - pos };
}

function tooFew(min: number, purpose: string, have: ClassCounts, byTarget: boolean): string {
  const what = byTarget ? 'links to at least' : 'at least';
  const unit = byTarget ? 'different pages' : 'links';
  return `label ${what} ${min} ${unit} of each class ${purpose} (now ${have.pos} on topic, ${have.neg} off topic)`;
}

// ---- staying responsive ----

const now = (): number => performance.now();

/**
 * Runs loops in slices, giving the event loop a turn (a macrotask) whenever a slice has run for `sliceMs`,
 * so the dashboard page keeps painting and handling input during a long evaluation.
 */
class TimeSlicer {
  private sliceStart = now();
  constructor(private readonly sliceMs = 40) {}

  async each<T>(items: readonly T[], fn: (item: T, index: number) => void): Promise<void> {
    const CHUNK = 256; // look at the clock every CHUNK items, not every item
    for (let start = 0; start < items.length; start += CHUNK) {
      const end = Math.min(items.length, start + CHUNK);
      for (let i = start; i < end; i++) fn(items[i]!, i);
      await this.maybePause();
    }
  }

  /** Runs one step that cannot be sliced (e.g. assembling a model), then pauses if the slice is used up. */
  async after<T>(step: () => T): Promise<T> {
    const result = step();
    await this.maybePause();
    return result;
  }

  private async maybePause(): Promise<void> {
    if (now() - this.sliceStart < this.sliceMs) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.sliceStart = now();
  }
}
