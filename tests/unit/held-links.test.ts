// Links found again to a queued URL (classifier.everyLink) are held in memory while they move its rank by at most
// RANK_STEP, and written with the row's next write: fewer rows rewritten per page commit, the same counts in the row
// once written, and a killed worker loses only the held counts.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { urlLogOdds } from '../../lib/learning/link-classifier';
import { parseConfig } from '../../lib/app/parse-config';
import type { Candidate, PageCommit } from '../../lib/ports';
import type { CrawlRecord } from '../../lib/records/rows';
import { HELD_URLS, RANK_STEP, planUpserts, type HeldLinks } from '../../lib/run/commit-plan';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { FrontierEntry } from '../../lib/records/types';

const TARGET = 'http://w.test/target';
const identity = (_e: FrontierEntry, lo: number) => lo;
const link = (logOdds: number, from: string, url = TARGET): Candidate => ({
  url, host: 'w.test', score: 1 / (1 + Math.exp(-logOdds)), priority: logOdds, depth: 2, parentUrl: `http://w.test/${from}`, anchor: from, context: '', logOdds,
});
const crawl = () => ({ id: 1, nextOrder: 10 }) as CrawlRecord;
const queued = (inlinks: NonNullable<FrontierEntry['inlinks']>): FrontierEntry => ({
  crawlId: 1, url: TARGET, host: 'w.test', site: 'w.test', state: 'queued', score: 0.5, priority: urlLogOdds(inlinks), order: -1, depth: 2,
  parentUrl: 'http://w.test/hub', anchor: 'hub', context: '', attempts: 0, discoveredAt: 0, updatedAt: 0, inlinks,
});
/** A URL taken and being fetched, as a page's commit names it. */
const inflight = (url: string): FrontierEntry => ({
  crawlId: 1, url, host: 'w.test', site: 'w.test', state: 'inflight', score: 0.5, priority: 0, order: -1, depth: 1,
  parentUrl: null, anchor: '', context: '', attempts: 1, discoveredAt: 0, updatedAt: 0,
});

describe('links found again, held while they move a URL by less than a step', () => {
  it('writes the row only once the held links move it by more than RANK_STEP, with every link counted, and keeps it within a step meanwhile', () => {
    // A URL found by 20 links (best 5, mean 1): 40 more links of log-odds 1 + 8 steps move it by about four steps in
    // all, each by a fraction of a step.
    const logOdds = 1 + 8 * RANK_STEP;
    let row = queued({ n: 20, sum: 20, best: 5 });
    let exact = row; // the same links, each written as it comes (no store holding them)
    let held: HeldLinks | undefined;
    let writes = 0;
    for (let i = 0; i < 40; i++) {
      const puts: FrontierEntry[] = [], out = new Map<string, HeldLinks | null>();
      planUpserts(crawl(), [link(logOdds, `p${i}`)], [row], i, puts, identity, { held: [held], room: HELD_URLS, out });
      const each: FrontierEntry[] = [];
      planUpserts(crawl(), [link(logOdds, `p${i}`)], [exact], i, each, identity);
      exact = each[0]!;
      if (puts.length) {
        writes++;
        row = puts[0]!;
        expect(out.get(TARGET)).toBe(held ? null : undefined);
        held = undefined;
        // The row written counts every link found so far, as writing each would have.
        expect(row.inlinks!.n).toBe(exact.inlinks!.n);
        expect(row.inlinks!.sum).toBeCloseTo(exact.inlinks!.sum, 12);
        expect(row.priority).toBeCloseTo(exact.priority, 12);
      } else held = out.get(TARGET)!;
      expect(Math.abs(row.priority - exact.priority)).toBeLessThanOrEqual(RANK_STEP);
    }
    expect(exact.inlinks!.n).toBe(60);
    expect(writes).toBeGreaterThan(1);
    expect(writes).toBeLessThan(12); // 40 links, against 40 writes when each is written
  });

  it('writes at once a better link, a shallower one, and any link once the store holds as many URLs as it may', () => {
    const row = queued({ n: 20, sum: 20, best: 2 });
    const plan = (c: Candidate, room = HELD_URLS) => {
      const puts: FrontierEntry[] = [], out = new Map<string, HeldLinks | null>();
      planUpserts(crawl(), [c], [row], 1, puts, identity, { held: [undefined], room, out });
      return puts;
    };
    expect(plan(link(1.5, 'p'))).toEqual([]);
    expect(plan(link(2.5, 'better'))[0]!.anchor).toBe('better');
    expect(plan({ ...link(1.5, 'shallow'), depth: 1 })[0]!.depth).toBe(1);
    expect(plan(link(1.5, 'p'), 0)[0]!.inlinks!.n).toBe(21);
  });
});

