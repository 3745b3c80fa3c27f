import { describe, expect, it } from 'vitest';
import { NaiveBayes, logistic } from '../../lib/learning/naive-bayes';

// Toy training set, alpha = 1 (Laplace):
//   +  {stock, market}   +  {stock, price}   +  {bank}
//   -  {football, market}                    -  {music}
// N+ = 3, N- = 2, N = 5.
// Priors:  P(+) = (3+1)/(5+2) = 4/7,  P(-) = (2+1)/(5+2) = 3/7.
// Likelihoods P(F|c) = (Count(F,c) + 1) / (N_c + 2):
//   stock:    P(.|+) = (2+1)/5 = 3/5   P(.|-) = (0+1)/4 = 1/4
//   market:   P(.|+) = (1+1)/5 = 2/5   P(.|-) = (1+1)/4 = 1/2
//   football: P(.|+) = (0+1)/5 = 1/5   P(.|-) = (1+1)/4 = 1/2
function toyModel(): NaiveBayes {
  const nb = new NaiveBayes();
  nb.learn(['stock', 'market'], 1);
  nb.learn(['stock', 'price'], 1);
  nb.learn(['bank'], 1);
  nb.learn(['football', 'market'], 0);
  nb.learn(['music'], 0);
  return nb;
}

describe('NaiveBayes (design A.1-A.2)', () => {
  it('returns 0.5 before any training', () => {
    const nb = new NaiveBayes();
    expect(nb.posterior([])).toBe(0.5);
    expect(nb.posterior(['anything'])).toBe(0.5);
    expect(nb.logOdds(['anything'])).toBe(0);
  });

  it('matches hand-computed posteriors', () => {
    const nb = toyModel();
    // {stock}: odds = (4/7 * 3/5) / (3/7 * 1/4) = (12/35) / (3/28) = 16/5 -> P = 16/21
    expect(nb.posterior(['stock'])).toBeCloseTo(16 / 21, 12);
    // {stock, market}: odds = 16/5 * (2/5)/(1/2) = 16/5 * 4/5 = 64/25 -> P = 64/89
    expect(nb.posterior(['stock', 'market'])).toBeCloseTo(64 / 89, 12);
    // {football}: odds = (4/7 * 1/5) / (3/7 * 1/2) = (4/35) / (3/14) = 8/15 -> P = 8/23
    expect(nb.posterior(['football'])).toBeCloseTo(8 / 23, 12);
    expect(nb.logOdds(['football'])).toBeCloseTo(Math.log(8 / 15), 12);
  });

  it('falls back to the class prior when no feature is known', () => {
    const nb = toyModel();
    // odds = P(+)/P(-) = (4/7)/(3/7) = 4/3 -> P = 4/7
    expect(nb.posterior([])).toBeCloseTo(4 / 7, 12);
    expect(nb.posterior(['never-seen'])).toBeCloseTo(4 / 7, 12);
  });

  it('ignores features never seen in training', () => {
    const nb = toyModel();
    expect(nb.posterior(['stock', 'never-seen', 'also-unseen'])).toBeCloseTo(16 / 21, 12);
  });

  it('counts a feature once per example, in learning and in scoring (binary features)', () => {
    const nb = toyModel();
    expect(nb.posterior(['stock', 'stock', 'stock'])).toBeCloseTo(16 / 21, 12);
    const twice = new NaiveBayes();
    twice.learn(['x', 'x', 'y'], 1);
    const once = new NaiveBayes();
    once.learn(['x', 'y'], 1);
    expect(twice.toJSON()).toEqual(once.toJSON());
  });

  it('uses the class prior: with no features, more positives means a higher posterior', () => {
    const nb = new NaiveBayes();
    nb.learn(['a'], 1);
    nb.learn(['b'], 1);
    nb.learn(['c'], 1);
    nb.learn(['d'], 0);
    // P(+) = (3+1)/(4+2) = 2/3
    expect(nb.posterior([])).toBeCloseTo(2 / 3, 12);
    // {d}: P(d|+) = 1/5, P(d|-) = 2/3; odds = 2 * (1/5)/(2/3) = 3/5 -> P = 3/8
    expect(nb.posterior(['d'])).toBeCloseTo(3 / 8, 12);
  });

  it('honours alpha (Lidstone smoothing)', () => {
    const nb = new NaiveBayes({ alpha: 0.5 });
    nb.learn(['s'], 1);
    nb.learn(['t'], 0);
    // priors 2/4 each; P(s|+) = (1+0.5)/(1+1) = 3/4, P(s|-) = 0.5/2 = 1/4 -> odds 3 -> P = 3/4
    expect(nb.posterior(['s'])).toBeCloseTo(3 / 4, 12);
    expect(() => new NaiveBayes({ alpha: 0 })).toThrow(RangeError);
  });

  it('unlearn is the exact inverse of learn', () => {
    const nb = toyModel();
    const before = nb.toJSON();
    const scoreBefore = nb.posterior(['stock', 'market', 'football']);
    nb.learn(['stock', 'fresh', 'fresh'], 0);
    expect(nb.posterior(['stock', 'market', 'football'])).not.toBeCloseTo(scoreBefore, 6);
    expect(nb.vocabularySize).toBe(7);
    nb.unlearn(['stock', 'fresh', 'fresh'], 0);
    expect(nb.toJSON()).toEqual(before);
    expect(nb.vocabularySize).toBe(6);
    expect(nb.posterior(['stock', 'market', 'football'])).toBe(scoreBefore);
    expect(nb.examples).toEqual({ pos: 3, neg: 2 });
  });

  it('refuses to unlearn what was never learned, changing nothing', () => {
    const nb = toyModel();
    const before = nb.toJSON();
    expect(() => nb.unlearn(['stock'], 0)).toThrow(RangeError);
    expect(() => nb.unlearn(['market', 'nope'], 0)).toThrow(RangeError);
    expect(() => new NaiveBayes().unlearn([], 1)).toThrow(RangeError);
    expect(nb.toJSON()).toEqual(before);
  });

  it('round-trips through JSON with identical scores', () => {
    const nb = toyModel();
    const copy = NaiveBayes.fromJSON(JSON.parse(JSON.stringify(nb)));
    expect(copy.toJSON()).toEqual(nb.toJSON());
    for (const f of [['stock'], ['stock', 'market'], ['football', 'bank'], []]) {
      expect(copy.posterior(f)).toBe(nb.posterior(f));
    }
    expect(copy.examples).toEqual({ pos: 3, neg: 2 });
    expect(copy.vocabularySize).toBe(6);
  });

  it('rejects malformed JSON', () => {
    const good = toyModel().toJSON();
    expect(() => NaiveBayes.fromJSON(null)).toThrow(TypeError);
    expect(() => NaiveBayes.fromJSON({ ...good, kind: 'other' })).toThrow(TypeError);
    expect(() => NaiveBayes.fromJSON({ ...good, pos: -1 })).toThrow(TypeError);
    expect(() => NaiveBayes.fromJSON({ ...good, features: [['x', 9, 0]] })).toThrow(TypeError);
    expect(() => NaiveBayes.fromJSON({ ...good, features: [['x', 1]] })).toThrow(TypeError);
    expect(() => NaiveBayes.fromJSON({ ...good, features: [['x', 1, 0], ['x', 1, 0]] })).toThrow(TypeError);
  });

  it('ranks top features by log-likelihood ratio', () => {
    const nb = toyModel();
    // LLR for +: stock log((3/5)/(1/4)) = log 2.4; price/bank log((2/5)/(1/4)) = log 1.6;
    // market log((2/5)/(1/2)) = log 0.8; football/music log((1/5)/(1/2)) = log 0.4
    const top = nb.topFeatures(1, 3);
    expect(top.map((t) => t.feature)).toEqual(['stock', 'bank', 'price']);
    expect(top[0]!.weight).toBeCloseTo(Math.log(2.4), 12);
    const negTop = nb.topFeatures(0, 2);
    expect(negTop.map((t) => t.feature)).toEqual(['football', 'music']);
    expect(negTop[0]!.weight).toBeCloseTo(-Math.log(0.4), 12);
  });

  it('stays finite with thousands of features (log space)', () => {
    const nb = new NaiveBayes();
    const many = Array.from({ length: 5000 }, (_, i) => `f${i}`);
    nb.learn(many, 1);
    nb.learn(['other'], 0);
    expect(nb.posterior(many)).toBe(1);
    expect(Number.isFinite(nb.logOdds(many))).toBe(true);
    expect(logistic(-1000)).toBe(0);
    expect(logistic(1000)).toBe(1);
  });
});
