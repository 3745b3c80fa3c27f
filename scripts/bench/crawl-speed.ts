// Crawl-phase throughput of the extension against Crawlee's CheerioCrawler, side by side in one run (same corpus
// site, same concurrency, no politeness delay), printed as a ratio so that the shared machine's noise cancels out;
// with --profile, where the service worker's time goes during the Focus crawl (a CPU profile of the worker through
// the DevTools protocol, and its fetches as the Network domain saw them: how many were in flight at once).
//   npx tsx scripts/bench/crawl-speed.ts [--corpus DIR] [--topic Science] [--seed English_language] [--budget 2000]
//     [--concurrency 8] [--rounds 1] [--latency MS] [--profile] [--profile-out FILE.cpuprofile] [--trace-out FILE.json]
// --latency MS holds every answer of both crawls' servers that long before its first byte, as a server across the web
// does: on loopback (0, the default) CPU alone sets the pace, and this shows whether both keep their requests in flight.
// --profile wants the unminified build for function names: npx wxt build -c scripts/bench/profile.wxt.config.ts
// --trace-out FILE records a Chromium trace of the first round's Focus crawl and prints where the browser's storage
// spends its CPU (storage-trace.ts); tracing slows that crawl, so its pages/s is not one to compare.
// On Linux each round also prints the CPU a page of Focus's Chromium, by process and thread, and of Crawlee's process
// (/proc; steadier than pages/s on a shared machine). FOCUS_EXTENSION_DIR=<tree>/.output/chrome-mv3-runner runs another
// tree's build, to alternate with this one's.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { CDPSession } from 'playwright-core';
import type { Launched } from '../lib/browser';
import { loadArticles, meanOpen, openShares, startCorpusServer } from './corpus-server';
import { runCrawlee } from './crawlee';
import { ChromiumCpu } from '../lib/process-cpu';
import { DEFAULT_CORPUS, runWikispeedia } from './wikispeedia';
import { formatStorageTrace, readStorageTrace, storageTraceArgs, type StorageTrace } from './storage-trace';

export interface SpeedRound {
  focus: number;
  crawlee: number;
  /**
   * CPU milliseconds a crawl-phase page (Linux /proc): Focus's Chromium by part ("browser: ThreadPoolForeg", its
   * IndexedDB and LevelDB; "renderer: ServiceWorker t", the worker...) and this process (the site's server); Crawlee's
   * process (its crawler and the same server). Absent where /proc is not.
   */
  cpu?: { focus: { total: number; parts: [string, number][]; server: number; pages: number }; crawlee: number };
  /** Focus's crawl-phase pages/s over Crawlee's. */
  ratio: number;
  /**
   * Focus's crawl-phase pages that made a request, a second, and how many pages it judged from training reads' copies
   * instead (requested before the crawl phase). Crawlee requests every page it crawls: requests/s is like for like.
   */
  requests: { focus: number; copies: number; ratio: number };
  /** Requests the site's server had open at once, on average: over Focus's crawl phase, and over Crawlee's run. */
  open: { focus: number; crawlee: number; focusShares: number[]; crawleeShares: number[] };
  /** The machine's 1-minute load average when the round ended. */
  load: number;
}

export interface CrawlSpeed {
  topic: string;
  seed: string;
  budget: number;
  concurrency: number;
  /** How long each answer of the servers waited before its first byte (ms). */
  latencyMs: number;
  rounds: SpeedRound[];
  profile?: WorkerProfile;
  /** The first round's storage trace, and the pages it stored (training reads too). */
  trace?: { storage: StorageTrace; pages: number };
}

