// Rendering's cost (`fetch.render`), through the real extension in Chromium, on sites served on loopback:
// - a static site (tests/fixtures/sites/tree-site.ts) crawled with `render: auto` and with `render: never`, the runs
//   alternated in one browser so both see the same machine: `auto` reads each page's HTML for signs of a script
//   shell and renders none here, so its speed should be that of `never`;
// - a site built by scripts (every page a shell, its script drawing the text and the links) crawled with
//   `render: auto` at 2 tabs: rendered pages per second, and the browser's memory (the proportional set size of all
//   its processes) sampled as the crawl goes, to tell whether it grows with the pages rendered.
// Prints figures; never fails on time. Alone:
//   npx tsx scripts/bench/render.ts [--static-pages 400] [--rounds 3] [--rendered-pages 300]
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { listenOnLoopback } from '../../tests/fixtures/sites/loopback';
import { startTreeSite } from '../../tests/fixtures/sites/tree-site';
import type { CrawlStatus } from '../../lib/protocol';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../lib/browser';
import { markdownTable } from './report';

export interface RenderFigures {
  /** Pages per second on the static site, one figure per round, in the order run. */
  staticAuto: number[];
  staticNever: number[];
  /** Pages `auto` rendered on the static site (should be none). */
  staticRendered: number;
  rendered: { pages: number; renderedPages: number; seconds: number; pagesPerSecond: number; memory: { pages: number; pssMiB: number }[] };
}

/** A site built by scripts: each page `/p/N` is the same shell; its script draws page N's text and links. */
async function startScriptTree(size: number, branch = 3) {
  const shell = '<!doctype html><html><head><title>Star atlas</title></head><body><div id="root"></div><script src="/atlas.js"></script></body></html>';
  const script = `
    const n = Number(location.pathname.split('/').pop());
    const root = document.getElementById('root');
    const h = document.createElement('h1'); h.textContent = 'Star atlas, chart ' + n; root.append(h);
    const p = document.createElement('p');
    p.textContent = 'Chart ' + n + ' of the star atlas: the constellations, bright stars and nebulae of this part of the night sky.';
    root.append(p);
    setTimeout(() => {
      const ul = document.createElement('ul');
      for (let k = 1; k <= ${branch}; k++) {
        const c = ${branch} * n + k;
        if (c >= ${size}) break;
        const li = document.createElement('li'); const a = document.createElement('a');
        a.href = '/p/' + c; a.textContent = 'Star chart ' + c; li.append(a); ul.append(li);
      }
      root.append(ul);
    }, 50);`;
  const server = createServer((req, res) => {
    if (req.url === '/atlas.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    if (!m || Number(m[1]) >= size) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no such chart');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shell);
  });
  return listenOnLoopback(server);
}

