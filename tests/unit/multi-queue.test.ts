// Design D in parts: URL classes and priorities, next-page and reply-count recognition, the queues' weights, and
// the frontier's take by FIFO queues (heaviest first, a busy host passed over, lengths counted not scanned).
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { compilePatterns } from '../../lib/records/patterns';
import { parseHtml } from '../../lib/parse/html';
import { createStrategy as strategyOf, strategyProblem } from '../../lib/strategies/registry';
import { linkClass, linkPriority, pageClass } from '../../lib/strategies/multi-queue/classes';
import { rankQueues } from '../../lib/strategies/multi-queue/weights';
import { multiQueueStrategy } from '../../lib/strategies/multi-queue';
import type { QueueLoad } from '../../lib/strategies/types';
import { CrawlStore } from '../../lib/store/crawl-store';
import type { Candidate } from '../../lib/ports';
import { CrawlerDB } from '../../lib/store/db';
import { buildCounts } from '../../lib/store/fifo-queues';
import type { FrontierEntry } from '../../lib/records/types';

const patterns = { listPages: compilePatterns(['https://f.example/board/*']), contentPages: compilePatterns(['https://f.example/thread/*']) };

describe('URL classes and priorities (design D.1, D.2)', () => {
  it('classes a page by its pattern, else by the link it was queued by', () => {
    expect(pageClass('https://f.example/board/2?page=3', {}, patterns)).toBe('list');
    expect(pageClass('https://f.example/thread/9', {}, patterns)).toBe('content');
    expect(pageClass('https://f.example/about', { strategy: { urlClass: 'pagination' } }, patterns)).toBe('pagination');
    expect(pageClass('https://f.example/thread/9?page=2', { strategy: { urlClass: 'content-return' } }, patterns)).toBe('content-return');
    expect(pageClass('https://f.example/thread/9', { strategy: { urlClass: 'list' } }, patterns)).toBe('content');
    expect(pageClass('https://f.example/about', {}, patterns)).toBe('other');
  });

  it("classes links: a content page's pager and attachments return to it, a list page's pager is its pagination", () => {
    expect(linkClass({ url: 'https://f.example/thread/9?page=2', pagination: 'next' }, 'content', patterns)).toBe('content-return');
    expect(linkClass({ url: 'https://f.example/thread/9?page=3', pagination: 'page' }, 'content-return', patterns)).toBe('content-return');
    expect(linkClass({ url: 'https://f.example/files/plan.pdf' }, 'content', patterns)).toBe('content-return');
    expect(linkClass({ url: 'https://f.example/board/2?page=2', pagination: 'next' }, 'list', patterns)).toBe('pagination');
    expect(linkClass({ url: 'https://f.example/thread/9' }, 'list', patterns)).toBe('content');
    expect(linkClass({ url: 'https://f.example/board/3' }, 'content', patterns)).toBe('list');
    // A pager on a page of neither kind is classed like any link (design D.2 keeps the priority only on list pages).
    expect(linkClass({ url: 'https://f.example/news?p=2', pagination: 'next' }, 'other', patterns)).toBe('other');
    expect(linkClass({ url: 'https://elsewhere.example/' }, 'list', patterns)).toBe('other');
  });

  it('gives content-return links the maximum, pagination its page\'s priority, others one less, never below 1', () => {
    expect(linkPriority('content-return', 2, 5)).toBe(5);
    expect(linkPriority('pagination', 4, 5)).toBe(4);
    expect(linkPriority('content', 4, 5)).toBe(3);
    expect(linkPriority('other', 1, 5)).toBe(1);
    expect(linkPriority('list', 5, 5)).toBe(4);
  });

  it('plans links through the strategy, with the reply count of a list page\'s thread link as its version', () => {
    const s = multiQueueStrategy({ listPages: ['https://f.example/board/*'], contentPages: ['https://f.example/thread/*'] });
    const parent = (url: string, priority: number) => ({ entry: { priority } as FrontierEntry, relevant: false, url, text: '' });
    const link = { anchor: '', logOdds: 0, score: 0.5, depth: 1 };
    expect(s.plan({ ...link, url: 'https://f.example/thread/9', replies: 12 }, parent('https://f.example/board/1', 4)))
      .toEqual({ priority: 3, state: { urlClass: 'content' }, revisit: '12' });
    // The author's link in the same row shows the same count: not a version of the author's page.
    expect(s.plan({ ...link, url: 'https://people.example/u/3', replies: 12 }, parent('https://f.example/board/1', 4)))
      .toEqual({ priority: 3, state: { urlClass: 'other' } });
    expect(s.plan({ ...link, url: 'https://f.example/thread/9?page=2', pagination: 'next' }, parent('https://f.example/thread/9', 3)))
      .toEqual({ priority: 5, state: { urlClass: 'content-return' } });
    expect(s.seedPriority()).toBe(5);
    expect(s.pageRole!({ strategy: {} } as FrontierEntry, 'https://f.example/board/1')).toEqual({ urlClass: 'list', listing: true, refreshInMs: 3_600_000 });
    expect(s.pageRole!({ strategy: { urlClass: 'content-return' } } as FrontierEntry, 'https://f.example/x')).toEqual({ urlClass: 'content-return', listing: false });
  });

  it('validates its parameters, patterns included', () => {
    expect(strategyProblem({ name: 'multi-queue', listPages: ['https://f.example/board/*'], maxPriority: 6, startPriority: 4 })).toBeNull();
    expect(strategyProblem({ name: 'multi-queue', listPages: 'https://f.example/board/*' })).toMatch(/strategy\.listPages .* list of URL patterns/);
    expect(strategyProblem({ name: 'multi-queue', startPriority: 7 })).toMatch(/startPriority .* must not exceed/);
    const config = parseConfig({ seeds: ['https://f.example/'], topic: { keywords: ['t'] }, strategy: { name: 'multi-queue', contentPages: ['https://f.example/t/*'] } });
    expect(config.strategy).toMatchObject({ name: 'multi-queue', maxPriority: 5, iFactor: 2, listPages: [], contentPages: ['https://f.example/t/*'] });
    expect(strategyOf(config).next).toMatchObject({ kind: 'queues' });
  });
});

