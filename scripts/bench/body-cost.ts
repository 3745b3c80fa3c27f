// What storing the crawl's page bodies costs the browser: builds of the extension crawled one after another,
// alternated, on the Wikispeedia corpus, each measured by the CPU time of Chromium's threads during the Focus run
// (read from /proc/<pid>/task/*/stat from when the crawl starts to when it ends), its crawl-phase pages/s and the size
// of the profile's IndexedDB directory. Linux only. The machine's noise cancels only in ratios between builds of
// one run, so builds are alternated round by round.
//   npx tsx scripts/bench/body-cost.ts --build NAME=DIR [--build NAME=DIR ...] [--rounds 2] [--budget 2000] [--concurrency 8]
// A DIR is a built runner extension (npx wxt build --mode runner, then copy .output/chrome-mv3-runner elsewhere);
// each run copies it over .output/chrome-mv3-runner, the one the runner launches, and puts the old one back at the end.
import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EXTENSION_DIR } from '../lib/browser';
import { ChromiumCpu } from '../lib/process-cpu';
import { DEFAULT_CORPUS, runWikispeedia } from './wikispeedia';

/** CPU seconds by thread, keyed "process kind: thread name" (threads of one name summed; scripts/lib/process-cpu.ts). */
export type ThreadCpu = Map<string, number>;

function duBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? duBytes(p) : statSync(p).size;
  }
  return n;
}

interface Run {
  build: string;
  pagesPerSecond: number;
  pages: number;
  cpu: ThreadCpu;
  idbBytes: number;
}

async function runOnce(build: string, dir: string, o: { budget: number; concurrency: number; corpus: string }): Promise<Run> {
  rmSync(EXTENSION_DIR, { recursive: true, force: true });
  cpSync(dir, EXTENSION_DIR, { recursive: true });
  let sampler: ChromiumCpu | undefined;
  let from = 0;
  let cpu: ThreadCpu = new Map();
  let idbBytes = 0;
  const r = await runWikispeedia({
    corpus: o.corpus, topic: 'Science', seed: 'English_language', budget: o.budget, strategy: 'best-first', concurrency: o.concurrency,
    log: () => {},
    onStarted: (launched) => {
      from = Date.now();
      sampler = ChromiumCpu.start(launched.profileDir, 2000);
    },
    onFinished: (launched) => {
      sampler?.stop();
      cpu = sampler?.between(from, Date.now()) ?? new Map();
      cpu.delete('benchmark process');
      idbBytes = duBytes(join(launched.profileDir, 'Default', 'IndexedDB'));
    },
  });
  return { build, pagesPerSecond: r.pagesPerSecond ?? NaN, pages: r.crawlPages, cpu, idbBytes };
}

/** The threads worth a line: the browser's storage threads, the extension's worker, and the largest others. */
function summary(runs: Run[]): string {
  const keys = new Map<string, number>();
  for (const r of runs) for (const [k, v] of r.cpu) keys.set(k, Math.max(keys.get(k) ?? 0, v));
  const top = [...keys].filter(([, v]) => v >= 0.5).sort((a, b) => b[1] - a[1]).map(([k]) => k);
  const builds = [...new Set(runs.map((r) => r.build))];
  const lines: string[] = [];
  const mean = (b: string, f: (r: Run) => number) => {
    const xs = runs.filter((r) => r.build === b).map(f);
    return xs.reduce((s, x) => s + x, 0) / xs.length;
  };
  const total = (r: Run) => [...r.cpu.values()].reduce((s, x) => s + x, 0);
  lines.push(['', ...builds].join('\t'));
  for (const k of top) lines.push([`${k} (CPU s)`, ...builds.map((b) => mean(b, (r) => r.cpu.get(k) ?? 0).toFixed(1))].join('\t'));
  lines.push(['all of Chromium (CPU s)', ...builds.map((b) => mean(b, total).toFixed(1))].join('\t'));
  lines.push(['crawl-phase pages/s', ...builds.map((b) => mean(b, (r) => r.pagesPerSecond).toFixed(1))].join('\t'));
  lines.push(['IndexedDB on disk (MiB)', ...builds.map((b) => (mean(b, (r) => r.idbBytes) / 2 ** 20).toFixed(1))].join('\t'));
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      build: { type: 'string', multiple: true, default: [] }, rounds: { type: 'string', default: '2' },
      budget: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '8' }, corpus: { type: 'string', default: DEFAULT_CORPUS },
    },
  });
  const builds = v.build!.map((s) => s.split('=') as [string, string]);
  if (builds.length === 0) throw new Error('--build NAME=DIR, at least once');
  const saved = `${EXTENSION_DIR}.saved`;
  if (existsSync(EXTENSION_DIR)) renameSync(EXTENSION_DIR, saved);
  const runs: Run[] = [];
  try {
    for (let i = 0; i < Number(v.rounds); i++) {
      // Alternate the order too, so that neither build always runs first in a round.
      for (const [name, dir] of i % 2 ? [...builds].reverse() : builds) {
        const r = await runOnce(name, dir, { budget: Number(v.budget), concurrency: Number(v.concurrency), corpus: v.corpus! });
        runs.push(r);
        const worker = [...r.cpu].filter(([k]) => k.startsWith('extension')).reduce((s, [, x]) => s + x, 0);
        const pool = [...r.cpu].filter(([k]) => k.startsWith('browser: ThreadPoolForeg')).reduce((s, [, x]) => s + x, 0);
        process.stderr.write(`round ${i + 1} ${name}: ${r.pagesPerSecond} pages/s, browser ThreadPoolForeground ${pool.toFixed(1)} s, ` +
          `extension process ${worker.toFixed(1)} s, IndexedDB ${(r.idbBytes / 2 ** 20).toFixed(1)} MiB\n`);
      }
    }
  } finally {
    rmSync(EXTENSION_DIR, { recursive: true, force: true });
    if (existsSync(saved)) renameSync(saved, EXTENSION_DIR);
  }
  console.log(summary(runs));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
