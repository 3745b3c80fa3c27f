// Binary Naive Bayes over binary (present/absent) features, design A.1-A.2.
//
//   P(+|F) = P(+) prod_j P(Fj|+) / sum_c P(c) prod_j P(Fj|c), over the features Fj present in F
//   P(Fj|c) = (Count(Fj,c) + alpha) / (Count_c + 2 alpha)    Count(Fj,c): class-c examples with Fj
//   P(c)    = (Count_c + 1) / (N + 2)                        Count_c: class-c examples, N = all examples
//
// Counts are document frequencies: a feature repeated within one example counts once. The smoothing
// (design A.2 leaves it open) is Laplace with a Bernoulli denominator: each feature is a coin per class,
// seen or not, hence the "2 alpha". Only features present in the link enter the product (the design's
// formula), and a feature never seen in either class is skipped: its smoothed likelihood would be
// alpha / (Count_c + 2 alpha) in both classes, which favours the *smaller* class without any evidence.
import { isCount, SavedModel } from './saved-model';

/**
 * Counts of one feature: learned examples (`pos`, `neg`), the fractional counts set from outside (`extraPos`,
 * `extraNeg`: the user's answers as answer-evidence.ts weighs them), and the cached
 * log(Count(F,+)+alpha) - log(Count(F,-)+alpha) of their sums.
 */
interface FeatureCounts {
  pos: number;
  neg: number;
  extraPos: number;
  extraNeg: number;
  weight: number;
}

/** Plain-JSON form, storable in IndexedDB and exportable. `features` rows are [feature, pos, neg]. */
export interface NaiveBayesJSON {
  kind: 'naive-bayes';
  version: 1;
  alpha: number;
  pos: number;
  neg: number;
  features: [string, number, number][];
}

export type Label = 0 | 1;

/** Logistic of a log-odds without overflow: exp() is only ever taken of a non-positive number. */
export function logistic(logOdds: number): number {
  if (logOdds >= 0) return 1 / (1 + Math.exp(-logOdds));
  const e = Math.exp(logOdds);
  return e / (1 + e);
}

export class NaiveBayes {
  readonly alpha: number;
  private pos = 0;
  private neg = 0;
  private extraPos = 0;
  private extraNeg = 0;
  private readonly counts = new Map<string, FeatureCounts>();
  /**
   * The features that start with each of the `prefixes` given to the constructor, by the rest of their name: the same
   * entries as `counts`, so that a caller holding a word can read the feature "a:" + word without making that string.
   */
  private readonly byPrefix = new Map<string, Map<string, FeatureCounts>>();
  // Reused by posterior() to deduplicate features without allocating a Set per scored link.
  private readonly scratch = new Set<string>();

  constructor(opts: { alpha?: number; prefixes?: readonly string[] } = {}) {
    const alpha = opts.alpha ?? 1;
    if (!(alpha > 0) || !Number.isFinite(alpha)) {
      throw new RangeError(`NaiveBayes: alpha must be a positive number, got ${alpha}`);
    }
    this.alpha = alpha;
    for (const prefix of opts.prefixes ?? []) this.byPrefix.set(prefix, new Map());
  }

  /** The prefixes indexed (`byPrefix`). */
  get prefixes(): string[] {
    return [...this.byPrefix.keys()];
  }

  /** Examples learned, per class (`learn`'s; the extra counts are not examples). */
  get examples(): { pos: number; neg: number } {
    return { pos: this.pos, neg: this.neg };
  }

  /** The class counts the model scores with: examples plus the extra counts. */
  get totals(): { pos: number; neg: number } {
    return { pos: this.pos + this.extraPos, neg: this.neg + this.extraNeg };
  }

  /** The counts of `feature` the model scores with, per class: examples that had it plus its extra counts. */
  countsOf(feature: string): { pos: number; neg: number } {
    const c = this.counts.get(feature);
    return c ? { pos: c.pos + c.extraPos, neg: c.neg + c.extraNeg } : { pos: 0, neg: 0 };
  }

  /**
   * Sets the extra (possibly fractional) counts of `feature`, replacing those set before: evidence the model scores
   * with but does not save (toJSON), because its owner recomputes it (answer-evidence.ts).
   */
  setExtra(feature: string, pos: number, neg: number): void {
    if (!(pos >= 0 && neg >= 0)) throw new RangeError(`NaiveBayes.setExtra: counts must be non-negative, got ${pos}, ${neg}`);
    let c = this.counts.get(feature);
    if (!c) {
      if (pos === 0 && neg === 0) return;
      c = { pos: 0, neg: 0, extraPos: 0, extraNeg: 0, weight: 0 };
      this.put(feature, c);
    }
    c.extraPos = pos;
    c.extraNeg = neg;
    if (c.pos === 0 && c.neg === 0 && pos === 0 && neg === 0) this.drop(feature);
    else c.weight = this.featureWeight(c);
  }

