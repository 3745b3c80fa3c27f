// The take by FIFO queues (design D.3, D.4), walked by each queue's heads by host, against a simple model:
// over random frontiers, random busy hosts and hosts allowed one to three fetches, each take returns exactly what
// walking every queued URL of each queue in order would, the queues tried in the strategy's order; after every kind
// of frontier write the heads the worker holds are each host's first queued URL in each queue, as a scan of the rows
// says. A ready host is found below any number of a busy host's URLs in its queue.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate, PageCommit } from '../../lib/ports';
import { mulberry32 } from '../../lib/records/random';
import { createStrategy } from '../../lib/strategies/registry';
import type { QueueLoad } from '../../lib/strategies/types';
import { CrawlStore } from '../../lib/store/crawl-store';
import { queueHeads } from '../../lib/store/queue-heads';
import type { FrontierEntry } from '../../lib/records/types';
import { freshStore, frontierRows, reopenedStore } from '../support/reopenable-store';

const config = parseConfig({ seeds: ['http://h0.s0.test/'], topic: { keywords: ['x'] }, strategy: { name: 'multi-queue' } });
const SITES = ['s0.test', 's1.test', 's2.test'];
const PRIORITIES = 5;

const fresh = freshStore;
const restarted = reopenedStore;
const rowsOf = frontierRows;

/** First in, first out: `order` is -(discovery sequence). */
const fifo = (a: FrontierEntry, b: FrontierEntry) => b.order - a.order;

/** Each host's first queued URL in each queue, by scanning every row: what the queue heads must say. */
async function scannedHeads(store: CrawlStore, crawlId: number): Promise<string[]> {
  const first = new Map<string, FrontierEntry>();
  for (const e of await rowsOf(store, crawlId)) {
    if (e.state !== 'queued') continue;
    const k = `${e.priority} ${e.site} ${e.host}`;
    const f = first.get(k);
    if (!f || fifo(e, f) < 0) first.set(k, e);
  }
  return [...first].map(([k, e]) => `${k} ${e.order}`).sort();
}

/**
 * The queue heads the worker holds (undefined: none held), checked to be in queue order, first in first, and each
 * head row it keeps to be the row as stored.
 */
async function heldHeads(store: CrawlStore, crawlId: number): Promise<string[] | undefined> {
  const list = queueHeads(store.db, crawlId);
  if (!list) return undefined;
  const held = Array.from({ length: list.size }, (_, i) => list.at(i)!);
  expect(held.every((h, i) => i === 0 || held[i - 1]!.pos[0] > h.pos[0] || (held[i - 1]!.pos[0] === h.pos[0] && held[i - 1]!.pos[1] > h.pos[1]))).toBe(true);
  for (const h of held) {
    const kept = list.row(h.key);
    if (kept) expect(kept).toEqual(await store.db.frontier.get([crawlId, kept.url]));
  }
  return held.map((h) => `${h.key} ${h.pos[1]}`).sort();
}

