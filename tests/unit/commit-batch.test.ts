// Pages committed together (CrawlStore.commitPages, the crawl's group commit) are planned from one read of every
// page's rows, each page from the rows as the pages before it leave them, and written at once. Two stores run the same
// random crawl, one committing each page in its own transaction and one committing the same pages in batches: after
// every step both databases hold the same rows (frontier, heads, pages, bodies, labels, sites, graph, the crawl's
// counters), through links found by several pages of a batch, retries, aliases, admission by queued counts and a site
// its strategy closes in the middle of a batch.
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { Admission, Candidate, PageCommit } from '../../lib/ports';
import { mulberry32 } from '../../lib/records/random';
import { CrawlStore } from '../../lib/store/crawl-store';
import { isBodyPack } from '../../lib/store/body-packs';
import { unpack } from '../../lib/store/label-packs';
import { CrawlerDB } from '../../lib/store/db';
import type { FrontierEntry } from '../../lib/records/types';
import { frontierRows } from '../support/reopenable-store';

const config = parseConfig({ seeds: ['http://h0.s0.test/'], topic: { keywords: ['x'] } });
const HOSTS = ['h0.s0.test', 'h1.s1.test', 'h2.s2.test', 'h3.s0.test', 'h4.s3.test'];

const open = (name: string) => new CrawlStore(new CrawlerDB(name, { indexedDB: new IDBFactory(), IDBKeyRange }));

function links(r: () => number, n: number): Candidate[] {
  return Array.from({ length: n }, () => {
    const host = HOSTS[Math.floor(r() * HOSTS.length)]!;
    const url = `http://${host}/${Math.floor(r() * 30)}`;
    const logOdds = Math.round((r() * 6 - 3) * 100) / 100;
    return { url, host, site: host.split('.').slice(1).join('.'), score: 0.5, priority: logOdds, depth: 1 + Math.floor(r() * 3), parentUrl: 'http://h0.s0.test/',
      anchor: `a${Math.floor(r() * 5)}`, context: 'c', logOdds, ...(r() < 0.04 ? { skip: 'unsafe link' } : {}) };
  });
}

const rerank = (_e: FrontierEntry, logOdds: number) => logOdds;

/** A strategy that admits at most 12 queued URLs a site and closes a site after 3 fetched pages with none relevant. */
const admission: Admission = {
  strategy: {
    admit: (v) => (v.queued >= 12 ? 'site quota' : null),
    judgeSite: (v) => (v.fetched >= 3 && v.relevant === 0 ? 'no relevant page in 3' : null),
  },
  siteBlacklist: ['s3.test'],
};

const range = (id: number) => [[id, Dexie.minKey], [id, Dexie.maxKey]] as const;

/** Everything a crawl's commits write, in key order, without the times that only say when. */
async function contents(s: CrawlStore, id: number) {
  const db = s.db;
  const [lo, hi] = range(id);
  const crawl = await s.getCrawl(id);
  return {
    frontier: await frontierRows(s, id),
    heads: await db.hostHeads.where('[crawlId+site+host]').between([id, Dexie.minKey, Dexie.minKey], [id, Dexie.maxKey, Dexie.maxKey]).toArray(),
    pages: await db.pages.where('[crawlId+seq]').between(lo, hi).toArray(),
    // Stored a commit's worth to a row (body-packs.ts): the same bodies in the same order, packed apart.
    bodies: (await db.bodies.where('[crawlId+seq]').between(lo, hi).toArray()).flatMap((r) => (isBodyPack(r) ? r.pack : [r])),
    // Packed a commit's worth to a row (label-packs.ts): the same labels in the same order, packed apart.
    labels: (await db.labels.filter((l) => l.crawlId === id).toArray()).flatMap(unpack).map(({ id: _, ...l }) => l),
    pageLabels: (await db.pageLabels.where('[crawlId+seq]').between(lo, hi).toArray()).map(({ id: _, ...l }) => l),
    sites: await db.sites.where('[crawlId+site]').between(lo, hi).toArray(),
    graph: await db.graph.where('[crawlId+seq]').between(lo, hi).toArray(),
    crawl: { stats: crawl!.stats, nextSeq: crawl!.nextSeq, nextOrder: crawl!.nextOrder, dropped: crawl!.dropped, queues: crawl!.queues, activeMs: crawl!.activeMs },
  };
}

