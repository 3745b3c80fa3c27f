// In-page half of frontier-scale.ts: the real CrawlStore and CrawlRunner on Chromium's IndexedDB.
// frontier-scale.ts bundles this file with esbuild into one IIFE and drives `globalThis.frontierBench`
// with page.evaluate; everything that touches IndexedDB happens here, in the page.
import Dexie from 'dexie';
import { type CrawlConfig } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { CrawlRunner } from '../../lib/run/runner';
import { Politeness } from '../../lib/net/politeness';
import { type FetchPort, realClock } from '../../lib/net/fetcher';
import { CrawlStore } from '../../lib/store/crawl-store';
import type { Candidate, PageCommit } from '../../lib/ports';
import type { FrontierEntry } from '../../lib/records/types';
import { CrawlerDB } from '../../lib/store/db';
import { mulberry32 } from '../../lib/records/random';

// ---- synthetic but realistic URLs: ~200 hosts of Zipf-like sizes, deterministic per index ----

const WORDS = (
  'ocean reef coral marine fish tide kelp whale shark plankton current salinity lagoon atoll dolphin turtle ' +
  'climate carbon survey species habitat research station expedition diving sonar vessel harbour coast island ' +
  'news sport weather market travel recipe garden music film theatre election school health science history ' +
  'guide review report archive event photo video podcast interview column opinion letters shop account help ' +
  'city region county river valley mountain forest desert energy solar wind battery engine transport railway ' +
  'library museum gallery festival concert league match season player coach ticket price offer deal update'
).split(' ');
const KEYWORDS = ['ocean', 'reef', 'coral', 'marine', 'plankton', 'whale'];
const TLDS = ['com', 'org', 'net', 'co.uk', 'de', 'fr', 'edu', 'gov', 'io', 'com.au'];
const SUBS = ['www', 'www', 'www', 'news', 'blog', 'en', 'docs', 'shop'];
const SECTIONS = ['articles', 'news', 'wiki', 'blog', 'research', 'topics', 'category', 'archive', 'people', 'events'];
export const HOST_COUNT = 200;

const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;

function words(r: () => number, n: number): string {
  return Array.from({ length: n }, () => pick(r, WORDS)).join(' ');
}

/** The hosts' names, the same every run. */
const HOSTS: string[] = Array.from({ length: HOST_COUNT }, (_, h) => {
  const r = mulberry32(h * 7919 + 17);
  return `${pick(r, SUBS)}.${words(r, 2).replace(' ', '-')}-${h}.${pick(r, TLDS)}`;
});