describe('held links in the store', () => {
  const config = parseConfig({ name: 'held', seeds: ['http://w.test/'], topic: { keywords: ['moon'] } });
  const page = (n: number, children: Candidate[], everyLink = identity): PageCommit => {
    const url = `http://w.test/p${n}`;
    return {
      crawlId: 0, entry: inflight(url), outcome: 'done',
      page: { url, finalUrl: url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0, relevant: true, relevance: 1, title: '', textLength: 0,
        contentType: 'text/html', bytes: 0, truncated: false, linkCount: children.length, fetchedAt: n, durationMs: 0 },
      children, aliases: [], labels: [], site: 'w.test', stats: { fetched: 1 }, activeMs: 0, everyLink,
    };
  };

  it('loses only the held counts when the worker is killed: the row stays as last written, within a step of the exact rank', async () => {
    const db = new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const store = new CrawlStore(db);
    const crawlId = await store.createCrawl(config, 1, 0);
    const commit = (s: CrawlStore, n: number, children: Candidate[]) => s.commitPage({ ...page(n, children), crawlId }, n);
    await commit(store, 1, [link(2, 'p1')]);
    for (let n = 2; n <= 21; n++) await commit(store, n, [link(1, `p${n}`)]); // 21 links: best 2, mean ~1.05
    // Past the first few, each link moves it by less than a step: some are held, the row as last written within a step.
    const stored = (await store.frontier.getEntry(crawlId, TARGET))!;
    const exact = urlLogOdds({ n: 21, sum: 22, best: 2 });
    expect(stored.inlinks!.n).toBeLessThan(21);
    expect(Math.abs(stored.priority - exact)).toBeLessThanOrEqual(RANK_STEP);
    expect(store.held.size(crawlId)).toBe(1);
    // A new worker on the same database (the old one killed): what was held is lost; the next link counts from the row.
    const next = new CrawlStore(db);
    expect(next.held.size(crawlId)).toBe(0);
    await commit(next, 22, [link(2.5, 'p22')]); // a better link: written at once
    const after = (await next.frontier.getEntry(crawlId, TARGET))!;
    expect(after.inlinks).toEqual({ n: stored.inlinks!.n + 1, sum: stored.inlinks!.sum + 2.5, best: 2.5 });
    expect((await next.pages.pagesAfter(crawlId, 0, 100)).length).toBe(22); // every page committed is there
  });

  it('writes held links with the next write of the row, and forgets them once the URL is fetched', async () => {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const crawlId = await store.createCrawl(config, 1, 0);
    const commit = (n: number, children: Candidate[]) => store.commitPage({ ...page(n, children), crawlId }, n);
    await commit(1, [link(2, 'p1')]);
    for (let n = 2; n <= 21; n++) await commit(n, [link(1, `p${n}`)]);
    for (let n = 22; n <= 24; n++) await commit(n, [link(1.5, `p${n}`)]);
    expect(store.held.size(crawlId)).toBe(1);
    await commit(25, [link(3, 'p25')]); // a better link: the row is written, with every link held for it
    expect((await store.frontier.getEntry(crawlId, TARGET))!.inlinks!.n).toBe(25);
    expect(store.held.size(crawlId)).toBe(0);
    await commit(26, [link(1.5, 'p26')]);
    expect(store.held.size(crawlId)).toBe(1);
    // The target fetched: nothing is held for it any longer.
    await store.commitPage({ ...page(27, []), crawlId, entry: inflight(TARGET) }, 27);
    expect(store.held.size(crawlId)).toBe(0);
    expect((await store.frontier.getEntry(crawlId, TARGET))!.state).toBe('done');
  });
});
