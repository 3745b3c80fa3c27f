// Rendering's cost (`fetch.render`), through the real extension in Chromium, on sites served on loopback:
// - a static site (tests/fixtures/sites/tree-site.ts) crawled with `render: auto` and with `render: never`, the runs
//   alternated in one browser so both see the same machine: `auto` reads each page's HTML for signs of a script
//   shell and renders none here, so its speed should be that of `never`;
// - a site built by scripts (every page a shell, its script drawing the text and the links) crawled with
//   `render: auto` at 2 tabs (and 2 requests per host, so both tabs are used on its one host): rendered pages per
//   second, and the browser's memory (the proportional set size and the resident set of all its processes) at the
//   start, every 200 pages and the end, to tell whether it grows with the pages rendered; then the tabs left open
//   once the crawl has finished (none should be) and the memory once the render window has closed;
// - a mixed site with `always` and `auto`, rendered pages a second at 2 and 4 tabs, and what a growing page's steps
//   cost (render-kinds.ts).
// Prints figures; never fails on time. Alone:
//   npx tsx scripts/bench/render.ts [--static-pages 400] [--rounds 5] [--rendered-pages 1000] [--mixed-copies 10]
//     [--tab-pages 100] [--tab-rounds 4] [--growth-runs 2]
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { listenOnLoopback } from '../../tests/fixtures/sites/loopback';
import { startTreeSite } from '../../tests/fixtures/sites/tree-site';
import type { CrawlStatus } from '../../lib/app/protocol';
import { ensureBuilt, launchWithExtension, type Launched } from '../lib/browser';
import { markdownTable } from './report';
import {
  crawlToEnd as crawl, formatGrowth, formatMixed, formatSigns, formatTabs, measureGrowth, measureMixed, measureSigns, measureTabs, pageRows,
  type GrowthRun, type MixedFigures, type TabRound,
} from './render-kinds';

export interface RenderFigures {
  /** Pages per second on the static site, one figure per round, in the order run. */
  staticAuto: number[];
  staticNever: number[];
  /** Pages `auto` rendered on the static site (should be none). */
  staticRendered: number;
  rendered: {
    pages: number; renderedPages: number; seconds: number; pagesPerSecond: number;
    /** Sampled once a second while the crawl runs. */
    memory: Memory[];
    /** At the start, each time another 200 pages were crawled, and at the end. */
    marks: Memory[];
    /** Tabs of the script site still open once the crawl had finished; and once the render window had been idle. */
    tabsLeft: number;
    idle?: { tabsLeft: number; windowTabs: number; memory: Memory };
  };
  mixed?: MixedFigures;
  tabs: TabRound[];
  growth: GrowthRun[];
}

interface Memory {
  pages: number;
  pssMiB: number;
  rssMiB: number;
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

/**
 * The proportional set size and the resident set of the browser and all its processes, in MiB (Linux /proc). PSS
 * shares a page among the processes that map it; RSS counts it in each, so it overstates a multi-process browser.
 */
function browserMemory(profileDir: string, pages: number): Memory {
  const parents = new Map<number, number>();
  // Every process of the browser names the profile on its command line (some of its children too): the browser is the
  // one whose parent does not. Pids wrap around on a long run, so the first one listed need not be it.
  const named = new Set<number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`--user-data-dir=${profileDir}`)) named.add(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  const root = [...named].find((pid) => !named.has(parents.get(pid) ?? -1));
  if (root === undefined) return { pages, pssMiB: NaN, rssMiB: NaN };
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parents) if (!tree.has(pid) && tree.has(ppid)) (tree.add(pid), (grew = true));
  }
  let pss = 0;
  let rss = 0;
  for (const pid of tree) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return { pages, pssMiB: pss / 1024, rssMiB: rss / 1024 };
}

/** How many of a crawl's pages were rendered, read from the extension's database. */
const renderedCount = async (l: Launched, crawlId: number) => (await pageRows(l, crawlId)).filter((p) => p.render?.rendered).length;

export interface RenderBench {
  staticPages: number;
  rounds: number;
  renderedPages: number;
  /** Copies of the mixed site's sections (0: no mixed site). */
  mixedCopies: number;
  /** Pages of each round at 2 and 4 tabs, and the rounds (0: none). */
  tabPages: number;
  tabRounds: number;
  /** Runs of each growing page (0: none). */
  growthRuns: number;
  log: (line: string) => void;
}