/** The proportional set size of the browser and all its processes, in MiB (Linux /proc). */
function browserPssMiB(profileDir: string): number {
  const parents = new Map<number, number>();
  let root: number | undefined;
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (root === undefined && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--user-data-dir=${profileDir}`)) root = pid;
    } catch {
      // the process ended meanwhile
    }
  }
  if (root === undefined) return NaN;
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parents) if (!tree.has(pid) && tree.has(ppid)) (tree.add(pid), (grew = true));
  }
  let kib = 0;
  for (const pid of tree) {
    try {
      kib += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return kib / 1024;
}

async function crawl(l: Launched, config: object, onProgress?: (fetched: number) => void): Promise<{ fetched: number; seconds: number; crawlId: number }> {
  const t0 = Date.now();
  const { crawlId } = await send<{ crawlId: number }>(l.page, 'start', config);
  for (;;) {
    const s = await send<CrawlStatus>(l.page, 'status', { crawlId });
    onProgress?.(s.crawl.stats.fetched);
    if (['finished', 'failed', 'stopped'].includes(s.crawl.state)) return { fetched: s.crawl.stats.fetched, seconds: (Date.now() - t0) / 1000, crawlId };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** How many of a crawl's pages were rendered, read from the extension's database. */
function renderedCount(l: Launched, crawlId: number): Promise<number> {
  return l.page.evaluate((id) => new Promise<number>((resolve, reject) => {
    const open = indexedDB.open('focus');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const all = open.result.transaction('pages').objectStore('pages').getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
      all.onsuccess = () => (open.result.close(), resolve((all.result as { render?: { rendered: boolean } }[]).filter((p) => p.render?.rendered).length));
    };
  }), crawlId);
}

export async function measureRender(o: { staticPages: number; rounds: number; renderedPages: number; log: (line: string) => void }): Promise<RenderFigures> {
  ensureBuilt(o.log);
  const tree = await startTreeSite(o.staticPages, 4);
  const atlas = await startScriptTree(o.renderedPages + 50);
  const l = await launchWithExtension();
  const figures: RenderFigures = { staticAuto: [], staticNever: [], staticRendered: 0, rendered: { pages: 0, renderedPages: 0, seconds: 0, pagesPerSecond: 0, memory: [] } };
  try {
    const base = { topic: { keywords: ['astronomy', 'planets', 'telescopes'] }, politeness: { delayMs: 0, concurrency: 4, robots: false } };
    // A first crawl, not counted, so the first measured one does not pay for the browser and the worker warming up.
    await crawl(l, { ...base, name: 'warm-up', seeds: [`${tree.origin}/p/0`], budget: { maxPages: Math.min(100, o.staticPages) }, fetch: { render: 'never' } });
    for (let round = 0; round < o.rounds; round++) {
      // Which mode goes first alternates, so a machine slowing down or warming up favours neither.
      const order: ('auto' | 'never')[] = round % 2 ? ['never', 'auto'] : ['auto', 'never'];
      for (const render of order) {
        const r = await crawl(l, { ...base, name: `static ${render} ${round}`, seeds: [`${tree.origin}/p/0`], budget: { maxPages: o.staticPages }, fetch: { render } });
        (render === 'auto' ? figures.staticAuto : figures.staticNever).push(r.fetched / r.seconds);
        if (render === 'auto') figures.staticRendered += await renderedCount(l, r.crawlId);
        o.log(`render bench: static site, render ${render}, round ${round + 1}: ${r.fetched} pages in ${r.seconds.toFixed(1)} s`);
      }
    }
    let sampled = 0;
    const memory = figures.rendered.memory;
    memory.push({ pages: 0, pssMiB: browserPssMiB(l.profileDir) });
    const r = await crawl(l, {
      name: 'rendered atlas', seeds: [`${atlas.origin}/p/0`], topic: { keywords: ['star', 'atlas', 'constellations'] },
      budget: { maxPages: o.renderedPages }, politeness: { delayMs: 0, concurrency: 2, robots: false }, fetch: { render: 'auto', renderTabs: 2 },
    }, (fetched) => {
      // Render tabs open and close all the time: sampled once a second, the figures are read as medians per stretch.
      if (Date.now() - sampled < 1000) return;
      sampled = Date.now();
      memory.push({ pages: fetched, pssMiB: browserPssMiB(l.profileDir) });
    });
    memory.push({ pages: r.fetched, pssMiB: browserPssMiB(l.profileDir) });
    figures.rendered = { pages: r.fetched, renderedPages: await renderedCount(l, r.crawlId), seconds: r.seconds, pagesPerSecond: r.fetched / r.seconds, memory };
    o.log(`render bench: script site, ${r.fetched} pages rendered in ${r.seconds.toFixed(1)} s`);
  } finally {
    await l.close();
    await tree.close();
    await atlas.close();
  }
  return figures;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function formatRender(f: RenderFigures): string {
  const auto = median(f.staticAuto);
  const never = median(f.staticNever);
  // The crawl in five stretches of pages, the browser's memory as the median of the samples taken in each.
  const stretches = Array.from({ length: 5 }, (_, i) => {
    const [from, to] = [(f.rendered.pages * i) / 5, (f.rendered.pages * (i + 1)) / 5];
    const inside = f.rendered.memory.filter((m) => m.pages > from && m.pages <= to).map((m) => m.pssMiB);
    return { from: Math.round(from), to: Math.round(to), pss: median(inside), samples: inside.length };
  });
  const first = stretches.find((x) => x.samples > 0)!;
  const last = stretches[stretches.length - 1]!;
  return [
    '## Rendering (fetch.render): a static site with auto and never, a script-built site at 2 tabs',
    '',
    markdownTable(['static site', 'pages/s per round', 'median'], [
      ['render: auto', f.staticAuto.map((x) => x.toFixed(1)).join(', '), auto.toFixed(1)],
      ['render: never', f.staticNever.map((x) => x.toFixed(1)).join(', '), never.toFixed(1)],
    ]),
    '',
    `auto / never on the static site: ${(auto / never).toFixed(3)} (pages auto rendered there: ${f.staticRendered})`,
    '',
    `Script-built site at 2 tabs: ${f.rendered.renderedPages} of ${f.rendered.pages} pages rendered in ${f.rendered.seconds.toFixed(1)} s, ` +
      `${f.rendered.pagesPerSecond.toFixed(2)} pages/s`,
    '',
    `browser PSS before the crawl: ${f.rendered.memory[0]!.pssMiB.toFixed(0)} MiB`,
    '',
    markdownTable(['pages crawled', 'browser PSS, median (MiB)', 'samples'], stretches.map((x) => [`${x.from + 1}-${x.to}`, x.pss.toFixed(0), String(x.samples)])),
    '',
    `browser memory, last stretch / first stretch: ${(last.pss / first.pss).toFixed(2)}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { 'static-pages': { type: 'string', default: '400' }, rounds: { type: 'string', default: '3' }, 'rendered-pages': { type: 'string', default: '300' } } });
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const figures = await measureRender({ staticPages: Number(values['static-pages']), rounds: Number(values.rounds), renderedPages: Number(values['rendered-pages']), log });
  console.log(formatRender(figures));
}
