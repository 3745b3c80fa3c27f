// `npm run bench`: harvest, cost and scale of Focus against breadth-first and Crawlee, on a topic-labelled corpus
// served on loopback and crawled through the real extension in Chromium. Prints figures; never fails on time.
//   npm run bench -- [--corpus DIR] [--budget 2000] [--concurrency 4] [--cases Science:English_language,...]
//     [--skip crawlee,pipeline,scale,hits,hits-sweep,queues,sites,sweep,export,pages-table,render,scale-out,shared-harvest] [--scale-urls 1000000] [--export-pages 100000] [--out DIR] [--json]
//     [--sweep-variants spec-a,default] [--only hits-sweep] [--hits-budget 2000] [--hits-held-only]
// `--only hits-sweep` runs the HITS fusion sweep alone (scripts/bench/hits-sweep.ts); `--hits-budget 500 --hits-held-only`
// makes it a few minutes' run (the defaults against best-first on the held-out cases, 500 fetches each).
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { STRATEGIES } from '../../lib/strategies/registry';
import { ROOT, type Launched } from '../lib/browser';
import { ChromiumCpu } from '../lib/process-cpu';
import { crawlPhasePages, crawlPhaseStart, focusCpu } from './crawl-speed';
import { articleOfUrl, loadArticles, startCorpusServer } from './corpus-server';
import { DEFAULT_CORPUS, caseGroundTruth, runWikispeedia, scoreUrls, type CaseResults } from './wikispeedia';
import { runCrawlee } from './crawlee';
import { exportGoals, formatExport, measureExport } from './export';
import { formatRender, measureRender } from './render';
import { formatHits, measureHits } from './hits';
import { HOLD_CASES, SETTINGS as HITS_SETTINGS, TUNE_CASES, runHitsSweep } from './hits-sweep';
import { formatQueueTake, type QueueTakeCost } from './multi-queue';
import { formatPipeline, measurePipeline } from './pipeline';
import { runWebOfSites } from './web-of-sites';
import { formatScaleOut, measureScaleOut } from './scale-out';
import { formatSharedHarvest, measureSharedHarvest } from './shared-harvest';
import { runTopicSweep, sweepVariant } from './topic-sweep';
import { harvestChart, markdownTable, type HarvestSeries } from './report';

