// The Dexie frontier at scale in Chromium's IndexedDB: enqueue N URLs, takeNext and
// raise latencies at that size, the size on disk, and whether the real crawl loop keeps its pace.
// The store runs in a page (frontier-scale-page.ts, bundled with esbuild) of headless Chromium.
//   npx tsx scripts/bench/frontier-scale.ts [--urls 1000000] [--samples 1000] [--pages 500] [--seeds N] [--feeds 20] [--skip-rescore] [--json] [--before DIR]
// `--seeds` is the size of the seed list given in one enqueue (packed, lib/store/seed-lists.ts), on an empty frontier
// and at N (default: N); `--feeds` how many feeds of packed seeds into the frontier are timed after each.
// `--before DIR` runs the same harness on another tree's store (DIR/lib, e.g. `git archive COMMIT lib | tar -x -C DIR`):
// run it beside a run without, at the same time, to compare the two under the same load.
// Figures are reported, never asserted. Goal to compare with: takeNext p99 <= 10 ms at 1M.
// Time: the fill dominates, and Chromium's IndexedDB backend (LevelDB writes and compactions in the browser
// process) is its bottleneck: 1M URLs took 6-17 minutes on a 2-core machine, depending on what else ran.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openHarnessPage } from '../lib/browser';
import { bundleFrontierHarness, inPage } from './frontier-scale-harness';
import type { TakeMode } from './frontier-scale-page';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '1000000' },
    batch: { type: 'string', default: '1000' },
    samples: { type: 'string', default: '1000' },
    pages: { type: 'string', default: '500' },
    'rescore-chunk': { type: 'string', default: '500' },
    seeds: { type: 'string' },
    feeds: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
    /** Leaves out the re-score at 100,000 (about five minutes on a loaded machine). */
    'skip-rescore': { type: 'boolean', default: false },
    /** Another tree whose lib/ the harness runs on instead of this one's. */
    before: { type: 'string' },
    /**
     * Seconds to wait after the takes at size before crawling there again: the crawl at size runs right after the fill,
     * while Chromium's LevelDB still compacts it; after the wait it is measured a second time, in a steadier state.
     */
    settle: { type: 'string', default: '0' },
    /** Share of a crawled page's links that go to a URL linked within the last 1,000 links (frontier-scale-page.ts). */
    repeat: { type: 'string', default: '0' },
  },
});
const BEFORE = values.before ? resolve(values.before) : null;
if (BEFORE && !existsSync(join(BEFORE, 'lib', 'store', 'crawl-store.ts'))) throw new Error(`--before ${BEFORE}: no lib/store/crawl-store.ts there`);
const N = Number(values.urls);
const BATCH = Number(values.batch);
const SAMPLES = Number(values.samples);
const PAGES = Number(values.pages);
const RESCORE_CHUNK = Number(values['rescore-chunk']);
const SETTLE = Number(values.settle);
const REPEAT = Number(values.repeat);
const SEEDS = Number(values.seeds ?? values.urls);
const FEEDS = Number(values.feeds);
const started = performance.now();
const progress = (s: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}\n`);

// ---- the page: harness bundled into one script, served on loopback ----

const script = await bundleFrontierHarness(BEFORE);
const harness = await openHarnessPage(script, 'frontier-scale', progress);
const { page, profileDir, browserVersion, port } = harness;

const q = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]! : NaN);
const dist = (xs: number[]) => ({ p50: q(xs, 0.5), p99: q(xs, 0.99), max: Math.max(...xs), n: xs.length });

// ---- 1. the crawl's pace on a fresh, small frontier (after a warm-up crawl for the JIT) ----

await inPage(page, 'open', 'warmup');
await inPage(page, 'crawl', 'warmup', 100);
await inPage(page, 'drop', 'warmup');
progress('warm-up crawl done');
await inPage(page, 'open', 'small');
const small = await inPage(page, 'crawl', 'small', PAGES, REPEAT);
await inPage(page, 'drop', 'small');
progress(`fresh frontier: ${PAGES} pages in ${(small.ms / 1000).toFixed(1)} s (${small.state})`);

// ---- 2. enqueue N URLs, 1,000 per call; takeNext measured on the way at 10k and 100k ----

await inPage(page, 'open', 'big');
// A seed list given whole on an empty frontier (packed past PACK_ABOVE), measured again at N below.
const seedsFresh = await inPage(page, 'seedList', 'big', SEEDS, FEEDS);
if (seedsFresh) progress(`seed list of ${SEEDS.toLocaleString('en')} on an empty frontier: ${(seedsFresh.ms / 1000).toFixed(1)} s`);
const enqueueMs: number[] = [];
type Floor = { getUrlsPerSecond: number; putUrlsPerSecond: number; bothUrlsPerSecond: number };
const checkpoints: { size: number; take: ReturnType<typeof dist>; floor: Floor; enqueueUrlsPerSecond: number }[] = [];
const FLOOR_BATCHES = 5;
/** URLs a second of bare reads, bare writes, and a read and a write per URL (the floor under enqueue). */
function floorOf(f: { getMs: number[]; putMs: number[] }): Floor {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const n = f.getMs.length * 1000;
  return { getUrlsPerSecond: (n / sum(f.getMs)) * 1000, putUrlsPerSecond: (n / sum(f.putMs)) * 1000, bothUrlsPerSecond: (n / (sum(f.getMs) + sum(f.putMs))) * 1000 };
}
/** Enqueue's rate over the last 10 calls (10,000 URLs at the default batch): the pace at the current size. */
const lastRate = () => (Math.min(10, enqueueMs.length) * BATCH / enqueueMs.slice(-10).reduce((a, b) => a + b, 0)) * 1000;
let rescoreAt100k: {
  size: number; chunk: number; scanned: number; changed: number; seconds: number; perSecond: number; takeDuring: ReturnType<typeof dist>;
  crawlDuring: { pages: number; pagesPerSecond: number; rescoreSeconds: number };
} | null = null;
const CHUNK = 50_000;
for (let done = 0; done < N;) {
  const next = Math.min(N, done + CHUNK, ...[10_000, 100_000].filter((c) => c > done));
  enqueueMs.push(...(await inPage(page, 'fill', 'big', next - done, BATCH)));
  done = next;
  if ((done === 10_000 || done === 100_000) && done < N) {
    const t = await inPage(page, 'takeLatency', 'big', 'ready', 300);
    await inPage(page, 'reclaim', 'big');
    checkpoints.push({ size: done, take: dist(t.ms), floor: floorOf(await inPage(page, 'floor', 'big', FLOOR_BATCHES)), enqueueUrlsPerSecond: lastRate() });
  }
  if (done === 100_000 && !values['skip-rescore']) {
    // After a retrain every queued link is re-scored (lib/store/crawl-store.ts rescoreQueued, 500 per transaction).
    const r = await inPage(page, 'rescore', 'big', RESCORE_CHUNK);
    progress(`re-scored ${r.scanned.toLocaleString('en')} queued URLs in ${(r.ms / 1000).toFixed(1)} s; takes meanwhile p50 ${q(r.takes, 0.5).toFixed(1)} / p99 ${q(r.takes, 0.99).toFixed(1)} ms`);
    // And with the real crawl loop running meanwhile: does the crawl go on, and at what pace?
    const c = await inPage(page, 'rescore', 'big', RESCORE_CHUNK, PAGES);
    const crawlDuring = { pages: PAGES, pagesPerSecond: (PAGES / c.crawled!.ms) * 1000, rescoreSeconds: c.ms / 1000 };
    await inPage(page, 'reclaim', 'big');
    progress(`crawl during a re-score: ${PAGES} pages at ${crawlDuring.pagesPerSecond.toFixed(1)} pages/s; the re-score took ${crawlDuring.rescoreSeconds.toFixed(1)} s`);
    rescoreAt100k = {
      size: done, chunk: RESCORE_CHUNK, scanned: r.scanned, changed: r.changed, seconds: r.ms / 1000, perSecond: (r.scanned / r.ms) * 1000,
      takeDuring: dist(r.takes), crawlDuring,
    };
  }
  const total = enqueueMs.reduce((a, b) => a + b, 0);
  progress(`enqueued ${done.toLocaleString('en')} URLs, ${(total / 1000).toFixed(0)} s in enqueue, last batch ${enqueueMs.at(-1)!.toFixed(0)} ms`);
}
const enqueueTotalMs = enqueueMs.reduce((a, b) => a + b, 0);
const floorAtN = floorOf(await inPage(page, 'floor', 'big', FLOOR_BATCHES));
const enqueueAtN = lastRate();
progress(`at ${N.toLocaleString('en')}: enqueue ${enqueueAtN.toFixed(0)} URLs/s, a bare read and write per URL ${floorAtN.bothUrlsPerSecond.toFixed(0)} URLs/s`);
const seedsAtN = await inPage(page, 'seedList', 'big', SEEDS, FEEDS);
if (seedsAtN) progress(`seed list of ${SEEDS.toLocaleString('en')} at ${N.toLocaleString('en')}: ${(seedsAtN.ms / 1000).toFixed(1)} s`);
const tenth = Math.max(1, Math.floor(enqueueMs.length / 10));
const usageAfterFill = await inPage(page, 'estimate');

// ---- 3. takeNext, raise and reclaim at N ----

type TakeFigures = ReturnType<typeof dist> & { none: number; firstTenthP50: number; lastTenthP50: number };
const take: Partial<Record<TakeMode, TakeFigures>> = {};
const reclaims: { n: number; ms: number }[] = [];
for (const mode of ['ready', 'top-host-busy', 'top-hosts-busy', 'politeness', 'batch'] as const) {
  const t = await inPage(page, 'takeLatency', 'big', mode, SAMPLES);
  // Taken entries leave garbage at the top of the queued range that later scans walk: compare early and late takes.
  const tenth = Math.max(1, Math.floor(t.ms.length / 10));
  take[mode] = { ...dist(t.ms), none: t.none, firstTenthP50: q(t.ms.slice(0, tenth), 0.5), lastTenthP50: q(t.ms.slice(-tenth), 0.5) };
  reclaims.push(await inPage(page, 'reclaim', 'big'));
  progress(`takeNext (${mode}): p50 ${take[mode].p50.toFixed(2)} ms, p99 ${take[mode].p99.toFixed(2)} ms`);
}
const raise = await inPage(page, 'raiseLatency', 'big', SAMPLES);
progress(`raise: p50 ${q(raise.ms, 0.5).toFixed(2)} ms (${raise.raised}/${SAMPLES} raised)`);

// ---- 4. the crawl's pace on the N frontier ----

const big = await inPage(page, 'crawl', 'big', PAGES, REPEAT);
progress(`${N.toLocaleString('en')} frontier: ${PAGES} pages in ${(big.ms / 1000).toFixed(1)} s (${big.state})`);
let settled: typeof big | null = null;
if (SETTLE > 0) {
  progress(`waiting ${SETTLE} s for the database to settle`);
  await new Promise((r) => setTimeout(r, SETTLE * 1000));
  settled = await inPage(page, 'crawl', 'big', PAGES, REPEAT);
  progress(`${N.toLocaleString('en')} frontier, settled: ${PAGES} pages in ${(settled.ms / 1000).toFixed(1)} s (${settled.state})`);
}
const queuedAtEnd = await inPage(page, 'countQueued', 'big');
const usageAtEnd = await inPage(page, 'estimate');
await inPage(page, 'closeAll');
await harness.close();

// ---- 5. size on disk: the origin's IndexedDB files in the closed profile ----

function du(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  return readdirSync(path).reduce((s, name) => s + du(join(path, name)), 0);
}
const idbDir = join(profileDir, 'Default', 'IndexedDB');
const originDirs = readdirSync(idbDir).filter((d) => d.startsWith(`http_127.0.0.1_${port}`));
const diskBytes = originDirs.reduce((s, d) => s + du(join(idbDir, d)), 0);

// ---- report ----

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pace = (r: typeof small) => ({
  pagesPerSecond: (PAGES / r.ms) * 1000, seconds: r.ms / 1000, state: r.state,
  take: { ...dist(r.takes.map((t) => t.ms)), urlsPerTake: mean(r.takes.map((t) => t.urls)) },
  commit: { ...dist(r.commits.map((c) => c.ms)), pagesPerCommit: mean(r.commits.map((c) => c.pages)) },
});
const result = {
  browser: browserVersion, urls: N, batch: BATCH, samples: SAMPLES, pages: PAGES,
  enqueue: {
    totalSeconds: enqueueTotalMs / 1000, urlsPerSecond: (N / enqueueTotalMs) * 1000, perCall: dist(enqueueMs),
    firstTenthMeanMs: enqueueMs.slice(0, tenth).reduce((a, b) => a + b, 0) / tenth,
    lastTenthMeanMs: enqueueMs.slice(-tenth).reduce((a, b) => a + b, 0) / tenth,
  },
  enqueueFloor: [...checkpoints.map((c) => ({ size: c.size, enqueueUrlsPerSecond: c.enqueueUrlsPerSecond, ...c.floor })),
    { size: N, enqueueUrlsPerSecond: enqueueAtN, ...floorAtN }],
  seedList: seedsFresh && seedsAtN ? { seeds: SEEDS, fresh: seedFigures(seedsFresh), atN: seedFigures(seedsAtN) } : null,
  takeNextAt: checkpoints, takeNext: take, reclaim: reclaims, rescoreAt100k,
  raise: { ...dist(raise.ms), raised: raise.raised },
  storage: { estimateAfterFillBytes: usageAfterFill, estimateAtEndBytes: usageAtEnd, diskBytes, diskDirs: originDirs },
  crawl: { fresh: pace(small), atScale: { ...pace(big), queuedAtEnd }, ...(settled ? { settled: { ...pace(settled), afterSeconds: SETTLE } } : {}), repeat: REPEAT },
  goal: { takeNextP99Ms: 10, met: (take.ready?.p99 ?? Infinity) <= 10 },
  runSeconds: (performance.now() - started) / 1000,
};

/** A seed list's enqueue rate, and the rate packed seeds are fed to the frontier (seeds a second of feed time). */
function seedFigures(r: NonNullable<typeof seedsFresh>) {
  const fedMs = r.fed.reduce((a, f) => a + f.ms, 0), fed = r.fed.reduce((a, f) => a + f.seeds, 0);
  return { seconds: r.ms / 1000, urlsPerSecond: (SEEDS / r.ms) * 1000, frontierRows: r.frontierRows, feed: { ...dist(r.fed.map((f) => f.ms)), seedsPerSecond: (fed / fedMs) * 1000, seeds: fed } };
}

const ms = (x: number) => x.toFixed(2).padStart(9);
const mb = (x: number) => `${(x / 1024 / 1024).toFixed(0)} MiB`;
console.log(`Dexie frontier in ${browserVersion}, ${N.toLocaleString('en')} queued URLs over 200 hosts; the store of ${BEFORE ?? 'this tree'}`);
console.log(`enqueue: ${N.toLocaleString('en')} URLs in ${BATCH}-URL calls: ${result.enqueue.totalSeconds.toFixed(1)} s, ${result.enqueue.urlsPerSecond.toFixed(0)} URLs/s; ` +
  `per call mean ${result.enqueue.firstTenthMeanMs.toFixed(0)} ms in the first tenth, ${result.enqueue.lastTenthMeanMs.toFixed(0)} ms in the last`);
console.log(`enqueue against its floor (${FLOOR_BATCHES} batches of 1,000 new rows read, then put, bare, in the same table):`);
for (const f of result.enqueueFloor) {
  console.log(`  at ${f.size.toLocaleString('en').padStart(9)}: enqueue ${f.enqueueUrlsPerSecond.toFixed(0).padStart(6)} URLs/s; bare reads ${f.getUrlsPerSecond.toFixed(0).padStart(6)}/s, ` +
    `bare writes ${f.putUrlsPerSecond.toFixed(0).padStart(6)}/s, a read and a write per URL ${f.bothUrlsPerSecond.toFixed(0).padStart(6)} URLs/s (enqueue ${(f.enqueueUrlsPerSecond / f.bothUrlsPerSecond).toFixed(2)}x of it)`);
}
console.log('\noperation                               p50 ms    p99 ms    max ms');
const row = (name: string, d: { p50: number; p99: number; max: number }, note = '') =>
  console.log(`${name.padEnd(36)} ${ms(d.p50)} ${ms(d.p99)} ${ms(d.max)}  ${note}`);
row('enqueue (1,000 new URLs)', result.enqueue.perCall);
for (const c of checkpoints) row(`takeNext at ${c.size.toLocaleString('en')}, all hosts ready`, c.take);
row(`takeNext at ${N.toLocaleString('en')}, all hosts ready`, take.ready!);
row('takeNext, top host busy', take['top-host-busy']!);
row('takeNext, ten largest hosts busy', take['top-hosts-busy']!);
row('takeNext, 1 s politeness, 20 pages/s', take.politeness!, take.politeness!.none ? `(${take.politeness!.none} found nothing ready)` : '');
row('take of 4 in one transaction', take.batch!);
row('raise a queued URL (enqueue of 1)', result.raise, `(${raise.raised}/${SAMPLES} raised)`);
console.log(`takeNext p50, first and last ${Math.floor(SAMPLES / 10)} of ${SAMPLES} consecutive takes: ` +
  (['ready', 'top-host-busy', 'top-hosts-busy', 'politeness', 'batch'] as const).map((m) => `${m} ${take[m]!.firstTenthP50.toFixed(1)} -> ${take[m]!.lastTenthP50.toFixed(1)} ms`).join(', '));
if (rescoreAt100k) {
  console.log(`re-scoring ${rescoreAt100k.scanned.toLocaleString('en')} queued URLs after a retrain: ${rescoreAt100k.seconds.toFixed(1)} s ` +
    `(${rescoreAt100k.perSecond.toFixed(0)} URLs/s, ${rescoreAt100k.changed.toLocaleString('en')} changed); a take meanwhile waits ` +
    `p50 ${rescoreAt100k.takeDuring.p50.toFixed(1)} / p99 ${rescoreAt100k.takeDuring.p99.toFixed(1)} / max ${rescoreAt100k.takeDuring.max.toFixed(1)} ms ` +
    `(${rescoreAt100k.chunk} links per transaction); the crawl loop meanwhile ran ${rescoreAt100k.crawlDuring.pagesPerSecond.toFixed(1)} pages/s ` +
    `and the re-score took ${rescoreAt100k.crawlDuring.rescoreSeconds.toFixed(1)} s`);
}
console.log(`reclaim of what each series left in flight: ${reclaims.map((r) => `${r.n} in ${r.ms.toFixed(0)} ms`).join(', ')}`);
console.log(`\nstorage: navigator.storage.estimate() ${mb(usageAfterFill)} after the fill, ${mb(usageAtEnd)} at the end; ` +
  `${mb(diskBytes)} on disk (${originDirs.join(', ')})`);
console.log(`\ncrawl loop, ${PAGES} pages (fake fetch, 20 links a page, ${REPEAT * 100}% of them to one of the last 1,000 links, concurrency 4, no delay)`);
console.log('frontier              pages/s   take p50/p99 ms (URLs each)   commit p50/p99 ms (pages each)');
const paces: [string, ReturnType<typeof pace>][] = [['fresh', result.crawl.fresh], [N.toLocaleString('en'), result.crawl.atScale]];
if (settled) paces.push([`${N.toLocaleString('en')}, ${SETTLE} s after`, pace(settled)]);
for (const [name, r] of paces) {
  console.log(`${name.padEnd(20)} ${r.pagesPerSecond.toFixed(1).padStart(8)}   ${`${r.take.p50.toFixed(1)} / ${r.take.p99.toFixed(1)} (${r.take.urlsPerTake.toFixed(1)})`.padEnd(28)}  ` +
    `${r.commit.p50.toFixed(1)} / ${r.commit.p99.toFixed(1)} (${r.commit.pagesPerCommit.toFixed(1)})`);
}
console.log(`\ngoal takeNext p99 <= 10 ms at ${N.toLocaleString('en')}: ${result.goal.met ? 'met' : 'missed'} (${take.ready!.p99.toFixed(2)} ms); ` +
  `with the top host busy ${take['top-host-busy']!.p99.toFixed(2)} ms`);
console.log(`goal crawl loop at ${N.toLocaleString('en')} within 80% of a fresh frontier's pace, side by side in this run: ` +
  `${(result.crawl.atScale.pagesPerSecond / result.crawl.fresh.pagesPerSecond).toFixed(2)}x` +
  (settled ? `; ${SETTLE} s later ${((pace(settled).pagesPerSecond) / result.crawl.fresh.pagesPerSecond).toFixed(2)}x` : ''));
