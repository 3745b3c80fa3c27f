// How the labels are divided for an evaluation (design A.6, A.8): a seeded stratified hold-out split and seeded
// stratified folds, either link by link or with all the links to one page kept on one side.
import { mulberry32, shuffled } from '../records/random';
import type { Label } from './naive-bayes';

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
export function unitsByClass(labels: readonly Label[], targets?: readonly string[]): [number[][], number[][]] {
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
