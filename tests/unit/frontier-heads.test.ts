// The best-first take by host heads against a simple model: over random frontiers with random busy hosts
// and hosts allowed one to three fetches, each take returns exactly what walking every queued URL best first would,
// and after every kind of frontier write each host's head is its best queued position, as a scan of the rows says.
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate, PageCommit } from '../../lib/ports';
import { mulberry32 } from '../../lib/records/random';
import { CrawlStore } from '../../lib/store/crawl-store';
import { headList, HOST_INDEX } from '../../lib/store/host-heads';
import type { FrontierEntry } from '../../lib/records/types';
import { freshStore, frontierRows, reopenedStore } from '../support/reopenable-store';

const config = parseConfig({ seeds: ['http://h0.s0.test/'], topic: { keywords: ['x'] } });
const SITES = ['s0.test', 's1.test', 's2.test'];

const fresh = freshStore;
const restarted = reopenedStore;
const rowsOf = frontierRows;

const better = (a: FrontierEntry, b: FrontierEntry) => b.priority - a.priority || b.order - a.order;

/** Each host's best queued position, by scanning every row: what the heads must say. */
async function scannedHeads(store: CrawlStore, crawlId: number): Promise<string[]> {
  const best = new Map<string, FrontierEntry>();
  for (const e of await rowsOf(store, crawlId)) {
    if (e.state !== 'queued') continue;
    const k = `${e.site} ${e.host}`;
    const b = best.get(k);
    if (!b || better(e, b) < 0) best.set(k, e);
  }
  return [...best].map(([k, e]) => `${k} ${e.priority} ${e.order}`).sort();
}

async function storedHeads(store: CrawlStore, crawlId: number): Promise<string[]> {
  const rows = await store.db.hostHeads.where('[crawlId+site+host]').between([crawlId, Dexie.minKey, Dexie.minKey], [crawlId, Dexie.maxKey, Dexie.maxKey]).toArray();
  const stored = rows.map((h) => `${h.site} ${h.host} ${h.priority} ${h.order}`).sort();
  // The heads the worker holds in memory, when it holds them, are the stored ones, best first.
  const list = headList(store.db, crawlId);
  if (list) {
    const held = Array.from({ length: list.size }, (_, i) => list.at(i)!);
    expect(held.map((h) => `${h.key} ${h.pos[0]} ${h.pos[1]}`).sort()).toEqual(stored);
    expect(held.every((h, i) => i === 0 || held[i - 1]!.pos[0] > h.pos[0] || (held[i - 1]!.pos[0] === h.pos[0] && held[i - 1]!.pos[1] > h.pos[1]))).toBe(true);
    // The rows it holds of a host (a take passes a busy host by its head row, and takes a ready one's next URLs from
    // them) are that host's best queued rows as stored, in order, and all of them when it says so.
    const rows = await rowsOf(store, crawlId);
    for (const h of held) {
      const kept = list.queue(h.key);
      if (!kept) continue;
      const queued = rows.filter((e) => e.state === 'queued' && `${e.site} ${e.host}` === h.key).sort(better);
      expect(kept.rows).toEqual(queued.slice(0, kept.rows.length));
      if (kept.whole) expect(kept.rows.length).toBe(queued.length);
    }
  }
  return stored;
}

/** Politeness as the model sees it: a busy host waits `100 + i` ms; a ready one takes up to its slots. */
function hostsModel(r: () => number, hosts: string[]) {
  const slots = new Map(hosts.map((h, i) => [h, r() < 0.3 ? { busy: 100 + i, free: 0 } : { busy: 0, free: 1 + Math.floor(r() * 3) }]));
  return () => {
    const used = new Map<string, number>();
    return (e: FrontierEntry) => {
      const s = slots.get(e.host)!;
      if (s.busy) return s.busy;
      const n = used.get(e.host) ?? 0;
      if (n >= s.free) return Infinity;
      used.set(e.host, n + 1);
      return 0;
    };
  };
}

/** The model's take: every queued URL best first, a URL due later passed, each asked in turn until `max` are taken. */
function modelTake(rows: FrontierEntry[], reserve: (e: FrontierEntry) => number, now: number, max: number): string[] {
  const out: string[] = [];
  for (const e of rows.filter((x) => x.state === 'queued').sort(better)) {
    if (out.length >= max) break;
    if (e.notBefore !== undefined && e.notBefore > now) continue;
    if (reserve(e) === 0) out.push(e.url);
  }
  return out;
}

