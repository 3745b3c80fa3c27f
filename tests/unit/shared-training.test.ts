// Training on a crawl shared by two browsers (each its own IndexedDB, each its own run) through the runner's
// loopback bridge and a real redis-server: each link source is requested once in total, the crawl takes nothing
// before training is over, and a worker that joins after training learns the labeled links without reading any.
// @module-tag redis
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { CrawlRunner } from '../../lib/run/runner';
import { parseConfig } from '../../lib/app/parse-config';
import { realClock } from '../../lib/net/fetcher';
import { httpBridge } from '../../lib/platform/shared-bridge';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { SharedRunStore } from '../../lib/store/shared/shared-store';
import { openBridge } from '../../lib/store/shared/bridge-server';
import { RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import { seedEntries } from '../../lib/app/shared-run';
import { useSharedRedis } from '../support/shared-redis';

const o = 'http://sky.test';
const page = (title: string, links: [string, string][]) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${links.map(([href, text]) => `<p><a href="${href}">${text}</a></p>`).join('')}</body></html>`;
const SITE: Record<string, string> = {
  '/start': page('Start', [['/pos/1', 'comets']]),
  // Hubs the user listed as link sources: their links to labeled pages are the training.
  '/hub/1': page('Sky guide', [['/pos/1', 'comet tails'], ['/neg/1', 'car park']]),
  '/hub/2': page('Night sky', [['/pos/2', 'meteor showers'], ['/neg/2', 'ticket prices']]),
  '/hub/3': page('Observing', [['/pos/3', 'asteroid belt'], ['/neg/1', 'parking fees']]),
  '/pos/1': page('Comets', []),
  '/pos/2': page('Meteors', []),
  '/pos/3': page('Asteroids', []),
  '/neg/1': page('Parking', []),
  '/neg/2': page('Tickets', []),
};
// Hubs, and a labeled page: the judge of every worker learns it, whichever read it.
const SOURCES = ['/hub/1', '/hub/2', '/hub/3', '/pos/2'].map((p) => o + p);
const config = parseConfig({
  name: 'sky', seeds: [`${o}/start`], topic: { keywords: ['comet'] },
  training: { linkSources: SOURCES, positive: [`${o}/pos/*`], negative: [`${o}/neg/*`] },
  budget: { maxPages: 2 }, politeness: { delayMs: 0, concurrency: 2, robots: false },
});
const params: CrawlParams = { maxPages: 2, perHost: 2, delayMs: 0, leaseMs: 30_000 };

describe('training on a shared crawl', () => {
  const shared = useSharedRedis();
  const bridges = shared.bridges;

  const requests: string[] = [];
  const fetch = async (url: string) => {
    const path = new URL(url).pathname;
    requests.push(path);
    await new Promise((r) => setTimeout(r, 30));
    const html = SITE[path];
    return html === undefined ? new Response('no', { status: 404 }) : new Response(html, { status: 200, headers: { 'content-type': 'text/html' } });
  };

  const worker = async (name: string, frontier: RedisFrontier) => {
    const local = new CrawlStore(new CrawlerDB(name, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const topic = await local.topics.createTopic('sky', ['comet'], Date.now());
    const crawlId = await local.createCrawl(config, topic.id!, Date.now());
    const bridge = await openBridge(frontier, name, params, () => undefined);
    bridges.push(bridge);
    const store = new SharedRunStore(local, httpBridge(bridge));
    return { local, crawlId, topicId: topic.id!, run: () => new CrawlRunner({ store, fetch, clock: realClock }, crawlId).run() };
  };
  const until = async (cond: () => Promise<boolean>) => {
    for (let i = 0; !(await cond()); i++) {
      if (i > 200) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const learned = async (w: Awaited<ReturnType<typeof worker>>) =>
    (await w.local.topics.allLabels(w.topicId)).filter((l) => l.source === 'auto').map((l) => `${l.url} ${l.anchor} ${l.label}`).sort();

  it('reads each link source once for the whole crawl, and every worker learns all their labeled links', async () => {
    const frontier = new RedisFrontier(shared.redis, 'sky');
    await frontier.join(JSON.stringify(config), seedEntries(config, Date.now()), config.training.linkSources);
    // Worker one alone first: the crawl is held (no take) so that worker two joins after training is over.
    await shared.redis.set(frontier.key('held'), '1');
    const one = await worker('one', frontier);
    const two = await worker('two', frontier);
    const third = await worker('three', frontier);
    expect((await frontier.status()).training).toBe(4);

    // Two workers train at once: the link sources are shared out between them, none is read twice.
    const runOne = one.run();
    const runThree = third.run();
    await until(async () => (await frontier.status()).training === 0);
    const runTwo = two.run();
    await until(async () => (await two.local.getCrawl(two.crawlId))!.state === 'running');
    await shared.redis.del(frontier.key('held'));
    const ends = await Promise.all([runOne, runTwo, runThree]);
    expect(ends.map((e) => e.state), JSON.stringify(ends.map((e) => [e.message, e.stats]))).toEqual(['finished', 'finished', 'finished']);

    for (const s of SOURCES) expect(requests.filter((p) => o + p === s), s).toHaveLength(1);
    // No crawl request before training was over.
    expect(requests.slice(0, 4).sort()).toEqual(['/hub/1', '/hub/2', '/hub/3', '/pos/2']);
    expect(requests.filter((p) => p === '/start')).toHaveLength(1);

    const all = [
      `${o}/neg/1 car park 0`, `${o}/neg/1 parking fees 0`, `${o}/neg/2 ticket prices 0`,
      `${o}/pos/1 comet tails 1`, `${o}/pos/2 meteor showers 1`, `${o}/pos/3 asteroid belt 1`,
    ];
    expect(await learned(one)).toEqual(all);
    expect(await learned(two)).toEqual(all); // joined after training, read no link source
    expect(await learned(third)).toEqual(all);
    // The same counts (Naive Bayes counts are sums), whatever order each worker learned the links in.
    const models = await Promise.all([one, two, third].map(async (w) => counts((await w.local.topics.getModel(w.topicId))!.link)));
    expect(models[1]).toEqual(models[0]);
    expect(models[2]).toEqual(models[0]);
    // The page judge too: each learned the labeled link source once, though one worker read it.
    const judges = await Promise.all([one, two, third].map(async (w) => counts((await w.local.topics.getModel(w.topicId))!.judge)));
    expect(judges.map((j) => (j as { pos: number }).pos)).toEqual([1, 1, 1]);
    expect(judges[1]).toEqual(judges[0]);
    expect(judges[2]).toEqual(judges[0]);
  });

  it("retakes a link source whose reader died (its claim lapsed), and publishes a second read's links only once", async () => {
    const frontier = new RedisFrontier(shared.redis, 'claims');
    const urls = ['http://a.test/links'];
    await frontier.join(JSON.stringify({ name: 'claims' }), [], urls);
    expect(await frontier.claimLinkSource('dead', urls, 300)).toEqual({ url: urls[0], done: false });
    expect(await frontier.claimLinkSource('alive', urls, 300)).toEqual({ url: null, done: false }); // another reads it
    expect((await frontier.take('alive', 4, params)).taken).toEqual([]); // still training
    await new Promise((r) => setTimeout(r, 400)); // the dead worker renews nothing
    expect(await frontier.claimLinkSource('alive', urls, 300)).toEqual({ url: urls[0], done: false });
    const label = { url: 'http://a.test/x', anchor: 'x', context: '', label: 1 as const, source: 'auto' as const, createdAt: 1 };
    expect(await frontier.linkSourceRead('alive', urls[0]!, [label])).toBe('ok');
    expect(await frontier.linkSourceRead('dead', urls[0]!, [label])).toBe('dup'); // it came back after all: not twice
    expect(await frontier.claimLinkSource('late', urls, 300)).toEqual({ url: null, done: true });
    expect((await frontier.labelsAfter('late', 0)).labels).toEqual([label]);
    expect((await frontier.status()).training).toBe(0);
  });
});

/** A model's JSON with its tables of counts in one order. */
function counts(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(counts);
    return items.every(Array.isArray) ? items.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : items;
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, counts(x)]));
  return v;
}