/** Politeness as the model sees it: a busy host waits `100 + i` ms; a ready one takes up to its slots. */
function hostsModel(r: () => number, hosts: string[]) {
  const slots = new Map(hosts.map((h, i) => [h, r() < 0.4 ? { busy: 100 + i, free: 0 } : { busy: 0, free: 1 + Math.floor(r() * 3) }]));
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

/**
 * The model's take: the queues with URLs queued, in `rank`'s order, re-ranked after each URL taken; in a queue, every
 * queued URL first in first, a URL due later passed, each asked in turn; a queue with none ready gives way to the next.
 */
function modelTake(rows: FrontierEntry[], rank: (q: QueueLoad[]) => QueueLoad[], reserve: (e: FrontierEntry) => number, now: number, max: number): string[] {
  const loads = new Map<number, QueueLoad>();
  for (const e of rows) {
    if (e.state !== 'queued' && e.state !== 'inflight') continue;
    const q = loads.get(e.priority) ?? { priority: e.priority, queued: 0, inFlight: 0 };
    loads.set(e.priority, q);
    if (e.state === 'queued') q.queued++;
    else q.inFlight++;
  }
  const queued = rows.filter((e) => e.state === 'queued').sort(fifo);
  const taken = new Set<string>();
  const nothingReady = new Set<number>();
  const out: string[] = [];
  while (out.length < max) {
    const open = [...loads.values()].filter((q) => q.queued > 0 && !nothingReady.has(q.priority)).map((q) => ({ ...q }));
    let found: FrontierEntry | undefined;
    for (const q of rank(open)) {
      found = queued.find((e) => e.priority === q.priority && !taken.has(e.url) && !(e.notBefore !== undefined && e.notBefore > now) && reserve(e) === 0);
      if (found) break;
      nothingReady.add(q.priority);
    }
    if (!found) break;
    taken.add(found.url);
    out.push(found.url);
    const q = loads.get(found.priority)!;
    q.queued--;
    q.inFlight++;
  }
  return out;
}

function randomCandidates(r: () => number, hosts: string[], n: number, known: string[], urlSeq: { next: number }): Candidate[] {
  return Array.from({ length: n }, () => {
    const again = known.length > 0 && r() < 0.3;
    const host = hosts[Math.floor(r() * hosts.length)]!;
    const url = again ? known[Math.floor(r() * known.length)]! : `http://${host}/${urlSeq.next++}`;
    const h = new URL(url).host;
    return { url, host: h, site: h.split('.').slice(1).join('.'), score: 0.5, priority: 1 + Math.floor(r() * PRIORITIES), depth: 1, parentUrl: null,
      anchor: '', context: '', ...(r() < 0.05 ? { skip: 'unsafe link' } : {}) };
  });
}

describe('take by FIFO queues, against walking every queued URL of each queue', () => {
  it('takes what the model takes, over many random frontiers, and keeps the queue heads exact through each kind of write', async () => {
    const weighed = createStrategy(config).next;
    if (weighed === 'priority') throw new Error('multi-queue takes by queues');
    for (let seed = 1; seed <= 30; seed++) {
      const r = mulberry32(seed);
      // Odd seeds: the strategy's weights (design D.3); even ones: a fixed order of the queues, highest first or not.
      const order = Array.from({ length: PRIORITIES }, () => r());
      const rank = seed % 2 ? weighed.rank : (qs: QueueLoad[]) => [...qs].sort((a, b) => order[a.priority - 1]! - order[b.priority - 1]!);
      const next = { kind: 'queues' as const, rank };
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
      const check = async (what: string) => {
        const held = await heldHeads(store, id);
        if (held) expect(held, `seed ${seed}, after ${what}`).toEqual(await scannedHeads(store, id));
      };
      let now = 10;
      const inflight: FrontierEntry[] = [];
      let held = 0;
      for (let round = 0; round < 10; round++) {
        now += 10;
        const model = hostsModel(r, hosts);
        const max = 1 + Math.floor(r() * 5);
        const expected = modelTake(await rowsOf(store, id), rank, model(), now, max);
        const { entries } = await store.frontier.take(id, model(), now, max, 2000, next);
        expect(entries.map((e) => e.url), `seed ${seed}, round ${round}`).toEqual(expected);
        inflight.push(...entries);
        if (queueHeads(store.db, id)) held++;
        await check('take');
        const op = Math.floor(r() * 7);
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
          await store.frontier.rescoreQueued(id, (e) => (r() < 0.5 ? null : { score: 0.5, priority: 1 + ((e.priority + Math.floor(r() * 3)) % PRIORITIES) }), now, { chunk: 7 });
          await check('a full re-score');
        } else if (op === 3) {
          const some = known.filter(() => r() < 0.2);
          await store.frontier.rescoreReached(id, { urls: some },
            () => (r() < 0.3 ? { score: 0, priority: 1, skip: 'off topic' } : { score: 0.5, priority: 1 + Math.floor(r() * PRIORITIES) }), now);
          await check('a re-score of reached URLs');
        } else if (op === 4) {
          await store.frontier.reclaimInFlight(id, now);
          inflight.length = 0;
          await check('a reclaim after a stopped worker');
        } else if (op === 5) {
          await store.setSiteBlacklisted(id, SITES[Math.floor(r() * SITES.length)]!, true, now);
          await check('a site blacklisted');
        } else {
          store = restarted(store);
          await store.frontier.reclaimInFlight(id, now);
          inflight.length = 0;
          await check('a restart and reclaim');
        }
      }
      // The heads were held, and compared, after most takes (the ones right after a reclaim build them again).
      expect(held, `seed ${seed}`).toBeGreaterThan(3);
      store.db.close();
    }
  });
});

