// Many browsers, one crawl, as good as one (docs/scale-out.md, "The shared queue learns"): on the web of sites
// (shared/corpora/wikispeedia/sites.tsv), one browser alone and then `--workers` browsers on one crawl in a
// redis-server started here crawl the same config; one worker is killed (SIGKILL, its browser with it) once the crawl
// has made `--kill-at` of its budget's requests, and started again on its profile under its name. Harvest at the
// budget against labels.tsv, for both; the shared crawl's re-score passes and who led them.
//   npx tsx scripts/bench/shared-harvest.ts [--cases History:Plant,Science:Europe] [--budget 1000] [--workers 3]
//     [--kill-at 0.4] [--max-sources 300] [--concurrency 4] [--skip-alone] [--out DIR]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { RedisFrontier } from '../../lib/store/shared/redis-frontier';
import { startRedis } from '../../tests/support/redis-server';
import { runCrawl } from '../crawl';
import { ensureBuilt, ROOT } from '../lib/browser';
import { articleUrl, loadArticles, loadSites, startCorpusServer } from './corpus-server';
import { caseConfig, caseGroundTruth, DEFAULT_CORPUS, scoreUrls, TOPIC_KEYWORDS } from './wikispeedia';

interface PageLine { seq: number; url: string; finalUrl: string; status: number; phase: string; error?: string; fetchedAt: string }

export interface HarvestCase {
  topic: string;
  seed: string;
  /** `harvestAtShared`: one browser's harvest over as many pages as the shared crawl fetched (its budget's requests, less aliases). */
  alone: { harvest: number; pages: number; seconds: number; harvestAtShared?: number } | null;
  shared: {
    harvest: number; pages: number; seconds: number; fetchedInRedis: number; requests: number; byWorker: Record<string, number>;
    /** Requests made when the worker was killed; re-score passes; slices written by each worker; passes taken over. */
    killedAt: number; passes: number; led: Record<string, number>; takenOver: number;
  };
  loadAverage: number[];
}

const readPages = (dir: string): PageLine[] => {
  const file = join(dir, 'pages.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PageLine);
};
const crawled = (rows: PageLine[]) => rows.filter((r) => r.phase === 'crawl' && !r.error && r.status === 200)
  .sort((a, b) => a.fetchedAt.localeCompare(b.fetchedAt)).map((r) => r.finalUrl || r.url);

export async function sharedHarvest(o: {
  topic: string; seed: string; budget: number; workers: number; killAt: number; maxSources: number; concurrency: number; skipAlone: boolean;
  out: string; log: (line: string) => void;
}): Promise<HarvestCase> {
  const corpus = DEFAULT_CORPUS;
  const truth = caseGroundTruth(corpus, o.topic, o.seed);
  const pathOf = new Map(loadArticles(corpus).map((a) => [a.article, a.path]));
  const sites = loadSites(corpus);
  const site = await startCorpusServer(corpus, 0, { sites });
  const urlOf = (a: string) => articleUrl(site.origin, pathOf.get(a)!, sites);
  const hostRules = `MAP *.test 127.0.0.1:${new URL(site.origin).port}`;
  const config = caseConfig({ topic: o.topic, seed: o.seed, budget: o.budget, strategy: 'best-first', maxSources: o.maxSources, concurrency: o.concurrency },
    truth, urlOf, true, TOPIC_KEYWORDS[o.topic]!);
  const dir = join(o.out, `${o.topic}-${o.seed}`);
  mkdirSync(dir, { recursive: true });
  const harvestOf = (urls: string[]) => scoreUrls(urls, truth).at(-1)!;
  try {
    let alone: HarvestCase['alone'] = null;
    let aloneUrls: string[] = [];
    if (!o.skipAlone) {
      const t = Date.now();
      await runCrawl({ config, out: join(dir, 'alone'), hostRules, log: () => {} });
      aloneUrls = crawled(readPages(join(dir, 'alone')));
      const h = harvestOf(aloneUrls);
      alone = { harvest: h.harvest!, pages: h.fetched, seconds: (Date.now() - t) / 1000 };
      o.log(`${o.topic} from ${o.seed}, one browser: harvest ${h.harvest} over ${h.fetched} pages (${alone.seconds.toFixed(0)} s)`);
    }
    const shared = await crawlShared(config, dir, hostRules, o);
    const h = harvestOf(crawled(shared.outs.flatMap(readPages)));
    if (alone) alone.harvestAtShared = harvestOf(aloneUrls.slice(0, h.fetched)).harvest!;
    o.log(`${o.topic} from ${o.seed}, ${o.workers} browsers (one killed at ${shared.killedAt} requests): harvest ${h.harvest} over ${h.fetched} pages; ` +
      `${shared.passes} re-score pass(es), led ${JSON.stringify(shared.led)}`);
    return { topic: o.topic, seed: o.seed, alone, shared: { ...shared, harvest: h.harvest!, pages: h.fetched }, loadAverage: loadavg() };
  } finally {
    await site.close();
  }
}

async function crawlShared(config: ReturnType<typeof caseConfig>, dir: string, hostRules: string, o: { workers: number; killAt: number; budget: number; log: (line: string) => void }) {
  const server = await startRedis();
  const watcher = new Redis(server.url);
  const frontier = new RedisFrontier(watcher, config.name);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  const outs: string[] = [];
  const start = (name: string, run: number) => {
    const out = join(dir, `shared-${name}-${run}`);
    outs.push(out);
    const child = spawn('npx', ['tsx', 'scripts/crawl.ts', '--config', file, '--out', out, '--profile', join(dir, `profile-${name}`), '--host-rules', hostRules,
      '--frontier', server.url, '--worker', name], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (b: Buffer) => (text += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (text += b.toString()));
    const exited = new Promise<number>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1))));
    return { name, child, exited, profile: join(dir, `profile-${name}`), output: () => text };
  };
  const t = Date.now();
  try {
    const workers = Array.from({ length: o.workers }, (_, i) => start(`w${i}`, 1));
    const doomed = workers.at(-1)!;
    let killedAt = 0;
    for (;;) {
      const s = await frontier.exists() ? await frontier.status() : null;
      if (s?.ended) break;
      if (s && s.requests >= o.killAt * o.budget) {
        killedAt = s.requests;
        kill(doomed.child, doomed.profile);
        await doomed.exited;
        o.log(`killed ${doomed.name} at ${killedAt} requests; starting it again on its profile`);
        workers.push(start(doomed.name, 2));
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const codes = await Promise.all(workers.filter((w) => w !== doomed).map((w) => w.exited));
    if (codes.some((c) => c !== 0)) throw new Error(`a worker exited ${codes.join(', ')}: ${workers.map((w) => w.output().slice(-800)).join('\n----\n')}`);
    const s = await frontier.status();
    return {
      outs, killedAt, seconds: (Date.now() - t) / 1000, fetchedInRedis: s.fetched, requests: s.requests, byWorker: s.byWorker,
      passes: s.rescore?.passes ?? 0, led: s.rescore?.slices ?? {}, takenOver: s.rescore?.takeovers ?? 0,
    };
  } finally {
    watcher.disconnect();
    await server.stop();
  }
}

/** SIGKILL to the worker's process group and to every process of its browser profile, by id (a power loss). */
function kill(child: ChildProcess, profile: string): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // gone already
  }
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}