/** Focus then Crawlee, `rounds` times, on one corpus site each. */
export async function measureCrawlSpeed(o: {
  corpus: string; topic: string; seed: string; budget: number; concurrency: number; rounds?: number; profile?: boolean; profileOut?: string;
  traceOut?: string; latencyMs?: number; log?: (s: string) => void;
}): Promise<CrawlSpeed> {
  const log = o.log ?? (() => {});
  const rounds: SpeedRound[] = [];
  let profile: WorkerProfile | undefined;
  let trace: CrawlSpeed['trace'];
  for (let i = 0; i < (o.rounds ?? 1); i++) {
    let recorder: WorkerRecorder | undefined;
    let summarize: ((from: number, pages: number) => WorkerProfile) | undefined;
    let cpu: ChromiumCpu | undefined;
    let finishedAt = 0;
    const profiled = o.profile && i === 0;
    log(`round ${i + 1}: Focus best-first, ${o.budget} pages, concurrency ${o.concurrency}`);
    const traced = o.traceOut !== undefined && i === 0;
    const flags = process.env.FOCUS_CHROME_ARGS;
    if (traced) process.env.FOCUS_CHROME_ARGS = [flags ?? '', ...storageTraceArgs(o.traceOut!)].join(' ');
    const focus = await runWikispeedia({
      corpus: o.corpus, topic: o.topic, seed: o.seed, budget: o.budget, strategy: 'best-first', concurrency: o.concurrency, latencyMs: o.latencyMs ?? 0, log: () => {},
      onStarted: async (launched: Launched) => {
        cpu = ChromiumCpu.start(launched.profileDir);
        if (profiled) recorder = await WorkerRecorder.start(launched);
      },
      onFinished: async () => {
        finishedAt = Date.now();
        cpu?.stop();
        if (profiled) summarize = await recorder?.stop(o.profileOut);
      },
    });
    if (traced) {
      if (flags === undefined) delete process.env.FOCUS_CHROME_ARGS;
      else process.env.FOCUS_CHROME_ARGS = flags;
      const stored = readFileSync(join(focus.out, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).length;
      trace = { storage: await readStorageTrace(o.traceOut!), pages: stored };
    }
    const phaseStart = crawlPhaseStart(focus.out), phasePages = crawlPhasePages(focus.out);
    if (summarize) profile = summarize(phaseStart, phasePages);
    log(`round ${i + 1}: Crawlee CheerioCrawler`);
    const site = await startCorpusServer(o.corpus, 0, { latencyMs: o.latencyMs ?? 0 });
    let crawlee: number;
    let crawleeCpu = NaN;
    let crawleeOpen = NaN;
    let crawleeShares: number[] = [];
    try {
      const seedPath = loadArticles(o.corpus).find((a) => a.article === o.seed)!.path;
      const before = process.cpuUsage();
      const began = Date.now();
      const run = await runCrawlee({ origin: site.origin, seedUrl: site.origin + seedPath, budget: o.budget, concurrency: o.concurrency });
      const used = process.cpuUsage(before);
      crawlee = run.pagesPerSecond;
      crawleeCpu = (used.user + used.system) / 1000 / run.urls.length;
      const ended = Date.now();
      crawleeOpen = meanOpen(site.spans, began, ended);
      crawleeShares = openShares(site.spans, began, ended);
    } finally {
      await site.close();
    }
    const pagesPerSecond = focus.pagesPerSecond ?? NaN;
    rounds.push({
      focus: pagesPerSecond, crawlee, ratio: pagesPerSecond / crawlee, load: loadavg()[0]!,
      requests: { focus: focus.requestsPerSecond ?? NaN, copies: focus.copies, ratio: (focus.requestsPerSecond ?? NaN) / crawlee },
      open: {
        focus: meanOpen(focus.serverSpans, phaseStart, finishedAt || Date.now()), crawlee: crawleeOpen,
        focusShares: openShares(focus.serverSpans, phaseStart, finishedAt || Date.now()), crawleeShares,
      },
      ...(cpu ? { cpu: { focus: focusCpu(cpu, phaseStart, finishedAt, phasePages), crawlee: crawleeCpu } } : {}),
    });
  }
  return { topic: o.topic, seed: o.seed, budget: o.budget, concurrency: o.concurrency, latencyMs: o.latencyMs ?? 0, rounds, ...(profile ? { profile } : {}), ...(trace ? { trace } : {}) };
}

/** Focus's CPU a crawl-phase page: Chromium's, by part, and the site's server (this process). */
export function focusCpu(cpu: ChromiumCpu, from: number, to: number, pages: number): NonNullable<SpeedRound['cpu']>['focus'] {
  const parts = cpu.between(from, to);
  const server = parts.get('benchmark process') ?? 0;
  parts.delete('benchmark process');
  const perPage = (s: number) => (s * 1000) / pages;
  const total = [...parts.values()].reduce((a, b) => a + b, 0);
  return { total: perPage(total), parts: [...parts].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, perPage(v)]), server: perPage(server), pages };
}

