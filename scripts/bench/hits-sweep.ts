// HITS fusion (design C) against best-first on the web of sites, over several topics and seeds: the sweep its
// defaults come from. Each case is crawled by best-first and by each setting of hits-fusion, one after the other
// in this process (the crawl core of lib/ in Node, pages answered from memory as the loopback server would, on
// their own hosts: scripts/bench/node-crawl.ts), so wall and CPU time are compared side by side. The settings are
// tried on the tuning cases; the one with the best mean recall at the budget, within 1.2x best-first's time, is
// then run on the held-out cases it never saw, with the defaults (`defaults`) beside it.
// Part of `npm run bench`; alone:
//   npx tsx scripts/bench/hits-sweep.ts [--budget 2000] [--tune Science:English_language,...] [--hold History:...,...]
//     [--settings '[{"label":"..","params":{..}}]'] [--held-only] [--out DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { hitsFusion, SWEPT_DEFAULTS } from '../../lib/strategies/hits-fusion';
import { ROOT } from '../lib/browser';
import { loadCorpusInMemory, runNodeCase } from './node-crawl';
import { markdownTable } from './report';
import { DEFAULT_CORPUS } from './wikispeedia';

export interface Setting {
  label: string;
  params: Record<string, number | string>;
}

type Params = Record<string, number | string>;

/** The strategy's defaults as the registry declares them. */
export const DEFAULTS: Params = Object.fromEntries(hitsFusion.params.map((p) => [p.key, p.default as number | string]));

/**
 * The cases, topic:seed. The four largest topics (at 2,000 fetches recall is not yet 1 for them), each from two
 * seeds off the topic: tuned on the first three, the other five held out.
 */
export const TUNE_CASES = ['Science:English_language', 'Geography:Human', 'People:Computer'];
export const HOLD_CASES = ['History:Plant', 'Science:Europe', 'Geography:Music', 'People:Mammal', 'History:Computer'];

/**
 * What the sweep tries on the tuning cases: the link weight and the threshold, with Naive Bayes as the text part and a
 * HITS round every 500 pages (the crawl's own re-scoring period: a round more often re-ranks the queue more often).
 */
export const SETTINGS: Setting[] = [
  { label: 'NB, C 0.1', params: { text: 'naive-bayes', textWeight: 0.7, anchorWeight: 0.2, linkWeight: 0.1, every: 500, threshold: 0.02 } },
  { label: 'NB, C 0.3 (the defaults)', params: { ...SWEPT_DEFAULTS } },
  { label: 'NB, C 0.5', params: { text: 'naive-bayes', textWeight: 0.4, anchorWeight: 0.1, linkWeight: 0.5, every: 500, threshold: 0.02 } },
  { label: 'NB, C 0.3, no drop', params: { text: 'naive-bayes', textWeight: 0.5, anchorWeight: 0.2, linkWeight: 0.3, every: 500, threshold: 0 } },
];

export interface Measured {
  recall: number;
  harvest: number;
  wallSeconds: number;
  cpuSeconds: number;
  pagesPerSecond: number;
  hits?: { rounds: number; ms: number };
}

export interface SweepRow {
  case: string;
  tuned: boolean;
  setting: string;
  bestFirst: Measured;
  fusion: Measured;
}

async function measure(corpus: string, topic: string, seed: string, budget: number, strategy: string, params?: Params): Promise<Measured> {
  const cpu = process.cpuUsage();
  const r = await runNodeCase({ corpus, topic, seed, budget, strategy, strategyParams: params, concurrency: 4, web: 'sites', maxSources: 300 });
  const used = process.cpuUsage(cpu);
  // The checkpoint at the budget (the crawl may fetch a few more while its last requests finish).
  const at = r.table.find((t) => t.fetched === budget) ?? r.table.at(-1)!;
  return {
    recall: at.recall ?? NaN, harvest: at.harvest ?? NaN, wallSeconds: r.seconds, cpuSeconds: (used.user + used.system) / 1e6, pagesPerSecond: r.pagesPerSecond,
    ...(r.strategyReport?.spent ? { hits: r.strategyReport.spent as { rounds: number; ms: number } } : {}),
  };
}

export interface HitsSweepOptions {
  corpus: string;
  budget: number;
  tune: string[];
  hold: string[];
  settings: Setting[];
  /** Skip the tuning: run only the defaults on the held-out cases. */
  heldOnly?: boolean;
  log: (line: string) => void;
}

/**
 * Per case, best-first once, then each setting right after it in the same process (the machine is shared: a ratio
 * of two runs far apart means little, and CPU time is reported beside wall time).
 */
