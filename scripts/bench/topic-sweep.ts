// The topic sweep: harvest on every top-level Wikispeedia topic, not only the two the benchmark tunes. Each of
// the 15 topics from two seeds drawn (seeded) from pages outside the topic in the largest strongly connected
// component, with the benchmark's recipe (30% training split read as link sources, the topic's keywords).
// For each case: Focus's harvest at 250, 500 and 1,000 fetches on the scored split, the oracle crawl's
// (best-first where a link's score is its target's true label), Focus as a fraction of the oracle, recall, and
// breadth-first's figures. The oracle and breadth-first are computed on the link graph in Node (breadth-first in
// the page's link order, FIFO among equals: what the extension's breadth-first does at concurrency 1).
// Part of `npm run bench`; alone:
//   npx tsx scripts/bench/topic-sweep.ts [--engine node|extension] [--variants spec-a,default] [--budget 1000]
//     [--topics Art,Music] [--extra Science:English_language,Geography:Human] [--out DIR]
//   npx tsx scripts/bench/topic-sweep.ts --merge a/sweep.json,b/sweep.json --out DIR   (one report of sweeps run apart)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { ROOT } from '../lib/browser';
import { loadCorpusPages, loadLabels } from './corpus-server';
import { mulberry32, shuffled } from '../../lib/records/random';
import { DEFAULT_CORPUS, caseGroundTruth, harvestTable, reachableFrom, runWikispeedia } from './wikispeedia';
import { runNodeCase } from './node-crawl';
import { markdownTable } from './report';

export const TOPICS = ['Science', 'Geography', 'People', 'History', 'Everyday_life', 'Design_and_Technology', 'Countries',
  'Citizenship', 'Language_and_literature', 'Religion', 'Music', 'Business_Studies', 'IT', 'Mathematics', 'Art'];

/** A classifier setting the sweep compares (the crawl config's `classifier`; none: the crawler's defaults). */
export interface SweepVariant {
  label: string;
  classifier?: Record<string, unknown>;
  /** The queued links re-scored every this many pages (the recipe's 500 when absent). */
  rescoreEveryPages?: number;
  /** `learning.linksToJudged` (the crawler's default when absent). */
  linksToJudged?: boolean;
  /** `judge.smoothing` (the crawler's default when absent). */
  judgeSmoothing?: number;
  /** The crawl strategy and its parameters (`best-first` when absent). */
  strategy?: string;
  strategyParams?: Record<string, number>;
}

type Table = ReturnType<typeof harvestTable>;
export interface SweepCase {
  topic: string;
  seed: string;
  reachOnScored: number;
  oracle: Table;
  breadthFirst: Table;
  focus: Record<string, Table>;
}

/** Two seeds per topic: pages outside the topic in the largest strongly connected component, drawn by a seeded PRNG. */
export function sweepSeeds(corpus: string, topics = TOPICS, rngSeed = 15): { topic: string; seed: string }[] {
  const truth = caseGroundTruth(corpus, TOPICS[0]!, 'English_language');
  const component = stronglyConnectedWith('English_language', truth.links);
  const candidates = [...component].sort();
  const labels = loadLabels(corpus);
  const rng = mulberry32(rngSeed);
  const out: { topic: string; seed: string }[] = [];
  for (const topic of TOPICS) {
    const off = candidates.filter((a) => !labels.get(a)?.has(topic));
    const seeds = shuffled(off, rng).slice(0, 2);
    if (topics.includes(topic)) for (const seed of seeds) out.push({ topic, seed });
  }
  return out;
}

/** The pages that reach `a` and are reached from it (the corpus's one large component holds 4,051). */
function stronglyConnectedWith(a: string, links: Map<string, string[]>): Set<string> {
  const reverse = new Map<string, string[]>();
  for (const [s, ts] of links) for (const t of ts) (reverse.get(t) ?? reverse.set(t, []).get(t)!).push(s);
  const back = reachableFrom(a, reverse);
  return new Set([...reachableFrom(a, links)].filter((x) => back.has(x)));
}