/**
 * When the crawl phase began: the last training read of the run's pages.jsonl (training comes first; a crawl-phase row
 * judged from training's copy carries that read's time, so the first crawl-phase time would be too early).
 */
export function crawlPhaseStart(out: string): number {
  const rows = readFileSync(join(out, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { phase: string; fetchedAt: string });
  return Math.max(...rows.filter((r) => r.phase === 'train').map((r) => Date.parse(r.fetchedAt)));
}

/** Pages the crawl phase wrote rows for (fetched, failed or blocked: each one went through the worker). */
export function crawlPhasePages(out: string): number {
  return readFileSync(join(out, 'pages.jsonl'), 'utf8').split('\n').filter((l) => l && !l.includes('"phase":"train"')).length;
}

export function formatCrawlSpeed(s: CrawlSpeed): string {
  const lines = [`Crawl phase, Focus (extension, best-first) against Crawlee CheerioCrawler: ${s.topic} from ${s.seed}, ` +
    `${s.budget} pages, concurrency ${s.concurrency}, no politeness delay, loopback${s.latencyMs > 0 ? `, every answer held ${s.latencyMs} ms` : ''}`];
  for (const [i, r] of s.rounds.entries()) {
    lines.push(`  round ${i + 1}: Focus ${r.focus.toFixed(1)} pages/s, Crawlee ${r.crawlee.toFixed(1)} pages/s, ratio ${r.ratio.toFixed(2)}x, load average ${r.load.toFixed(1)} on ${cpus().length} cores`);
    lines.push(`    requests: Focus ${r.requests.focus.toFixed(1)} a second (${r.requests.copies} more pages judged from training reads' copies), ratio ${r.requests.ratio.toFixed(2)}x: like for like, Crawlee requests every page`);
    lines.push(`    requests open at the site's server, on average: Focus ${r.open.focus.toFixed(2)}, Crawlee ${r.open.crawlee.toFixed(2)} (concurrency ${s.concurrency})`);
    const shares = (xs: number[]) => xs.map((x, n) => `${n} ${Math.round(100 * x)}%`).filter((_, n) => xs[n]! >= 0.005).join(', ');
    lines.push(`    the time by how many were open: Focus ${shares(r.open.focusShares)}; Crawlee ${shares(r.open.crawleeShares)}`);
    if (r.cpu) {
      const { focus, crawlee } = r.cpu;
      const shown = focus.parts.filter(([, ms]) => ms >= 0.1).slice(0, 8).map(([k, ms]) => `${k} ${ms.toFixed(2)}`);
      // Crawlee's pages are all requests; Focus's crawl-phase pages include the copies, which made none.
      const perRequest = focus.pages / Math.max(1, focus.pages - r.requests.copies);
      lines.push(`    CPU a page: Focus's Chromium ${focus.total.toFixed(2)} ms and its site's server ${focus.server.toFixed(2)} ms ` +
        `(${(focus.total * perRequest).toFixed(2)} and ${(focus.server * perRequest).toFixed(2)} a request), ` +
        `Crawlee ${crawlee.toFixed(2)} ms with its server (a request: ${(((focus.total + focus.server) * perRequest) / crawlee).toFixed(2)}x); ` +
        `Chromium by process and thread: ${shown.join(', ')}`);
    }
  }
  if (s.profile) lines.push(formatProfile(s.profile));
  if (s.trace) lines.push(`round 1, traced (slower): ${formatStorageTrace(s.trace.storage, s.trace.pages)}`);
  return lines.join('\n');
}

// ---- the service worker, seen through the DevTools protocol ----

export interface WorkerProfile {
  seconds: number;
  /** Crawl-phase pages the profile's time is divided by. */
  pages: number;
  /** Share of the worker's sampled time per stage (inclusive: a sample counts for every stage on its stack). */
  stages: { stage: string; share: number }[];
  /** Functions by self time. */
  top: { name: string; share: number }[];
  fetches: { count: number; medianMs: number; p90Ms: number; meanInFlight: number; atConcurrency: number };
}

/**
 * Stages by the functions that start them, checked from the top of the stack down (the innermost wins): the names
 * are the crawler's own, so an unminified build is needed (profile.wxt.config.ts).
 */
const STAGES: [string, RegExp][] = [
  ['parse (linkedom)', /^parseHtml$/],
  ['read and decode the body', /^(readResponse|readCapped|decodeBytes|decode)$/],
  ['judge', /^(judge|judgeAndPlan)$/],
  ['plan links', /^(planChildren|planUpserts|rankLinks)$/],
  ['commit (IndexedDB)', /^(commitPages|applyCommits?|submit|drain)$/],
  ['take (IndexedDB)', /^(take|takeBatch|markTaken)$/],
  ['learn', /^(pageDone|save|retrain|rescoreQueued|learnFromVerdict)$/],
  ['fetch (request gate, headers)', /^(fetchOnce|page)$/],
  ['messages to pages', /^(onMessage|handleMessage|broadcast|postMessage)$/],
];

class WorkerRecorder {
  private readonly pending = new Map<number, (r: unknown) => void>();
  private nextId = 1;
  private readonly requests = new Map<string, number>();
  private readonly spans: [number, number][] = [];
  /** Wall-clock seconds minus the protocol's monotonic seconds. */
  private wallOffset = 0;

  private constructor(private readonly cdp: CDPSession, private readonly sessionId: string) {
    cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
      if (e.sessionId !== this.sessionId) return;
      const m = JSON.parse(e.message) as { id?: number; result?: unknown; method?: string; params?: Record<string, unknown> };
      if (m.id !== undefined) this.pending.get(m.id)?.(m.result), this.pending.delete(m.id);
      else if (m.method === 'Network.requestWillBeSent') {
        this.requests.set(m.params!.requestId as string, m.params!.timestamp as number);
        this.wallOffset = (m.params!.wallTime as number) - (m.params!.timestamp as number);
      }
      else if (m.method === 'Network.loadingFinished' || m.method === 'Network.loadingFailed') {
        const began = this.requests.get(m.params!.requestId as string);
        if (began !== undefined) this.spans.push([began, m.params!.timestamp as number]);
      }
    });
  }

  static async start(launched: Launched): Promise<WorkerRecorder> {
    const cdp = await launched.context.newCDPSession(launched.page);
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.includes(launched.extensionId));
    if (!sw) throw new Error('no service worker to profile');
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false })) as { sessionId: string };
    const r = new WorkerRecorder(cdp, sessionId);
    await r.call('Network.enable');
    await r.call('Profiler.enable');
    await r.call('Profiler.setSamplingInterval', { interval: 500 });
    await r.call('Profiler.start');
    return r;
  }

  private call(method: string, params: unknown = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      void this.cdp.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message: JSON.stringify({ id, method, params }) });
    });
  }

  /** Stops recording; the summary covers what happened from `from` (wall-clock ms) on: the crawl phase. */
  async stop(saveTo?: string): Promise<(from: number, pages: number) => WorkerProfile> {
    const { profile } = (await this.call('Profiler.stop')) as { profile: CpuProfile };
    // The raw profile opens in DevTools' Performance panel, or reads with any .cpuprofile tool.
    if (saveTo) writeFileSync(saveTo, JSON.stringify(profile));
    await this.cdp.detach().catch(() => {});
    const spans = this.spans, wallOffset = this.wallOffset;
    return (from, pages) => {
      // Both clocks of the protocol are the browser's monotonic one: seconds for the network, microseconds for the profile.
      const since = (from / 1000 - wallOffset) * 1e6;
      return {
        seconds: (profile.endTime - Math.max(since, profile.startTime)) / 1e6,
        pages,
        ...summarizeProfile(profile, since),
        fetches: inFlight(spans.filter(([a]) => a * 1e6 >= since)),
      };
    };
  }
}