export async function runHitsSweep(o: HitsSweepOptions): Promise<{ rows: SweepRow[]; chosen: Setting; markdown: string }> {
  const rows: SweepRow[] = [];
  loadCorpusInMemory(o.corpus, 'sites');
  const crawlCase = async (spec: string, tuned: boolean, settings: Setting[]) => {
    const [topic, seed] = spec.split(':') as [string, string];
    o.log(`${spec}: best-first, ${o.budget} pages`);
    const bestFirst = await measure(o.corpus, topic, seed, o.budget, 'best-first');
    for (const s of settings) {
      o.log(`${spec}: hits-fusion ${s.label}`);
      const fusion = await measure(o.corpus, topic, seed, o.budget, 'hits-fusion', s.params);
      o.log(`  best-first / fusion: recall ${bestFirst.recall} / ${fusion.recall}, harvest ${bestFirst.harvest} / ${fusion.harvest}, ` +
        `wall ${bestFirst.wallSeconds} / ${fusion.wallSeconds} s, CPU ${bestFirst.cpuSeconds.toFixed(1)} / ${fusion.cpuSeconds.toFixed(1)} s, ` +
        `pages/s ${bestFirst.pagesPerSecond.toFixed(1)} / ${fusion.pagesPerSecond.toFixed(1)}`);
      rows.push({ case: spec, tuned, setting: s.label, bestFirst, fusion });
    }
  };
  if (!o.heldOnly) for (const spec of o.tune) await crawlCase(spec, true, o.settings);
  const chosen = o.heldOnly ? { label: 'defaults', params: DEFAULTS } : choose(rows, o.settings);
  const held: Setting = { label: `defaults${sameSetting(chosen.params, DEFAULTS) ? '' : ' (not the chosen setting)'}`, params: DEFAULTS };
  for (const spec of o.hold) await crawlCase(spec, false, [held]);
  return { rows, chosen, markdown: report(o, rows, chosen) };
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

/** The setting with the best mean recall gain over the tuning cases among those within 1.2x best-first's wall time. */
export function choose(rows: SweepRow[], settings: Setting[]): Setting {
  const scored = settings.map((s) => {
    const mine = rows.filter((r) => r.setting === s.label);
    return { s, gain: mean(mine.map((r) => r.fusion.recall - r.bestFirst.recall)), time: mean(mine.map((r) => ratio(r.fusion.wallSeconds, r.bestFirst.wallSeconds))) };
  });
  const fast = scored.filter((x) => x.time <= 1.2);
  return (fast.length ? fast : scored).sort((a, b) => b.gain - a.gain)[0]!.s;
}

function sameSetting(a: Params, b: Params): boolean {
  return Object.keys(a).every((k) => a[k] === b[k]);
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const x2 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : '-');

function report(o: HitsSweepOptions, rows: SweepRow[], chosen: Setting): string {
  const table = markdownTable(
    ['case', 'tuned on', 'hits-fusion setting', 'recall best-first', 'recall fusion', 'recall ratio', 'harvest ratio', 'wall ratio', 'CPU ratio', 'pages/s best-first / fusion', 'HITS rounds / ms'],
    rows.map((r) => [
      r.case, r.tuned ? 'yes' : 'no', r.setting, f3(r.bestFirst.recall), f3(r.fusion.recall), x2(ratio(r.fusion.recall, r.bestFirst.recall)),
      x2(ratio(r.fusion.harvest, r.bestFirst.harvest)), x2(ratio(r.fusion.wallSeconds, r.bestFirst.wallSeconds)),
      x2(ratio(r.fusion.cpuSeconds, r.bestFirst.cpuSeconds)),
      `${r.bestFirst.pagesPerSecond.toFixed(1)} / ${r.fusion.pagesPerSecond.toFixed(1)}`,
      r.fusion.hits ? `${r.fusion.hits.rounds} / ${Math.round(r.fusion.hits.ms)}` : '-',
    ]),
  );
  const held = rows.filter((r) => !r.tuned);
  const summary = held.length
    ? `Held out (${held.length} cases, the defaults): mean recall ${f3(mean(held.map((r) => r.bestFirst.recall)))} best-first, ` +
      `${f3(mean(held.map((r) => r.fusion.recall)))} hits-fusion; more recall on ${held.filter((r) => r.fusion.recall > r.bestFirst.recall).length} of ${held.length}; ` +
      `mean wall ratio ${x2(mean(held.map((r) => ratio(r.fusion.wallSeconds, r.bestFirst.wallSeconds))))}.`
    : '';
  return [
    '## HITS fusion against best-first (sweep)', '',
    `Web of sites (147 hosts), crawled by the crawl core in Node (pages from memory), budget ${o.budget} fetches, concurrency 4, ` +
    'training on the first 300 link sources of the 30% split. Recall and harvest at the budget against labels.tsv; ratios are ' +
    'hits-fusion / best-first, best-first run once per case and each setting right after it in one process. ' +
    (o.heldOnly ? '' : `Chosen on the tuning cases: ${chosen.label} (${JSON.stringify(chosen.params)}).`), '',
    table, '', summary,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS }, budget: { type: 'string', default: '2000' },
      tune: { type: 'string', default: TUNE_CASES.join(',') }, hold: { type: 'string', default: HOLD_CASES.join(',') },
      settings: { type: 'string' }, 'held-only': { type: 'boolean', default: false }, out: { type: 'string' },
    },
  });
  const outDir = v.out ?? join(ROOT, 'results', new Date().toISOString().slice(0, 10));
  mkdirSync(outDir, { recursive: true });
  runHitsSweep({
    corpus: v.corpus!, budget: Number(v.budget), tune: v.tune!.split(',').filter(Boolean), hold: v.hold!.split(',').filter(Boolean),
    settings: v.settings ? (JSON.parse(v.settings) as Setting[]) : SETTINGS, heldOnly: v['held-only'],
    log: (line) => process.stderr.write(`[hits-sweep] ${line}\n`),
  }).then(({ rows, markdown }) => {
    writeFileSync(join(outDir, 'hits-sweep.md'), markdown + '\n');
    writeFileSync(join(outDir, 'hits-sweep.json'), JSON.stringify(rows, null, 2) + '\n');
    console.log(markdown);
  }, (err) => {
    console.error(`hits sweep: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}
