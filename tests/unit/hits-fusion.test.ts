// Design C in parts: HITS on a hand-computed graph, its warm start, TF-IDF cosine and the fused score.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { strategyProblem } from '../../lib/strategies/registry';
import { hitsFusion, SWEPT_DEFAULTS } from '../../lib/strategies/hits-fusion';
import { LinkGraph } from '../../lib/strategies/hits-fusion/hits';
import { linkScore, weightsProblem } from '../../lib/strategies/hits-fusion/score';
import { TopicModel } from '../../lib/strategies/hits-fusion/tfidf';
import { mulberry32 } from '../../lib/records/random';

describe('HITS over the crawled graph', () => {
  it('matches the hand-computed fixed point of a three-page graph', () => {
    // A -> B, A -> C, B -> C. Authorities: the principal eigenvector of MᵀM = [[0,0,0],[0,1,1],[0,1,2]], whose
    // largest eigenvalue is φ² = (3 + √5)/2 with eigenvector (0, 1, φ): normalized (0, 0.5257, 0.8507).
    // Hubs = M·a normalized: (a(B) + a(C), a(C), 0) = (φ², φ, 0)/|..| = (0.8507, 0.5257, 0).
    const g = new LinkGraph();
    g.addPage('A', ['B', 'C']);
    g.addPage('B', ['C']);
    const round = g.compute(100, 1e-10);
    expect(round.iterations).toBeLessThan(100);
    const s = (u: string) => g.scores(u);
    expect(s('A').auth).toBeCloseTo(0, 6);
    expect(s('B').auth).toBeCloseTo(0.5257311, 6);
    expect(s('C').auth).toBeCloseTo(0.8506508, 6);
    expect(s('A').hub).toBeCloseTo(0.8506508, 6);
    expect(s('B').hub).toBeCloseTo(0.5257311, 6);
    expect(s('C').hub).toBeCloseTo(0, 6);
    expect(g.top(1).authorities[0]!.url).toBe('C');
    expect(g.scores('unknown')).toEqual({ auth: 0, hub: 0 });
    // Scaled by the round's largest: the best authority and hub are 1, the others 1/φ = 0.618.
    expect(g.scaled('C').auth).toBeCloseTo(1, 6);
    expect(g.scaled('B').auth).toBeCloseTo(0.6180340, 6);
    expect(g.scaled('A').hub).toBeCloseTo(1, 6);
    expect(g.scaled('B').hub).toBeCloseTo(0.6180340, 6);
    expect(g.scaled('unknown')).toEqual({ auth: 0, hub: 0 });
  });

  it('warm-started after a few new edges, reaches the same fixed point in fewer iterations', () => {
    const rand = mulberry32(3);
    const build = () => {
      const g = new LinkGraph();
      for (let p = 0; p < 2000; p++) g.addPage(`p${p}`, Array.from({ length: 8 }, () => `p${Math.floor(rand() ** 2 * 3000)}`));
      return g;
    };
    const warm = build();
    warm.compute(200, 1e-9);
    const extra = Array.from({ length: 20 }, (_, i) => [`p${i}`, [`p${2000 + i}`, `p${i + 7}`]] as const);
    for (const [u, l] of extra) warm.addPage(u, l);
    const cold = LinkGraph.fromJSON(warm.toJSON());
    const w = warm.compute(200, 1e-9);
    const c = cold.compute(200, 1e-9);
    expect(w.iterations).toBeLessThan(c.iterations);
    for (const u of ['p0', 'p1', 'p17', 'p2003']) {
      expect(warm.scores(u).auth).toBeCloseTo(cold.scores(u).auth, 5);
      expect(warm.scores(u).hub).toBeCloseTo(cold.scores(u).hub, 5);
    }
  });

  it('runs a round in slices: the last round answers until the new one ends, which then equals a whole round', () => {
    const rand = mulberry32(5);
    const sliced = new LinkGraph();
    for (let p = 0; p < 3000; p++) sliced.addPage(`p${p}`, Array.from({ length: 10 }, () => `p${Math.floor(rand() ** 2 * 4000)}`));
    sliced.compute(200, 1e-9);
    const before = sliced.scores('p1');
    sliced.addPage('p1', ['p3999', 'p3998', 'p3997']);
    sliced.addPage('p3999', ['p1']);
    const whole = LinkGraph.fromJSON(sliced.toJSON());
    whole.compute(200, 1e-9);
    sliced.startRound(200, 1e-9);
    // An iteration visits each of the 30,000 edges twice: several slices to an iteration.
    let slices = 0;
    let round = null;
    while (!(round = sliced.advance(10_000))) {
      slices++;
      expect(sliced.rounding).toBe(true);
      expect(sliced.scores('p1')).toEqual(before);
      // Edges found meanwhile wait for the next round.
      sliced.addPage(`q${slices}`, ['p1']);
    }
    expect(slices).toBeGreaterThan(12);
    expect(sliced.rounding).toBe(false);
    expect(round.edges).toBe(whole.edges);
    for (const u of ['p1', 'p2', 'p3999']) {
      expect(sliced.scores(u).auth).toBeCloseTo(whole.scores(u).auth, 6);
      expect(sliced.scores(u).hub).toBeCloseTo(whole.scores(u).hub, 6);
    }
    expect(sliced.scores('q1')).toEqual({ auth: 0, hub: 0 });
  });
});