/** Every page's out-links in the order its HTML has them (the order a crawler queues them in). */
export function linksInPageOrder(corpus: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const article = (path: string) => /^\/wiki\/(.+)\.html$/.exec(path)?.[1];
  for (const [path, html] of loadCorpusPages(corpus)) {
    const from = article(path);
    if (!from) continue;
    const seen = new Set<string>([decodeURIComponent(from)]);
    const list: string[] = [];
    for (const m of html.matchAll(/href="([^"#:/]+)\.html"/g)) {
      const to = decodeURIComponent(m[1]!);
      if (!seen.has(to)) (seen.add(to), list.push(to));
    }
    out.set(decodeURIComponent(from), list);
  }
  return out;
}

/**
 * A crawl on the link graph at concurrency 1: `priority` orders the queue (higher first, FIFO among equals).
 * Returns the fetch order of `budget` pages.
 */
export function graphCrawl(seed: string, links: Map<string, string[]>, budget: number, priority: (article: string, depth: number) => number): string[] {
  const queued = new Map<string, { p: number; order: number }>([[seed, { p: Infinity, order: 0 }]]);
  const depthOf = new Map([[seed, 0]]);
  const done: string[] = [];
  const fetched = new Set<string>();
  let order = 1;
  while (done.length < budget && queued.size) {
    let best: string | undefined, bp = -Infinity, bo = Infinity;
    for (const [a, q] of queued) if (q.p > bp || (q.p === bp && q.order < bo)) (best = a, bp = q.p, bo = q.order);
    queued.delete(best!);
    fetched.add(best!);
    done.push(best!);
    const depth = depthOf.get(best!)! + 1;
    for (const t of links.get(best!) ?? []) {
      if (fetched.has(t) || queued.has(t)) continue;
      depthOf.set(t, depth);
      queued.set(t, { p: priority(t, depth), order: order++ });
    }
  }
  return done;
}

/** Named settings the sweep can compare (`--variants`); `default` is the crawler's own defaults. */
export const SWEEP_VARIANTS: Record<string, Omit<SweepVariant, 'label'>> = {
  default: {},
  'spec-a': { classifier: { smoothing: 'laplace', parentPage: false, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, linksToJudged: false, judgeSmoothing: 1 },
  'base-rate': { classifier: { smoothing: 'base-rate', parentPage: false, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, linksToJudged: false, judgeSmoothing: 1 },
  parent: { classifier: { smoothing: 'laplace', parentPage: true, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, linksToJudged: false, judgeSmoothing: 1 },
  'parent+base-rate': { classifier: { smoothing: 'base-rate', parentPage: true, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, linksToJudged: false, judgeSmoothing: 1 },
  'parent+rescore100': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, rescoreEveryPages: 100, linksToJudged: false, judgeSmoothing: 1 },
  'parent+judged': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, linksToJudged: true, judgeSmoothing: 1 },
  'parent+every-link': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: true, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, linksToJudged: false, judgeSmoothing: 1 },
  'parent+judge0.1': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false }, linksToJudged: false, judgeSmoothing: 0.1 },
  'judge-laplace': { judgeSmoothing: 1 },
  'default+rescore100': { rescoreEveryPages: 100 },
  // The defaults of the round before context damping: the context's evidence averaged.
  'context-mean': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: true, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false } },
  // The defaults of the round before the parent-hub feature.
  'no-hub': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: true, contextDamping: 0.75, parentHub: false, targetAuthority: false, anchorShape: false } },
  // The defaults of the round before URL authority.
  'no-authority': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: true, contextDamping: 0.75, parentHub: true, targetAuthority: false, anchorShape: false } },
  // The defaults of the round before the anchor's shape.
  'no-shape': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: true, contextDamping: 0.75, parentHub: true, targetAuthority: true, anchorShape: false } },
  // Design B on the one-site corpus: best-first whose paths end after K off-topic pages in a row (no site blacklist:
  // the corpus is one site).
  'tunnel1': { strategy: 'sparse-tunneling', strategyParams: { maxTunnel: 1, blacklistAfter: 100_000, unknownSiteQueue: 100_000 } },
  'tunnel2': { strategy: 'sparse-tunneling', strategyParams: { maxTunnel: 2, blacklistAfter: 100_000, unknownSiteQueue: 100_000 } },
  'damping0.5': { classifier: { smoothing: 'laplace', parentPage: true, everyLink: true, contextDamping: 0.5, parentHub: false, targetAuthority: false, anchorShape: false } },
};

