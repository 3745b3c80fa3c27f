// A generated tree site for stress runs: page i links to its BRANCH children and back to its parent, each page
// about astronomy, each answer delayed by a latency the test draws. It counts requests per page.
import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback';

export interface TreeSite {
  origin: string;
  size: number;
  /** Requests per page number. */
  hits: Map<number, number>;
  /** Sets the latency drawn for each answer, in ms. */
  setLatency(draw: () => number): void;
  close(): Promise<void>;
}

export async function startTreeSite(size = 150, branch = 3): Promise<TreeSite> {
  const hits = new Map<number, number>();
  let latency = () => 0;
  const server = createServer((req, res) => {
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (!m || Number(m[1]) >= size) return send(404, 'no such page');
    const i = Number(m[1]);
    hits.set(i, (hits.get(i) ?? 0) + 1);
    const kids = Array.from({ length: branch }, (_, k) => branch * i + 1 + k).filter((c) => c < size);
    const links = kids.map((c) => `<li><a href="/p/${c}">Astronomy notes ${c}: planets and telescopes</a></li>`).join('');
    const up = i > 0 ? `<a href="/p/${Math.floor((i - 1) / branch)}">up</a>` : '';
    setTimeout(() => send(200, `<!doctype html><title>Page ${i}</title><p>Astronomy page ${i} about planets.</p><ul>${links}</ul>${up}`), latency());
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, size, hits, setLatency: (draw) => (latency = draw), close };
}
