// The time from an answer to the next question, with N queued URLs, in headless Chromium (the
// measurement runs in a page on loopback, on Chromium's own IndexedDB: labels-latency-page.ts) or in Node on
// fake-indexeddb (`--engine node`). See labels-latency-core.ts for what is timed. Figures, never asserted.
//   npx tsx scripts/bench/labels-latency.ts [--urls 100000] [--answers 20] [--engine chromium|node]
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openHarnessPage } from '../lib/browser';
import { CrawlerDB } from '../../lib/store/db';
import { measureLatency, type LatencyRun } from './labels-latency-core';

const { values: v } = parseArgs({ options: {
  urls: { type: 'string', default: '100000' }, answers: { type: 'string', default: '20' }, engine: { type: 'string', default: 'chromium' },
} });
const N = Number(v.urls), ANSWERS = Number(v.answers);
const progress = (s: string) => process.stderr.write(`${s}\n`);

async function inChromium(): Promise<{ run: LatencyRun; browser: string }> {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'labels-latency-page.ts')],
    bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, logLevel: 'warning',
  });
  const script = bundle.outputFiles[0]!.text;
  const harness = await openHarnessPage(script, 'labels-latency', progress);
  try {
    const { page } = harness;
    page.on('console', (m) => progress(m.text()));
    page.setDefaultTimeout(0);
    const run = await page.evaluate(([n, a]) => (globalThis as unknown as { labelsLatency: { run(n: number, a: number): Promise<LatencyRun> } }).labelsLatency.run(n, a), [N, ANSWERS] as const);
    return { run, browser: `Chromium ${harness.browserVersion}` };
  } finally {
    await harness.close();
  }
}

const { run, browser } = v.engine === 'node'
  ? { run: await measureLatency(new CrawlerDB(`latency-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }), N, ANSWERS, progress), browser: 'Node, fake-indexeddb' }
  : await inChromium();

const q = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]! : NaN);
const row = (name: string, w: LatencyRun['index']) => {
  const total = w.answerMs.map((ms, i) => ms + w.questionMs[i]!);
  return `| ${name} | ${w.answerMs.length} | ${q(w.answerMs, 0.5).toFixed(0)} | ${q(w.questionMs, 0.5).toFixed(0)} | ${q(total, 0.5).toFixed(0)} | ${q(total, 0.95).toFixed(0)} | ${q(w.reached, 0.5)} |`;
};
console.log(`${browser}, ${N.toLocaleString('en')} queued URLs (filled in ${(run.fillMs / 1000).toFixed(0)} s); the first answer took ${run.firstAnswerMs.toFixed(0)} ms and the reach index it starts was built ${(run.indexBuildMs / 1000).toFixed(1)} s after it was sent; one full re-score of the frontier ${run.fullRescoreMs.toFixed(0)} ms; listing the queued URLs (what an answer adds while the crawl runs, to index the URLs queued since) ${run.listKeysMs.toFixed(0)} ms.`);
console.log('');
console.log('| the answer\'s reach found by | answers | answer taken in, median ms | next question read, median ms | answer to next question, median ms | p95 ms | links reached, median |');
console.log('|---|---|---|---|---|---|---|');
console.log(row('the reach index', run.index));
console.log(row('reading every queued row', run.scan));
