// Design E.3: seed sampling. Seeds are taken in result order; the seed at position s (from 1) of n is crawled
// with probability P = 1 - (s + f) / (2n), f the number of earlier seeds that yielded no useful information
// (no record when they were last crawled). With n = 10 and f = 0: 95%, 90%, ... The randomness is seeded, so
// a cycle samples the same way every time it is replayed. Seeds skipped in one cycle are taken for sure in
// the next (the patent retries them then), before the draw decides about the rest.

export interface SampleInput {
  seeds: string[];
  rand: () => number;
  /** Seeds whose last crawl yielded no record (f counts these among the earlier positions). */
  barren: ReadonlySet<string>;
  /** Seeds skipped by the previous cycle: taken now whatever the draw. */
  owed: ReadonlySet<string>;
}

export interface Sample {
  taken: string[];
  skipped: string[];
}

/** The chance design E.3 gives the seed at position `s` (from 1) of `n`, after `f` barren earlier seeds. */
export const takeChance = (s: number, n: number, f: number): number => Math.max(0, 1 - (s + f) / (2 * n));

export function sampleSeeds({ seeds, rand, barren, owed }: SampleInput): Sample {
  const n = seeds.length;
  const taken: string[] = [];
  const skipped: string[] = [];
  let f = 0;
  seeds.forEach((seed, i) => {
    const draw = rand(); // drawn for every seed, so one seed's fate does not shift the others'
    if (owed.has(seed) || draw < takeChance(i + 1, n, f)) taken.push(seed);
    else skipped.push(seed);
    if (barren.has(seed)) f++;
  });
  return { taken, skipped };
}
