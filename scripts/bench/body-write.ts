// What writing a page's body costs Chromium, apart from the crawl: page commits (a page row, its links' frontier
// rows, and the body) written to IndexedDB from a page on loopback, with the body stored as bytes (`bytes`), gzip-
// compressed by the browser (`gzip`: CompressionStream, in the page) or synchronously by pako at level 1 or 6
// (`pako1`, `pako6`), as a Blob (`blob`), or not at all (`none`); a fresh browser per form,
// forms alternated round by round. Measured: the CPU time of Chromium's threads from the first write until the
// browser has settled (its compactions done), and the page's time spent compressing. Real Wikispeedia pages.
//   npx tsx scripts/bench/body-write.ts [--pages 3000] [--group 4] [--links 30] [--rounds 2] [--forms bytes,pako1,gzip,blob,none]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { openHarnessPage } from '../lib/browser';
import { ChromiumCpu } from '../lib/process-cpu';
import type { ThreadCpu } from './body-cost';
import { loadCorpusPages } from './corpus-server';
import { DEFAULT_CORPUS } from './wikispeedia';

const { values: v } = parseArgs({ options: {
  pages: { type: 'string', default: '3000' }, group: { type: 'string', default: '4' }, links: { type: 'string', default: '30' },
  rounds: { type: 'string', default: '2' }, forms: { type: 'string', default: 'bytes,pako1,gzip,blob,none' }, settle: { type: 'string', default: '3000' },
} });
const progress = (s: string) => process.stderr.write(`${s}\n`);
const htmls = [...loadCorpusPages(DEFAULT_CORPUS).values()].slice(0, 600);
const bundle = await build({
  entryPoints: [join(import.meta.dirname, 'body-write-page.ts')], bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, logLevel: 'warning',
});
const forms = v.forms!.split(',');
const sum = (cpu: ThreadCpu, f: (k: string) => boolean) => [...cpu].filter(([k]) => f(k)).reduce((s, [, x]) => s + x, 0);
const results: { form: string; pool: number; browser: number; page: number; all: number; prepareMs: number; ms: number; bytes: number }[] = [];
for (let round = 0; round < Number(v.rounds); round++) {
  for (const form of round % 2 ? [...forms].reverse() : forms) {
    const h = await openHarnessPage(bundle.outputFiles[0]!.text, 'body-write', progress);
    try {
      h.page.setDefaultTimeout(0);
      const from = Date.now();
      const sampler = ChromiumCpu.start(h.profileDir, 1000);
      const r = await h.page.evaluate(([plan, bodies]) => (globalThis as unknown as { bodyWrite: { run(p: unknown, h: string[]): Promise<{ ms: number; prepareMs: number; bytes: number }> } }).bodyWrite.run(plan, bodies),
        [{ form, pages: Number(v.pages), group: Number(v.group), links: Number(v.links) }, htmls] as const);
      await new Promise((res) => setTimeout(res, Number(v.settle)));
      sampler?.stop();
      const cpu: ThreadCpu = sampler?.between(from, Date.now()) ?? new Map();
      cpu.delete('benchmark process');
      const row = {
        form, ...r, pool: sum(cpu, (k) => k.startsWith('browser: ThreadPoolForeg')), browser: sum(cpu, (k) => k.startsWith('browser:')),
        page: sum(cpu, (k) => k.startsWith('renderer:')), all: sum(cpu, () => true),
      };
      results.push(row);
      progress(`round ${round + 1} ${form}: browser ThreadPoolForeground ${row.pool.toFixed(2)} s, browser ${row.browser.toFixed(2)} s, page ${row.page.toFixed(2)} s (compressing ${(r.prepareMs / 1000).toFixed(2)} s), ${(r.ms / 1000).toFixed(1)} s to write, body bytes ${(r.bytes / 2 ** 20).toFixed(1)} MiB`);
    } finally {
      await h.close();
    }
  }
}
const mean = (form: string, f: (r: (typeof results)[number]) => number) => {
  const xs = results.filter((r) => r.form === form).map(f);
  return xs.reduce((s, x) => s + x, 0) / xs.length;
};
const pages = Number(v.pages);
console.log(`${pages} page commits (${v.group} a transaction, ${v.links} frontier rows each), Wikispeedia bodies; mean of ${v.rounds} rounds, forms alternated`);
console.log('| body stored as | browser ThreadPoolForeground, ms a page | whole browser process, ms a page | the page (renderer), ms a page | of it compressing, ms a page | body bytes stored, MiB | written in, s |');
console.log('|---|---|---|---|---|---|---|');
for (const f of forms) {
  console.log(`| ${f} | ${(mean(f, (r) => r.pool) * 1000 / pages).toFixed(2)} | ${(mean(f, (r) => r.browser) * 1000 / pages).toFixed(2)} | ${(mean(f, (r) => r.page) * 1000 / pages).toFixed(2)} | ${(mean(f, (r) => r.prepareMs) / pages).toFixed(2)} | ${(mean(f, (r) => r.bytes) / 2 ** 20).toFixed(1)} | ${(mean(f, (r) => r.ms) / 1000).toFixed(1)} |`);
}
