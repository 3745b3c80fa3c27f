// Whole multi-queue crawls of a loopback forum, in Node (design D): every thread page fetched, a thread's next
// page soon after the page linking it, board pages recorded as list pages, politeness that skips a waiting
// host, and a board refresh that queues again only the thread whose reply count changed. The server's own
// request log is what is checked.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { seedCandidates } from '../../lib/learning/children';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlRunner } from '../../lib/run/runner';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { buildCounts } from '../../lib/store/fifo-queues';
import { realClock } from '../../lib/net/fetcher';
import { forumConfig, startForumSite, type ForumSite } from '../fixtures/sites/forum-site';
import { loopbackFetch } from '../support/loopback-fetch';
import { VirtualClock } from '../support/virtual-clock';

let site: ForumSite | undefined;
afterEach(() => site?.close());

async function crawl(site: ForumSite, raw: Record<string, unknown>, clock?: VirtualClock) {
  const store = new CrawlStore(new CrawlerDB(`f${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const config = parseConfig(raw);
  const topic = await store.topics.createTopic(config.name, config.topic.keywords, Date.now());
  const crawlId = await store.createCrawl(config, topic.id!, Date.now());
  await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
  const runner = new CrawlRunner({ store, fetch: clock ? clock.hold(loopbackFetch(site.port)) : loopbackFetch(site.port), clock: clock ?? realClock }, crawlId);
  return { store, crawlId, runner };
}

const forumRequests = (s: ForumSite) => s.requests.filter((r) => r.host === 'forum.test' && r.path !== '/robots.txt').map((r) => r.path);

describe('multi-queue over a forum', () => {
  it('fetches every thread page, each soon after the page linking it, and records boards as list pages', async () => {
    site = await startForumSite();
    const { store, crawlId, runner } = await crawl(site, { ...forumConfig(), politeness: { delayMs: 0, concurrency: 2, perHost: 1 } });
    const done = await runner.run();
    expect(done.state).toBe('finished');
    const asked = forumRequests(site);
    expect(new Set(asked)).toEqual(new Set(['/', ...site.boardPages(), ...site.threadPages()]));
    expect(asked.length).toBe(new Set(asked).size);
    // Each member's profile once, though their rows on the boards show changing reply counts.
    const people = site.requests.filter((r) => r.host === 'people.test' && r.path !== '/robots.txt').map((r) => r.path);
    expect(people.length).toBe(site.shape.members);
    // Each thread's page k+1 is asked within a few forum requests of page k, which links it.
    const gaps = site.threadPages().filter((p) => p.includes('page=')).map((p) => {
      const k = Number(/page=(\d+)/.exec(p)![1]);
      const prev = k === 2 ? p.replace(/\?page=\d+/, '') : p.replace(/page=\d+/, `page=${k - 1}`);
      return asked.indexOf(p) - asked.indexOf(prev);
    });
    expect(Math.max(...gaps)).toBeLessThanOrEqual(3);
    // Boards are list pages: recorded with their class, not judged, not counted as content.
    const rows = await store.pages.pagesAfter(crawlId, 0, 1000);
    const boards = rows.filter((r) => /\/board\//.test(r.url));
    expect(boards.length).toBe(site.boardPages().length);
    expect(boards.every((r) => r.relevant === null)).toBe(true);
    expect(boards.map((r) => r.urlClass).sort()).toEqual([...Array(site.shape.boards).fill('list'), ...Array(boards.length - site.shape.boards).fill('pagination')]);
    const threads = rows.filter((r) => /\/thread\//.test(r.url));
    expect(new Set(threads.map((r) => r.urlClass))).toEqual(new Set(['content', 'content-return']));
    expect(threads.filter((r) => /page=/.test(r.url)).every((r) => r.priority === 5 && r.urlClass === 'content-return')).toBe(true);
    expect(done.stats.listPages).toBe(boards.length);
    expect(done.stats.fetched).toBe(rows.length - boards.length);
    // The crawl detail's queues: the last report of lengths and weights, and iFactor learned from the boards.
    expect(done.strategyReport).toMatchObject({ maxPriority: 5, listReads: boards.length });
    expect((done.strategyReport!.iFactor as number)).toBeGreaterThan(2);
    expect(done.queues).toEqual(await buildCounts(store.db, crawlId));
  });

  it('with perHost 1 and a delay, no host is asked twice within the delay, and the other host is served meanwhile', async () => {
    // The delays are waited out in virtual time; the server stamps its log with the same clock.
    const clock = new VirtualClock();
    site = await startForumSite({ boards: 1, boardPages: 2, threadsPerPage: 3, threadPages: 3, members: 12 }, () => clock.now());
    const delayMs = 150;
    const { runner } = await crawl(site, { ...forumConfig(), politeness: { delayMs, concurrency: 2, perHost: 1 } }, clock);
    const end = runner.run();
    await clock.runUntilIdle();
    expect((await end).state).toBe('finished');
    const log = site.requests.filter((r) => r.path !== '/robots.txt');
    for (const host of ['forum.test', 'people.test']) {
      const at = log.filter((r) => r.host === host).map((r) => r.at);
      for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!, host).toBeGreaterThanOrEqual(delayMs);
    }
    // Members' profiles (the lowest priorities) are fetched while the forum waits out its delay, not after it.
    const forum = log.filter((r) => r.host === 'forum.test');
    const lastForum = forum.at(-1)!.at;
    const people = log.filter((r) => r.host === 'people.test');
    expect(people.filter((r) => r.at < lastForum).length).toBeGreaterThanOrEqual(people.length / 2);
  });

  it('refreshes a board and queues again only the thread whose reply count changed', async () => {
    site = await startForumSite({ boards: 1, boardPages: 1, threadsPerPage: 3, threadPages: 1, members: 2 });
    // The board's refreshes, 0.6 s apart, come in virtual time.
    const clock = new VirtualClock();
    const { runner } = await crawl(site, {
      ...forumConfig('http://forum.test', { refreshMinutes: 0.01 }), budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 1, perHost: 1 },
    }, clock);
    const running = runner.run();
    const forumLife = (async () => {
      // After the first reading of the board and its threads, a reply arrives in thread 1-1-1.
      while (forumRequests(site).filter((p) => p.startsWith('/thread/')).length < 3) await clock.sleep(10);
      site.addReply('1-1-1');
      while (forumRequests(site).filter((p) => p === '/board/1').length < 4) await clock.sleep(10);
      runner.requestHalt('stopped', 'enough');
    })();
    await clock.runUntilIdle();
    await forumLife;
    await running;
    const asked = forumRequests(site);
    expect(asked.filter((p) => p === '/thread/1-1-1')).toHaveLength(2);
    expect(asked.filter((p) => p === '/thread/1-1-0')).toHaveLength(1);
    expect(asked.filter((p) => p === '/thread/1-1-2')).toHaveLength(1);
    // Each refresh asks with the board's ETag: a 304 while the board is as it was, the full board once after the reply.
    const refreshes = site.requests.filter((r) => r.host === 'forum.test' && r.path === '/board/1').slice(1);
    expect(refreshes.every((r) => r.conditional)).toBe(true);
    expect(refreshes.filter((r) => r.status === 200)).toHaveLength(1);
    expect(refreshes.filter((r) => r.status === 304).length).toBeGreaterThanOrEqual(2);
  });
});
