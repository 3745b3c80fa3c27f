// The cost of a HITS round (SPEC C) against graph size, in Node: a synthetic graph with a skewed (power-law
// like) in-degree, 10k, 100k and 1M edges; a round from scratch, then a warm-started round after 1% more edges.
// Part of `npm run bench`; alone: npx tsx scripts/bench/hits.ts
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../../lib/random';
import { LinkGraph } from '../../lib/strategies/hits-fusion/hits';

export interface HitsCost {
  edges: number;
  nodes: number;
  coldMs: number;
  coldIterations: number;
  warmMs: number;
  warmIterations: number;
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
    add(Math.round(size / 100));
    const warm = g.compute(100, 1e-6, () => performance.now());
    return {
      edges: g.edges, nodes: g.nodes, coldMs: cold.ms, coldIterations: cold.iterations, warmMs: warm.ms, warmIterations: warm.iterations,
      heapMB: process.memoryUsage().heapUsed / 2 ** 20,
    };
  });
}

export function formatHits(rows: HitsCost[]): string {
  return [
    '| edges | nodes | round from scratch | iterations | warm round after +1% edges | iterations | heap MiB |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.edges.toLocaleString('en')} | ${r.nodes.toLocaleString('en')} | ${r.coldMs.toFixed(1)} ms | ${r.coldIterations} | ` +
      `${r.warmMs.toFixed(1)} ms | ${r.warmIterations} | ${r.heapMB.toFixed(0)} |`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(formatHits(measureHits()));