/** Zipf (s = 1) host sizes: host h holds a share proportional to 1/(h+1), the largest about 17% of all URLs. */
const CUMULATIVE: number[] = (() => {
  const weights = HOSTS.map((_, h) => 1 / (h + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();

/** The host a uniform draw in [0, 1) falls on: binary search over the cumulative shares. */
function hostIndex(x: number): number {
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The i-th synthetic URL (i < 2^31 are the pre-filled ones; larger i are links first found while crawling). */
export function syntheticUrl(i: number): { url: string; host: string } {
  const r = mulberry32(i ^ 0x5bd1e995);
  const host = HOSTS[hostIndex(r())]!;
  const slug = words(r, 2 + Math.floor(r() * 3)).replaceAll(' ', '-');
  const query = r() < 0.15 ? `?page=${1 + Math.floor(r() * 20)}` : '';
  return { url: `https://${host}/${pick(r, SECTIONS)}/${slug}-${i.toString(36)}${query}`, host };
}

function candidate(i: number, r: () => number, depth: number, parentUrl: string | null): Candidate {
  const { url, host } = syntheticUrl(i);
  const score = Math.min(0.999999, Math.max(1e-6, r()));
  return {
    url, host, score, priority: Math.log(score / (1 - score)), depth, parentUrl,
    anchor: words(r, 2 + Math.floor(r() * 3)), context: words(r, 12 + Math.floor(r() * 10)),
  };
}

// ---- a fake fetch port: small HTML pages with ~20 links each ----

/** Links the site's pages gave last, that a link found again (`repeatShare`) is drawn from. */
const RECENT_LINKS = 1000;

/**
 * Each page links 20 URLs: with probability `repeatShare` one of the last RECENT_LINKS links the site's pages gave (a
 * real crawl finds a site's navigation and its neighbours' links page after page: on Wikispeedia 22 of a page's 25
 * links are known, most of them read or written within the last 1,000 rows, docs/benchmarks.md); else with
 * probability `knownShare` one of the `known` pre-filled URLs (found again, sometimes by a better link), else a URL
 * nobody has seen yet. With `repeatShare` 0, links are uniform over the pre-filled and new URLs, and almost never
 * repeat.
 */
export function syntheticSite(known: number, knownShare: number, repeatShare = 0): FetchPort {
  let fresh = 2 ** 31;
  const recent: number[] = [];
  let next = 0;
  return async (url) => {
    const r = mulberry32(hash(url));
    const links = Array.from({ length: 20 }, () => {
      const i = recent.length > 0 && r() < repeatShare ? recent[Math.floor(r() * recent.length)]!
        : known > 0 && r() < knownShare ? Math.floor(r() * known) : fresh++;
      if (recent.length < RECENT_LINKS) recent.push(i);
      else recent[next++ % RECENT_LINKS] = i;
      return `<li>${words(r, 6)} <a href="${syntheticUrl(i).url}">${words(r, 2 + Math.floor(r() * 3))}</a> ${words(r, 6)}</li>`;
    });
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${words(r, 5)}</title></head><body>` +
      `<h1>${words(r, 4)}</h1><p>${words(r, 60)}</p><ul>${links.join('')}</ul><p>${words(r, 40)}</p></body></html>`;
    return new Response(html, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
  };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

// ---- measurements ----

export function benchConfig(maxPages: number): CrawlConfig {
  return parseConfig({
    name: 'frontier-scale', seeds: [syntheticUrl(0).url], topic: { keywords: KEYWORDS },
    scope: { mode: 'anywhere' }, budget: { maxPages, maxDepth: 1000 },
    politeness: { delayMs: 0, concurrency: 4, perHost: 4, robots: false },
  });
}

/** A CrawlStore that times the two transactions the crawl loop makes: takes and (group) commits. */
class TimedStore extends CrawlStore {
  readonly takes: { ms: number; urls: number }[] = [];
  readonly commits: { ms: number; pages: number }[] = [];
  constructor(db: CrawlerDB) {
    super(db);
    const take = this.frontier.take.bind(this.frontier);
    this.frontier.take = async (...args: Parameters<typeof take>) => {
      const t = performance.now();
      const out = await take(...args);
      this.takes.push({ ms: performance.now() - t, urls: out.entries.length });
      return out;
    };
  }
  override async commitPages(commits: PageCommit[], now: number) {
    const t = performance.now();
    const out = await super.commitPages(commits, now);
    this.commits.push({ ms: performance.now() - t, pages: commits.length });
    return out;
  }
}

interface Bench {
  db: CrawlerDB;
  store: TimedStore;
  crawlId: number;
  filled: number;
}
const benches = new Map<string, Bench>();
function must(name: string): Bench {
  const b = benches.get(name);
  if (!b) throw new Error(`no bench database ${name}`);
  return b;
}

// ---- what a take asks of IndexedDB (frontier-scale-takes.ts) ----

/** One IndexedDB request as Dexie's DBCore issued it: table, kind, when issued and answered (ms from the transaction's start). */
interface MeteredOp { table: string; op: string; n: number; at: number; ms: number }
/** One transaction: when Dexie created it, its requests, and when it completed (ms from its creation). */
export interface MeteredTx { mode: string; tables: string[]; ops: MeteredOp[]; completeMs: number }
let metering: MeteredTx[] | null = null;

/** Dexie middleware: while `metering`, logs every transaction and each of its requests, timed. */
function meter(db: CrawlerDB): void {
  db.use({
    stack: 'dbcore', name: 'take-meter',
    create(down) {
      const started = new WeakMap<object, { t0: number; tx: MeteredTx }>();
      const timed = <T>(table: string, op: string, n: number, trans: object, run: () => Promise<T>): Promise<T> => {
        const log = metering ? started.get(trans) : undefined;
        if (!log) return run();
        const at = performance.now();
        return run().then((v) => {
          log.tx.ops.push({ table, op, n, at: at - log.t0, ms: performance.now() - at });
          return v;
        });
      };
      return {
        ...down,
        transaction(stores, mode, options) {
          const trans = down.transaction(stores, mode, options);
          if (metering) {
            const t0 = performance.now();
            const tx: MeteredTx = { mode, tables: [...stores], ops: [], completeMs: NaN };
            started.set(trans, { t0, tx });
            metering.push(tx);
            (trans as IDBTransaction).addEventListener('complete', () => (tx.completeMs = performance.now() - t0));
          }
          return trans;
        },
        table(name) {
          const t = down.table(name);
          return {
            ...t,
            get: (req) => timed(name, 'get', 1, req.trans, () => t.get(req)),
            getMany: (req) => timed(name, 'getMany', req.keys.length, req.trans, () => t.getMany(req)),
            query: (req) => timed(name, `query${req.query.index.name ? ` ${req.query.index.name}` : ''}${req.direction === 'prev' ? ' prev' : ''}`, req.limit ?? 0, req.trans, () => t.query(req)),
            count: (req) => timed(name, 'count', 1, req.trans, () => t.count(req)),
            mutate: (req) => timed(name, req.type, 'keys' in req && req.keys ? req.keys.length : 'values' in req ? req.values.length : 1, req.trans, () => t.mutate(req)),
          };
        },
      };
    },
  });
}

/**
 * `samples` takes (ready, or a take of `max`) with every IndexedDB request logged: how many requests and round trips a
 * take makes, and which of them the slow takes wait on.
 */
async function takeProbe(name: string, samples: number, max = 1) {
  const { store, crawlId } = must(name);
  const takes: { ms: number; txs: MeteredTx[] }[] = [];
  for (let i = 0; i < samples; i++) {
    metering = [];
    const t = performance.now();
    await store.frontier.take(crawlId, () => 0, Date.now(), max);
    takes.push({ ms: performance.now() - t, txs: metering });
    metering = null;
  }
  return takes;
}

/**
 * Takes alternated with transactions that write what a take writes (its row, the crawl row, a head) after reading only
 * the crawl row: the floor a take with no reads of the queue would have, side by side with the take.
 */
async function takeFloor(name: string, samples: number) {
  const { db, store, crawlId } = must(name);
  const take: number[] = [], floor: number[] = [];
  let last: FrontierEntry | undefined;
  for (let i = 0; i < 2 * samples; i++) {
    const t = performance.now();
    if (i % 2 === 0 || !last) {
      last = (await store.frontier.takeNext(crawlId, () => 0, Date.now())).entry ?? last;
      take.push(performance.now() - t);
      continue;
    }
    const row = last;
    await db.transaction('rw', db.frontier, db.crawls, db.hostHeads, async () => {
      const crawl = (await db.crawls.get(crawlId))!;
      await Promise.all([
        db.frontier.put({ ...row, updatedAt: Date.now() }), db.crawls.put(crawl),
        db.hostHeads.put({ crawlId, site: row.site ?? '', host: row.host, priority: row.priority, order: row.order }),
      ]);
    });
    floor.push(performance.now() - t);
  }
  return { take, floor };
}

/** The crawl loop of `crawl` with every IndexedDB request logged (frontier-scale-takes.ts --crawl). */
async function crawlProbe(name: string, pages: number, repeatShare = 0) {
  metering = [];
  try {
    const out = await crawl(name, pages, repeatShare);
    return { ms: out.ms, fetched: out.fetched, txs: metering };
  } finally {
    metering = null;
  }
}

async function open(name: string): Promise<void> {
  await Dexie.delete(name);
  const db = new CrawlerDB(name, { indexedDB, IDBKeyRange });
  meter(db);
  const store = new TimedStore(db);
  const crawlId = await store.createCrawl(benchConfig(500), (await store.topics.createTopic('bench', ['bench'], Date.now())).id!, Date.now());
  benches.set(name, { db, store, crawlId, filled: 0 });
}

/** Queues URLs [from, from + count) in enqueue calls of `batch`, as a crawl adds the links of pages. */
async function fill(name: string, count: number, batch: number): Promise<number[]> {
  const b = must(name);
  const ms: number[] = [];
  for (let done = 0; done < count; done += batch) {
    const r = mulberry32(b.filled + done);
    const cands = Array.from({ length: Math.min(batch, count - done) }, (_, k) => candidate(b.filled + done + k, r, 3, 'https://parent.example/'));
    const t = performance.now();
    await b.store.frontier.enqueue(b.crawlId, cands, Date.now());
    ms.push(performance.now() - t);
  }
  b.filled += count;
  return ms;
}

type TakeMode = 'ready' | 'top-host-busy' | 'top-hosts-busy' | 'politeness' | 'batch';

/** The ten largest hosts: about half of all queued URLs (Zipf shares 1/(h+1) over 200 hosts). */
const TOP_HOSTS = new Set(HOSTS.slice(0, 10));

/**
 * `samples` takeNext calls, each timed. ready: every host may be fetched. top-host-busy: the host of the best
 * queued entry is busy, so the scan must pass its entries. top-hosts-busy: the ten largest hosts are busy (in
 * their politeness wait or at their concurrency), so about every other entry is passed. politeness: the real Politeness (1 s delay, 1 per
 * host, 4 in flight) on a simulated clock taking 20 pages a second, so recently fetched hosts wait.
 * batch: take() of 4 ready URLs in one transaction, as the crawl loop does when all its slots are free.
 */
async function takeLatency(name: string, mode: TakeMode, samples: number) {
  const { db, store, crawlId } = must(name);
  const ms: number[] = [];
  let none = 0;
  const politeness = new Politeness({ delayMs: 1000, perHost: 1 });
  const inFlight: string[] = [];
  let simNow = 1e12;
  const top = () => db.frontier.where('[crawlId+state+priority+order]')
    .between([crawlId, 'queued', Dexie.minKey, Dexie.minKey], [crawlId, 'queued', Dexie.maxKey, Dexie.maxKey]).last();
  for (let i = 0; i < samples; i++) {
    let waitFor: (host: string) => number = () => 0;
    if (mode === 'top-host-busy') {
      const busy = (await top())?.host;
      waitFor = (h) => (h === busy ? Infinity : 0);
    } else if (mode === 'top-hosts-busy') {
      waitFor = (h) => (TOP_HOSTS.has(h) ? 1000 : 0);
    } else if (mode === 'politeness') {
      simNow += 50;
      waitFor = (h) => politeness.waitFor(h, simNow);
    }
    const t = performance.now();
    const entry = mode === 'batch'
      ? (await store.frontier.take(crawlId, (e) => waitFor(e.host), Date.now(), 4)).entries[0]
      : (await store.frontier.takeNext(crawlId, (e) => waitFor(e.host), Date.now())).entry;
    ms.push(performance.now() - t);
    if (!entry) none++;
    else if (mode === 'politeness') {
      politeness.begin(entry.host);
      inFlight.push(entry.host);
      if (inFlight.length > 4) politeness.end(inFlight.shift()!, simNow);
    }
  }
  return { ms, none };
}

/** A queued URL found again by a better link: enqueue of one existing URL with a higher priority. */
async function raiseLatency(name: string, samples: number) {
  const { db, store, crawlId, filled } = must(name);
  const r = mulberry32(4242);
  const ms: number[] = [];
  let raised = 0;
  for (let k = 0; k < samples; k++) {
    const c = candidate(Math.floor(r() * filled), r, 2, 'https://better-parent.example/');
    c.priority = 100 + k;
    const t = performance.now();
    await store.frontier.enqueue(crawlId, [c], Date.now());
    ms.push(performance.now() - t);
    if ((await db.frontier.get([crawlId, c.url]))?.priority === c.priority) raised++;
  }
  return { ms, raised };
}

/**
 * The floor under enqueue at this size: `batches` batches of 1,000 new rows, as enqueue would write them, read by key
 * (all absent) in one transaction and then put in another, straight into the same frontier table (under a crawl id
 * no crawl has, removed afterwards). An enqueue does one read and one write per new URL: it cannot run faster than
 * these two bare operations together.
 */
async function floor(name: string, batches: number) {
  const { db, crawlId, filled } = must(name);
  const ghost = crawlId + 1_000_000;
  const getMs: number[] = [];
  const putMs: number[] = [];
  for (let k = 0; k < batches; k++) {
    const r = mulberry32(7_000_000 + k);
    const rows: FrontierEntry[] = Array.from({ length: 1000 }, (_, i) => {
      const c = candidate(filled + 5_000_000 + k * 1000 + i, r, 3, 'https://parent.example/');
      return { crawlId: ghost, url: c.url, host: c.host, site: c.host, state: 'queued', score: c.score, priority: c.priority, order: -(k * 1000 + i),
        depth: c.depth, parentUrl: c.parentUrl, anchor: c.anchor, context: c.context, attempts: 0, discoveredAt: 0, updatedAt: 0 };
    });
    let t = performance.now();
    await db.transaction('r', db.frontier, () => db.frontier.bulkGet(rows.map((e) => [ghost, e.url] as [number, string])));
    getMs.push(performance.now() - t);
    t = performance.now();
    await db.transaction('rw', db.frontier, () => db.frontier.bulkPut(rows));
    putMs.push(performance.now() - t);
  }
  await db.frontier.where('[crawlId+url]').between([ghost, Dexie.minKey], [ghost, Dexie.maxKey]).delete();
  return { getMs, putMs };
}

async function reclaim(name: string) {
  const { store, crawlId } = must(name);
  const t = performance.now();
  const n = (await store.frontier.reclaimInFlight(crawlId, Date.now())).requeued;
  return { n, ms: performance.now() - t };
}

/**
 * Runs the real CrawlRunner for `pages` pages on this database's crawl. A fresh database is first given
 * 10 seeds; links then lead to pre-filled URLs half of the time when there are any.
 */
async function crawl(name: string, pages: number, repeatShare = 0) {
  const b = must(name);
  const { db, crawlId } = b;
  const store = new TimedStore(db);
  const crawlRow = await store.getCrawl(crawlId);
  await store.updateCrawl(crawlId, {
    state: 'running', config: benchConfig(crawlRow!.stats.attempts + pages),
  });
  if (b.filled === 0 && crawlRow!.stats.attempts === 0) {
    const r = mulberry32(99);
    await store.frontier.enqueue(crawlId, Array.from({ length: 10 }, (_, i) => ({ ...candidate(1e9 + i, r, 0, null), priority: Number.MAX_VALUE })), Date.now());
  }
  const runner = new CrawlRunner({ store, fetch: syntheticSite(b.filled, 0.5, repeatShare), clock: realClock }, crawlId);
  const t = performance.now();
  const end = await runner.run();
  const ms = performance.now() - t;
  return {
    ms, state: end.state, message: end.message ?? '', fetched: end.stats.fetched, queued: end.stats.queued,
    takes: store.takes, commits: store.commits,
  };
}

/**
 * Re-scores every queued URL with a model that learned 2,000 labeled links (as after a retrain), while a
 * reader takes URLs as the crawl loop does: how long the whole pass takes, and how long a take waits meanwhile.
 */
async function rescore(name: string, chunk: number, duringCrawlPages = 0, paced = true) {
  const { store, crawlId } = must(name);
  const model = new LinkClassifier(KEYWORDS);
  // A different model for each pass, so that a second pass changes (nearly) every priority again.
  const r = mulberry32(777 + duringCrawlPages);
  for (let i = 0; i < 2000; i++) {
    const c = candidate(3e9 + i, r, 1, null);
    model.learn(c, KEYWORDS.some((k) => c.anchor.includes(k)) ? 1 : 0);
  }
  let done = false;
  const takes: number[] = [];
  // Either a bare reader taking URLs, or the real crawl loop running meanwhile.
  const crawling = duringCrawlPages > 0 ? crawl(name, duringCrawlPages) : null;
  const taker = (async () => {
    while (!done && !crawling) {
      const t = performance.now();
      const { entry } = await store.frontier.takeNext(crawlId, () => 0, Date.now());
      takes.push(performance.now() - t);
      if (entry) await store.frontier.reclaimInFlight(crawlId, Date.now());
    }
  })();
  const t = performance.now();
  const out = await store.frontier.rescoreQueued(crawlId, (e) => {
    const { logOdds, score } = model.rank(e);
    return { score, priority: logOdds };
  }, Date.now(), { chunk, epsilon: 0.01, pause: paced ? (ms) => realClock.sleep(ms).then(() => true) : undefined });
  const ms = performance.now() - t;
  done = true;
  await taker;
  const crawled = crawling ? await crawling : null;
  return { ...out, ms, takes, crawled };
}

/**
 * A seed list a user gives: `count` seeds to a new crawl in this database, in one enqueue, which packs all
 * but the first PACK_ABOVE (lib/store/seed-lists.ts); then `feeds` feeds of packed seeds into the frontier, as the
 * crawl asks for them. The seeds' frontier rows share the table with the URLs already filled.
 */
async function seedList(name: string, count: number, feeds: number) {
  const { db, store } = must(name);
  if (!('feed' in store.frontier)) return null; // a tree from before seed lists were packed (--before)
  const topic = await store.topics.createTopic(`seeds ${Date.now()}`, ['bench'], Date.now());
  const crawlId = await store.createCrawl(benchConfig(500), topic.id!, Date.now());
  const seeds: Candidate[] = Array.from({ length: count }, (_, k) => {
    const { url, host } = syntheticUrl(3e9 + k);
    return { url, host, score: 1, priority: Number.MAX_VALUE, depth: 0, parentUrl: null, anchor: '', context: '', strategy: { tunnel: 0 } };
  });
  const t = performance.now();
  await store.frontier.enqueue(crawlId, seeds, Date.now());
  const ms = performance.now() - t;
  const rows = await db.frontier.where('[crawlId+url]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).count();
  const fed: { ms: number; seeds: number }[] = [];
  for (let k = 0; k < feeds; k++) {
    const f = performance.now();
    const n = await store.frontier.feed(crawlId, Date.now());
    fed.push({ ms: performance.now() - f, seeds: n });
  }
  const crawl = (await store.getCrawl(crawlId))!;
  await store.deleteCrawl(crawlId);
  return { ms, frontierRows: rows, packedAtEnd: crawl.stats.packedSeeds ?? 0, queuedAtEnd: crawl.stats.queued, fed };
}

async function countQueued(name: string): Promise<number> {
  const { store, crawlId } = must(name);
  return store.frontier.countByState(crawlId, 'queued');
}

async function drop(name: string): Promise<void> {
  benches.get(name)?.db.close();
  benches.delete(name);
  await Dexie.delete(name);
}

async function estimate(): Promise<number> {
  return (await navigator.storage.estimate()).usage ?? 0;
}

function closeAll(): void {
  for (const b of benches.values()) b.db.close();
}

const api = { open, fill, takeProbe, takeFloor, crawlProbe, floor, takeLatency, raiseLatency, reclaim, crawl, rescore, seedList, countQueued, drop, estimate, closeAll };
export type FrontierBench = typeof api;
export type { TakeMode };
Object.assign(globalThis, { frontierBench: api });
