// The cost of a HITS round (design C) against graph size, in Node: a synthetic graph with a skewed (power-law
// like) in-degree, 10k, 100k and 1M edges; a round from scratch, then a warm-started round after 1% more edges,
// whole and in the slices the crawl runs it in (one slice after each page: the longest is what a page waits).
// Part of `npm run bench`; alone: npx tsx scripts/bench/hits.ts
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../../lib/records/random';
import { SLICE_WORK } from '../../lib/strategies/hits-fusion';
import { LinkGraph } from '../../lib/strategies/hits-fusion/hits';

export interface HitsCost {
  edges: number;
  nodes: number;
  coldMs: number;
  coldIterations: number;
  warmMs: number;
  warmIterations: number;
  /** The warm round again, in slices: how many (pages it spans) and the longest. */
  slices: number;
  longestSliceMs: number;
  medianSliceMs: number;
  heapMB: number;
}

function graphOf(edges: number, rand: () => number): { g: LinkGraph; add: (n: number) => void } {
  const nodes = Math.max(100, Math.round(edges / 8));
  const g = new LinkGraph();
  const add = (n: number) => {
    for (let i = 0; i < n; i += 8) {
      const from = Math.floor(rand() * nodes);
      g.addPage(`n${from}`, Array.from({ length: 8 }, () => `n${Math.floor(rand() ** 3 * nodes)}`));
    }
  };
  add(edges);
  return { g, add };
}

export function measureHits(sizes = [10_000, 100_000, 1_000_000]): HitsCost[] {
  const rand = mulberry32(42);
  return sizes.map((size) => {
    const { g, add } = graphOf(size, rand);
    const cold = g.compute(100, 1e-6, () => performance.now());
    // A copy in the same state, to run the same warm round in slices.
    const sliced = LinkGraph.fromJSON(g.toJSON());
    sliced.compute(100, 1e-6);
    add(Math.round(size / 100));
    for (const { url, links } of edgesOf(g)) sliced.addPage(url, links);
    const warm = g.compute(100, 1e-6, () => performance.now());
    const { slices, longestSliceMs, medianSliceMs } = inSlices(sliced);
    return {
      edges: g.edges, nodes: g.nodes, coldMs: cold.ms, coldIterations: cold.iterations, warmMs: warm.ms, warmIterations: warm.iterations,
      slices, longestSliceMs, medianSliceMs,
      heapMB: process.memoryUsage().heapUsed / 2 ** 20,
    };
  });
}

/** A round in the crawl's slices: how many, and the longest. */
function inSlices(sliced: LinkGraph): { slices: number; longestSliceMs: number; medianSliceMs: number } {
  const t0 = performance.now();
  sliced.startRound(100, 1e-6, () => performance.now());
  const ms = [performance.now() - t0]; // the start packs the edges: it runs after a page too
  for (;;) {
    const t = performance.now();
    const done = sliced.advance(SLICE_WORK);
    ms.push(performance.now() - t);
    if (done) break;
  }
  ms[1]! += ms.shift()!;
  const sorted = [...ms].sort((a, b) => a - b);
  return { slices: ms.length, longestSliceMs: sorted.at(-1)!, medianSliceMs: sorted[sorted.length >> 1]! };
}

function edgesOf(g: LinkGraph): { url: string; links: string[] }[] {
  const { urls, edges } = g.toJSON();
  const out = new Map<string, string[]>();
  for (let i = 0; i < edges.length; i += 2) (out.get(urls[edges[i]!]!) ?? out.set(urls[edges[i]!]!, []).get(urls[edges[i]!]!)!).push(urls[edges[i + 1]!]!);
  return [...out].map(([url, links]) => ({ url, links }));
}

export function formatHits(rows: HitsCost[]): string {
  return [
    '| edges | nodes | round from scratch | iterations | warm round after +1% edges | iterations | the warm round in slices | median slice | longest slice | heap MiB |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.edges.toLocaleString('en')} | ${r.nodes.toLocaleString('en')} | ${r.coldMs.toFixed(1)} ms | ${r.coldIterations} | ` +
      `${r.warmMs.toFixed(1)} ms | ${r.warmIterations} | ${r.slices} | ${r.medianSliceMs.toFixed(1)} ms | ${r.longestSliceMs.toFixed(1)} ms | ${r.heapMB.toFixed(0)} |`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(formatHits(measureHits()));