describe('next-page and reply-count recognition, without configuration', () => {
  const linksOf = (body: string) => parseHtml(`<!doctype html><body>${body}</body>`, 'https://f.example/t/1').links;

  it('recognises rel=next and the usual next words, and the numbered pages beside them', () => {
    for (const word of ['Next', 'next page', '›', '»', '下一页', '下页', 'Next »']) {
      const links = linksOf(`<p><a href="/t/1">1</a> <b>2</b> <a href="/t/1?page=3">3</a> <a href="/t/1?page=3">${word}</a></p><p><a href="/about">About</a></p>`);
      expect(links.map((l) => l.pagination), word).toEqual(['page', 'page', 'next', undefined]);
    }
    expect(linksOf('<a rel="next" href="/t/1?page=2">Continue reading</a>')[0]!.pagination).toBe('next');
  });

  it('does not take a row of numbers without a next link for a pager (a thread list\'s per-thread pages)', () => {
    const links = linksOf('<li><a href="/t/5">Thread five</a> [<a href="/t/5?page=2">2</a> <a href="/t/5?page=3">3</a>]</li><p>Visited 3 times</p>');
    expect(links.map((l) => l.pagination)).toEqual([undefined, undefined, undefined]);
  });

  it("reads the reply count from the link's row, in English and Chinese, and none when the row is ambiguous", () => {
    const links = linksOf(`<table>
      <tr><td><a href="/t/1">Mirrors</a></td><td>by <a href="/u/1">ann</a></td><td>12 replies</td><td>340 views</td></tr>
      <tr><td><a href="/t/2">镜片</a></td><td>回复: 7</td></tr>
      <tr><td><a href="/t/3">Eyepieces</a></td><td>3 replies, 5 comments</td></tr>
      <tr><td><a href="/t/4">No count here</a></td><td>340 views</td></tr></table>`);
    expect(links.map((l) => l.replies)).toEqual([12, 12, 7, undefined, undefined]);
  });
});

