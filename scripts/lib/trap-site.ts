// Three sites for sparse tunneling (SPEC B): sky.test has four astronomy pages, each linking a calendar on
// cal.test whose "next month" goes on forever (a trap of irrelevant pages) and thirty items on junk.test, an
// endless off-topic listing. Served on one listener, dispatched on the Host header; it logs every request.
import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback';

const ASTRO = 'Astronomy, planets, telescopes and galaxies: observing the night sky with a telescope.';
const page = (title: string, body: string) => `<!doctype html><title>${title}</title><body><h1>${title}</h1>${body}</body>`;

export interface TrapSite {
  port: number;
  requests: { host: string; path: string }[];
  close(): Promise<void>;
}

export async function startTrapSite(): Promise<TrapSite> {
  const requests: TrapSite['requests'] = [];
  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    requests.push({ host, path });
    const send = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (path === '/robots.txt') return send('', 404);
    // sky.test: a few astronomy pages, each linking the calendar trap and a site of junk.
    if (host === 'sky.test') {
      const m = /^\/astro\/(\d)$/.exec(path);
      const n = path === '/' ? 0 : m ? Number(m[1]) : -1;
      if (n < 0 || n > 3) return send(page('Not found', ''), 404);
      const next = n < 3 ? `<a href="/astro/${n + 1}">More astronomy: planets and galaxies ${n + 1}</a>` : '';
      return send(page(`Astronomy ${n}`, `<p>${ASTRO}</p>${next} <a href="http://cal.test/month/1">Calendar</a>
        ${Array.from({ length: 30 }, (_, i) => `<a href="http://junk.test/item/${n}-${i}">Item ${i}</a>`).join(' ')}`));
    }
    // cal.test: "next month", forever, about nothing.
    if (host === 'cal.test') {
      const m = /^\/month\/(\d+)$/.exec(path);
      const n = Number(m?.[1] ?? 1);
      return send(page(`Month ${n}`, `<p>Opening hours and bin collection days for month ${n}.</p><a href="/month/${n + 1}">Next month</a>`));
    }
    // junk.test: endless off-topic listings, each linking ten more.
    if (host === 'junk.test') {
      return send(page('Sale', `<p>Shoes, socks and garden chairs on sale.</p>${Array.from({ length: 10 }, (_, i) => `<a href="/item${path.replace(/\W/g, '')}-${i}">Deal ${i}</a>`).join(' ')}`));
    }
    send(page('Not found', ''), 404);
  });
  const listening = await listenOnLoopback(server);
  return { port: Number(new URL(listening.origin).port), requests, close: listening.close };
}