/** The cases one after the other (each a one-browser crawl and a shared one), their results written to `out` as they come. */
export async function measureSharedHarvest(o: Omit<Parameters<typeof sharedHarvest>[0], 'topic' | 'seed'> & { cases: string[] }): Promise<HarvestCase[]> {
  const results: HarvestCase[] = [];
  for (const c of o.cases) {
    const [topic, seed] = c.split(':') as [string, string];
    results.push(await sharedHarvest({ ...o, topic, seed }));
    writeFileSync(join(o.out, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  }
  return results;
}

export function formatSharedHarvest(results: HarvestCase[], workers: number): string {
  return results.map((r) => `${r.topic} from ${r.seed}: one browser ${r.alone?.harvest ?? '-'} (${r.alone?.pages ?? '-'} pages; ` +
    `${r.alone?.harvestAtShared ?? '-'} over its first ${r.shared.pages}), ${workers} browsers, one killed at ${r.shared.killedAt} requests, ` +
    `${r.shared.harvest} (${r.shared.pages} pages; ${r.shared.passes} re-score passes; load average ${r.loadAverage.map((x) => x.toFixed(1)).join(' ')})`).join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: v } = parseArgs({
    options: {
      cases: { type: 'string', default: 'History:Plant,Science:Europe' }, budget: { type: 'string', default: '1000' },
      workers: { type: 'string', default: '3' }, 'kill-at': { type: 'string', default: '0.4' }, 'max-sources': { type: 'string', default: '300' },
      concurrency: { type: 'string', default: '4' }, 'skip-alone': { type: 'boolean', default: false },
      out: { type: 'string', default: join(ROOT, 'out', 'shared-harvest') },
    },
  });
  const log = (line: string) => process.stderr.write(`[shared-harvest] ${line}\n`);
  ensureBuilt(log);
  const results = await measureSharedHarvest({
    cases: v.cases!.split(','), budget: Number(v.budget), workers: Number(v.workers), killAt: Number(v['kill-at']), maxSources: Number(v['max-sources']),
    concurrency: Number(v.concurrency), skipAlone: v['skip-alone']!, out: v.out!, log,
  });
  console.log(formatSharedHarvest(results, Number(v.workers)));
}