describe('take by FIFO queues past a busy host', () => {
  const cand = (url: string, priority: number): Candidate => ({ url, host: new URL(url).host, score: 0.5, priority, depth: 1, parentUrl: null, anchor: '', context: '' });
  const byQueues = { kind: 'queues' as const, rank: (qs: QueueLoad[]) => [...qs].sort((a, b) => b.priority - a.priority) };
  const busyHost = (e: { host: string }) => (e.host === 'busy.test' ? 500 : 0);

  async function frontier() {
    const store = fresh();
    const id = await store.createCrawl(config, 1, 1);
    // One queue: 1,500 URLs of a busy host first in, then 5 of a ready one; a lower queue below it.
    await store.frontier.enqueue(id, Array.from({ length: 1500 }, (_, i) => cand(`http://busy.test/${i}`, 3)), 1);
    await store.frontier.enqueue(id, Array.from({ length: 5 }, (_, i) => cand(`http://ready.test/${i}`, 3)), 1);
    await store.frontier.enqueue(id, [cand('http://low.test/0', 1)], 1);
    return { store, id };
  }

  it('finds the ready host below 1,500 busy URLs in its queue, with a scan limit of 10', async () => {
    const { store, id } = await frontier();
    const { entries, waitMs } = await store.frontier.take(id, busyHost, 2, 3, 10, byQueues);
    // Its own queue's ready URLs, first in first, before the lower queue's.
    expect(entries.map((e) => e.url)).toEqual(['http://ready.test/0', 'http://ready.test/1', 'http://ready.test/2']);
    expect(waitMs).toBe(0);
    const next = await store.frontier.take(id, busyHost, 3, 4, 10, byQueues);
    expect(next.entries.map((e) => e.url)).toEqual(['http://ready.test/3', 'http://ready.test/4', 'http://low.test/0']);
    expect(next.waitMs).toBe(500);
    expect(next.waitingOn?.url).toBe('http://busy.test/0');
    // Once the host is free its URLs come, first in first, none lost.
    const later = await store.frontier.take(id, () => 0, 4, 2000, 2000, byQueues);
    expect(later.entries.map((e) => e.url)).toEqual(Array.from({ length: 1500 }, (_, i) => `http://busy.test/${i}`));
    expect((await store.getCrawl(id))!.stats.queued).toBe(0);
  });

  it('takes the row as stored, not as a take past the busy host read it: a version shown meanwhile is kept', async () => {
    const store = fresh();
    const id = await store.createCrawl(config, 1, 1);
    const thread = { ...cand('http://forum.test/thread/1', 3), revisit: '1' };
    await store.frontier.enqueue(id, [thread, cand('http://forum.test/2', 3), cand('http://other.test/1', 3)], 1);
    // The host is busy: the take passes it at its head in the queue, and the worker holds that row.
    expect((await store.frontier.take(id, (e) => (e.host === 'forum.test' ? 500 : 0), 2, 1, 2000, byQueues)).entries.map((e) => e.url))
      .toEqual(['http://other.test/1']);
    // The thread's link is seen again showing more replies: its row changes, its place in the queue does not.
    await store.frontier.enqueue(id, [{ ...thread, revisit: '2' }], 3);
    const [taken] = (await store.frontier.take(id, () => 0, 4, 1, 2000, byQueues)).entries;
    expect(taken).toMatchObject({ url: thread.url, revisit: '2' });
    expect(await store.frontier.getEntry(id, thread.url)).toMatchObject({ state: 'inflight', revisit: '2' });
  });
});