console.log(`goal take p99 <= 10 ms at ${N.toLocaleString('en')} with the ten largest hosts busy: ${take['top-hosts-busy']!.p99.toFixed(2)} ms, ` +
  `under politeness (1 s, 1 per host) ${take.politeness!.p99.toFixed(2)} ms`);
const sl = result.seedList;
if (sl) {
  console.log(`\nseed list of ${SEEDS.toLocaleString('en')} URLs given in one enqueue (the first ${sl.fresh.frontierRows.toLocaleString('en')} as frontier rows, the rest packed):`);
  for (const [at, f] of [['an empty frontier', sl.fresh], [`${N.toLocaleString('en')} queued`, sl.atN]] as const) {
    console.log(`  at ${at.padEnd(18)} enqueue ${f.seconds.toFixed(1)} s, ${f.urlsPerSecond.toFixed(0)} URLs/s; then fed to the frontier ${f.feed.seedsPerSecond.toFixed(0)} seeds/s ` +
      `(${FEEDS} feeds of ${(f.feed.seeds / FEEDS).toFixed(0)}, p50 ${f.feed.p50.toFixed(0)} / p99 ${f.feed.p99.toFixed(0)} ms each)`);
  }
}
console.log(`goal enqueue >= 10,000 URLs/s, one frontier row per URL (links found, small seed lists): ${result.enqueue.urlsPerSecond.toFixed(0)} URLs/s over the fill, ` +
  `${enqueueAtN.toFixed(0)} at ${N.toLocaleString('en')} (a bare read and write per URL: ${floorAtN.bothUrlsPerSecond.toFixed(0)}); run took ${result.runSeconds.toFixed(0)} s`);
if (sl) {
  console.log(`goal enqueue >= 10,000 URLs/s, a seed list of ${SEEDS.toLocaleString('en')} stored packed: ${sl.fresh.urlsPerSecond.toFixed(0)} URLs/s on an empty frontier, ` +
    `${sl.atN.urlsPerSecond.toFixed(0)} at ${N.toLocaleString('en')} (${(sl.atN.urlsPerSecond / enqueueAtN).toFixed(1)}x one row per URL at ${N.toLocaleString('en')}, side by side in this run); ` +
    `${sl.atN.urlsPerSecond >= 10_000 ? 'met' : 'missed'}; packed seeds enter the frontier at ${sl.atN.feed.seedsPerSecond.toFixed(0)} seeds/s`);
}
if (values.json) console.log(JSON.stringify(result));