describe('queue weights (design D.3)', () => {
  it('weighs w_i = len_i / iFactor^(max - v_i), divided by the fetches in flight plus one, heaviest first', () => {
    const ranked = rankQueues([{ priority: 5, queued: 1, inFlight: 0 }, { priority: 3, queued: 12, inFlight: 0 }, { priority: 4, queued: 2, inFlight: 1 }], 5, 2);
    expect(ranked.map((q) => [q.priority, q.weight])).toEqual([[3, 3], [5, 1], [4, 0.5]]);
    // Equal weights: the higher priority first.
    expect(rankQueues([{ priority: 4, queued: 2, inFlight: 0 }, { priority: 5, queued: 1, inFlight: 0 }], 5, 2).map((q) => q.priority)).toEqual([5, 4]);
  });

  it('favours high priorities without starving low ones', () => {
    // 200 URLs at priority 1 and a steady inflow at 5 (one new URL for each one taken): the low queue still gets turns.
    let q: QueueLoad[] = [{ priority: 5, queued: 5, inFlight: 0 }, { priority: 1, queued: 200, inFlight: 0 }];
    const taken: number[] = [];
    for (let i = 0; i < 400; i++) {
      const first = rankQueues(q.filter((x) => x.queued > 0), 5, 2)[0]!;
      taken.push(first.priority);
      q = q.map((x) => (x.priority === first.priority ? { ...x, queued: x.queued - 1 } : x));
      if (first.priority === 5) q = q.map((x) => (x.priority === 5 ? { ...x, queued: x.queued + 1 } : x));
    }
    const low = taken.filter((p) => p === 1).length;
    expect(taken.filter((p) => p === 5).length).toBeGreaterThan(low); // high first...
    expect(low).toBeGreaterThan(10); // ...and the low queue is served all the same
  });

  it('learns iFactor from the new links list pages show', () => {
    const s = multiQueueStrategy({ refreshMinutes: 1 });
    expect(s.report!()).toMatchObject({ iFactor: 2, listReads: 0 });
    const role = { urlClass: 'list' as const, listing: true, refreshInMs: 60_000 };
    s.afterPage!({ url: 'https://f.example/b', text: '', relevant: false, links: ['a', 'b', 'c', 'd', 'e', 'f'], role });
    expect(s.report!()).toMatchObject({ iFactor: 6, listReads: 1 });
    s.afterPage!({ url: 'https://f.example/b', text: '', relevant: false, links: ['a', 'b', 'c', 'd', 'e', 'g', 'h'], role });
    expect(s.report!()).toMatchObject({ iFactor: 4, listReads: 2 }); // (6 + 2) / 2
    // A new worker picks up the learned iFactor; a list page it has not read since is not counted (a refresh
    // would look like a first reading).
    const again = multiQueueStrategy({ refreshMinutes: 1 });
    again.restore!({ graph: [], saved: s.save!() });
    expect(again.report!()).toMatchObject({ iFactor: 4, listReads: 2 });
    again.afterPage!({ url: 'https://f.example/b', text: '', relevant: false, links: ['a', 'b', 'c', 'd', 'e', 'g', 'h', 'i'], role });
    expect(again.report!()).toMatchObject({ iFactor: 4, listReads: 2 });
    again.afterPage!({ url: 'https://f.example/b', text: '', relevant: false, links: ['a', 'b', 'c', 'd', 'e', 'g', 'h', 'i', 'j', 'k'], role });
    expect(again.report!()).toMatchObject({ iFactor: 10 / 3, listReads: 3 });
  });
});

// ---- the frontier taken by queues ----