  /** Sets the extra class counts (see `setExtra`). */
  setExtraClasses(pos: number, neg: number): void {
    if (!(pos >= 0 && neg >= 0)) throw new RangeError(`NaiveBayes.setExtraClasses: counts must be non-negative, got ${pos}, ${neg}`);
    this.extraPos = pos;
    this.extraNeg = neg;
  }

  /** Distinct features seen in training, in either class. */
  get vocabularySize(): number {
    return this.counts.size;
  }

  /** Learns one example, counted `times` times (a user's answer may weigh as several automatic labels). */
  learn(features: readonly string[], label: Label, times = 1): void {
    checkLabel(label);
    if (!Number.isInteger(times) || times < 1) throw new RangeError(`NaiveBayes.learn: times must be a positive integer, got ${times}`);
    for (const feature of new Set(features)) {
      let c = this.counts.get(feature);
      if (!c) {
        c = { pos: 0, neg: 0, extraPos: 0, extraNeg: 0, weight: 0 };
        this.put(feature, c);
      }
      if (label === 1) c.pos += times;
      else c.neg += times;
      c.weight = this.featureWeight(c);
    }
    if (label === 1) this.pos += times;
    else this.neg += times;
  }

  /**
   * Exact inverse of `learn(features, label)`: afterwards the model (and its JSON) is as if that example
   * had never been learned. Throws, changing nothing, if the example cannot have been learned.
   */
  unlearn(features: readonly string[], label: Label): void {
    checkLabel(label);
    const distinct = new Set(features);
    if ((label === 1 ? this.pos : this.neg) === 0) {
      throw new RangeError(`NaiveBayes.unlearn: no examples of class ${label} to remove`);
    }
    for (const feature of distinct) {
      const c = this.counts.get(feature);
      if (!c || (label === 1 ? c.pos : c.neg) === 0) {
        throw new RangeError(`NaiveBayes.unlearn: feature "${feature}" was never learned with class ${label}`);
      }
    }
    for (const feature of distinct) {
      const c = this.counts.get(feature)!;
      if (label === 1) c.pos--;
      else c.neg--;
      // Dropping emptied features keeps vocabularySize and toJSON() identical to never having learned.
      if (c.pos === 0 && c.neg === 0 && c.extraPos === 0 && c.extraNeg === 0) this.drop(feature);
      else c.weight = this.featureWeight(c);
    }
    if (label === 1) this.pos--;
    else this.neg--;
  }

  /**
   * The evidence of a feature present (log(Count(F,+)+a) - log(Count(F,-)+a), the term `logOdds` adds for it), or
   * undefined for one never seen; `prefix` must be one the model indexes, and the feature is `prefix + rest`.
   */
  weight(feature: string): number | undefined;
  weight(prefix: string, rest: string): number | undefined;
  weight(a: string, rest?: string): number | undefined {
    return rest === undefined ? this.counts.get(a)?.weight : this.byPrefix.get(a)!.get(rest)?.weight;
  }

  /**
   * `logOdds`' terms that depend on the classes alone: the prior log P(+)/P(-), and what each present feature seen in
   * training adds for the denominators. `logOdds(F)` is `prior + sum + (k === 0 ? 0 : k * denominator)`, evaluated in
   * that order, with `sum` the weights of F's k distinct seen features added in F's order.
   */
  classTerms(): { prior: number; denominator: number } {
    const a2 = 2 * this.alpha;
    const pos = this.pos + this.extraPos;
    const neg = this.neg + this.extraNeg;
    return { prior: Math.log(pos + 1) - Math.log(neg + 1), denominator: Math.log(neg + a2) - Math.log(pos + a2) };
  }

  /**
   * log P(+|F) - log P(-|F). Rewritten so scoring is one Map lookup and one addition per feature:
   *   log P(+)/P(-) + sum_j [log(Count(Fj,+)+a) - log(Count(Fj,-)+a)] + k [log(N- + 2a) - log(N+ + 2a)]
   * where k is the number of present features that were seen in training.
   */
  logOdds(features: readonly string[]): number {
    const seen = this.scratch;
    seen.clear();
    let sum = 0;
    let k = 0;
    for (const feature of features) {
      const c = this.counts.get(feature);
      if (c === undefined || seen.has(feature)) continue;
      seen.add(feature);
      sum += c.weight;
      k++;
    }
    seen.clear();
    const a2 = 2 * this.alpha;
    const pos = this.pos + this.extraPos;
    const neg = this.neg + this.extraNeg;
    const prior = Math.log(pos + 1) - Math.log(neg + 1);
    const denominators = k === 0 ? 0 : k * (Math.log(neg + a2) - Math.log(pos + a2));
    return prior + sum + denominators;
  }