export async function measureRender(o: RenderBench): Promise<RenderFigures> {
  ensureBuilt(o.log);
  const tree = await startTreeSite(o.staticPages, 4);
  const atlas = await startScriptTree(Math.max(o.renderedPages, o.tabPages) + 50);
  const l = await launchWithExtension();
  const figures: RenderFigures = {
    staticAuto: [], staticNever: [], staticRendered: 0,
    rendered: { pages: 0, renderedPages: 0, seconds: 0, pagesPerSecond: 0, memory: [], marks: [], tabsLeft: 0 },
    tabs: [], growth: [],
  };
  try {
    const base = { topic: { keywords: ['astronomy', 'planets', 'telescopes'] }, politeness: { delayMs: 0, concurrency: 4, robots: false } };
    // A first crawl, not counted, so the first measured one does not pay for the browser and the worker warming up.
    if (o.rounds > 0) await crawl(l, { ...base, name: 'warm-up', seeds: [`${tree.origin}/p/0`], budget: { maxPages: Math.min(100, o.staticPages) }, fetch: { render: 'never' } });
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
    if (o.mixedCopies > 0) figures.mixed = await measureMixed(l, o.mixedCopies, o.log);
    if (o.tabRounds > 0 && o.tabPages > 0) figures.tabs = await measureTabs(l, atlas.origin, o.tabPages, o.tabRounds, o.log);
    if (o.growthRuns > 0) figures.growth = await measureGrowth(l, o.growthRuns, o.log);
    if (o.renderedPages === 0) return figures;
    const pagesAtStart = l.context.pages().length;
    let sampled = 0;
    const { memory, marks } = figures.rendered;
    marks.push(browserMemory(l.profileDir, 0));
    const r = await crawl(l, {
      name: 'rendered atlas', seeds: [`${atlas.origin}/p/0`], topic: { keywords: ['star', 'atlas', 'constellations'] },
      budget: { maxPages: o.renderedPages }, politeness: { delayMs: 0, concurrency: 2, perHost: 2, robots: false }, fetch: { render: 'auto', renderTabs: 2 },
    }, (fetched) => {
      if (fetched >= (marks.length) * MARK_EVERY) marks.push(browserMemory(l.profileDir, fetched));
      // Render tabs open and close all the time: sampled once a second too, the figures are read as medians per stretch.
      if (Date.now() - sampled < 1000) return;
      sampled = Date.now();
      memory.push(browserMemory(l.profileDir, fetched));
    });
    if (marks[marks.length - 1]!.pages !== r.fetched) marks.push(browserMemory(l.profileDir, r.fetched));
    const atlasTabs = () => l.context.pages().filter((p) => p.url().startsWith(atlas.origin)).length;
    const tabsLeft = atlasTabs();
    Object.assign(figures.rendered, { pages: r.fetched, renderedPages: await renderedCount(l, r.crawlId), seconds: r.seconds, pagesPerSecond: r.fetched / r.seconds, tabsLeft });
    o.log(`render bench: script site, ${r.fetched} pages rendered in ${r.seconds.toFixed(1)} s, ${tabsLeft} of its tabs left open`);
    // The render window closes after 20 s without rendering (lib/platform/tab-render.ts): what the browser holds then.
    await new Promise((resolve) => setTimeout(resolve, 25_000));
    figures.rendered.idle = { tabsLeft: atlasTabs(), windowTabs: l.context.pages().length - pagesAtStart, memory: browserMemory(l.profileDir, r.fetched) };
  } finally {
    await l.close();
    await tree.close();
    await atlas.close();
  }
  return figures;
}

