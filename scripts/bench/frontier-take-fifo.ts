// The take by FIFO queues (design D.3-D.4, the multi-queue strategy's `next`) in Chromium's IndexedDB at scale:
// N URLs enqueued over five priorities and the 200 Zipf-sized hosts of frontier-scale.ts, then series of takes
// with every host ready, with the ten largest hosts (about half the URLs) busy, under politeness, and of 4 at once.
// The store runs in a page (frontier-take-fifo-page.ts, bundled with esbuild) of headless Chromium.
//   npx tsx scripts/bench/frontier-take-fifo.ts [--urls 100000] [--samples 300] [--json] [--before DIR] [--crawl 300]
// `--crawl PAGES` runs, instead of the takes, frontier-scale.ts's best-first crawl loop on a fresh frontier and at N
// URLs, and says what the host heads cost its page commits (heads-meter.ts): head rows written, heads read again
// after they left the queue, and the time those reads add to a commit (they wait for its writes).
// `--before DIR` runs the same harness on another tree's store (DIR/lib, e.g. `git archive COMMIT lib | tar -x -C DIR`):
// run it beside a run without, at the same time, to compare the two under the same load. Figures are reported, never
// asserted.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { openHarnessPage } from '../lib/browser';
import { bundleHarness } from './frontier-scale-harness';
import type { FifoBench, FifoMode } from './frontier-take-fifo-page';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '1000' },
    samples: { type: 'string', default: '300' },
    json: { type: 'boolean', default: false },
    before: { type: 'string' },
    /** Instead of the takes: the best-first crawl loop of frontier-scale.ts for this many pages, fresh and at N, with the heads' cost in its commits. */
    crawl: { type: 'string' },
  },
});
const BEFORE = values.before ? resolve(values.before) : null;
if (BEFORE && !existsSync(join(BEFORE, 'lib', 'store', 'crawl-store.ts'))) throw new Error(`--before ${BEFORE}: no lib/store/crawl-store.ts there`);
const N = Number(values.urls);
const BATCH = Number(values.batch);
const SAMPLES = Number(values.samples);
const started = performance.now();
const progress = (s: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}\n`);

const script = await bundleHarness('frontier-take-fifo-page.ts', BEFORE);
const harness = await openHarnessPage(script, 'fifo-take', progress);
const { page, browserVersion } = harness;

function inPage<K extends keyof FifoBench>(p: Page, name: K, ...a: Parameters<FifoBench[K]>): Promise<Awaited<ReturnType<FifoBench[K]>>> {
  return p.evaluate(
    ([n, xs]) => (globalThis as unknown as { fifoBench: Record<string, (...v: unknown[]) => unknown> }).fifoBench[n]!(...xs),
    [name, a] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<FifoBench[K]>>>;
}

const q = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]! : NaN);

if (values.crawl) {
  const pages = Number(values.crawl);
  const runs: Record<string, Awaited<ReturnType<FifoBench['crawl']>>> = {};
  await inPage(page, 'open', 'warmup', true);
  await inPage(page, 'crawl', 'warmup', 100);
  for (const [name, urls] of [['fresh', 0], [N.toLocaleString('en'), N]] as const) {
    await inPage(page, 'open', name, true);
    for (let done = 0; done < urls; done += 10_000) await inPage(page, 'fill', name, Math.min(10_000, urls - done), BATCH);
    runs[name] = await inPage(page, 'crawl', name, pages);
    progress(`crawl loop on ${name}: ${pages} pages in ${(runs[name].ms / 1000).toFixed(1)} s (${runs[name].state})`);
  }
  await inPage(page, 'closeAll');
  await harness.close();
  console.log(`Crawl loop (frontier-scale.ts's, best first) in ${browserVersion}, ${pages} pages; the store of ${BEFORE ?? 'this tree'}`);
  console.log('frontier        pages/s  commits  ms a commit  frontier rows written  head rows put / deleted / read by key  heads read again  their span a commit (share)');
  for (const [name, r] of Object.entries(runs)) {
    const m = r.meter;
    const per = (x: number) => (x / r.fetched).toFixed(2);
    console.log(`${name.padEnd(14)} ${((pages / r.ms) * 1000).toFixed(1).padStart(8)} ${String(m.commits).padStart(8)} ${(m.commitMs / m.commits).toFixed(1).padStart(12)}  ` +
      `${per(m.frontierWrites).padStart(21)}  ${`${per(m.headPuts)} / ${per(m.headDeletes)} / ${per(m.headKeyReads)}`.padStart(37)}  ${per(m.reReads).padStart(16)}  ` +
      `${(m.reReadMs / m.commits).toFixed(2)} ms (${((m.reReadMs / m.commitMs) * 100).toFixed(1)}%)   (per fetched page)`);
  }
  if (values.json) console.log(JSON.stringify(runs));
  process.exit(0);
}

await inPage(page, 'open', 'fifo');
const enqueueMs: number[] = [];
for (let done = 0; done < N; done += 10_000) {
  enqueueMs.push(...(await inPage(page, 'fill', 'fifo', Math.min(10_000, N - done), BATCH)));
  if ((done + 10_000) % 50_000 === 0 || done + 10_000 >= N) progress(`enqueued ${Math.min(N, done + 10_000).toLocaleString('en')} URLs`);
}
const enqueueSeconds = enqueueMs.reduce((a, b) => a + b, 0) / 1000;

const modes = ['first', 'ready', 'top-hosts-busy', 'politeness', 'batch'] as const satisfies readonly FifoMode[];
const takes: Record<string, { p50: number; p99: number; max: number; firstTenthP50: number; lastTenthP50: number; none: number; n: number }> = {};
for (const mode of modes) {
  const t = await inPage(page, 'takeLatency', 'fifo', mode, mode === 'first' ? 1 : SAMPLES);
  const tenth = Math.max(1, Math.floor(t.ms.length / 10));
  takes[mode] = { p50: q(t.ms, 0.5), p99: q(t.ms, 0.99), max: Math.max(...t.ms), firstTenthP50: q(t.ms.slice(0, tenth), 0.5), lastTenthP50: q(t.ms.slice(-tenth), 0.5), none: t.none, n: t.ms.length };
  await inPage(page, 'reclaim', 'fifo');
  progress(`take by queues (${mode}): p50 ${takes[mode].p50.toFixed(2)} ms, p99 ${takes[mode].p99.toFixed(2)} ms`);
}
await inPage(page, 'closeAll');
await harness.close();

const result = { browser: browserVersion, store: BEFORE ?? 'this tree', urls: N, samples: SAMPLES, enqueue: { seconds: enqueueSeconds, urlsPerSecond: N / enqueueSeconds }, takes };
console.log(`Take by FIFO queues in ${browserVersion}, ${N.toLocaleString('en')} URLs over 5 priorities and 200 hosts; the store of ${result.store}`);
console.log(`enqueue: ${enqueueSeconds.toFixed(1)} s, ${result.enqueue.urlsPerSecond.toFixed(0)} URLs/s`);
console.log('take                         p50 ms    p99 ms    max ms   p50 first -> last tenth   found nothing');
for (const mode of modes) {
  const t = takes[mode]!;
  console.log(`${mode.padEnd(24)} ${t.p50.toFixed(2).padStart(9)} ${t.p99.toFixed(2).padStart(9)} ${t.max.toFixed(2).padStart(9)}   ` +
    `${`${t.firstTenthP50.toFixed(1)} -> ${t.lastTenthP50.toFixed(1)}`.padEnd(24)}  ${t.none}/${t.n}`);
}
if (values.json) console.log(JSON.stringify(result));
