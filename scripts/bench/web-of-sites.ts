// Strategies on the web of sites (shared/corpora/wikispeedia/sites.tsv: 4,604 articles on 147 hosts): best-first,
// breadth-first and sparse tunneling at K = 1, 3, 10, 30 (design B), through the real extension. Harvest and recall
// at 500, 1,000 and 2,000 fetches, irrelevant downloads, frontier left, blacklisted sites, links dropped by reason,
// and the patent's own figure: irrelevant downloads against K. Part of `npm run bench`; alone:
//   npx tsx scripts/bench/web-of-sites.ts [--budget 2000] [--cases Science:English_language,...] [--max-sources 300] [--out DIR]
//     [--only 'best-first;breadth-first'] [--variants '[{"label":"..","strategy":"hits-fusion","params":{..}}]']
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile, type TopLevelSpec } from 'vega-lite';
import * as vega from 'vega';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../lib/browser';
import { DEFAULT_CORPUS, runWikispeedia, type CaseResults } from './wikispeedia';
import { harvestChart, markdownTable } from './report';

export interface Variant {
  label: string;
  strategy: string;
  params?: Record<string, number | string>;
  k?: number;
}

export const VARIANTS: Variant[] = [
  { label: 'best-first', strategy: 'best-first' },
  { label: 'breadth-first', strategy: 'breadth-first' },
  ...[1, 3, 10, 30].map((k) => ({ label: `sparse tunneling K=${k}`, strategy: 'sparse-tunneling', params: { maxTunnel: k }, k })),
  { label: 'hits-fusion (TF-IDF)', strategy: 'hits-fusion', params: { text: 'tfidf' } },
  { label: 'hits-fusion (naive Bayes)', strategy: 'hits-fusion', params: { text: 'naive-bayes' } },
];

export interface WebOfSitesOptions {
  corpus: string;
  budget: number;
  cases: [string, string][];
  /** Link sources read in training (the first of the 30% split); fewer make each run shorter. */
  maxSources: number;
  concurrency: number;
  outDir: string;
  log: (line: string) => void;
  /** Labels of the variants to run (all when absent). */
  only?: string[];
  /** Variants to run instead of the standard ones (e.g. parameter settings to compare). */
  variants?: Variant[];
}

type Run = { variant: Variant; r: CaseResults };

/** Runs every variant on every case; returns the report's markdown section (and writes its plots beside it). */
export async function runWebOfSites(o: WebOfSitesOptions): Promise<{ markdown: string; runs: Record<string, Run[]> }> {
  const runs: Record<string, Run[]> = {};
  for (const [topic, seed] of o.cases) {
    const key = `${topic} from ${seed}`;
    runs[key] = [];
    for (const variant of (o.variants ?? VARIANTS).filter((x) => !o.only || o.only.includes(x.label))) {
      o.log(`web of sites, ${key}: ${variant.label}, ${o.budget} pages`);
      const r = await runWikispeedia({
        corpus: o.corpus, topic, seed, budget: o.budget, strategy: variant.strategy, strategyParams: variant.params,
        web: 'sites', maxSources: o.maxSources, concurrency: o.concurrency,
        out: join(o.outDir, 'runs', `sites-${topic}-${variant.label.replace(/\W+/g, '-')}`), log: () => {},
      });
      runs[key].push({ variant, r });
    }
  }
  return { markdown: await report(o, runs), runs };
}

const f3 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : x.toFixed(3));