const { values: v } = parseArgs({
  options: {
    corpus: { type: 'string', default: DEFAULT_CORPUS },
    budget: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '4' },
    cases: { type: 'string', default: 'Science:English_language,Geography:Human' },
    skip: { type: 'string', default: '' },
    'scale-urls': { type: 'string', default: '1000000' },
    'export-pages': { type: 'string', default: '100000' },
    'sweep-variants': { type: 'string', default: 'spec-a,default' },
    only: { type: 'string' },
    'hits-budget': { type: 'string' },
    'hits-held-only': { type: 'boolean', default: false },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const budget = Number(v.budget);
const concurrency = Number(v.concurrency);
const skip = new Set(v.skip!.split(',').filter(Boolean));
const date = new Date().toISOString().slice(0, 10);
const outDir = v.out ?? join(ROOT, 'results', date);
mkdirSync(outDir, { recursive: true });
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

interface CaseFigures {
  topic: string;
  seed: string;
  reachableOnTopic: number;
  focus: Record<string, Pick<CaseResults, 'table' | 'pagesPerSecond' | 'requestsPerSecond' | 'copies' | 'workerHeapMB' | 'wallSeconds'> & { judge: CaseResults['judge']['all']; cpu?: FocusCpu }>;
  /** `cpuMs`: CPU ms a page of this process while Crawlee ran (its crawler and the site's server). */
  crawlee: { table: ReturnType<typeof scoreUrls>; pagesPerSecond: number; seconds: number; load: number; cpuMs: number } | null;
}

/** Focus's CPU a crawl-phase page (Linux: read from /proc; crawl-speed.ts `focusCpu`). */
type FocusCpu = ReturnType<typeof focusCpu>;

/** The HITS fusion sweep against best-first on the web of sites (Node crawl core), or null when skipped. */
async function hitsSweep(): Promise<string | null> {
  if (skip.has('hits-sweep')) return null;
  const { markdown, rows } = await runHitsSweep({
    corpus: v.corpus!, budget: Number(v['hits-budget'] ?? budget), tune: TUNE_CASES, hold: HOLD_CASES, settings: HITS_SETTINGS,
    heldOnly: v['hits-held-only'], log,
  });
  writeFileSync(join(outDir, 'hits-sweep.json'), JSON.stringify(rows, null, 2) + '\n');
  return markdown;
}

async function main(): Promise<void> {
  if (v.only === 'hits-sweep') {
    const markdown = (await hitsSweep()) ?? '';
    writeFileSync(join(outDir, 'hits-sweep.md'), markdown + '\n');
    console.log(markdown);
    return;
  }
  if (v.only) throw new Error(`--only: "hits-sweep" is the one part that runs alone (got ${JSON.stringify(v.only)})`);
  const cases: CaseFigures[] = [];
  for (const spec of v.cases!.split(',')) {
    const [topic, seed] = spec.split(':');
    const truth = caseGroundTruth(v.corpus!, topic, seed);
    const figures: CaseFigures = { topic, seed, reachableOnTopic: truth.reachOn.length, focus: {}, crawlee: null };
    for (const strategy of STRATEGIES) {
      log(`${topic} from ${seed}: Focus ${strategy}, ${budget} pages`);
      // Best-first, the one set against Crawlee, also has its CPU a page read across Chromium's processes.
      let sampler: ChromiumCpu | undefined;
      let finishedAt = 0;
      const measured = strategy === 'best-first' && process.platform === 'linux';
      const r = await runWikispeedia({
        corpus: v.corpus!, topic, seed, budget, strategy, concurrency,
        out: join(outDir, 'runs', `${topic}-${strategy}`), log: () => {},
        ...(measured ? {
          onStarted: (launched: Launched) => void (sampler = ChromiumCpu.start(launched.profileDir)),
          onFinished: () => {
            finishedAt = Date.now();
            sampler?.stop();
          },
        } : {}),
      });
      const cpu = sampler ? focusCpu(sampler, crawlPhaseStart(r.out), finishedAt, crawlPhasePages(r.out)) : undefined;
      figures.focus[strategy] = { table: r.table, pagesPerSecond: r.pagesPerSecond, requestsPerSecond: r.requestsPerSecond, copies: r.copies, workerHeapMB: r.workerHeapMB, wallSeconds: r.wallSeconds, judge: r.judge.all, ...(cpu ? { cpu } : {}) };
    }
    if (!skip.has('crawlee')) {
      log(`${topic} from ${seed}: Crawlee CheerioCrawler, ${budget} pages`);
      const site = await startCorpusServer(v.corpus!);
      try {
        const seedPath = loadArticles(v.corpus!).find((a) => a.article === seed)!.path;
        const before = process.cpuUsage();
        const run = await runCrawlee({ origin: site.origin, seedUrl: site.origin + seedPath, budget, concurrency });
        const used = process.cpuUsage(before);
        figures.crawlee = { table: scoreUrls(run.urls.filter((u) => articleOfUrl(u)), truth), pagesPerSecond: run.pagesPerSecond, seconds: run.seconds, load: loadavg()[0]!,
          cpuMs: (used.user + used.system) / 1000 / Math.max(1, run.urls.length) };
      } finally {
        await site.close();
      }
    }
    cases.push(figures);
  }
  const pipeline = skip.has('pipeline') ? null : await measurePipeline(v.corpus!, 400);
  const hits = skip.has('hits') ? null : measureHits();
  const queues = skip.has('queues') ? null : runQueueTake();
  const sites = skip.has('sites') ? null : await runWebOfSites({
    corpus: v.corpus!, budget, concurrency, maxSources: 300, outDir, log,
    cases: v.cases!.split(',').map((c) => c.split(':') as [string, string]),
  });
  // Every top-level topic from two drawn seeds, 1,000 fetches each, through the extension (scripts/bench/topic-sweep.ts).
  const sweep = skip.has('sweep') ? null : await runTopicSweep({
    corpus: v.corpus!, engine: 'extension', budget: 1000, concurrency, outDir: join(outDir, 'sweep'), log,
    variants: v['sweep-variants']!.split(',').map(sweepVariant),
  });
  const hitsFusion = await hitsSweep();
  const scale = skip.has('scale') ? null : runScale();
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, chromium: chromiumVersion() };
  // Many browsers, one crawl: 1, 2 and 4 workers on Redis (skipped where redis-server is missing).
  const scaleOut = skip.has('scale-out') || !existsSync('/usr/bin/redis-server') ? null : await measureScaleOut({ workers: [1, 2, 4], pages: 600, queued: 100_000, log });
  // The same crawl by one browser and by 3 on Redis, one killed: the harvest of each, on two held-out cases.
  const sharedHarvest = skip.has('shared-harvest') || !existsSync('/usr/bin/redis-server') ? null : await measureSharedHarvest({
    cases: ['History:Plant', 'Science:Europe'], budget: 1000, workers: 3, killAt: 0.4, maxSources: 300, concurrency, skipAlone: false,
    out: join(outDir, 'shared-harvest'), log,
  });
  const exported = skip.has('export') ? null : await measureExport({ pages: Number(v['export-pages']), formats: ['wacz', 'warc', 'jsonl', 'csv', 'zip'], log });
  for (const goal of exported ? exportGoals(exported) : []) log(`export at scale: ${goal}`); // the export goals
  const pagesTable = skip.has('pages-table') ? null : runPagesTable();
  const all = { date, machine, budget, concurrency, cases, pipeline, scale, hits, queues, exported, pagesTable };
  writeFileSync(join(outDir, 'bench.json'), JSON.stringify(all, null, 2) + '\n');
  const report = await writeReport(all) + (hits ? `\n## A HITS round against graph size (Node)\n\n${formatHits(hits)}\n` : '') + (queues ? `\n## multi-queue: a take by FIFO queues against frontier size (Node, fake-indexeddb)\n\n${formatQueueTake(queues)}\n` : '') + (sites ? `\n${sites.markdown}\n` : '') + (sweep ? `\n## Every topic (topic sweep)\n\n${sweep.markdown}\n\n![fraction of the oracle per topic](sweep/sweep-fraction-of-oracle.svg)\n` : '') + (hitsFusion ? `\n${hitsFusion}\n` : '') + (exported ? `\n## Export at scale\n\n${formatExport(exported)}\n` : '') + (scaleOut ? `\n## Many browsers, one crawl (Redis)\n\n${formatScaleOut(scaleOut)}\n` : '') + (sharedHarvest ? `\n## Many browsers, one crawl: harvest against one browser\n\n${formatSharedHarvest(sharedHarvest, 3)}\n` : '') + (pagesTable ? `\n## The Pages table at scale\n\n${pagesTable.text}\n` : '');
  writeFileSync(join(outDir, 'report.md'), report + '\n');
  console.log(report);
  if (v.json) console.log(JSON.stringify(all));
  if (!skip.has('render')) {
    const rendering = `\n${formatRender(await measureRender({ staticPages: 400, rounds: 5, renderedPages: 300, mixedCopies: 10, tabPages: 100, tabRounds: 4, growthRuns: 2, log }))}\n`;
    appendFileSync(join(outDir, 'report.md'), rendering);
    console.log(rendering);
  }
}

/** The frontier-at-scale benchmark runs in its own Chromium; its last output line is its JSON figures. */
function runScale(): Record<string, unknown> | null {
  log(`frontier at scale: ${v['scale-urls']} URLs in Chromium's IndexedDB`);
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'frontier-scale.ts'), '--urls', v['scale-urls']!, '--json'],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 2 ** 20 });
    const lines = out.trim().split('\n');
    for (const goal of lines.filter((l) => l.startsWith('goal '))) log(`frontier at scale: ${goal}`); // the three ratios
    return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
  } catch (err) {
    log(`frontier at scale failed: ${err instanceof Error ? err.message : err}`);
    return null;
  }
}