  /**
   * The log-odds with each feature's evidence shrunk toward the base rate instead of Laplace smoothing:
   *   log-odds = logit(pi) + sum_j [logit(p_j) - logit(pi)],  p_j = (Count(Fj,+) + m pi) / (Count(Fj) + m)
   * where pi = P(+) and p_j is the m-estimate of P(+|Fj) (Cestnik 1990). Identical in form to Naive Bayes
   * (logit(p_j) - logit(pi) is log P(Fj|+)/P(Fj|-)), but a rare feature counts for little either way. With
   * Laplace's alpha/(Count_c + 2 alpha), when positives are a few percent a feature seen 10 times among
   * negatives and never among positives still favours the positive class (its smoothed P(F|+) is 1/(Count_+ + 2)).
   */
  logOddsShrunk(features: readonly string[], m: number): number {
    const seen = this.scratch;
    seen.clear();
    const { pos, neg } = this.totals;
    const pi = (pos + 1) / (pos + neg + 2);
    const base = Math.log(pi) - Math.log(1 - pi);
    let sum = 0;
    for (const feature of features) {
      const c = this.counts.get(feature);
      if (c === undefined || seen.has(feature)) continue;
      seen.add(feature);
      const p = (c.pos + c.extraPos + m * pi) / (c.pos + c.extraPos + c.neg + c.extraNeg + m);
      sum += Math.log(p) - Math.log(1 - p) - base;
    }
    seen.clear();
    return base + sum;
  }

  /** P(+|F). 0.5 for an untrained model or a link with no known feature and balanced classes. */
  posterior(features: readonly string[]): number {
    return logistic(this.logOdds(features));
  }

  /**
   * The n features that most favour `label`, by log-likelihood ratio log P(F|label) - log P(F|other).
   * Shows what the classifier has learned (e.g. in the dashboard).
   */
  topFeatures(label: Label, n: number): { feature: string; weight: number }[] {
    const a2 = 2 * this.alpha;
    const { pos, neg } = this.totals;
    const shift = Math.log(neg + a2) - Math.log(pos + a2);
    const sign = label === 1 ? 1 : -1;
    const ranked: { feature: string; weight: number }[] = [];
    for (const [feature, c] of this.counts) ranked.push({ feature, weight: sign * (c.weight + shift) });
    ranked.sort((x, y) => y.weight - x.weight || (x.feature < y.feature ? -1 : x.feature > y.feature ? 1 : 0));
    return ranked.slice(0, Math.max(0, n));
  }

  /** The learned examples; the extra counts are their owner's to save. */
  toJSON(): NaiveBayesJSON {
    const features: [string, number, number][] = [];
    for (const [feature, c] of this.counts) if (c.pos + c.neg > 0) features.push([feature, c.pos, c.neg]);
    return { kind: 'naive-bayes', version: 1, alpha: this.alpha, pos: this.pos, neg: this.neg, features };
  }

  /** Rebuilds a model from `toJSON()` output (e.g. read back from IndexedDB). Throws on a malformed value. */
  static fromJSON(j: unknown, opts: { prefixes?: readonly string[] } = {}): NaiveBayes {
    const saved = new SavedModel('NaiveBayes');
    const o = saved.fields(j, 'naive-bayes', 'naive-bayes model');
    if (typeof o.alpha !== 'number') return saved.fail('alpha is not a number');
    if (!isCount(o.pos) || !isCount(o.neg)) return saved.fail('pos/neg are not non-negative integers');
    const rows = saved.countRows(o.features, 'features', 'feature', { pos: o.pos, neg: o.neg });
    const model = new NaiveBayes({ alpha: o.alpha, prefixes: opts.prefixes });
    model.pos = o.pos;
    model.neg = o.neg;
    for (const [feature, pos, neg] of rows) {
      const c = { pos, neg, extraPos: 0, extraNeg: 0, weight: 0 };
      c.weight = model.featureWeight(c);
      model.put(feature, c);
    }
    return model;
  }

  private put(feature: string, c: FeatureCounts): void {
    this.counts.set(feature, c);
    for (const [prefix, index] of this.byPrefix) if (feature.startsWith(prefix)) index.set(feature.slice(prefix.length), c);
  }

  private drop(feature: string): void {
    this.counts.delete(feature);
    for (const [prefix, index] of this.byPrefix) if (feature.startsWith(prefix)) index.delete(feature.slice(prefix.length));
  }

  private featureWeight(c: FeatureCounts): number {
    return Math.log(c.pos + c.extraPos + this.alpha) - Math.log(c.neg + c.extraNeg + this.alpha);
  }
}

function checkLabel(label: unknown): void {
  if (label !== 0 && label !== 1) throw new RangeError(`NaiveBayes: label must be 0 or 1, got ${String(label)}`);
}
