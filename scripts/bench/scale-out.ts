// Many browsers, one crawl (docs/scale-out.md), measured: pages per second with 1, 2 and 4 workers (command-line
// runners, each its own Chromium) on one crawl in a redis-server started here, against a loopback web of 50 hosts
// whose servers take 200 ms to answer, polite (at most 2 requests a host); where each worker's time goes (its CPU
// seconds, browser and runner, per page, against the wall); Redis round trips and commands per page (INFO
// commandstats); what Redis alone allows (workers in Node that fetch nothing); and Redis memory per queued URL.
//   npx tsx scripts/bench/scale-out.ts [--workers 1,2,4] [--pages 600] [--queued 100000]
// Prints figures; never fails on time. The workers are held until all have joined, then let go together.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { parseConfig } from '../../lib/app/parse-config';
import type { SharedEntry } from '../../lib/store/shared/bridge';
import { startWebOfHosts, type WebOfHosts } from '../../tests/fixtures/sites/web-of-hosts';
import { startRedis } from '../../tests/support/redis-server';
import { ensureBuilt, ROOT } from '../lib/browser';
import { treeCpuSeconds } from '../lib/process-cpu';
import { connectRedis, RedisFrontier } from '../../lib/store/shared/redis-frontier';
import { seedEntries } from '../../lib/app/shared-run';
import { crawlShapedMemory, formatMemory, type MemoryFigures } from './shared-memory';

export interface WorkersRun {
  workers: number;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  /** Scripts run (EVALSHA) and other calls from the runners, per page: network round trips. */
  roundTripsPerPage: number;
  /** Every command Redis ran, those inside the scripts included, per page. */
  commandsPerPage: number;
  byWorker: Record<string, number>;
  /** CPU seconds of each worker (its runner and its browser) over the run, and of Redis. */
  cpuSeconds: number[];
  redisCpuSeconds: number;
  /** The machine's load average (1, 5, 15 min) when the run ended. */
  loadAverage: number[];
}

export interface ScaleOutFigures {
  runs: WorkersRun[];
  /** Leases taken and completed per second by workers that fetch nothing (Node, no browser): what Redis alone allows. */
  ceiling: { workers: number; pages: number; pagesPerSecond: number; redisCpuMsPerPage: number }[];
  memory: MemoryFigures;
  site: { hosts: number; pages: number; latencyMs: number; delayMs: number; perHost: number; concurrency: number };
}

const SITE = { hosts: 50, pagesPerHost: 40, linksPerPage: 6, latencyMs: 200 };
/** Each worker keeps 4 requests in flight: alone, 4 / 200 ms = 20 pages a second at most, whatever its CPU. */
const POLITENESS = { delayMs: 0, concurrency: 4, perHost: 2 };

export async function measureScaleOut(opts: { workers: number[]; pages: number; queued: number; log: (line: string) => void }): Promise<ScaleOutFigures> {
  ensureBuilt(opts.log);
  const server = await startRedis();
  const site = await startWebOfHosts(SITE);
  const redis = await connectRedis(server.url);
  try {
    const runs: WorkersRun[] = [];
    for (const w of opts.workers) {
      runs.push(await crawlWith(w, opts.pages, server.url, redis, site, opts.log));
      opts.log(`${w} worker(s): ${runs.at(-1)!.pages} pages in ${runs.at(-1)!.seconds.toFixed(1)} s`);
    }
    const ceiling = [];
    for (const w of [1, 4, 16]) ceiling.push(await frontierCeiling(redis, w, 20_000));
    const memory = await crawlShapedMemory(redis, opts.queued);
    return {
      runs, memory, ceiling,
      site: { hosts: SITE.hosts, pages: SITE.hosts * SITE.pagesPerHost, latencyMs: SITE.latencyMs, ...POLITENESS },
    };
  } finally {
    redis.disconnect();
    await site.close();
    await server.stop();
  }
}