async function report(o: WebOfSitesOptions, runs: Record<string, Run[]>): Promise<string> {
  const parts = [
    '## Strategies on the web of sites', '',
    `The corpus spread over 147 hosts (sites.tsv), links absolute across them, every host mapped to one loopback server. ` +
    `Budget ${o.budget} pages, concurrency ${o.concurrency}, no politeness delay; training reads the first ${o.maxSources} link ` +
    'sources of the 30% split (the same for every strategy). Harvest and recall against labels.tsv; "irrelevant" counts fetched ' +
    'pages off the topic; "dropped" counts links the strategy kept out of the frontier, by reason.', '',
  ];
  const at = (r: CaseResults, n: number) => r.table.find((t) => t.fetched === n) ?? (r.table.at(-1)!.fetched < n ? r.table.at(-1) : undefined);
  const kPoints: { case: string; k: number; irrelevant: number }[] = [];
  for (const [key, list] of Object.entries(runs)) {
    parts.push(`### ${key}`, '');
    const base = list.find((x) => x.variant.strategy === 'best-first')?.r.wallSeconds;
    const rows = list.map(({ variant, r }) => {
      const spent = r.summary.strategyReport?.spent as { rounds: number; ms: number } | undefined;
      if (variant.k !== undefined) kPoints.push({ case: key, k: variant.k, irrelevant: r.irrelevantDownloads });
      return [
        variant.label,
        ...[500, 1000, 2000].flatMap((n) => [f3(at(r, n)?.harvest), f3(at(r, n)?.recall)]),
        r.irrelevantDownloads, r.frontierLeft, r.blacklistedSites,
        Object.entries(r.dropped).map(([why, n]) => `${why} ${n}`).join(', ') || '-',
        r.wallSeconds, base && r.wallSeconds ? `${(r.wallSeconds / base).toFixed(2)}x` : "-",
        spent ? `${spent.rounds} / ${Math.round(spent.ms)}` : '-',
      ];
    });
    parts.push(markdownTable(['strategy', 'harvest @500', 'recall @500', 'harvest @1000', 'recall @1000', 'harvest @2000', 'recall @2000',
      'irrelevant', 'frontier left', 'blacklisted sites', 'dropped', 'wall s', 'time vs best-first', 'HITS rounds / ms'], rows), '');
    const svg = `sites-harvest-${key.split(' ')[0]}.svg`;
    writeFileSync(join(o.outDir, svg), await harvestChart(`${key}, web of sites`, list.map(({ variant, r }) => ({ name: variant.label, points: r.table }))));
    parts.push(`![harvest and recall on the web of sites, ${key}](${svg})`, '');
  }
  const spec: TopLevelSpec = {
    title: 'Irrelevant downloads against K (sparse tunneling)',
    data: { values: kPoints }, width: 320, height: 220,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'k', type: 'quantitative', title: 'K (longest tunnel)', scale: { type: 'log' } },
      y: { field: 'irrelevant', type: 'quantitative', title: 'irrelevant pages fetched' },
      color: { field: 'case', type: 'nominal', title: null },
    },
    config: { legend: { orient: 'bottom' }, font: 'sans-serif' },
  };
  writeFileSync(join(o.outDir, 'sites-irrelevant-vs-k.svg'), await new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' }).toSVG());
  parts.push('![irrelevant downloads against K](sites-irrelevant-vs-k.svg)', '');
  return parts.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS }, budget: { type: 'string', default: '2000' },
      cases: { type: 'string', default: 'Science:English_language,Geography:Human' }, 'max-sources': { type: 'string', default: '300' },
      concurrency: { type: 'string', default: '4' }, out: { type: 'string' }, only: { type: 'string' },
      variants: { type: 'string' },
    },
  });
  const outDir = v.out ?? join(ROOT, 'results', new Date().toISOString().slice(0, 10));
  mkdirSync(outDir, { recursive: true });
  runWebOfSites({
    corpus: v.corpus!, budget: Number(v.budget), maxSources: Number(v['max-sources']), concurrency: Number(v.concurrency), outDir,
    cases: v.cases!.split(',').map((c) => c.split(':') as [string, string]),
    only: v.only ? v.only.split(';') : undefined,
    variants: v.variants ? (JSON.parse(v.variants) as Variant[]) : undefined,
    log: (line) => process.stderr.write(`[sites] ${line}\n`),
  }).then(({ markdown, runs }) => {
    const name = v.variants ? 'web-of-sites-variants' : v.only ? 'web-of-sites-' + v.only.split(';').length : 'web-of-sites';
    writeFileSync(join(outDir, `${name}.md`), markdown + '\n');
    writeFileSync(join(outDir, `${name}.json`), JSON.stringify(Object.fromEntries(Object.entries(runs).map(([k, l]) => [k, l.map(({ variant, r }) => ({
      variant: variant.label, table: r.table, irrelevantDownloads: r.irrelevantDownloads, frontierLeft: r.frontierLeft,
      blacklistedSites: r.blacklistedSites, dropped: r.dropped, wallSeconds: r.wallSeconds, summary: r.summary,
    }))])), null, 2) + '\n');
    console.log(markdown);
  }, (err) => {
    console.error(`web of sites: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}
