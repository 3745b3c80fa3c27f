import { describe, expect, it } from 'vitest';
import { crossValidate, evaluateHoldout, evaluateLinks, type LabeledLinkText } from '../../lib/learning/evaluate';
import { rocAuc, testResult } from '../../lib/learning/evaluation-metrics';
import { stratifiedFolds, stratifiedSplit } from '../../lib/learning/evaluation-splits';
import { describeFeature } from '../../lib/learning/feature-wording';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import type { Label } from '../../lib/learning/naive-bayes';
import { mulberry32 } from '../../lib/records/random';

const labelsOf = (pos: number, neg: number): Label[] => [...Array<Label>(pos).fill(1), ...Array<Label>(neg).fill(0)];

/**
 * 10 on-topic and 10 off-topic links with the same anchor ("read more"): only the context tells them apart,
 * so group 1 (anchor words) cannot and group 2 (anchor + context) can. The numbers make each context unique.
 */
function readMoreLinks(): LabeledLinkText[] {
  const links: LabeledLinkText[] = [];
  for (let i = 0; i < 10; i++) links.push({ anchor: 'Read more', context: `stock market shares ${i}`, label: 1 });
  for (let i = 0; i < 10; i++) links.push({ anchor: 'Read more', context: `football league match ${i}`, label: 0 });
  return links;
}

/** A noisier set: topic words mixed with shared words at random, so models make mistakes. */
function noisyLinks(n: number, seed: number): LabeledLinkText[] {
  const rand = mulberry32(seed);
  const on = ['stock', 'bank', 'bond', 'fund', 'market', 'rates'];
  const off = ['football', 'film', 'music', 'league', 'actor', 'match'];
  const shared = ['news', 'today', 'report', 'week', 'new', 'update', 'market', 'league'];
  const pick = (words: string[]) => words[Math.floor(rand() * words.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const label: Label = rand() < 0.4 ? 1 : 0;
    const words = (m: number) => Array.from({ length: m }, () => (rand() < 0.45 ? pick(label ? on : off) : pick(shared))).join(' ');
    return { anchor: words(2), context: `${words(6)} item${i}`, label };
  });
}

