// The figures of an evaluation (design A.8): a test set's confusion, precision, recall, F1 and accuracy at a
// threshold, the threshold-free ROC AUC, and their mean and spread over the folds of a cross-validation.
import type { Label } from './naive-bayes';

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
export function summarize(results: readonly Figures[]): { mean: Figures; sd: Figures } {
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