/**
 * The Pages table opened on 100,000 pages (scripts/bench/pages-table-open.ts, its own Chromium; the crawl is written
 * once into a profile kept in the system's temporary folder, minutes the first time): each filter and search, timed.
 */
function runPagesTable(): { text: string; figures: Record<string, unknown> } | null {
  log('the Pages table at 100,000 pages, opened twice');
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'pages-table-open.ts'), '--pages', '100000', '--opens', '2', '--json'],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 2 ** 20 });
    const lines = out.trim().split('\n');
    for (const goal of lines.filter((l) => l.startsWith('goal '))) log(`pages table: ${goal}`); // the table's goal
    return { text: lines.slice(0, -1).join('\n'), figures: JSON.parse(lines.at(-1)!) as Record<string, unknown> };
  } catch (err) {
    log(`the Pages table failed: ${err instanceof Error ? err.message : err}`);
    return null;
  }
}

/** The take by FIFO queues at 1,000 and 1,000,000 queued URLs, in its own Node (the 1M frontier is held in memory). */
function runQueueTake(): QueueTakeCost[] | null {
  log('multi-queue: the take by FIFO queues at 1,000 and 1,000,000 queued URLs');
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'multi-queue.ts'), '--json'],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 2 ** 20 });
    return JSON.parse(out.trim().split('\n').at(-1)!) as QueueTakeCost[];
  } catch (err) {
    log(`multi-queue take failed: ${err instanceof Error ? err.message : err}`);
    return null;
  }
}