describe('stratifiedSplit', () => {
  it('puts 7 of 10 of each class in training, and every index on exactly one side', () => {
    const labels = labelsOf(10, 10);
    const { train, test } = stratifiedSplit(labels, 0.7, 1);
    expect(train).toHaveLength(14);
    expect(test).toHaveLength(6);
    expect(train.filter((i) => labels[i] === 1)).toHaveLength(7);
    expect(test.filter((i) => labels[i] === 1)).toHaveLength(3);
    expect([...train, ...test].sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
  });

  it('keeps the class shares when the classes are unbalanced, and at least one of each class on each side', () => {
    const labels = labelsOf(30, 3); // round(0.7 * 3) = 2 negatives train, 1 tests
    const { train, test } = stratifiedSplit(labels, 0.7, 5);
    expect(train.filter((i) => labels[i] === 1)).toHaveLength(21);
    expect(train.filter((i) => labels[i] === 0)).toHaveLength(2);
    expect(test.filter((i) => labels[i] === 0)).toHaveLength(1);
    // Two of a class: one each side, even at a fraction that would round to 2 or 0.
    expect(stratifiedSplit(labelsOf(2, 2), 0.9, 1).test).toHaveLength(2);
    expect(stratifiedSplit(labelsOf(2, 2), 0.1, 1).train).toHaveLength(2);
  });

  it('is the same for the same seed and different for another', () => {
    const labels = labelsOf(50, 50);
    expect(stratifiedSplit(labels, 0.7, 42)).toEqual(stratifiedSplit(labels, 0.7, 42));
    expect(stratifiedSplit(labels, 0.7, 42).test).not.toEqual(stratifiedSplit(labels, 0.7, 43).test);
  });

  it('rejects a fraction outside (0, 1)', () => {
    expect(() => stratifiedSplit(labelsOf(3, 3), 1, 1)).toThrow(RangeError);
  });
});

describe('stratifiedFolds', () => {
  it('assigns every index to one fold, each fold getting 2 or 3 of 12 positives and 1 or 2 of 8 negatives', () => {
    const labels = labelsOf(12, 8);
    const fold = stratifiedFolds(labels, 5, 7);
    expect(fold).toHaveLength(20);
    for (let f = 0; f < 5; f++) {
      const members = labels.map((_, i) => i).filter((i) => fold[i] === f);
      expect(members).toHaveLength(4); // 20 / 5: sizes even out across the classes
      expect([2, 3]).toContain(members.filter((i) => labels[i] === 1).length);
      expect([1, 2]).toContain(members.filter((i) => labels[i] === 0).length);
    }
    expect(stratifiedFolds(labels, 5, 7)).toEqual(fold);
    expect(stratifiedFolds(labels, 5, 8)).not.toEqual(fold);
  });
});

describe('splits by target page', () => {
  // 12 target pages: g0..g5 on topic with 3 links each, g6..g11 off topic with 1, 2 or 5 links.
  const sizes = [3, 3, 3, 3, 3, 3, 1, 2, 5, 1, 2, 5];
  const groups = sizes.flatMap((n, g) => Array<string>(n).fill(`g${g}`));
  const labels = sizes.flatMap((n, g) => Array<Label>(n).fill(g < 6 ? 1 : 0));

  it('keeps all links to a page on one side of the split', () => {
    for (const seed of [1, 2, 3]) {
      const { train, test } = stratifiedSplit(labels, 0.7, seed, groups);
      const trainGroups = new Set(train.map((i) => groups[i]));
      expect(test.some((i) => trainGroups.has(groups[i]!))).toBe(false);
      expect(train.length + test.length).toBe(labels.length);
      // Positives: 18 links, 70% = 12.6 -> 13: five pages of 3 links (15) are needed to reach it.
      expect(train.filter((i) => labels[i] === 1)).toHaveLength(15);
    }
  });

  it('puts all links to a page in one fold and balances the folds by links', () => {
    const fold = stratifiedFolds(labels, 3, 4, groups);
    for (let i = 0; i < labels.length; i++) expect(fold[i]).toBe(fold[groups.indexOf(groups[i]!)]);
    for (let f = 0; f < 3; f++) expect(labels.filter((l, i) => l === 1 && fold[i] === f)).toHaveLength(6);
  });

  it('deals links one by one exactly as before when every link has its own target', () => {
    const labels20 = labelsOf(12, 8);
    const own = labels20.map((_, i) => `link${i}`);
    expect(stratifiedFolds(labels20, 5, 7, own)).toEqual(stratifiedFolds(labels20, 5, 7));
    expect(stratifiedSplit(labels20, 0.7, 7, own)).toEqual(stratifiedSplit(labels20, 0.7, 7));
  });

  it('shows an anchor-only model that only recognises pages it was trained on', async () => {
    // 20 pages, each linked 4 times with its title as anchor; the contexts carry the topic.
    const links: (LabeledLinkText & { target: string })[] = [];
    for (let p = 0; p < 20; p++) {
      const label: Label = p < 10 ? 1 : 0;
      for (let j = 0; j < 4; j++) {
        const context = label ? `stock market shares ${p}x${j}` : `football league match ${p}x${j}`;
        links.push({ anchor: `Title${p}`, context, label, target: `/page/${p}` });
      }
    }
    const byLink = await evaluateHoldout(links, { keywords: [] });
    const byPage = await evaluateHoldout(links, { keywords: [], targetOf: (l) => l.target });
    if (!byLink.ok || !byPage.ok) throw new Error('not evaluated');
    expect(byPage.byTarget).toBe(true);
    expect(byLink.byTarget).toBe(false);
    // Split by link, almost every test page was also linked in training: the titles alone look perfect.
    expect(byLink.groups[1].auc).toBeGreaterThan(0.95);
    // Split by page, every test title is new: group 1 knows nothing (P = 0.5 for all), group 2 still works.
    expect(byPage.groups[1].auc).toBe(0.5);
    expect(byPage.groups[2].auc).toBe(1);
    expect(await crossValidate(links.slice(0, 44), { keywords: [], targetOf: (l) => l.target })).toEqual({
      ok: false,
      problem: 'label links to at least 5 different pages of each class for 5-fold cross-validation (now 10 on topic, 1 off topic)',
    });
  });
});

describe('testResult and rocAuc', () => {
  it('counts a hand-made confusion matrix at P >= 0.5', () => {
    const scored = [
      { label: 1, score: 0.9 }, // tp
      { label: 0, score: 0.6 }, // fp
      { label: 1, score: 0.5 }, // tp: the threshold itself counts as on topic
      { label: 1, score: 0.4 }, // fn
      { label: 0, score: 0.1 }, // tn
      { label: 0, score: 0.2 }, // tn
    ].map((s) => ({ ...s, label: s.label as Label, rank: s.score }));
    const r = testResult(scored);
    expect(r.confusion).toEqual({ tp: 2, fp: 1, fn: 1, tn: 2 });
    expect(r.precision).toBeCloseTo(2 / 3, 12);
    expect(r.recall).toBeCloseTo(2 / 3, 12);
    expect(r.f1).toBeCloseTo(2 / 3, 12);
    expect(r.accuracy).toBeCloseTo(4 / 6, 12);
    // Positive-negative pairs ordered correctly: 0.9 beats all 3, 0.5 and 0.4 beat 0.1 and 0.2: 7 of 9.
    expect(r.auc).toBeCloseTo(7 / 9, 12);
  });

  it('counts ties half in the AUC and gives null, not NaN, for undefined figures', () => {
    expect(rocAuc([{ label: 1, rank: 1 }, { label: 0, rank: 1 }])).toBe(0.5);
    expect(rocAuc([{ label: 1, rank: 2 }, { label: 1, rank: 1 }])).toBeNull();
    const nothingPredicted = testResult([{ label: 1, score: 0.2, rank: 0.2 }, { label: 0, score: 0.1, rank: 0.1 }]);
    expect(nothingPredicted.precision).toBeNull();
    expect(nothingPredicted.recall).toBe(0);
    expect(nothingPredicted.f1).toBe(0);
    expect(nothingPredicted.auc).toBe(1);
  });
});

describe('evaluateHoldout', () => {
  it('shows group 2 telling apart links that only their context distinguishes, and group 1 not', async () => {
    const report = await evaluateHoldout(readMoreLinks(), { keywords: [] });
    if (!report.ok) throw new Error(report.problem);
    expect(report.train).toEqual({ pos: 7, neg: 7 });
    expect(report.test).toEqual({ pos: 3, neg: 3 });
    // Group 1: every link is "read more", seen 7 times in each class: P = 0.5 for all, all predicted on topic.
    expect(report.groups[1].confusion).toEqual({ tp: 3, fp: 3, fn: 0, tn: 0 });
    expect(report.groups[1].precision).toBe(0.5);
    expect(report.groups[1].auc).toBe(0.5);
    expect(report.groups[2].confusion).toEqual({ tp: 3, fp: 0, fn: 0, tn: 3 });
    expect(report.groups[2].auc).toBe(1);
  });

  it('gives exactly the figures of classifiers trained directly on the split', async () => {
    const links = noisyLinks(300, 8);
    const keywords = ['stock', 'bank'];
    const report = await evaluateHoldout(links, { keywords, seed: 9 });
    if (!report.ok) throw new Error(report.problem);
    const { train, test } = stratifiedSplit(links.map((l) => l.label), 0.7, 9);
    for (const group of [1, 2] as const) {
      const c = new LinkClassifier(keywords, { group });
      for (const i of train) c.learn(links[i]!, links[i]!.label);
      const direct = testResult(test.map((i) => ({ label: links[i]!.label, score: c.score(links[i]!), rank: c.rank(links[i]!).logOdds })));
      expect(report.groups[group]).toEqual(direct);
    }
    // Not a degenerate data set: both kinds of error occur with the anchor alone, and some with the context too.
    expect(report.groups[1].confusion.fp).toBeGreaterThan(0);
    expect(report.groups[1].confusion.fn).toBeGreaterThan(0);
    expect(report.groups[2].confusion.fp + report.groups[2].confusion.fn).toBeGreaterThan(0);
  });

  it('says how many labels are missing instead of giving NaN', async () => {
    expect(await evaluateHoldout([], { keywords: ['x'] })).toEqual({
      ok: false,
      problem: 'label at least 2 links of each class to evaluate (now 0 on topic, 0 off topic)',
    });
    const oneNegative = readMoreLinks().slice(0, 11);
    const report = await evaluateHoldout(oneNegative, { keywords: [] });
    expect(report).toEqual({ ok: false, problem: 'label at least 2 links of each class to evaluate (now 10 on topic, 1 off topic)' });
  });
});

describe('crossValidate', () => {
  it('tests every label exactly once, with the figures of classifiers trained on the other folds', async () => {
    const links = noisyLinks(203, 4);
    const keywords = ['fund'];
    const report = await crossValidate(links, { keywords, folds: 5, seed: 2, evidence: 'independent' });
    if (!report.ok) throw new Error(report.problem);
    expect(report.folds).toHaveLength(5);
    const pos = links.filter((l) => l.label === 1).length;
    expect(report.folds.reduce((a, f) => a + f.test.pos, 0)).toBe(pos);
    expect(report.folds.reduce((a, f) => a + f.test.neg, 0)).toBe(203 - pos);
    expect(report.folds.reduce((a, f) => a + f.groups[2].n, 0)).toBe(203);

    const fold = stratifiedFolds(links.map((l) => l.label), 5, 2);
    for (let f = 0; f < 5; f++) {
      for (const group of [1, 2] as const) {
        const c = new LinkClassifier(keywords, { group, evidence: 'independent' });
        links.forEach((l, i) => fold[i] !== f && c.learn(l, l.label));
        const test = links.filter((_, i) => fold[i] === f);
        const direct = testResult(test.map((l) => ({ label: l.label, score: c.score(l), rank: c.rank(l).logOdds })));
        expect(report.folds[f]!.groups[group]).toEqual(direct);
      }
    }
    const f1s = report.folds.map((f) => f.groups[2].f1!);
    expect(report.mean[2].f1).toBeCloseTo(f1s.reduce((a, b) => a + b, 0) / 5, 12);
    expect(report.sd[2].f1).toBeGreaterThan(0);
  });

  it('needs k labels of each class', async () => {
    const links = [...readMoreLinks().slice(0, 4), ...readMoreLinks().slice(10, 20)];
    expect(await crossValidate(links, { keywords: [], folds: 5 })).toEqual({
      ok: false,
      problem: 'label at least 5 links of each class for 5-fold cross-validation (now 4 on topic, 10 off topic)',
    });
  });
});

describe('evaluateLinks', () => {
  it('is deterministic under its seed and contains no NaN', async () => {
    const links = noisyLinks(200, 5);
    const strip = <T extends { ms: number }>(r: T): T => ({ ...r, ms: 0 });
    const a = strip(await evaluateLinks(links, { keywords: ['bank'], seed: 11 }));
    const b = strip(await evaluateLinks(links, { keywords: ['bank'], seed: 11 }));
    const c = strip(await evaluateLinks(links, { keywords: ['bank'], seed: 12 }));
    expect(a).toEqual(b);
    expect(c.holdout).not.toEqual(a.holdout);
    const numbers: number[] = [];
    JSON.stringify(a, (_, v) => (typeof v === 'number' && numbers.push(v), v));
    expect(numbers.length).toBeGreaterThan(100);
    expect(numbers.every(Number.isFinite)).toBe(true);
  });

  it('lists the strongest features of each class in words, with their label counts', async () => {
    const report = await evaluateLinks(readMoreLinks(), { keywords: ['stock'], topFeatures: 3 });
    const positive = report.topFeatures!.positive;
    const negative = report.topFeatures!.negative;
    // Every positive link has the context words stock, market and shares. "stock" is the keyword, so the
    // keyword pseudo-example adds one to c:stock and C:dict (11 to 0) and they outrank market and shares
    // (10 to 0); equal weights go by name. The counts shown are of labeled links only.
    expect(positive.map((f) => f.text)).toEqual(['context has a keyword word', 'context "stock"', 'context "market"']);
    expect(positive[0]!.weight).toBeGreaterThan(positive[2]!.weight);
    expect(positive[1]).toMatchObject({ feature: 'c:stock', pos: 10, neg: 0 });
    expect(negative.map((f) => f.text).sort()).toEqual(['context "football"', 'context "league"', 'context "match"']);
    expect(negative[0]).toMatchObject({ pos: 0, neg: 10 });
    expect(report.labels).toEqual({ pos: 10, neg: 10 });
  });

  it('reports a sentence for each part it cannot do, and still lists features', async () => {
    const report = await evaluateLinks(readMoreLinks().slice(0, 13), { keywords: [] });
    expect(report.holdout.ok).toBe(true);
    expect(report.crossValidation).toEqual({
      ok: false,
      problem: 'label at least 5 links of each class for 5-fold cross-validation (now 10 on topic, 3 off topic)',
    });
    expect(report.topFeatures!.positive.length).toBeGreaterThan(0);
    expect((await evaluateLinks([], { keywords: ['x'] })).topFeatures).toBeNull();
  });
});

describe('describeFeature', () => {
  it('reads the feature prefixes of design A.3', () => {
    expect(describeFeature('a:stock')).toBe('anchor "stock"');
    expect(describeFeature('c:股票')).toBe('context "股票"');
    expect(describeFeature('A:dict')).toBe('anchor has a keyword word');
    expect(describeFeature('C:dict')).toBe('context has a keyword word');
  });

  it('reads the parent page\'s features: its verdict, and its links to labeled pages', () => {
    expect(describeFeature('P:off')).toBe('on a page judged off topic');
    expect(describeFeature('H:on5')).toBe('on an on-topic page whose links to labeled pages lead on topic four times as often as the labeled pages do or more');
    expect(describeFeature('H:0')).toBe('on a page whose links to labeled pages lead on topic never');
  });

  it('reads the anchor\'s shape as the shape of its words', () => {
    expect(describeFeature('S:Aa Aa')).toBe('anchor shaped like "Xxx Xxx"');
    expect(describeFeature('S:Aa a Aa Aa +')).toBe('anchor shaped like "Xxx xxx Xxx Xxx …"');
    expect(describeFeature('S:A')).toBe('anchor shaped like "XXX"');
    expect(describeFeature('S:0 a')).toBe('anchor shaped like "123 xxx"');
  });
});