interface CpuProfile {
  startTime: number;
  endTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

function summarizeProfile(p: CpuProfile, since: number): Pick<WorkerProfile, 'stages' | 'top'> {
  const parent = new Map<number, number>();
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const stage = new Map<string, number>();
  let total = 0;
  const stageOf = new Map<number, string>();
  const stageOfNode = (id: number): string => {
    const known = stageOf.get(id);
    if (known !== undefined) return known;
    const name = byId.get(id)!.callFrame.functionName;
    if (name === '(idle)') return '(idle)';
    if (name === '(garbage collector)') return 'garbage collector';
    if (name === '(program)') return '(program: native, not attributed)';
    const hit = STAGES.find(([, re]) => re.test(name))?.[0];
    const up = parent.get(id);
    const s = hit ?? (up === undefined ? 'other JS' : stageOfNode(up));
    stageOf.set(id, s);
    return s;
  };
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    at += dt;
    if (at < since) return;
    total += dt;
    const f = byId.get(id)!.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + dt);
    const s = stageOfNode(id);
    stage.set(s, (stage.get(s) ?? 0) + dt);
  });
  const share = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => ({ k, share: v / total }));
  return {
    stages: share(stage).map(({ k, share }) => ({ stage: k, share })),
    top: share(self).slice(0, 15).map(({ k, share }) => ({ name: k, share })),
  };
}