/** A named variant, or an error naming the known ones. */
export function sweepVariant(label: string): SweepVariant {
  const v = SWEEP_VARIANTS[label];
  if (!v) throw new Error(`no sweep variant "${label}" (known: ${Object.keys(SWEEP_VARIANTS).join(', ')})`);
  return { label, ...v };
}

export interface SweepOptions {
  corpus: string;
  engine: 'node' | 'extension';
  budget: number;
  variants: SweepVariant[];
  topics?: string[];
  /** Cases run besides the drawn ones, e.g. the benchmark's own (`Science:English_language`). */
  extra?: { topic: string; seed: string }[];
  concurrency: number;
  outDir: string;
  log: (line: string) => void;
}

export async function runTopicSweep(o: SweepOptions): Promise<{ cases: SweepCase[]; markdown: string }> {
  const pageLinks = linksInPageOrder(o.corpus);
  const cases: SweepCase[] = [];
  for (const { topic, seed } of [...sweepSeeds(o.corpus, o.topics), ...(o.extra ?? [])]) {
    const truth = caseGroundTruth(o.corpus, topic, seed);
    const decoded = (a: string) => decodeURIComponent(a);
    const on = new Set(truth.articles.map((a) => a.article).filter(truth.onTopic).map(decoded));
    const trainSet = new Set([...truth.trainSet].map(decoded));
    const score = (order: string[]) => harvestTable(order.map((a) => ({ on: on.has(a), scored: !trainSet.has(a) })), truth.reachOn.length, truth.reachOnScored.length);
    const c: SweepCase = {
      topic, seed, reachOnScored: truth.reachOnScored.length,
      oracle: score(graphCrawl(decoded(seed), pageLinks, o.budget, (a) => (on.has(a) ? 1 : 0))),
      breadthFirst: score(graphCrawl(decoded(seed), pageLinks, o.budget, (_a, depth) => -depth)),
      focus: {},
    };
    for (const variant of o.variants) {
      const t = Date.now();
      const common = { corpus: o.corpus, topic, seed, budget: o.budget, strategy: variant.strategy ?? 'best-first', strategyParams: variant.strategyParams, concurrency: o.concurrency, rescoreEveryPages: variant.rescoreEveryPages, linksToJudged: variant.linksToJudged, judgeSmoothing: variant.judgeSmoothing };
      c.focus[variant.label] = o.engine === 'node'
        ? (await runNodeCase({ ...common, classifier: variant.classifier })).table
        : (await runWikispeedia({ ...common, classifier: variant.classifier, out: join(o.outDir, 'runs', `${topic}-${seed}-${variant.label}`), log: () => {} })).table;
      o.log(`${topic} from ${seed}, ${variant.label} (${o.engine}): scored harvest @500 ${at(c.focus[variant.label]!, 500)?.scoredHarvest}, ` +
        `oracle ${at(c.oracle, 500)?.scoredHarvest}, ${((Date.now() - t) / 1000).toFixed(0)} s`);
    }
    cases.push(c);
    // Each case's figures are kept as they come: a long sweep stopped part-way still has them (--merge reads them).
    mkdirSync(o.outDir, { recursive: true });
    writeFileSync(join(o.outDir, 'sweep-partial.json'), JSON.stringify({ engine: o.engine, budget: o.budget, concurrency: o.concurrency, variants: o.variants, cases }) + '\n');
  }
  return { cases, markdown: await writeSweep(o, cases) };
}

type SweepReport = Pick<SweepOptions, 'engine' | 'budget' | 'concurrency' | 'variants' | 'outDir'>;

