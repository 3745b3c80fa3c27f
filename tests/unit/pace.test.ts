// Pages a minute, as every place that shows it reads it: over the window of the crawl's last pages, counted in the
// intervals between them, and none until the window holds enough to mean something.
import { describe, expect, it } from 'vitest';
import { PACE_WINDOW, paceAfter, pagesPerMinute, runPagesPerMinute, type Pace } from '../../lib/records/pace';

/** The pace of pages fetched at these running times (ms), one a commit. */
function paced(times: number[]): { pace: Pace | undefined; stats: { fetched: number }; activeMs: number } {
  let pace: Pace | undefined;
  for (const t of times) pace = paceAfter(pace, 1, t);
  return { pace, stats: { fetched: times.length }, activeMs: times.at(-1) ?? 0 };
}

const everySecond = (n: number, from = 50) => Array.from({ length: n }, (_, i) => from + i * 1000);

describe('pages a minute', () => {
  it('reads one page a second as 60, from the first pages on, never more', () => {
    // The first page comes at once: 3 pages in 2.05 s of running time are two intervals of a second, not 88 a minute.
    for (let n = 2; n <= 40; n++) {
      const rate = pagesPerMinute(paced(everySecond(n)));
      if (rate !== null) expect(rate).toBeCloseTo(60, 6);
    }
  });

  it('shows none until ten pages, or 30 s of a slow crawl', () => {
    expect(pagesPerMinute(paced(everySecond(9)))).toBeNull();
    expect(pagesPerMinute(paced(everySecond(10)))).toBeCloseTo(60, 6);
    // One page every 12 s: three pages span 24 s, four span 36 s.
    const slow = (n: number) => paced(Array.from({ length: n }, (_, i) => i * 12_000));
    expect(pagesPerMinute(slow(3))).toBeNull();
    expect(pagesPerMinute(slow(4))).toBeCloseTo(5, 6);
    expect(pagesPerMinute(paced([]))).toBeNull();
  });

  it('follows the last pages: a crawl that slows down says so within the window', () => {
    const fast = Array.from({ length: 100 }, (_, i) => i * 100); // ten a second
    const slow = Array.from({ length: PACE_WINDOW }, (_, i) => fast.at(-1)! + (i + 1) * 2000); // then one every 2 s
    const crawl = paced([...fast, ...slow]);
    expect(crawl.pace!.recent).toHaveLength(PACE_WINDOW);
    expect(pagesPerMinute(crawl)).toBeCloseTo(30, 6);
    // The whole run's rate, for the summary: 129 intervals over 9.9 s + 60 s.
    expect(runPagesPerMinute(crawl)).toBeCloseTo((129 * 60_000) / (9_900 + 60_000), 6);
  });

  it('counts each page of a commit that fetched several, and a commit that fetched none changes nothing', () => {
    const pace = paceAfter(paceAfter(undefined, 2, 500), 0, 900);
    expect(pace).toEqual({ first: 500, recent: [500, 500] });
  });
});