describe('pages committed together', () => {
  it('leave the database as the same pages committed one by one', async () => {
    let batches = 0, flushes = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const r = mulberry32(seed);
      const name = `cb${seed}-${Math.random()}`;
      const one = open(`${name}a`);
      const many = open(`${name}b`);
      const both = async <T>(f: (s: CrawlStore) => Promise<T>) => [await f(one), await f(many)] as const;
      const [id] = await both((s) => s.createCrawl(config, 1, 1));
      await both((s) => s.frontier.enqueue(id!, links(mulberry32(seed * 7), 25), 1));
      const admits = seed % 2 === 0; // half the crawls admit by counts and close sites: those read what earlier pages wrote
      let now = 10;
      for (let round = 0; round < 25; round++) {
        now += 10;
        const s = Math.floor(r() * 1e9);
        const [taken] = await both(async (st) => (await st.frontier.take(id!, () => 0, now, 1 + (s % 6))).entries);
        if (taken.length === 0) break;
        const rr = mulberry32(s);
        const commits: PageCommit[] = taken.map((entry, i) => {
          const outcome = rr() < 0.8 ? 'done' : 'retry';
          const relevant = rr() < 0.4;
          const page = outcome === 'done';
          return {
            crawlId: id!, entry: outcome === 'retry' ? { ...entry, notBefore: now + 5 } : entry, outcome,
            // Pages of one batch link the same URLs, and a page links the one before it in the batch.
            children: [...links(rr, 3 + Math.floor(rr() * 10)), ...(i > 0 ? links(mulberry32(s + 1), 3) : [])],
            aliases: rr() < 0.15 ? [`http://${entry.host}/${Math.floor(rr() * 30)}`] : [],
            labels: rr() < 0.3 ? [{ url: entry.url, anchor: 'x', context: 'y', label: relevant ? 1 : 0, source: 'verdict', createdAt: now }] : [],
            site: entry.site!, stats: page ? { fetched: 1, relevant: relevant ? 1 : 0, attempts: 1 } : { attempts: 1 }, activeMs: now,
            ...(page ? { page: { url: entry.url, finalUrl: entry.url, status: 200, phase: 'crawl' as const, depth: entry.depth, parentUrl: entry.parentUrl, score: entry.score,
              relevant, relevance: relevant ? 0.9 : 0.1, title: `t ${entry.url}`, textLength: 10, contentType: 'text/html', bytes: 10, truncated: false,
              linkCount: 3, fetchedAt: now, durationMs: 1, outcome: 'done' as const }, body: { headers: {}, html: `<p>${entry.url}</p>` } } : {}),
            ...(page && relevant ? { outlinks: [`http://h0.s0.test/${i}`] } : {}),
            ...(page && rr() < 0.5 ? { verdict: relevant ? 1 as const : 0 as const, learnLinksToJudged: 2 } : {}),
            ...(rr() < 0.7 ? { everyLink: rerank } : {}),
            ...(admits ? { admission } : {}),
            dropped: rr() < 0.2 ? { 'off scope': 1 } : ({} as Record<string, number>),
          };
        });
        const [seqsOne, seqsMany] = [[] as number[], [] as number[]];
        for (const c of commits) seqsOne.push(await one.commitPage(c, now));
        const split = 1 + Math.floor(rr() * commits.length);
        for (const part of [commits.slice(0, split), commits.slice(split)]) if (part.length) seqsMany.push(...(await many.commitPages(part, now)));
        if (split > 1) batches++;
        if (admits && split > 1) flushes++;
        expect(seqsMany, `seed ${seed}, round ${round}: seqs`).toEqual(seqsOne);
        const [a, b] = await both((st) => contents(st, id!));
        expect(b, `seed ${seed}, round ${round}`).toEqual(a);
        // The links the stores hold in memory for queued URLs are the same too.
        expect(many.held.size(id!), `seed ${seed}, round ${round}: held links`).toBe(one.held.size(id!));
      }
      one.db.close();
      many.db.close();
    }
    expect(batches).toBeGreaterThan(30);
    expect(flushes).toBeGreaterThan(10);
  });
});