/** Writes sweep.json, sweep.md and the plot of the fraction of the oracle; returns the markdown. */
async function writeSweep(o: SweepReport, cases: SweepCase[]): Promise<string> {
  const markdown = report(o, cases);
  mkdirSync(o.outDir, { recursive: true });
  writeFileSync(join(o.outDir, 'sweep.json'), JSON.stringify({ engine: o.engine, budget: o.budget, concurrency: o.concurrency, variants: o.variants, cases }, null, 2) + '\n');
  writeFileSync(join(o.outDir, 'sweep-fraction-of-oracle.svg'), await fractionPlot(o, cases));
  writeFileSync(join(o.outDir, 'sweep.md'), markdown + '\n');
  return markdown;
}

/**
 * Sweeps run separately (other variants, or other topics run side by side), joined case by case into one
 * report of the cases every variant ran, in the sweep's order.
 */
export async function mergeSweeps(files: string[], outDir: string): Promise<string> {
  const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as SweepReport & { cases: SweepCase[] });
  const first = runs[0]!;
  const key = (c: SweepCase) => `${c.topic}:${c.seed}`;
  const cases = new Map<string, SweepCase>();
  for (const run of runs) {
    if (run.engine !== first.engine || run.budget !== first.budget) throw new Error('sweeps of different engines or budgets do not merge');
    for (const c of run.cases) {
      const known = cases.get(key(c));
      if (known) Object.assign(known.focus, c.focus);
      else cases.set(key(c), { ...c, focus: { ...c.focus } });
    }
  }
  const variants = [...new Map(runs.flatMap((r) => r.variants).map((v) => [v.label, v])).values()];
  const drawn = sweepSeeds(DEFAULT_CORPUS).map((c) => `${c.topic}:${c.seed}`);
  const rank = (c: SweepCase) => (drawn.indexOf(key(c)) + 1 || drawn.length + 1);
  const all = [...cases.values()].filter((c) => variants.every((v) => c.focus[v.label])).sort((a, b) => rank(a) - rank(b));
  return writeSweep({ ...first, variants, outDir }, all);
}

const at = (t: Table, n: number) => t.find((r) => r.fetched === n);
const f2 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : x.toFixed(2));
/** Focus's scored harvest at `n` fetches as a fraction of the oracle's. */
export const fractionOfOracle = (c: SweepCase, label: string, n = 500) =>
  (at(c.focus[label]!, n)?.scoredHarvest ?? NaN) / (at(c.oracle, n)?.scoredHarvest ?? NaN);

function report(o: SweepReport, cases: SweepCase[]): string {
  const labels = o.variants.map((v) => v.label);
  const rows = cases.map((c) => [
    c.topic.replace(/_/g, ' '), c.seed, c.reachOnScored,
    ...labels.flatMap((l) => [...[250, 500, 1000].map((n) => f2(at(c.focus[l]!, n)?.scoredHarvest)), f2(fractionOfOracle(c, l)), f2(at(c.focus[l]!, 1000)?.scoredRecall)]),
    f2(at(c.oracle, 500)?.scoredHarvest), f2(at(c.oracle, 1000)?.scoredRecall),
    f2(at(c.breadthFirst, 500)?.scoredHarvest), f2(at(c.breadthFirst, 1000)?.scoredRecall),
  ]);
  const header = ['topic', 'seed', 'on topic (scored)',
    ...labels.flatMap((l) => [`${l} @250`, `${l} @500`, `${l} @1000`, `${l} ÷ oracle @500`, `${l} recall @1000`]),
    'oracle @500', 'oracle recall @1000', 'breadth-first @500', 'breadth-first recall @1000'];
  const summary = labels.map((l) => {
    // A crawl that ran out of URLs before 500 fetches has no figure there: named, not averaged.
    const reached = cases.filter((c) => Number.isFinite(fractionOfOracle(c, l)));
    const short = cases.filter((c) => !reached.includes(c)).map((c) => `${c.topic} from ${c.seed}`);
    const fr = reached.map((c) => fractionOfOracle(c, l));
    const worst = reached[fr.indexOf(Math.min(...fr))];
    return `- ${l}: mean fraction of the oracle at 500 fetches ${(fr.reduce((a, b) => a + b, 0) / fr.length).toFixed(3)}, ` +
      `lowest ${Math.min(...fr).toFixed(3)} (${worst ? `${worst.topic} from ${worst.seed}` : 'none'}), cases below 0.7: ${fr.filter((x) => x < 0.7).length} of ${fr.length}` +
      (short.length ? `; ended before 500 fetches: ${short.join(', ')}` : '');
  });
  return [
    `Topic sweep (${o.engine === 'node' ? 'Node crawl path: the crawl core on fake-indexeddb, no browser' : 'the real extension in Chromium'}), ` +
    `budget ${o.budget} pages, concurrency ${o.concurrency}, one run each. Harvest is on the scored split (pages no training input names); ` +
    'recall is of the scored split\'s on-topic pages reachable from the seed. Oracle and breadth-first are computed on the link graph (concurrency 1).', '',
    ...summary, '',
    markdownTable(header, rows),
  ].join('\n');
}