/** Memory is written down each time the crawl has fetched another this many pages. */
const MARK_EVERY = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function formatRender(f: RenderFigures): string {
  const auto = median(f.staticAuto);
  const never = median(f.staticNever);
  // Each round ran both modes one after the other: its ratio is the fairest single comparison the machine allows.
  const paired = f.staticAuto.map((a, i) => a / f.staticNever[i]!).filter(Number.isFinite);
  const sorted = [...paired].sort((a, b) => a - b);
  // The crawl in stretches of 200 pages, the browser's memory as the median of the samples taken in each.
  const r = f.rendered;
  const stretchCount = Math.max(1, Math.ceil(r.pages / MARK_EVERY));
  const stretches = Array.from({ length: stretchCount }, (_, i) => {
    const [from, to] = [i * MARK_EVERY, Math.min(r.pages, (i + 1) * MARK_EVERY)];
    const inside = r.memory.filter((m) => m.pages > from && m.pages <= to);
    return { from, to, pss: median(inside.map((m) => m.pssMiB)), rss: median(inside.map((m) => m.rssMiB)), samples: inside.length };
  });
  const first = stretches.find((x) => x.samples > 0);
  const last = stretches[stretches.length - 1]!;
  const mib = (x: number) => x.toFixed(0);
  const staticPart = f.staticAuto.length === 0 ? [] : [
    markdownTable(['static site', 'pages/s per round', 'median'], [
      ['render: auto', f.staticAuto.map((x) => x.toFixed(1)).join(', '), auto.toFixed(1)],
      ['render: never', f.staticNever.map((x) => x.toFixed(1)).join(', '), never.toFixed(1)],
    ]),
    '',
    `auto / never on the static site, medians: ${(auto / never).toFixed(3)}; round by round: ${paired.map((x) => x.toFixed(3)).join(', ')} ` +
      `(median ${median(paired).toFixed(3)}, from ${sorted[0]?.toFixed(3)} to ${sorted[sorted.length - 1]?.toFixed(3)}); pages auto rendered there: ${f.staticRendered}`,
    '',
    formatSigns(measureSigns(3)),
    '',
  ];
  const renderedPart = r.pages === 0 || !first ? [] : [
    `Script-built site at 2 tabs: ${r.renderedPages} of ${r.pages} pages rendered in ${r.seconds.toFixed(1)} s, ${r.pagesPerSecond.toFixed(2)} pages/s`,
    '',
    markdownTable(['pages crawled', 'browser PSS (MiB)', 'browser RSS (MiB)'], r.marks.map((m) => [String(m.pages), mib(m.pssMiB), mib(m.rssMiB)])),
    '',
    markdownTable(['pages crawled', 'PSS, median (MiB)', 'RSS, median (MiB)', 'samples'], stretches.map((x) => [`${x.from + 1}-${x.to}`, mib(x.pss), mib(x.rss), String(x.samples)])),
    '',
    `browser PSS, last stretch / first stretch: ${(last.pss / first.pss).toFixed(2)}`,
    '',
    `tabs of the site left open when the crawl finished: ${r.tabsLeft}` +
      (r.idle ? `; 25 s later: ${r.idle.tabsLeft}, tabs besides the ones open before the crawl: ${r.idle.windowTabs}, browser PSS ${mib(r.idle.memory.pssMiB)} MiB, RSS ${mib(r.idle.memory.rssMiB)} MiB` : ''),
  ];
  const kindsPart = [...(f.mixed ? [formatMixed(f.mixed), ''] : []), ...(f.tabs.length ? [formatTabs(f.tabs), ''] : []), ...(f.growth.length ? [formatGrowth(f.growth), ''] : [])];
  return ['## Rendering (fetch.render): a static site with auto and never, a mixed site, 2 and 4 tabs, a script-built site at 2 tabs', '', ...staticPart, ...kindsPart, ...renderedPart].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      'static-pages': { type: 'string', default: '400' }, rounds: { type: 'string', default: '5' }, 'rendered-pages': { type: 'string', default: '1000' },
      'mixed-copies': { type: 'string', default: '10' }, 'tab-pages': { type: 'string', default: '100' }, 'tab-rounds': { type: 'string', default: '4' },
      'growth-runs': { type: 'string', default: '2' },
    },
  });
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const figures = await measureRender({
    staticPages: Number(values['static-pages']), rounds: Number(values.rounds), renderedPages: Number(values['rendered-pages']),
    mixedCopies: Number(values['mixed-copies']), tabPages: Number(values['tab-pages']), tabRounds: Number(values['tab-rounds']),
    growthRuns: Number(values['growth-runs']), log,
  });
  console.log(formatRender(figures));
}