const store = () => new CrawlStore(new CrawlerDB(`mq${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
const cand = (url: string, priority: number): Candidate => ({ url, host: new URL(url).host, score: 0.5, priority, depth: 1, parentUrl: null, anchor: '', context: '' });

async function crawlWith(s: CrawlStore, candidates: Candidate[]) {
  const config = parseConfig({ seeds: ['https://a.example/'], topic: { keywords: ['t'] }, strategy: { name: 'multi-queue' } });
  const topic = await s.topics.createTopic('t', ['t'], 1);
  const crawlId = await s.createCrawl(config, topic.id!, 1);
  await s.frontier.enqueue(crawlId, candidates, 1);
  return { crawlId, next: strategyOf(config).next };
}

/** Takes one URL at a time, every host ready unless listed busy; returns the URLs in the order taken. */
async function drain(s: CrawlStore, crawlId: number, next: ReturnType<typeof strategyOf>['next'], busy: string[] = [], max = 100): Promise<string[]> {
  const order: string[] = [];
  for (let i = 0; i < max; i++) {
    const { entries } = await s.frontier.take(crawlId, (e) => (busy.includes(e.host) ? 1000 : 0), 2, 1, 2000, next);
    if (!entries.length) break;
    order.push(entries[0]!.url);
  }
  return order;
}

describe('the frontier taken by FIFO queues', () => {
  it('takes the heaviest queue first and each queue first in, first out', async () => {
    const s = store();
    const { crawlId, next } = await crawlWith(s, [
      cand('https://a.example/low-1', 3), cand('https://a.example/low-2', 3), cand('https://a.example/low-3', 3),
      cand('https://a.example/low-4', 3), cand('https://a.example/low-5', 3), cand('https://a.example/top-1', 5), cand('https://a.example/top-2', 5),
    ]);
    // iFactor 2, max 5: w5 = 2, w3 = 5/4. Top first; then w5 = 1 < 1.25: the low queue; then 1 vs 1: the top again.
    expect(await drain(s, crawlId, next)).toEqual([
      'https://a.example/top-1', 'https://a.example/low-1', 'https://a.example/top-2',
      'https://a.example/low-2', 'https://a.example/low-3', 'https://a.example/low-4', 'https://a.example/low-5',
    ]);
  });

  it("passes over a busy host's URL for the next in its queue, then for the next queue, and never returns nothing while a host is ready", async () => {
    const s = store();
    const { crawlId, next } = await crawlWith(s, [
      cand('https://busy.example/1', 5), cand('https://busy.example/2', 5), cand('https://free.example/1', 5),
      cand('https://busy.example/3', 2), cand('https://free.example/2', 2),
    ]);
    expect(await drain(s, crawlId, next, ['busy.example'])).toEqual(['https://free.example/1', 'https://free.example/2']);
    // What is left is the busy host's, in its queues' order, once it is ready.
    expect(await drain(s, crawlId, next)).toEqual(['https://busy.example/1', 'https://busy.example/2', 'https://busy.example/3']);
  });

  it('keeps the queue lengths equal to what the frontier holds, through takes, retries, refreshes and a reclaim', async () => {
    const s = store();
    const { crawlId, next } = await crawlWith(s, Array.from({ length: 30 }, (_, i) => cand(`https://a.example/${i}`, 1 + (i % 5))));
    const counted = async () => (await s.getCrawl(crawlId))!.queues;
    const truth = () => buildCounts(s.db, crawlId);
    const { entries } = await s.frontier.take(crawlId, () => 0, 2, 4, 2000, next);
    expect(await counted()).toEqual(await truth());
    const [a, b, c] = entries as [FrontierEntry, FrontierEntry, FrontierEntry, FrontierEntry];
    const base = { crawlId, aliases: [], labels: [], site: 'a.example', activeMs: 0 };
    await s.commitPages([
      { ...base, entry: a, outcome: 'done', children: [cand('https://a.example/new', 4), cand('https://a.example/7', 5)], stats: { attempts: 1, fetched: 1 } },
      { ...base, entry: { ...b, notBefore: 10 }, outcome: 'retry', children: [], stats: {} },
      { ...base, entry: c, outcome: 'done', requeueAt: 50, children: [], stats: { attempts: 1, listPages: 1 } },
    ], 3);
    expect(await counted()).toEqual(await truth());
    await s.frontier.reclaimInFlight(crawlId, 4);
    expect(await counted()).toEqual(await truth());
    const crawl = (await s.getCrawl(crawlId))!;
    expect(Object.values(crawl.queues!).reduce((n, q) => n + q.queued, 0)).toBe(crawl.stats.queued);
    expect(crawl.stats.queued).toBe(await s.frontier.countByState(crawlId, 'queued'));
  });

  it('queues a fetched thread again only when the reply count its link shows has changed (design D.5)', async () => {
    const s = store();
    const thread = { ...cand('https://a.example/thread/1', 3), revisit: '4' };
    const { crawlId, next } = await crawlWith(s, [thread]);
    const [entry] = (await s.frontier.take(crawlId, () => 0, 2, 1, 2000, next)).entries;
    await s.commitPage({ crawlId, entry: entry!, outcome: 'done', aliases: [], labels: [], site: 'a.example', activeMs: 0, children: [], stats: { fetched: 1 } }, 3);
    await s.frontier.enqueue(crawlId, [{ ...thread, revisit: '4' }], 4);
    expect((await s.frontier.getEntry(crawlId, thread.url))!.state).toBe('done');
    await s.frontier.enqueue(crawlId, [{ ...thread, revisit: '5' }], 5);
    expect((await s.frontier.getEntry(crawlId, thread.url))).toMatchObject({ state: 'queued', revisit: '5' });
    expect((await s.getCrawl(crawlId))!.queues).toEqual(await buildCounts(s.db, crawlId));
  });
});
