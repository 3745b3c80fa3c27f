// How fast can any crawler in the browser go on this machine? The least a crawler in an extension's service worker
// does for a page (crawl-floor-worker.ts: fetch, decode and parse; then keeping the body and a page row; then the
// queue persisted too), breadth-first from the seed over the Wikispeedia site at the same concurrency, beside Focus's
// crawl phase and Crawlee's CheerioCrawler in the same round (crawl-speed.ts), each as pages/s, its ratio to Crawlee,
// and (Linux) Chromium's CPU a page. The floor forms share Focus's request options, decoder and parser; they judge,
// learn and index nothing. Crawlee keeps its queue in memory and stores no page.
//   npx tsx scripts/bench/crawl-floor.ts [--budget 2000] [--concurrency 8] [--rounds 1] [--modes parse,keep,persist] [--no-focus]
//     [--listeners none,redirects,headers,cookies] (each floor form with each set of webRequest listeners, alternated)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { launchWithExtension } from '../lib/browser';
import { ChromiumCpu } from '../lib/process-cpu';
import { loadArticles, startCorpusServer } from './corpus-server';
import { runCrawlee } from './crawlee';
import type { FloorListeners, FloorMode, FloorRun } from './crawl-floor-worker';
import { measureCrawlSpeed } from './crawl-speed';
import { DEFAULT_CORPUS } from './wikispeedia';

const { values: v } = parseArgs({ options: {
  corpus: { type: 'string', default: DEFAULT_CORPUS }, seed: { type: 'string', default: 'English_language' },
  topic: { type: 'string', default: 'Science' }, budget: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '8' },
  rounds: { type: 'string', default: '1' }, listeners: { type: 'string', default: 'none' }, modes: { type: 'string', default: 'parse,keep,persist' }, 'no-focus': { type: 'boolean', default: false },
} });
const log = (s: string) => process.stderr.write(`[floor] ${s}\n`);
const budget = Number(v.budget), concurrency = Number(v.concurrency);
const modes = v.modes!.split(',') as FloorMode[];
const listenerSets = v.listeners!.split(',') as FloorListeners[];

const extDir = mkdtempSync(join(tmpdir(), 'focus-floor-ext-'));
process.on('exit', () => rmSync(extDir, { recursive: true, force: true }));
const bundle = await build({
  entryPoints: [join(import.meta.dirname, 'crawl-floor-worker.ts')], bundle: true, format: 'iife', platform: 'browser', target: 'chrome120',
  write: false, logLevel: 'warning',
});
writeFileSync(join(extDir, 'sw.js'), bundle.outputFiles[0]!.contents);
writeFileSync(join(extDir, 'manifest.json'), JSON.stringify({
  manifest_version: 3, name: 'crawl floor', version: '1', background: { service_worker: 'sw.js' }, permissions: ['webRequest'], host_permissions: ['<all_urls>'],
}));

interface Row { name: string; pagesPerSecond: number; cpuMs?: number; parts?: [string, number][] }

async function floorRound(mode: FloorMode, listeners: FloorListeners): Promise<Row> {
  const site = await startCorpusServer(v.corpus!);
  const launched = await launchWithExtension({ extensionDir: extDir });
  try {
    const seedPath = loadArticles(v.corpus!).find((a) => a.article === v.seed)!.path;
    const cpu = ChromiumCpu.start(launched.profileDir);
    const from = Date.now();
    const run = (await launched.worker.evaluate(
      (o) => (globalThis as unknown as { floorCrawl(o: unknown): Promise<unknown> }).floorCrawl(o),
      { seed: site.origin + seedPath, budget, concurrency, mode, db: `floor-${mode}`, listeners },
    )) as FloorRun;
    const to = Date.now();
    cpu?.stop();
    if (run.failed) log(`${mode}: ${run.failed} requests failed`);
    const parts = cpu?.between(from, to);
    parts?.delete('benchmark process');
    const perPage = (s: number) => (s * 1000) / run.pages;
    return {
      name: `floor: ${mode}${listeners === 'none' ? '' : `, ${listeners}`}`, pagesPerSecond: run.pagesPerSecond,
      ...(parts ? { cpuMs: perPage([...parts.values()].reduce((a, b) => a + b, 0)), parts: [...parts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, s]) => [k, perPage(s)]) } : {}),
    };
  } finally {
    await launched.close();
    await site.close();
  }
}

for (let round = 1; round <= Number(v.rounds); round++) {
  const rows: Row[] = [];
  for (const mode of modes) {
    for (const listeners of round % 2 ? listenerSets : [...listenerSets].reverse()) {
      log(`round ${round}: floor ${mode}, listeners ${listeners}`);
      rows.push(await floorRound(mode, listeners));
    }
  }
  let crawlee: number;
  if (!v['no-focus']) {
    log(`round ${round}: Focus, then Crawlee (crawl-speed.ts)`);
    const s = await measureCrawlSpeed({ corpus: v.corpus!, topic: v.topic!, seed: v.seed!, budget, concurrency, rounds: 1 });
    const r = s.rounds[0]!;
    rows.push({ name: 'Focus (crawl phase)', pagesPerSecond: r.focus, ...(r.cpu ? { cpuMs: r.cpu.focus.total, parts: r.cpu.focus.parts.slice(0, 4) } : {}) });
    crawlee = r.crawlee;
  } else {
    log(`round ${round}: Crawlee`);
    const site = await startCorpusServer(v.corpus!);
    try {
      const seedPath = loadArticles(v.corpus!).find((a) => a.article === v.seed)!.path;
      crawlee = (await runCrawlee({ origin: site.origin, seedUrl: site.origin + seedPath, budget, concurrency })).pagesPerSecond;
    } finally {
      await site.close();
    }
  }
  console.log(`round ${round}: ${budget} pages from ${v.seed}, concurrency ${concurrency}, loopback; Crawlee CheerioCrawler ${crawlee.toFixed(1)} pages/s; load average ${loadavg()[0]!.toFixed(1)} on 2 cores`);
  for (const r of rows) {
    const cpu = r.cpuMs === undefined ? '' : `, Chromium ${r.cpuMs.toFixed(2)} ms of CPU a page (${r.parts!.map(([k, ms]) => `${k} ${ms.toFixed(2)}`).join(', ')})`;
    console.log(`  ${r.name.padEnd(20)} ${r.pagesPerSecond.toFixed(1).padStart(6)} pages/s, ${(r.pagesPerSecond / crawlee).toFixed(2)}x Crawlee${cpu}`);
  }
}
