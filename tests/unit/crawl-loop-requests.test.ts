// The crawl loop keeps `politeness.concurrency` requests in flight: a page whose response is in no longer holds a
// request slot while it is judged and written, so a slow store does not stop the next requests from going out.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { seedCandidates } from '../../lib/learning/children';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlRunner } from '../../lib/run/runner';
import { realClock, type FetchPort } from '../../lib/net/fetcher';
import type { PageCommit } from '../../lib/ports';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';

const ORIGIN = 'http://site.test';

/** A store whose page commits wait while `hold` is set, or `delayMs` each: a disk (or IndexedDB) slower than the network. */
class SlowStore extends CrawlStore {
  hold: Promise<void> | null = null;
  delayMs = 0;
  commitsStarted = 0;
  override async commitPages(commits: PageCommit[], now: number) {
    this.commitsStarted++;
    if (this.hold) await this.hold;
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    return super.commitPages(commits, now);
  }
}

/** Page i links pages 10i+1 .. 10i+10; every response is held until the test releases it. */
function heldSite() {
  const requested: string[] = [];
  const waiting: (() => void)[] = [];
  const fetchPort: FetchPort = async (url) => {
    requested.push(url);
    await new Promise<void>((r) => waiting.push(r));
    const i = Number(new URL(url).pathname.slice(1));
    const links = Array.from({ length: 10 }, (_, k) => `<a href="/${10 * i + k + 1}">page ${10 * i + k + 1}</a>`).join(' ');
    return new Response(`<!doctype html><title>page ${i}</title><p>astronomy telescopes</p>${links}`, { headers: { 'content-type': 'text/html' } });
  };
  return { fetchPort, requested, answerOne: () => waiting.shift()?.(), pending: () => waiting.length };
}

async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('the crawl loop', () => {
  it('sends the next requests while earlier pages are still being written', async () => {
    const store = new SlowStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const config = parseConfig({
      name: 'slots', seeds: [`${ORIGIN}/0`], topic: { keywords: ['astronomy'] }, budget: { maxPages: 12 },
      politeness: { delayMs: 0, concurrency: 2, perHost: 2, robots: false },
    });
    const topic = await store.topics.createTopic('slots', ['astronomy'], Date.now());
    const crawlId = await store.createCrawl(config, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    const site = heldSite();
    const run = new CrawlRunner({ store, fetch: site.fetchPort, clock: realClock }, crawlId).run();

    // The seed's page is written; its ten links are queued.
    await until(() => site.pending() === 1, 'the seed request');
    site.answerOne();
    await until(() => site.pending() === 2, 'two requests in flight');

    // From here the store is slow: nothing is written until the test says so.
    let release!: () => void;
    store.hold = new Promise<void>((r) => (release = r));
    const commitsBefore = store.commitsStarted;
    site.answerOne();
    await until(() => store.commitsStarted > commitsBefore, 'the first held commit');
    // The answered page waits on the store; its request slot is free, so a third request goes out meanwhile.
    await until(() => site.pending() === 2, 'a request in place of the answered one');
    expect(site.requested).toHaveLength(4);

    // Pages past their request are bounded too: with every write held, the loop stops at 2 x concurrency pages
    // after the seed's, however fast the answers come.
    for (let i = 0; i < 6; i++) {
      site.answerOne();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(site.requested).toHaveLength(1 + 2 * 2);
    expect(site.pending()).toBe(0);

    release();
    store.hold = null;
    const answering = setInterval(() => site.answerOne(), 2);
    const end = await run;
    clearInterval(answering);
    expect(end.state).toBe('finished');
    expect(new Set(site.requested).size).toBe(site.requested.length);
    expect(site.requested).toHaveLength(12);
  });

  /** Page i links pages 10i+1 .. 10i+10, answered after 0-15 ms; `inFlight` counts requests not yet answered. */
  function liveSite() {
    const requested: string[] = [];
    let inFlight = 0;
    const fetchPort: FetchPort = async (url) => {
      requested.push(url);
      inFlight++;
      await new Promise((r) => setTimeout(r, Math.random() * 15));
      inFlight--;
      const i = Number(new URL(url).pathname.slice(1));
      const links = Array.from({ length: 10 }, (_, k) => `<a href="/${10 * i + k + 1}">page ${10 * i + k + 1}</a>`).join(' ');
      return new Response(`<!doctype html><title>page ${i}</title><p>astronomy telescopes</p>${links}`, { headers: { 'content-type': 'text/html' } });
    };
    return { fetchPort, requested, inFlight: () => inFlight };
  }

  async function slowCrawl(maxPages: number) {
    const store = new SlowStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    store.delayMs = 10;
    const config = parseConfig({
      name: 'eight', seeds: [`${ORIGIN}/0`], topic: { keywords: ['astronomy'] }, budget: { maxPages },
      politeness: { delayMs: 0, concurrency: 8, perHost: 8, robots: false },
    });
    const topic = await store.topics.createTopic('eight', ['astronomy'], Date.now());
    const crawlId = await store.createCrawl(config, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    const site = liveSite();
    const runner = new CrawlRunner({ store, fetch: site.fetchPort, clock: realClock }, crawlId);
    return { store, crawlId, site, runner };
  }

  it('spends the budget exactly at concurrency 8, however slow the store', async () => {
    const { store, crawlId, site, runner } = await slowCrawl(60);
    const end = await runner.run();
    expect(end.state).toBe('finished');
    expect(end.message).toMatch(/budget/);
    expect(site.requested).toHaveLength(60);
    expect(new Set(site.requested).size).toBe(60);
    expect(end.stats.attempts).toBe(60);
    expect(await store.frontier.countByState(crawlId, 'inflight')).toBe(0);
  });

  it('leaves no request running when stopped, starts none after, and keeps every untried URL queued', async () => {
    const { store, crawlId, site, runner } = await slowCrawl(1000);
    const run = runner.run();
    await until(() => site.requested.length >= 30, '30 requests');
    runner.requestHalt('stopped', 'stopped by you');
    const end = await run;
    expect(end.state).toBe('stopped');
    expect(site.inFlight()).toBe(0);
    const made = site.requested.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(site.requested).toHaveLength(made);
    // Every request made is counted, and no URL is left in flight for a resume to reclaim.
    expect(end.stats.attempts).toBe(made);
    expect(await store.frontier.countByState(crawlId, 'inflight')).toBe(0);
    expect(end.stats.queued).toBe(await store.frontier.countByState(crawlId, 'queued'));
  });
});