function chromiumVersion(): string {
  try {
    return execFileSync(process.env.CHROME_PATH || '/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

const f3 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? null : x.toFixed(3));

async function writeReport(all: { date: string; machine: Record<string, unknown>; cases: CaseFigures[]; pipeline: Awaited<ReturnType<typeof measurePipeline>> | null; scale: Record<string, unknown> | null }): Promise<string> {
  const parts: string[] = [`# Focus benchmark, ${all.date}`, '',
    `Machine: ${all.machine.cpus} cores (${all.machine.cpuModel}), ${all.machine.memoryGiB} GiB, Node ${all.machine.node}, ${all.machine.chromium}. ` +
    `Corpus: ${relative(ROOT, v.corpus!)}; budget ${budget} pages; concurrency ${concurrency}, no politeness delay. ` +
    'Harvest = on-topic pages / pages fetched; recall = on-topic pages fetched / on-topic pages reachable from the seed; ' +
    'ground truth is the corpus labels (labels.tsv), never the crawler\'s judge. Focus trains on a 30% split of the articles ' +
    '(seeded shuffle; every training page is read as a link source). "Scored" figures count only pages of the other 70%, ' +
    'which no training input names: they are the fair measure; the overall figures also count training-split pages.', ''];
  for (const c of all.cases) {
    parts.push(`## ${c.topic} from ${c.seed} (${c.reachableOnTopic} ${c.topic} pages reachable)`, '');
    const series: HarvestSeries[] = [];
    const rows: (string | null)[][] = [];
    const checkpoints = [...new Set(Object.values(c.focus).flatMap((f) => f.table.map((t) => t.fetched)))].sort((a, b) => a - b);
    const last = checkpoints.at(-1);
    const at = (table: ReturnType<typeof scoreUrls>, n: number | undefined) => table.find((t) => t.fetched === n);
    const row = (table: ReturnType<typeof scoreUrls>) => [
      ...checkpoints.map((n) => f3(at(table, n)?.harvest)), f3(at(table, last)?.recall),
      f3(at(table, 500)?.scoredHarvest), f3(at(table, last)?.scoredRecall),
    ];
    for (const [strategy, f] of Object.entries(c.focus)) {
      series.push({ name: `Focus ${strategy}`, points: f.table });
      rows.push([`Focus ${strategy}`, ...row(f.table), (typeof f.pagesPerSecond === 'number' && Number.isFinite(f.pagesPerSecond) ? f.pagesPerSecond.toFixed(1) : null)]);
    }
    if (c.crawlee) {
      series.push({ name: 'Crawlee CheerioCrawler', points: c.crawlee.table });
      rows.push(['Crawlee CheerioCrawler (FIFO)', ...row(c.crawlee.table), c.crawlee.pagesPerSecond.toFixed(1)]);
    }
    parts.push(markdownTable(['crawler', ...checkpoints.map((n) => `harvest @${n}`), `recall @${last}`, 'scored harvest @500', `scored recall @${last}`, 'pages/s'], rows), '');
    const focusRate = c.focus['best-first']?.pagesPerSecond;
    if (c.crawlee && focusRate) {
      parts.push(`Crawl-phase pages/s, Focus best-first over Crawlee CheerioCrawler, side by side in this run at concurrency ${concurrency}, ` +
        `no politeness delay, loopback, load average ${c.crawlee.load.toFixed(1)} on ${cpus().length} cores: ` +
        `${(focusRate / c.crawlee.pagesPerSecond).toFixed(2)}x. Of Focus's pages, ${c.focus['best-first']!.copies} were judged from training reads' copies, ` +
        `requested before the crawl phase; its requests a second over Crawlee's (which requests every page), like for like: ` +
        `${((c.focus['best-first']!.requestsPerSecond ?? NaN) / c.crawlee.pagesPerSecond).toFixed(2)}x (goal: at least 1).`, '');
      const cpu = c.focus['best-first']?.cpu;
      if (cpu) {
        const perRequest = cpu.pages / Math.max(1, cpu.pages - (c.focus['best-first']?.copies ?? 0));
        const part = (name: string) => (cpu.parts.find(([k]) => k === name)?.[1] ?? 0).toFixed(2);
        parts.push(`CPU a crawl-phase page in the same runs: Focus's Chromium ${cpu.total.toFixed(2)} ms (the browser's IndexedDB thread pool ` +
          `${part('browser: ThreadPoolForeg')}, the service worker ${part('extension: ServiceWorker t')}) and its site's server ${cpu.server.toFixed(2)} ms; ` +
          `Crawlee with its server ${c.crawlee.cpuMs.toFixed(2)} ms (${((cpu.total + cpu.server) / c.crawlee.cpuMs).toFixed(2)}x). ` +
          `Over requests only (Focus's pages judged from copies made none, and their work is in the figure): Focus's Chromium and server ` +
          `${((cpu.total + cpu.server) * perRequest).toFixed(2)} ms, ${(((cpu.total + cpu.server) * perRequest) / c.crawlee.cpuMs).toFixed(2)}x Crawlee's.`, '');
      }
    }
    const svg = `harvest-${c.topic}.svg`;
    writeFileSync(join(outDir, svg), await harvestChart(`${c.topic} from ${c.seed}`, series));
    parts.push(`![harvest and recall, ${c.topic}](${svg})`, '');
    const bf = c.focus['best-first'];
    if (bf) {
      parts.push(`Focus best-first: page judge against labels.tsv: precision ${bf.judge.precision}, recall ${bf.judge.recall}, F1 ${bf.judge.f1}; ` +
        `service worker heap: peak ${bf.workerHeapMB?.peak ?? '-'} MiB (median ${bf.workerHeapMB?.median ?? '-'}).`, '');
    }
  }
  if (all.pipeline) parts.push('## Cost per page (Node, corpus pages)', '', '```', formatPipeline(all.pipeline), '```', '');
  if (all.scale) parts.push('## Frontier at scale (Chromium IndexedDB)', '', '```json', JSON.stringify(all.scale, null, 2), '```', '');
  const text = parts.join('\n');
  writeFileSync(join(outDir, 'report.md'), text + '\n');
  return text;
}

main().catch((err) => {
  console.error(`bench: ${err instanceof Error ? err.stack ?? err.message : err}`);
  process.exit(1);
});