async function crawlWith(workers: number, pages: number, url: string, redis: Redis, site: WebOfHosts, log: (line: string) => void): Promise<WorkersRun> {
  const dir = mkdtempSync(join(tmpdir(), 'focus-bench-scale-'));
  const name = `bench ${workers} workers ${Date.now()}`;
  const raw = { name, seeds: site.hosts.map((h) => `http://${h}/`), topic: { keywords: ['telescope'] }, budget: { maxPages: pages }, politeness: POLITENESS };
  const config = parseConfig(raw);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(raw));
  const frontier = new RedisFrontier(redis, name);
  await frontier.join(JSON.stringify(config), seedEntries(config, Date.now()));
  await redis.set(frontier.key('held'), '1');
  const cpu: number[] = Array.from({ length: workers }, () => 0);
  const cpuAtStart: number[] = Array.from({ length: workers }, () => 0);
  const children: number[] = [];
  const exits = Array.from({ length: workers }, (_, i) => new Promise<number>((resolve) => {
    const child = spawn('npx', ['tsx', 'scripts/crawl.ts', '--config', join(dir, 'config.json'), '--out', join(dir, `out${i}`), '--profile', join(dir, `profile${i}`),
      '--host-rules', `MAP *.test 127.0.0.1:${site.port}`, '--frontier', url, '--worker', `w${i}`], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    children[i] = child.pid!;
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('exit', (code) => {
      if (code !== 0) log(`worker w${i} exited ${code}: ${err.slice(-500)}`);
      resolve(code ?? -1);
    });
  }));
  // Each worker's CPU (runner and browser), sampled while it lives: a process's seconds are gone once it exits.
  const sampler = setInterval(() => children.forEach((pid, i) => (cpu[i] = Math.max(cpu[i]!, treeCpuSeconds(pid)))), 250);
  for (let waited = 0; (await frontier.status()).workersAlive < workers; waited += 200) {
    if (waited > 180_000) throw new Error(`only ${(await frontier.status()).workersAlive} of ${workers} workers joined`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await redis.config('RESETSTAT');
  const redisFrom = await redisCpu(redis);
  children.forEach((pid, i) => (cpuAtStart[i] = treeCpuSeconds(pid)));
  const from = site.requests.length;
  const started = Date.now();
  await redis.del(frontier.key('held'));
  await Promise.all(exits);
  clearInterval(sampler);
  const redisCpuSeconds = (await redisCpu(redis)) - redisFrom;
  const requests = site.requests.slice(from).filter((r) => !r.url.endsWith('/robots.txt'));
  const last = Math.max(started, ...requests.map((r) => r.at));
  const stats = await commandStats(redis);
  const status = await frontier.status();
  const seconds = (last - started) / 1000;
  const roundTrips = Object.entries(stats).filter(([cmd]) => SENT.has(cmd)).reduce((n, [, c]) => n + c, 0);
  return {
    workers, pages: status.fetched, seconds, pagesPerSecond: status.fetched / seconds,
    roundTripsPerPage: roundTrips / status.fetched, commandsPerPage: Object.values(stats).reduce((a, b) => a + b, 0) / status.fetched,
    byWorker: status.byWorker, cpuSeconds: cpu.map((c, i) => c - cpuAtStart[i]!), redisCpuSeconds, loadAverage: loadavg(),
  };
}

/** Redis's CPU seconds so far (user and system). */
async function redisCpu(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return ['used_cpu_sys', 'used_cpu_user'].reduce((n, k) => n + Number(new RegExp(`^${k}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0), 0);
}

/**
 * Commands only the workers' runners send (the scripts call none of them): each is one round trip (a MULTI's batch,
 * EXEC, counted once). TIME is left out: every script calls it, and the status read's own is one in a hundred.
 */
const SENT = new Set(['evalsha', 'eval', 'lrange', 'zscan', 'multi']);

async function commandStats(redis: Redis): Promise<Record<string, number>> {
  const info = await redis.info('commandstats');
  const out: Record<string, number> = {};
  for (const m of info.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)) out[m[1]!] = Number(m[2]);
  delete out.config;
  delete out.info;
  return out;
}

/**
 * Workers that fetch nothing: each takes up to 4 leases, completes them with 5 new links each, and takes again,
 * until the budget is spent. Many hosts and no delay, so only Redis (and this process) sets the pace.
 */
async function frontierCeiling(redis: Redis, workers: number, pages: number): Promise<ScaleOutFigures['ceiling'][number]> {
  const frontier = new RedisFrontier(redis, `ceiling ${workers} ${Date.now()}`);
  await frontier.join('{}', Array.from({ length: 500 }, (_, i) => entryLike(i)));
  const params = { maxPages: pages, perHost: 1, delayMs: 0, leaseMs: 30_000 };
  let next = 500;
  const cpuFrom = await redisCpu(redis);
  const started = Date.now();
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    const own = new RedisFrontier(redis.duplicate(), frontier.name);
    try {
      for (;;) {
        const t = await own.take(`w${w}`, 4, params);
        if (t.ended) return;
        if (!t.taken.length) {
          await new Promise((r) => setTimeout(r, 1));
          continue;
        }
        await own.ack(`w${w}`, t.taken.map((x) => ({
          url: x.url, fence: x.fence, priority: 0, stats: { fetched: 1 }, children: Array.from({ length: 5 }, () => entryLike(next++)), aliases: [], labels: [],
        })), params);
      }
    } finally {
      own.redis.disconnect();
    }
  }));
  const seconds = (Date.now() - started) / 1000;
  return { workers, pages, pagesPerSecond: pages / seconds, redisCpuMsPerPage: (((await redisCpu(redis)) - cpuFrom) / pages) * 1000 };
}

function entryLike(i: number): SharedEntry {
  const host = `www.site${i % 5000}.example.org`;
  const url = `https://${host}/articles/2026/${i}/how-to-collimate-a-newtonian-telescope`;
  return {
    url, host, site: `site${i % 5000}.example.org`, score: 0.73, priority: 0.99 + (i % 1000) / 1000, order: -i, depth: 3,
    parentUrl: `https://${host}/articles/2026/${i - 1}/eyepieces`, anchor: 'How to collimate a Newtonian telescope',
    context: 'Collimation aligns the mirrors of a reflecting telescope. This guide walks through the primary and secondary mirror with a laser and a Cheshire eyepiece.',
    attempts: 0, discoveredAt: 1_790_000_000_000, updatedAt: 1_790_000_000_000, strategy: { tunnel: 0 },
  };
}

export function formatScaleOut(f: ScaleOutFigures): string {
  const base = f.runs[0];
  const rows = f.runs.map((r) => {
    const cpu = r.cpuSeconds.reduce((a, b) => a + b, 0);
    return `| ${r.workers} | ${r.pages} | ${r.seconds.toFixed(1)} | ${r.pagesPerSecond.toFixed(2)} | ${(r.pagesPerSecond / base!.pagesPerSecond).toFixed(2)} | ` +
      `${((cpu / r.pages) * 1000).toFixed(0)} | ${(cpu / r.seconds).toFixed(2)} | ${((r.redisCpuSeconds / r.pages) * 1000).toFixed(1)} | ${r.roundTripsPerPage.toFixed(1)} | ` +
      `${r.commandsPerPage.toFixed(0)} | ${Object.values(r.byWorker).join(' / ')} | ${r.loadAverage.map((x) => x.toFixed(1)).join(' ')} |`;
  });
  return [
    `Loopback web of ${f.site.hosts} hosts (${f.site.pages} pages, ${f.site.latencyMs} ms per answer); politeness ${f.site.delayMs} ms, ` +
      `${f.site.perHost} per host, concurrency ${f.site.concurrency} per worker.`,
    '',
    '| workers | pages | seconds | pages/s | vs 1 worker | worker CPU ms/page | cores busy (workers) | Redis CPU ms/page | round trips/page | Redis commands/page | pages by worker | load average |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
    `Without browsers (workers in Node that fetch nothing, ${f.ceiling[0]!.pages.toLocaleString('en')} pages, 5 new links each): ` +
      f.ceiling.map((c) => `${c.workers} worker(s) ${c.pagesPerSecond.toFixed(0)} pages/s (Redis CPU ${c.redisCpuMsPerPage.toFixed(2)} ms a page)`).join(', ') + '.',
    '',
    formatMemory(f.memory),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { workers: { type: 'string', default: '1,2,4' }, pages: { type: 'string', default: '600' }, queued: { type: 'string', default: '100000' } } });
  const figures = await measureScaleOut({
    workers: values.workers!.split(',').filter(Boolean).map(Number), pages: Number(values.pages), queued: Number(values.queued),
    log: (line) => process.stderr.write(`[scale-out] ${line}\n`),
  });
  console.log(formatScaleOut(figures));
}
