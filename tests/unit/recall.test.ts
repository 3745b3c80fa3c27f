// The recall estimate (lib/learning/recall.ts) on synthetic crawls whose truth is known: pages with a link log-odds,
// on topic with a known chance of it, taken best first; the estimate made from what the crawl would know (the judged
// pages by the log-odds they were taken at, the queue counted by log-odds) against the share of on-topic pages taken.
import { describe, expect, it } from 'vitest';
import {
  MIN_JUDGED, NOT_ENOUGH, QUEUE_EDGES, binOf, chanceAt, estimateRecall, fitCalibration, withTaken, type Calibration,
} from '../../lib/learning/recall';
import { mulberry32 } from '../../lib/records/random';
import type { TakenBins } from '../../lib/records/rows';

interface SyntheticPage { logOdds: number; onTopic: boolean; takenBy: number }

/**
 * `n` pages, log-odds ~ N(mean, sd), on topic with the chance `truth` gives their log-odds. A crawl takes them best
 * first by what it thought of them when it took them: their log-odds and a noise of sd `noise` (the model learns as
 * it goes, and a link found again moves up), so it takes some of every log-odds early.
 */
function synthetic(n: number, truth: Calibration, seed: number, mean = -1, sd = 3, noise = 1.5): SyntheticPage[] {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Array.from({ length: n }, () => {
    const logOdds = mean + sd * normal();
    return { logOdds, onTopic: rand() < chanceAt(truth, logOdds), takenBy: logOdds + noise * normal() };
  });
}

/** What a crawl of `pages` knows after taking `k` of them, and the truth then. */
function crawled(pages: readonly SyntheticPage[], k: number) {
  const order = [...pages].sort((a, b) => b.takenBy - a.takenBy);
  let taken: TakenBins = {};
  let relevant = 0;
  for (const p of order.slice(0, k)) {
    taken = withTaken(taken, p.logOdds, p.onTopic);
    if (p.onTopic) relevant++;
  }
  const queued = new Array<number>(QUEUE_EDGES.length + 1).fill(0);
  for (const p of order.slice(k)) queued[binOf(p.logOdds) - binOf(-Infinity)]! += 1;
  const total = pages.filter((p) => p.onTopic).length;
  return { input: { fetched: k, relevant, taken, queued }, truth: relevant / total };
}

const TRUE_CAL: Calibration = { a: -1, b: 0.8, c: 0.9 };

describe('the recall estimate on a synthetic best-first crawl', () => {
  const pages = synthetic(5000, TRUE_CAL, 7);

  it.each([500, 1000, 2000, 3000])('is within 0.05 of the truth after %i pages, the truth inside its interval', (k) => {
    const { input, truth } = crawled(pages, k);
    const r = estimateRecall(input);
    if (!('point' in r)) throw new Error(`no estimate: ${r.note}`);
    expect(Math.abs(r.point.estimate - truth)).toBeLessThan(0.05);
    expect(r.point.low).toBeLessThanOrEqual(truth);
    expect(r.point.high).toBeGreaterThanOrEqual(truth);
    expect(r.point.low).toBeLessThanOrEqual(r.point.estimate);
    expect(r.point.high).toBeGreaterThanOrEqual(r.point.estimate);
    expect(r.point.fetched).toBe(k);
  });

  it('rises as the crawl takes more of the topic', () => {
    const at = [500, 1000, 2000, 3000].map((k) => {
      const r = estimateRecall(crawled(pages, k).input);
      return 'point' in r ? r.point.estimate : NaN;
    });
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(at[0]).toBeLessThan(at[3]!);
  });

  it('says 1 when nothing is left in the queue', () => {
    const r = estimateRecall(crawled(pages, pages.length).input);
    expect(r).toEqual({ point: { fetched: pages.length, estimate: 1, low: 1, high: 1 } });
  });

  it('gives the same figures for the same rows (the resampling is seeded)', () => {
    const { input } = crawled(pages, 1000);
    expect(estimateRecall(input)).toEqual(estimateRecall(input));
  });
});

describe('not enough to estimate', () => {
  const pages = synthetic(5000, TRUE_CAL, 11);

  it('before MIN_JUDGED pages', () => {
    expect(estimateRecall(crawled(pages, MIN_JUDGED - 1).input)).toEqual({ note: NOT_ENOUGH });
    expect('point' in estimateRecall(crawled(pages, MIN_JUDGED + 300).input)).toBe(true);
  });

  it('while no page, or every page, was judged on topic', () => {
    const none = crawled(pages.map((p) => ({ ...p, onTopic: false })), 1000).input;
    expect(estimateRecall(none)).toEqual({ note: NOT_ENOUGH });
    const all = crawled(pages.map((p) => ({ ...p, onTopic: true })), 1000).input;
    expect(estimateRecall(all)).toEqual({ note: NOT_ENOUGH });
  });

  it('when so few pages are on topic that the interval says nothing', () => {
    // 0.3% of the pages on topic: ten relevant pages among a thousand judged.
    const sparse = synthetic(5000, { a: -7, b: 0.6, c: 0.5 }, 7);
    const { input } = crawled(sparse, 1000);
    expect(input.relevant).toBeGreaterThanOrEqual(10);
    expect(estimateRecall(input)).toEqual({ note: NOT_ENOUGH });
  });
});

describe('the calibration fit', () => {
  it('finds the curve the verdicts were drawn from', () => {
    const taken: TakenBins = {};
    for (const p of synthetic(20_000, TRUE_CAL, 5, 0, 4)) {
      const [n, on] = taken[binOf(p.logOdds)] ?? [0, 0];
      taken[binOf(p.logOdds)] = [n + 1, on + (p.onTopic ? 1 : 0)];
    }
    const fit = fitCalibration(taken);
    for (const x of [-6, -2, 0, 2, 6, 12]) expect(Math.abs(chanceAt(fit, x) - chanceAt(TRUE_CAL, x))).toBeLessThan(0.04);
  });

  it('does not settle on a flat curve where the verdicts rise with the log-odds', () => {
    // A small topic's judged pages after 700 (IT from Dunnock on Wikispeedia): a single climb from the middle
    // stopped on c = 0.11 at every log-odds, and called a tenth of the queue on topic.
    const taken: TakenBins = {
      '-5': [2, 0], '-4': [104, 0], '-3': [96, 0], '-2': [102, 0], '-1': [62, 1], 0: [37, 0], 1: [41, 2], 2: [31, 1], 3: [25, 3], 4: [28, 3],
      5: [15, 2], 6: [19, 7], 7: [15, 4], 8: [15, 6], 9: [9, 1], 10: [11, 1], 11: [10, 3], 12: [11, 4], 13: [15, 9], 14: [4, 3], 15: [5, 1],
      16: [3, 2], 17: [3, 1], 18: [4, 0], 19: [5, 3], 21: [1, 0], 22: [4, 3], 23: [1, 1], 24: [1, 0], 25: [2, 2], 29: [18, 14],
    };
    const fit = fitCalibration(taken);
    expect(chanceAt(fit, -2)).toBeLessThan(0.02);
    expect(chanceAt(fit, 14.75)).toBeGreaterThan(0.5);
  });
});
