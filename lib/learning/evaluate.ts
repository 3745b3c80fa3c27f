// Offline evaluation of the link classifier on labeled links (design A.8): precision, recall, F1, accuracy and
// ROC AUC of the two feature groups of design A.3 side by side, on a seeded stratified hold-out split (7:3, as
// the paper splits its labeled links, design A.6) and by seeded stratified k-fold cross-validation; and the
// strongest features of a model trained on all the labels.
//
// Runs in the dashboard page on up to ~70,000 labels, so it is asynchronous and gives the event loop a turn
// every few tens of milliseconds, and k-fold does not retrain k models from scratch (see `CellModels`).
import { CellModels } from './cell-models';
import { summarize, testResult, type Figures, type TestResult } from './evaluation-metrics';
import { stratifiedFolds, stratifiedSplit, unitsByClass } from './evaluation-splits';
import { topFeaturesOf, type TopFeatures } from './feature-wording';
import type { Evidence, LinkClassifier, LinkText } from './link-classifier';
import type { FeatureGroup } from './link-features';
import type { Label } from './naive-bayes';
import { now, TimeSlicer } from './time-slicer';

export interface LabeledLinkText extends LinkText {
  label: Label;
}

export interface ClassCounts {
  pos: number;
  neg: number;
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

// ---- scoring ----

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
