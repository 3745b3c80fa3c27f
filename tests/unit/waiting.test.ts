// "Fetching now" when nothing is in flight: the crawl row says what the crawl waits for (a host's politeness
// delay, a server's Retry-After), and says nothing once the crawl ends.
import { createServer, type Server } from 'node:http';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { waitingText } from '../../lib/ui/format';
import { VirtualClock } from '../support/virtual-clock';

let server: Server;
let origin: string;
let busyOnce = true;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    if (req.url === '/busy' && busyOnce) {
      busyOnce = false;
      return res.writeHead(503, { 'retry-after': '2' }).end();
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<title>astronomy ${req.url}</title><p>astronomy planets</p>${req.url === '/' ? '<a href="/a">astronomy a</a> <a href="/busy">astronomy busy</a>' : ''}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('says what an idle crawl waits for: the politeness delay, then the server\'s Retry-After', async () => {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const clock = new VirtualClock();
  const service = new CrawlService({ store, fetch: clock.hold((u, i) => fetch(u, i)), clock });
  const { crawlId } = await service.handlers.start({
    seeds: [`${origin}/`], topic: { keywords: ['astronomy'] }, budget: { maxPages: 5 },
    politeness: { delayMs: 700, concurrency: 1, perHost: 1 }, fetch: { retryBaseMs: 1000 },
  });
  const seen = new Set<string>();
  const watch = (async () => {
    while (!['finished', 'failed', 'paused'].includes((await store.getCrawl(crawlId))!.state)) {
      const c = (await store.getCrawl(crawlId))!;
      if (c.waiting) seen.add(waitingText(c));
      await clock.sleep(20);
    }
  })();
  await clock.runUntilIdle();
  await watch;
  const texts = [...seen].join('\n');
  expect(texts).toMatch(/^Waiting for the politeness delay for 127\.0\.0\.1:\d+ \(0\.7 s between requests\)/m);
  expect(texts).toMatch(/^Waiting for 127\.0\.0\.1:\d+: HTTP 503.*asked again in 2 s/m);
  const done = (await store.getCrawl(crawlId))!;
  expect(done.state).toBe('finished');
  expect(waitingText(done)).toBe('Nothing right now.');
});

it('says a short wait to tenths of a second, and a long one in whole seconds', () => {
  const waiting = (ms: number) => waitingText({ state: 'running', waiting: { text: 'the politeness delay for a.test (1.5 s between requests)', until: 10_000 + ms } }, 10_000);
  expect(waiting(1_500)).toBe('Waiting for the politeness delay for a.test (1.5 s between requests), about 1.5 s more.');
  expect(waiting(420)).toMatch(/, about 0\.5 s more\.$/);
  expect(waiting(65_200)).toMatch(/, about 1 min 6 s more\.$/);
  expect(waiting(0)).toBe('Waiting for the politeness delay for a.test (1.5 s between requests).');
});
