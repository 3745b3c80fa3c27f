// The user's own browsing does not run Focus: with no crawl running, a tab that loads a page of many requests does not
// wake the extension's worker (its webRequest listeners are on only while its own requests are). And a crawl whose
// very first request is a redirect still sees where it goes: the listeners are on before that request leaves.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, launchWithExtension } from '../../scripts/lib/browser';

let server: Server;
let origin = '';
const requested: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/gallery') {
      res.setHeader('content-type', 'text/html');
      res.end(`<html><body><h1>Gallery</h1>${Array.from({ length: 30 }, (_, i) => `<img src="/img/${i}.png">`).join('')}</body></html>`);
    } else if (req.url?.startsWith('/img/')) {
      res.setHeader('content-type', 'image/png');
      res.end('not really a png');
    } else if (req.url === '/moved') {
      res.writeHead(301, { location: '/telescopes' });
      res.end();
    } else if (req.url === '/telescopes') {
      res.setHeader('content-type', 'text/html');
      res.end('<html><head><title>Telescopes</title></head><body><p>Reflecting telescopes and the planets they show.</p></body></html>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('does not wake its worker for the requests of a page the user opens while no crawl runs', async () => {
  const b = await launchWithExtension();
  try {
    const tab = await b.context.newPage();
    await tab.goto('about:blank');
    const cdp = await b.context.newCDPSession(tab);
    const ours = `chrome-extension://${b.extensionId}/`;
    const statuses: string[] = [];
    cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { scriptURL: string; runningStatus: string }[] }) => {
      for (const v of e.versions) if (v.scriptURL.startsWith(ours)) statuses.push(v.runningStatus);
    });
    await cdp.send('ServiceWorker.enable');
    // Stopped, and still stopped a second later (a worker stopped while it starts up is started again).
    await expect.poll(async () => {
      if (statuses.at(-1) !== 'stopped') await cdp.send('ServiceWorker.stopAllWorkers');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return statuses.at(-1);
    }, { interval: 0 }).toBe('stopped');
    statuses.length = 0;

    requested.length = 0;
    await tab.goto(`${origin}/gallery`);
    await tab.waitForLoadState('load');
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a worker woken by an event starts within this
    expect(requested.filter((u) => u.startsWith('/img/'))).toHaveLength(30);
    expect(statuses).toEqual([]);
  } finally {
    await b.close();
  }
});

it('sees the redirect of a crawl\'s first request', async () => {
  requested.length = 0;
  const out = mkdtempSync(join(tmpdir(), 'focus-out-'));
  await runCrawl({
    config: {
      name: 'first request redirects', seeds: [`${origin}/moved`], topic: { keywords: ['telescope', 'planet'] },
      budget: { maxPages: 5 }, politeness: { delayMs: 0, robots: false },
    },
    out, log: () => {},
  });
  const pages = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { finalUrl: string; status: number });
  expect(pages.map((p) => [new URL(p.finalUrl).pathname, p.status])).toEqual([['/telescopes', 200]]);
  expect(requested).toEqual(['/moved', '/telescopes']);
});