async function fractionPlot(o: SweepReport, cases: SweepCase[]): Promise<string> {
  const values = cases.flatMap((c) => o.variants.map((v) => ({ topic: c.topic.replace(/_/g, ' '), seed: c.seed, crawler: v.label, fraction: fractionOfOracle(c, v.label) })));
  // The greedy oracle can be beaten (small topics): the axis reaches the highest case, not a fixed 1.2.
  const order = o.variants.map((v) => v.label);
  const top = Math.max(1.2, Math.ceil(Math.max(...values.map((x) => x.fraction).filter(Number.isFinite)) * 10) / 10);
  const spec: TopLevelSpec = {
    title: `Harvest at 500 fetches as a fraction of the oracle's (${o.engine === 'node' ? 'Node crawl path' : 'extension'})`,
    data: { values }, width: 520, height: 240,
    layer: [
      { mark: { type: 'bar', opacity: 0.5 }, encoding: {
        x: { field: 'topic', type: 'nominal', title: null, sort: TOPICS.map((t) => t.replace(/_/g, ' ')), axis: { labelAngle: -40 } },
        xOffset: { field: 'crawler', sort: order }, y: { aggregate: 'mean', field: 'fraction', type: 'quantitative', title: 'fraction of oracle (mean of 2 seeds)', scale: { domain: [0, top] } },
        color: { field: 'crawler', type: 'nominal', title: null, sort: order } } },
      { mark: { type: 'point', filled: true, size: 25 }, encoding: {
        x: { field: 'topic', type: 'nominal', sort: TOPICS.map((t) => t.replace(/_/g, ' ')) }, xOffset: { field: 'crawler', sort: order },
        y: { field: 'fraction', type: 'quantitative' }, color: { field: 'crawler', type: 'nominal', sort: order } } },
      { data: { values: [{ y: 0.85 }, { y: 0.7 }] }, mark: { type: 'rule', strokeDash: [4, 3], color: 'gray' }, encoding: { y: { field: 'y', type: 'quantitative' } } },
    ],
    config: { legend: { orient: 'bottom' }, font: 'sans-serif' },
  };
  return new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' }).toSVG();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS }, engine: { type: 'string', default: 'node' },
      budget: { type: 'string', default: '1000' }, variants: { type: 'string', default: 'spec-a,default' },
      merge: { type: 'string' }, topics: { type: 'string' }, extra: { type: 'string', default: 'Science:English_language,Geography:Human' }, concurrency: { type: 'string', default: '4' }, out: { type: 'string' },
    },
  });
  const outDir = v.out ?? join(ROOT, 'results', new Date().toISOString().slice(0, 10), 'sweep');
  const done = v.merge ? mergeSweeps(v.merge.split(','), outDir) : runTopicSweep({
    corpus: v.corpus!, engine: v.engine === 'extension' ? 'extension' : 'node', budget: Number(v.budget),
    variants: v.variants!.split(',').map(sweepVariant),
    topics: v.topics?.split(','), extra: v.extra!.split(',').filter(Boolean).map((c) => ({ topic: c.split(':')[0]!, seed: c.split(':')[1]! })), concurrency: Number(v.concurrency), outDir,
    log: (line) => process.stderr.write(`[sweep] ${line}\n`),
  }).then((r) => r.markdown);
  done.then((markdown) => console.log(markdown), (err) => {
    console.error(`topic sweep: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}
