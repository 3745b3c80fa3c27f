// In-page half of frontier-take-fifo.ts: the real CrawlStore on Chromium's IndexedDB, its frontier taken by FIFO
// queues (the multi-queue strategy's `next`). Bundled with esbuild into one IIFE and driven through
// `globalThis.fifoBench`; everything that touches IndexedDB happens here, in the page.
import Dexie from 'dexie';
import { parseConfig } from '../../lib/app/parse-config';
import { Politeness } from '../../lib/net/politeness';
import { mulberry32 } from '../../lib/records/random';
import { createStrategy } from '../../lib/strategies/registry';
import type { NextOrder } from '../../lib/strategies/types';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { Candidate } from '../../lib/ports';
import { CrawlRunner } from '../../lib/run/runner';
import { realClock } from '../../lib/net/fetcher';
import { benchConfig, syntheticSite, syntheticUrl } from './frontier-scale-page';
import { meterHeads, type HeadsMeter } from './heads-meter';

/** Share of URLs per priority 1..5, as scripts/bench/multi-queue.ts: most links sit low, as in a forum. */
const SHARE = [0.3, 0.4, 0.2, 0.08, 0.02];
const config = parseConfig({ seeds: [syntheticUrl(0).url], topic: { keywords: ['bench'] }, strategy: { name: 'multi-queue' } });
const next: NextOrder = createStrategy(config).next;

/** The i-th URL: over five priorities, or (best first) ranked by a random score's log-odds, as frontier-scale.ts's. */
function candidate(i: number, r: () => number, bestFirst: boolean): Candidate {
  const { url, host } = syntheticUrl(i);
  let x = r(), priority = 1;
  while (priority < 5 && x > SHARE[priority - 1]!) x -= SHARE[priority++ - 1]!;
  const score = Math.min(0.999999, Math.max(1e-6, r()));
  return { url, host, score, priority: bestFirst ? Math.log(score / (1 - score)) : priority, depth: 3, parentUrl: 'https://parent.example/', anchor: '', context: '' };
}

const benches = new Map<string, { db: CrawlerDB; store: CrawlStore; crawlId: number; filled: number; meter?: HeadsMeter }>();
function must(name: string) {
  const b = benches.get(name);
  if (!b) throw new Error(`no bench database ${name}`);
  return b;
}

/** A database and crawl: taken by FIFO queues, or (`bestFirst`) frontier-scale.ts's best-first crawl with the heads' cost metered. */
async function open(name: string, bestFirst = false): Promise<void> {
  await Dexie.delete(name);
  const db = new CrawlerDB(name, { indexedDB, IDBKeyRange });
  const meter = bestFirst ? meterHeads(db) : undefined;
  const store = new CrawlStore(db);
  const topic = await store.topics.createTopic('bench', ['bench'], Date.now());
  const crawlId = await store.createCrawl(bestFirst ? benchConfig(500) : config, topic.id!, Date.now());
  benches.set(name, { db, store, crawlId, filled: 0, meter });
}

/**
 * frontier-scale.ts's crawl loop for `pages` pages (fake fetch, 20 links a page, half of them to queued URLs): what
 * the heads cost its commits, metered from zero, and its pages a second.
 */
async function crawl(name: string, pages: number) {
  const b = must(name);
  const { store, crawlId } = b;
  const row = (await store.getCrawl(crawlId))!;
  await store.updateCrawl(crawlId, { state: 'running', config: benchConfig(row.stats.attempts + pages) });
  if (b.filled === 0 && row.stats.attempts === 0) {
    await store.frontier.enqueue(crawlId, Array.from({ length: 10 }, (_, i) => ({ ...syntheticUrl(1e9 + i), score: 0.5, priority: Number.MAX_VALUE,
      depth: 0, parentUrl: null, anchor: '', context: '' })), Date.now());
  }
  if (b.meter) for (const k of Object.keys(b.meter) as (keyof HeadsMeter)[]) b.meter[k] = 0;
  const t = performance.now();
  const end = await new CrawlRunner({ store, fetch: syntheticSite(b.filled, 0.5), clock: realClock }, crawlId).run();
  return { ms: performance.now() - t, state: end.state, fetched: end.stats.fetched, meter: { ...b.meter! } };
}

/** Queues `count` more URLs through enqueue, `batch` per call; answers the time of each call. */
async function fill(name: string, count: number, batch: number): Promise<number[]> {
  const b = must(name);
  const ms: number[] = [];
  for (let done = 0; done < count; done += batch) {
    const r = mulberry32(b.filled + done);
    const cands = Array.from({ length: Math.min(batch, count - done) }, (_, k) => candidate(b.filled + done + k, r, b.meter !== undefined));
    const t = performance.now();
    await b.store.frontier.enqueue(b.crawlId, cands, Date.now());
    ms.push(performance.now() - t);
  }
  b.filled += count;
  return ms;
}

/** The ten hosts with the most URLs among the first `filled` (about half of them: Zipf shares over 200 hosts). */
function largestHosts(filled: number): Set<string> {
  const counts = new Map<string, number>();
  for (let i = 0; i < filled; i++) {
    const h = syntheticUrl(i).host;
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  return new Set([...counts].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([h]) => h));
}

type FifoMode = 'first' | 'ready' | 'top-hosts-busy' | 'politeness' | 'batch';

/**
 * `samples` takes by queues, each timed. first: one take after the worker forgot the queues (it counts them and, with
 * queue heads, builds them). ready: every host may be fetched. top-hosts-busy: the ten largest hosts (about half the
 * URLs) are busy. politeness: the real Politeness (1 s delay, 1 per host, 4 in flight) on a clock taking 20 pages a
 * second. batch: a take of 4 in one transaction.
 */
async function takeLatency(name: string, mode: FifoMode, samples: number) {
  const { store, crawlId, filled } = must(name);
  const ms: number[] = [];
  let none = 0;
  const busy = mode === 'top-hosts-busy' ? largestHosts(filled) : new Set<string>();
  const politeness = new Politeness({ delayMs: 1000, perHost: 1 });
  const inFlight: string[] = [];
  let simNow = 1e12;
  if (mode === 'first') store.frontier.forgetBound(crawlId);
  for (let i = 0; i < samples; i++) {
    let waitFor: (host: string) => number = () => 0;
    if (mode === 'top-hosts-busy') waitFor = (h) => (busy.has(h) ? 1000 : 0);
    else if (mode === 'politeness') {
      simNow += 50;
      waitFor = (h) => politeness.waitFor(h, simNow);
    }
    const t = performance.now();
    const { entries } = await store.frontier.take(crawlId, (e) => waitFor(e.host), Date.now(), mode === 'batch' ? 4 : 1, 2000, next);
    ms.push(performance.now() - t);
    const entry = entries[0];
    if (!entry) none++;
    else if (mode === 'politeness') {
      politeness.begin(entry.host);
      inFlight.push(entry.host);
      if (inFlight.length > 4) politeness.end(inFlight.shift()!, simNow);
    }
  }
  return { ms, none };
}

async function reclaim(name: string) {
  const { store, crawlId } = must(name);
  const t = performance.now();
  const n = (await store.frontier.reclaimInFlight(crawlId, Date.now())).requeued;
  return { n, ms: performance.now() - t };
}

function closeAll(): void {
  for (const b of benches.values()) b.db.close();
}

const api = { open, fill, takeLatency, reclaim, crawl, closeAll };
export type FifoBench = typeof api;
export type { FifoMode };
Object.assign(globalThis, { fifoBench: api });
