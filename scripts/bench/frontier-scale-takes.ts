// What a take asks of Chromium's IndexedDB as the frontier grows: fills the frontier of
// frontier-scale-page.ts to each size and takes `--samples` URLs with every host ready, logging each IndexedDB request
// (Dexie middleware in the page): requests and round trips per take, and where the slowest takes spent their time.
//   npx tsx scripts/bench/frontier-scale-takes.ts [--sizes 10000,100000] [--samples 500] [--max 1] [--before DIR]
// Figures are reported, never asserted.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openHarnessPage } from '../lib/browser';
import { bundleFrontierHarness, inPage } from './frontier-scale-harness';
import type { MeteredTx } from './frontier-scale-page';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    samples: { type: 'string', default: '500' },
    max: { type: 'string', default: '1' },
    before: { type: 'string' },
    /** Pages of the crawl loop to run with every request logged, on a fresh frontier and at each size (0: none). */
    crawl: { type: 'string', default: '0' },
    repeat: { type: 'string', default: '0.7' },
  },
});
const BEFORE = values.before ? resolve(values.before) : null;
if (BEFORE && !existsSync(join(BEFORE, 'lib', 'store', 'crawl-store.ts'))) throw new Error(`--before ${BEFORE}: no lib/store/crawl-store.ts there`);
const SIZES = values.sizes.split(',').map(Number);
const SAMPLES = Number(values.samples);
const MAX = Number(values.max);
const CRAWL = Number(values.crawl);
const REPEAT = Number(values.repeat);
const started = performance.now();
const progress = (s: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}\n`);

const script = await bundleFrontierHarness(BEFORE);
const harness = await openHarnessPage(script, 'frontier-scale-takes', progress);
const { page, browserVersion } = harness;

const q = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]! : NaN);
const f1 = (x: number) => x.toFixed(1);

/** Round trips of one transaction: a request issued before any earlier one was answered rides with it. */
function roundTrips(tx: MeteredTx): number {
  const ops = [...tx.ops].sort((a, b) => a.at - b.at);
  let trips = 0, waveEnd = -Infinity;
  for (const o of ops) {
    if (o.at >= waveEnd) {
      trips++;
      waveEnd = o.at + o.ms;
    } else waveEnd = Math.min(waveEnd, o.at + o.ms);
  }
  return trips;
}

/** Where one take's time went: before its first request, in requests (the critical path), in the commit, outside transactions. */
function phases(take: { ms: number; txs: MeteredTx[] }) {
  let wait = 0, requests = 0, commit = 0, inTx = 0;
  for (const tx of take.txs) {
    const first = Math.min(...tx.ops.map((o) => o.at));
    const last = Math.max(...tx.ops.map((o) => o.at + o.ms));
    if (!tx.ops.length) continue;
    wait += first;
    requests += last - first;
    commit += tx.completeMs - last;
    inTx += tx.completeMs;
  }
  return { wait, requests, commit, outside: take.ms - inTx };
}

/** The crawl loop's transactions per page, by kind (a take, a page commit, other), with their requests and time. */
async function crawlProfile(name: string, label: string) {
  const r = await inPage(page, 'crawlProbe', name, CRAWL, REPEAT);
  const pages = CRAWL; // r.fetched counts the crawl's earlier runs on the same database too
  const kindOf = (tx: MeteredTx) => (tx.tables.includes('pages') ? 'commit' : tx.tables.includes('hostHeads') && tx.mode === 'readwrite' ? 'take' : 'other');
  console.log(`\ncrawl loop ${label}: ${CRAWL} pages at ${((CRAWL / r.ms) * 1000).toFixed(1)} pages/s; per page:`);
  for (const kind of ['take', 'commit', 'other']) {
    const txs = r.txs.filter((tx) => kindOf(tx) === kind);
    if (!txs.length) continue;
    const ph = txs.map((tx) => phases({ ms: tx.completeMs, txs: [tx] }));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(`  ${kind}: ${(txs.length / pages).toFixed(2)} transactions, ${f1(sum(txs.map((t) => t.completeMs)) / pages)} ms in them ` +
      `(before the first request ${f1(sum(ph.map((p) => p.wait)) / pages)}, requests ${f1(sum(ph.map((p) => p.requests)) / pages)}, commit ${f1(sum(ph.map((p) => p.commit)) / pages)}), ` +
      `${(sum(txs.map((t) => t.ops.length)) / pages).toFixed(1)} requests, ${(sum(txs.map(roundTrips)) / pages).toFixed(1)} round trips`);
    const shapes = new Map<string, { n: number; ops: number }>();
    for (const tx of txs) {
      const k = `${tx.mode} ${tx.tables.length} tables${tx.ops.length ? '' : ', no request'}`;
      const v = shapes.get(k) ?? { n: 0, ops: 0 };
      v.n++, (v.ops += tx.ops.length);
      shapes.set(k, v);
    }
    console.log(`    transactions: ${[...shapes].map(([k, v]) => `${k}: ${(v.n / pages).toFixed(2)} a page`).join('; ')}`);
    const byOp = new Map<string, { n: number; rows: number; ms: number[] }>();
    for (const tx of txs) for (const o of tx.ops) {
      const k = `${o.table} ${o.op}`;
      const v = byOp.get(k) ?? { n: 0, rows: 0, ms: [] };
      v.n++, (v.rows += o.n), v.ms.push(o.ms);
      byOp.set(k, v);
    }
    for (const [k, v] of [...byOp].sort((a, b) => sum(b[1].ms) - sum(a[1].ms))) {
      console.log(`    ${k.padEnd(60)} ${(v.n / pages).toFixed(2).padStart(6)} a page, ${(v.rows / pages).toFixed(1).padStart(6)} keys or rows, ` +
        `p50 ${f1(q(v.ms, 0.5)).padStart(5)} / p99 ${f1(q(v.ms, 0.99)).padStart(6)} ms, ${f1(sum(v.ms) / pages).padStart(5)} ms a page issued to answered`);
    }
  }
}

if (CRAWL > 0) {
  await inPage(page, 'open', 'warmup');
  await inPage(page, 'crawl', 'warmup', 100);
  await inPage(page, 'drop', 'warmup');
  await inPage(page, 'open', 'small');
  await crawlProfile('small', 'on a fresh frontier');
  await inPage(page, 'drop', 'small');
}
await inPage(page, 'open', 'big');
let filled = 0;
const CHUNK = 50_000;
for (const size of SIZES) {
  while (filled < size) {
    const n = Math.min(CHUNK, size - filled);
    await inPage(page, 'fill', 'big', n, 1000);
    filled += n;
  }
  progress(`filled ${filled.toLocaleString('en')}`);
  const takes = await inPage(page, 'takeProbe', 'big', SAMPLES, MAX);
  await inPage(page, 'reclaim', 'big');
  const ms = takes.map((t) => t.ms);
  const p99 = q(ms, 0.99);
  console.log(`\nat ${size.toLocaleString('en')} URLs (${browserVersion}; the store of ${BEFORE ?? 'this tree'}): ${SAMPLES} takes of ${MAX}, hosts ready: ` +
    `p50 ${f1(q(ms, 0.5))} / p90 ${f1(q(ms, 0.9))} / p99 ${f1(p99)} / max ${f1(Math.max(...ms))} ms`);
  const reqs = takes.map((t) => t.txs.reduce((a, tx) => a + tx.ops.length, 0));
  const trips = takes.map((t) => t.txs.reduce((a, tx) => a + roundTrips(tx), 0));
  const txs = takes.map((t) => t.txs.length);
  console.log(`  per take: transactions p50 ${q(txs, 0.5)} (max ${Math.max(...txs)}), requests p50 ${q(reqs, 0.5)} (max ${Math.max(...reqs)}), ` +
    `round trips p50 ${q(trips, 0.5)} (max ${Math.max(...trips)})`);
  const ph = takes.map(phases);
  for (const k of ['wait', 'requests', 'commit', 'outside'] as const) {
    const xs = ph.map((p) => p[k]);
    console.log(`  ${k.padEnd(9)} p50 ${f1(q(xs, 0.5)).padStart(6)}  p99 ${f1(q(xs, 0.99)).padStart(6)}  max ${f1(Math.max(...xs)).padStart(6)} ms`);
  }
  const byOp = new Map<string, number[]>();
  for (const t of takes) for (const tx of t.txs) for (const o of tx.ops) {
    const k = `${o.table} ${o.op} (${o.n})`;
    byOp.set(k, [...(byOp.get(k) ?? []), o.ms]);
  }
  for (const [k, xs] of [...byOp].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  request ${k.padEnd(72)} x${(xs.length / SAMPLES).toFixed(2)}  p50 ${f1(q(xs, 0.5)).padStart(5)}  p99 ${f1(q(xs, 0.99)).padStart(6)} ms`);
  }
  const fl = await inPage(page, 'takeFloor', 'big', SAMPLES);
  await inPage(page, 'reclaim', 'big');
  console.log(`  alternated with a transaction that reads the crawl row and writes what a take writes: take p50 ${f1(q(fl.take, 0.5))} / p99 ${f1(q(fl.take, 0.99))}, ` +
    `that floor p50 ${f1(q(fl.floor, 0.5))} / p99 ${f1(q(fl.floor, 0.99))} ms`);
  const slow = takes.map((t, i) => ({ t, i })).filter(({ t }) => t.ms >= p99);
  console.log(`  the ${slow.length} slowest takes (>= p99):`);
  for (const { t, i } of slow) {
    const p = phases(t);
    const worst = t.txs.flatMap((tx) => tx.ops).sort((a, b) => b.ms - a.ms)[0];
    console.log(`    #${i} ${f1(t.ms)} ms: wait ${f1(p.wait)}, requests ${f1(p.requests)}, commit ${f1(p.commit)}, outside ${f1(p.outside)}; ` +
      `slowest request ${worst ? `${worst.table} ${worst.op} ${f1(worst.ms)} ms` : 'none'}`);
  }
  if (CRAWL > 0) await crawlProfile('big', `at ${size.toLocaleString('en')}`);
}
await inPage(page, 'closeAll');
await harness.close();
progress('done');