/** Fetches by their Network-domain spans: durations, and how many were in flight at once, averaged over time. */
function inFlight(spans: [number, number][]): WorkerProfile['fetches'] {
  if (spans.length === 0) return { count: 0, medianMs: NaN, p90Ms: NaN, meanInFlight: NaN, atConcurrency: NaN };
  const ms = spans.map(([a, b]) => (b - a) * 1000).sort((a, b) => a - b);
  const edges = spans.flatMap(([a, b]) => [[a, 1], [b, -1]] as [number, number][]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let open = 0, last = edges[0]![0], area = 0;
  const time = new Map<number, number>();
  for (const [t, d] of edges) {
    area += open * (t - last);
    time.set(open, (time.get(open) ?? 0) + (t - last));
    open += d;
    last = t;
  }
  const span = edges.at(-1)![0] - edges[0]![0];
  const maxOpen = Math.max(...time.keys());
  return {
    count: spans.length, medianMs: ms[ms.length >> 1]!, p90Ms: ms[Math.floor(ms.length * 0.9)]!,
    meanInFlight: area / span, atConcurrency: (time.get(maxOpen) ?? 0) / span,
  };
}

function formatProfile(p: WorkerProfile): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(6);
  // The worker's time a page, by stage: wall time of the crawl phase shared as the samples fell, over its pages.
  const perPage = (x: number) => `${((x * p.seconds * 1000) / p.pages).toFixed(2)} ms/page`.padStart(14);
  const busy = p.stages.filter((s) => s.stage !== '(idle)').reduce((a, s) => a + s.share, 0);
  return [
    `service worker over the crawl phase, ${p.seconds.toFixed(0)} s, ${p.pages} pages (CPU profile, 0.5 ms samples; a sample counts for the ` +
      `innermost stage on its stack); busy ${pct(busy).trim()}, ${perPage(busy).trim()}:`,
    ...p.stages.map((s) => `  ${pct(s.share)} ${perPage(s.share)}  ${s.stage}`),
    'functions by self time:',
    ...p.top.map((t) => `  ${pct(t.share)}  ${t.name}`),
    `fetches (Network domain): ${p.fetches.count}, median ${p.fetches.medianMs.toFixed(1)} ms, p90 ${p.fetches.p90Ms.toFixed(1)} ms; ` +
      `in flight on average ${p.fetches.meanInFlight.toFixed(2)}, the most at once for ${pct(p.fetches.atConcurrency).trim()} of the time`,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS }, topic: { type: 'string', default: 'Science' },
      seed: { type: 'string', default: 'English_language' }, budget: { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '8' }, rounds: { type: 'string', default: '1' }, profile: { type: 'boolean', default: false },
      'profile-out': { type: 'string' }, 'trace-out': { type: 'string' }, latency: { type: 'string', default: '0' },
    },
  });
  if (!(Number(v.latency) >= 0)) throw new Error(`--latency: milliseconds, 0 or more, not ${v.latency}`);
  const s = await measureCrawlSpeed({
    corpus: v.corpus!, topic: v.topic!, seed: v.seed!, budget: Number(v.budget), concurrency: Number(v.concurrency),
    rounds: Number(v.rounds), profile: v.profile || !!v['profile-out'], ...(v['profile-out'] ? { profileOut: v['profile-out'] } : {}),
    ...(v['trace-out'] ? { traceOut: v['trace-out'] } : {}), latencyMs: Number(v.latency), log: (l) => process.stderr.write(`[speed] ${l}\n`),
  });
  console.log(formatCrawlSpeed(s));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`crawl-speed: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}