function randomCandidates(r: () => number, hosts: string[], n: number, known: string[], urlSeq: { next: number }): Candidate[] {
  return Array.from({ length: n }, () => {
    const again = known.length > 0 && r() < 0.3;
    const host = hosts[Math.floor(r() * hosts.length)]!;
    const url = again ? known[Math.floor(r() * known.length)]! : `http://${host}/${urlSeq.next++}`;
    const h = new URL(url).host;
    // Few distinct priorities, so that ties are broken by discovery order.
    const priority = Math.floor(r() * 6) - 2;
    return { url, host: h, site: h.split('.').slice(1).join('.'), score: 0.5, priority, depth: 1, parentUrl: null, anchor: '', context: '',
      ...(r() < 0.05 ? { skip: 'unsafe link' } : {}) };
  });
}

describe('take by host heads, against walking every queued URL', () => {
  it('takes what the model takes, over many random frontiers, and keeps every head exact through each kind of write', async () => {
    for (let seed = 1; seed <= 25; seed++) {
      const r = mulberry32(seed);
      let store = fresh();
      const id = await store.createCrawl(config, 1, 1);
      const hosts = Array.from({ length: 2 + Math.floor(r() * 9) }, (_, i) => `h${i}.${SITES[i % SITES.length]}`);
      const urlSeq = { next: 0 };
      const known: string[] = [];
      const enqueue = async (n: number) => {
        const cs = randomCandidates(r, hosts, n, known, urlSeq);
        await store.frontier.enqueue(id, cs, 1);
        for (const c of cs) known.push(c.url);
      };
      await enqueue(40 + Math.floor(r() * 160));
      const check = async (what: string) => expect(await storedHeads(store, id), `seed ${seed}, after ${what}`).toEqual(await scannedHeads(store, id));
      await check('enqueue');
      let now = 10;
      const inflight: FrontierEntry[] = [];
      for (let round = 0; round < 8; round++) {
        now += 10;
        const model = hostsModel(r, hosts);
        const max = 1 + Math.floor(r() * 5);
        const expected = modelTake(await rowsOf(store, id), model(), now, max);
        const { entries } = await store.frontier.take(id, model(), now, max);
        expect(entries.map((e) => e.url), `seed ${seed}, round ${round}`).toEqual(expected);
        inflight.push(...entries);
        await check('take');
        const op = Math.floor(r() * 8);
        if (op === 0) {
          await enqueue(5 + Math.floor(r() * 20));
          await check('enqueue of new and known URLs');
        } else if (op === 1 && inflight.length) {
          // A page commit: its entry done, retried (due later) or queued for a refresh; its links queued or raised.
          const entry = inflight.shift()!;
          const outcome = r() < 0.5 ? 'done' : 'retry';
          const children = randomCandidates(r, hosts, 5 + Math.floor(r() * 10), known, urlSeq);
          for (const c of children) known.push(c.url);
          const commit: PageCommit = {
            crawlId: id, entry: outcome === 'retry' ? { ...entry, notBefore: now + Math.floor(r() * 30) } : entry, outcome, children,
            aliases: [], labels: [], site: entry.site!, stats: {}, activeMs: 0, ...(outcome === 'done' && r() < 0.3 ? { requeueAt: now + 5 } : {}),
          };
          await store.commitPage(commit, now);
          await check(`a commit (${outcome})`);
        } else if (op === 2) {
          const shift = r() * 4 - 2;
          await store.frontier.rescoreQueued(id, (e) => (r() < 0.5 ? null : { score: 0.5, priority: e.priority + shift + r() }), now, { chunk: 7 });
          await check('a full re-score');
        } else if (op === 3) {
          const some = known.filter(() => r() < 0.2);
          await store.frontier.rescoreReached(id, { urls: some }, () => (r() < 0.3 ? { score: 0, priority: -9, skip: 'off topic' } : { score: 0.5, priority: r() * 8 - 4 }), now);
          await check('a re-score of reached URLs');
        } else if (op === 4) {
          await store.frontier.reclaimInFlight(id, now);
          inflight.length = 0;
          await check('a reclaim after a stopped worker');
        } else if (op === 5) {
          await store.setSiteBlacklisted(id, SITES[Math.floor(r() * SITES.length)]!, true, now);
          await check('a site blacklisted');
        } else if (op === 6) {
          // A stopped worker: a new one opens the database, reclaims what was in flight, and reads the heads again.
          store = restarted(store);
          await store.frontier.reclaimInFlight(id, now);
          inflight.length = 0;
          await check('a restart and reclaim');
        } else {
          await store.frontier.take(id, () => 0, now, 2, undefined, { kind: 'queues', rank: (q) => q });
          inflight.length = 0;
          await store.frontier.reclaimInFlight(id, now);
          await check('a take by queues');
        }
      }
      await store.deleteCrawl(id);
      expect(await store.db.hostHeads.count()).toBe(0);
      store.db.close();
    }
  });

  it('rebuilds heads a writer outside the store left out, when the crawl loop finds nothing to take', async () => {
    const store = fresh();
    const id = await store.createCrawl(config, 1, 1);
    await store.frontier.enqueue(id, [{ url: 'http://h0.s0.test/a', host: 'h0.s0.test', site: 's0.test', score: 0.5, priority: 1, depth: 1, parentUrl: null, anchor: '', context: '' }], 1);
    await store.db.hostHeads.clear();
    expect((await store.frontier.take(id, () => 0, 2, 1)).entries).toHaveLength(0);
    store.frontier.forgetBound(id);
    expect((await store.frontier.take(id, () => 0, 2, 1)).entries.map((e) => e.url)).toEqual(['http://h0.s0.test/a']);
  });

  it('takes a ready host\'s next URLs from the rows its last read gave, reading its queue once every few takes', async () => {
    const store = fresh();
    // Counts the reads of a host's queue (the index the take walks), as a slow round trip in the browser's database.
    let queueReads = 0;
    store.db.use({
      stack: 'dbcore', name: 'count-queue-reads',
      create: (down) => ({
        ...down,
        table(name) {
          const t = down.table(name);
          return { ...t, query: (req) => ((queueReads += Number(name === 'frontier' && req.query.index.name === HOST_INDEX)), t.query(req)) };
        },
      }),
    });
    const id = await store.createCrawl(config, 1, 1);
    // Two hosts whose URLs alternate in rank: best first, each take's URL comes from the other host than the last.
    const candidates: Candidate[] = Array.from({ length: 80 }, (_, i) => {
      const host = `h${i % 2}.s0.test`;
      return { url: `http://${host}/${i}`, host, site: 's0.test', score: 0.5, priority: 100 - i, depth: 1, parentUrl: null, anchor: '', context: '' };
    });
    await store.frontier.enqueue(id, candidates, 1);
    const model = modelTake(await rowsOf(store, id), () => 0, 2, 40);
    queueReads = 0;
    const taken: string[] = [];
    for (let i = 0; i < 40; i++) taken.push(...(await store.frontier.take(id, () => 0, 2, 1)).entries.map((e) => e.url));
    expect(taken).toEqual(model);
    // Each read gives a host's next eight URLs: 40 takes over two hosts read 10 times, where a read of the best host's
    // head (and the next host's, ahead) at every take read 80 times.
    expect(queueReads).toBeLessThanOrEqual(12);
    expect(await storedHeads(store, id)).toEqual(await scannedHeads(store, id));

    // Links found to those hosts, ranked among the rows held, above them and below them, and one raised: the rows held
    // follow the writes, and the takes after them read no queue until the rows held run out.
    const found: Candidate[] = [0, 1].flatMap((h) => [79.5, 40.5, 10.5, 200].map((priority, k) => ({
      url: `http://h${h}.s0.test/found-${k}`, host: `h${h}.s0.test`, site: 's0.test', score: 0.5, priority, depth: 1, parentUrl: null, anchor: '', context: '',
    })));
    const raised = { ...candidates[61]!, priority: 75.5 };
    await store.frontier.enqueue(id, [...found, raised], 3);
    const again = modelTake(await rowsOf(store, id), () => 0, 4, 6);
    queueReads = 0;
    const next: string[] = [];
    for (let i = 0; i < 6; i++) next.push(...(await store.frontier.take(id, () => 0, 4, 1)).entries.map((e) => e.url));
    expect(next).toEqual(again);
    expect(queueReads).toBe(0);
    expect(await storedHeads(store, id)).toEqual(await scannedHeads(store, id));
  });
});