describe('TF-IDF similarity to the topic', () => {
  it('weighs words by inverse document frequency and drops rare words from the topic', () => {
    const t = new TopicModel(['star'], 2);
    t.addPage('star star planet', true);
    t.addPage('cake star', false);
    // df: star 2, planet 1, cake 1 of N = 2; idf = ln((1+N)/(1+df)) + 1: star 1, cake ln(1.5) + 1.
    // The topic keeps star only (planet is rare), so cos('star cake') = 1 / √(1 + idf(cake)²).
    expect(t.idf('star')).toBeCloseTo(1, 9);
    expect(t.similarity('star cake')).toBeCloseTo(1 / Math.sqrt(1 + (Math.log(1.5) + 1) ** 2), 9);
    expect(t.similarity('star')).toBeCloseTo(1, 9);
    expect(t.similarity('cake bread')).toBe(0);
  });

  it('segments Chinese and drops its function words', () => {
    const t = new TopicModel(['金融'], 1);
    t.addPage('金融 新闻 股票 市场', true);
    t.addPage('体育 新闻', false);
    expect(t.similarity('金融市场的股票')).toBeGreaterThan(0.5);
    expect(t.similarity('我们 可以 体育')).toBe(0);
  });
});

describe('the fused link score (design C.3)', () => {
  const w = { textWeight: 0.5, anchorWeight: 0.2, linkWeight: 0.3, authority: 0.7, hub: 0.3 };

  it('is A·(SimPage + B·SimAnchor) + C·(α·Auth + β·Hub), the text part alone before HITS', () => {
    // 0.5·(0.4 + 0.2·0.5) + 0.3·(0.7·0.6 + 0.3·0.2) = 0.25 + 0.144
    expect(linkScore(w, { page: 0.4, anchor: 0.5 }, { auth: 0.6, hub: 0.2 })).toBeCloseTo(0.394, 12);
    expect(linkScore(w, { page: 0.4, anchor: 0.5 })).toBeCloseTo(0.25, 12);
  });

  it('refuses weights that break A + B + C = 1 or β < α, in one sentence', () => {
    expect(weightsProblem(w)).toBeNull();
    expect(weightsProblem({ ...w, linkWeight: 0.4 })).toMatch(/A \+ B \+ C\) must be 1 \(got 1\.1\)/);
    expect(weightsProblem({ ...w, hub: 0.7 })).toMatch(/strategy\.hub \(β\) must be below strategy\.authority \(α\)/);
    const cfg = (strategy: unknown) => () => parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] }, strategy });
    expect(cfg({ name: 'hits-fusion', linkWeight: 0.5 })).toThrow(/must be 1/);
    expect(cfg({ name: 'hits-fusion', text: 'bm25' })).toThrow(/strategy\.text \(text score\) must be one of "naive-bayes", "tfidf"/);
  });
});

describe('the defaults and their validation', () => {
  const problem = (params: Record<string, unknown>) => strategyProblem({ name: 'hits-fusion', ...params });

  it('are the setting the sweep chose (scripts/bench/hits-sweep.ts): Naive Bayes text, a round every 500 pages', () => {
    const defaults = Object.fromEntries(hitsFusion.params.map((p) => [p.key, p.default]));
    expect(defaults).toMatchObject(SWEPT_DEFAULTS);
    expect(SWEPT_DEFAULTS).toMatchObject({ text: 'naive-bayes', every: 500 });
    expect(problem({})).toBeNull();
    expect(parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] }, strategy: { name: 'hits-fusion' } }).strategy)
      .toMatchObject({ name: 'hits-fusion', ...SWEPT_DEFAULTS });
  });

  it('refuses parameters out of range, naming the field and its range', () => {
    expect(problem({ linkWeight: 1.5, textWeight: -0.5 })).toBe('strategy.textWeight (text weight) must be a number from 0 to 1 (got -0.5)');
    expect(problem({ every: 5 })).toBe('strategy.every (hits every) must be a whole number from 10 to 100000 (got 5)');
    expect(problem({ every: 250.5 })).toMatch(/strategy\.every .* must be a whole number/);
    expect(problem({ threshold: 2 })).toBe('strategy.threshold (drop below) must be a number from 0 to 1 (got 2)');
    expect(problem({ threshold: '0.1' })).toMatch(/strategy\.threshold .* must be a number from 0 to 1 \(got "0\.1"\)/);
    expect(problem({ damping: 0.85 })).toMatch(/strategy\.damping is not a parameter of hits-fusion/);
  });

  it('refuses weights that do not fit together, against the defaults of the others', () => {
    // Raising one weight alone breaks the sum with the defaults of the other two.
    expect(problem({ linkWeight: 0.5 })).toMatch(/^strategy\.textWeight \+ anchorWeight \+ linkWeight \(A \+ B \+ C\) must be 1 \(got 1\.2\)$/);
    expect(problem({ textWeight: 0.3, anchorWeight: 0.2, linkWeight: 0.5 })).toBeNull();
    expect(problem({ authority: 0.3, hub: 0.3 })).toMatch(/strategy\.hub \(β\) must be below strategy\.authority \(α\)/);
  });
});
