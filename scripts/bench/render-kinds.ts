// What `render: auto` costs where pages differ, through the real extension in Chromium, on sites served on loopback:
// - a mixed site (tests/fixtures/sites/mixed-site.ts with `copies` copies of its sections: whole articles, and pages
//   built by scripts of seven kinds) crawled with `always` and with `auto`: the pages each found, the share each
//   rendered, and what `auto` rendered and left of each kind;
// - rendered pages a second at 2 and at 4 tabs on a site whose every page is rendered, the rounds alternated in one
//   browser (2, 4, 4, 2, ...) so both see the same machine, with what bounds them: how busy the tabs were (the sum of
//   the pages' tab time over the wall time of the tabs), where a tab's time went (loading, settling, growing,
//   reading: each row's `render.phases`), and the browser's CPU, against the machine's load average;
// - what a step of a growing page costs: the end-to-end tests' feed of 60 entries (5 a step) and list of 60 behind
//   "Show more" (5 a press), each crawled alone with the default caps, against the same page when it does not grow;
// - what `auto` reads in a page's HTML (its signs and its kind) against the page's parse, in Node.
// Prints figures; never fails on time.
import { cpus, loadavg } from 'node:os';
import type { RenderNote } from '../../lib/records/types';
import { startMixedSite } from '../../tests/fixtures/sites/mixed-site';
import { startScriptSite } from '../../tests/fixtures/sites/script-site';
import { parseHtml } from '../../lib/parse/html';
import { pageSigns } from '../../lib/run/render';
import { send, type Launched } from '../lib/browser';
import { ChromiumCpu } from '../lib/process-cpu';
import { markdownTable } from './report';
import type { CrawlStatus } from '../../lib/app/protocol';

export interface PageRow {
  url: string;
  status: number;
  outcome?: string;
  render?: RenderNote;
}

export interface MixedFigures {
  copies: number;
  sitePages: number;
  modes: Record<'always' | 'auto', { found: number; rendered: number; seconds: number }>;
  /** Pages `always` found that `auto` did not. */
  missedByAuto: string[];
  /** What `auto` did with each kind of page. */
  kinds: { kind: string; rendered: number; changed: number; left: number }[];
  load: [number, number];
}

export interface TabRound {
  tabs: number;
  rendered: number;
  seconds: number;
  /** The pages' tab time over the tabs' wall time. */
  busy: number;
  /** Mean of a rendered page's tab time and its phases, ms. */
  tabMs: number;
  phases: { load: number; settle: number; grow: number; read: number };
  /** The browser's CPU seconds a second over the round (all its processes), and the load average at its start and end. */
  browserCores: number;
  load: [number, number];
}

/** Every page row of a crawl, from the extension's database. */
export function pageRows(l: Launched, crawlId: number): Promise<PageRow[]> {
  return l.page.evaluate((id) => new Promise<PageRow[]>((resolve, reject) => {
    const open = indexedDB.open('focus');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const all = open.result.transaction('pages').objectStore('pages').getAll(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
      all.onsuccess = () => (open.result.close(), resolve(all.result as PageRow[]));
    };
  }), crawlId);
}

/** Starts a crawl and waits for its end; `seconds` from the start message to the status that said so. */
export async function crawlToEnd(l: Launched, config: object, onProgress?: (fetched: number) => void): Promise<{ fetched: number; seconds: number; crawlId: number }> {
  const t0 = Date.now();
  const { crawlId } = await send<{ crawlId: number }>(l.page, 'start', config);
  for (;;) {
    const s = await send<CrawlStatus>(l.page, 'status', { crawlId });
    onProgress?.(s.crawl.stats.fetched);
    if (['finished', 'failed', 'stopped'].includes(s.crawl.state)) return { fetched: s.crawl.stats.fetched, seconds: (Date.now() - t0) / 1000, crawlId };
    await new Promise((r) => setTimeout(r, 250));
  }
}

const load1 = () => loadavg()[0]!;
const fetchedPaths = (rows: PageRow[]) => rows.filter((r) => r.status === 200 && r.outcome === 'done').map((r) => new URL(r.url).pathname);

/** The mixed site crawled with `always`, then with `auto`, 2 tabs, both tabs usable on its one host. */
export async function measureMixed(l: Launched, copies: number, log: (line: string) => void): Promise<MixedFigures> {
  const site = await startMixedSite(copies);
  const load: [number, number] = [load1(), 0];
  const modes = {} as MixedFigures['modes'];
  const found = {} as Record<'always' | 'auto', string[]>;
  let autoRows: PageRow[] = [];
  try {
    for (const render of ['always', 'auto'] as const) {
      const r = await crawlToEnd(l, {
        name: `mixed ${render}`, seeds: [`${site.origin}/`], topic: { keywords: ['star', 'stars', 'nebulae', 'galaxies', 'constellation', 'telescope'] },
        budget: { maxPages: site.pages.length + 20 }, politeness: { delayMs: 0, concurrency: 2, perHost: 2, robots: false }, fetch: { render, renderTabs: 2 },
      });
      const rows = await pageRows(l, r.crawlId);
      found[render] = fetchedPaths(rows);
      modes[render] = { found: found[render].length, rendered: rows.filter((p) => p.render?.rendered).length, seconds: r.seconds };
      if (render === 'auto') autoRows = rows;
      log(`render bench: mixed site (${site.pages.length} pages), ${render}: ${modes[render].found} found, ${modes[render].rendered} rendered in ${r.seconds.toFixed(1)} s`);
    }
  } finally {
    await site.close();
  }
  load[1] = load1();
  const byKind = new Map<string, MixedFigures['kinds'][number]>();
  for (const row of autoRows) {
    const kind = row.render?.kind;
    if (!kind) continue;
    const k = byKind.get(kind) ?? { kind, rendered: 0, changed: 0, left: 0 };
    if (row.render!.rendered) k.rendered++;
    else k.left++;
    if (row.render!.changed) k.changed++;
    byKind.set(kind, k);
  }
  const auto = new Set(found.auto);
  return {
    copies, sitePages: site.pages.length, modes, missedByAuto: found.always.filter((p) => !auto.has(p)),
    kinds: [...byKind.values()].sort((a, b) => b.rendered + b.left - (a.rendered + a.left)), load,
  };
}

/**
 * `rounds` crawls of `pages` pages of the site at `origin` (every page rendered), at 2 and 4 tabs alternated. Each round
 * may fetch two pages more than it has tabs, and its host allows as many requests at once, so neither holds a tab back.
 */
export async function measureTabs(l: Launched, origin: string, pages: number, rounds: number, log: (line: string) => void): Promise<TabRound[]> {
  const cpu = ChromiumCpu.start(l.profileDir);
  const out: TabRound[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const tabs = [2, 4, 4, 2][round % 4]!;
      const load: [number, number] = [load1(), 0];
      const t0 = Date.now();
      const r = await crawlToEnd(l, {
        name: `tabs ${tabs} round ${round + 1}`, seeds: [`${origin}/p/0`], topic: { keywords: ['star', 'atlas', 'constellations'] },
        budget: { maxPages: pages }, politeness: { delayMs: 0, concurrency: tabs + 2, perHost: tabs + 2, robots: false },
        fetch: { render: 'always', renderTabs: tabs },
      });
      const t1 = Date.now();
      load[1] = load1();
      const notes = (await pageRows(l, r.crawlId)).map((p) => p.render).filter((n): n is RenderNote => !!n?.rendered);
      const mean = (f: (n: RenderNote) => number) => notes.reduce((s, n) => s + f(n), 0) / Math.max(1, notes.length);
      const tabMs = mean((n) => n.ms ?? 0);
      const browserSeconds = cpu ? [...cpu.between(t0, t1)].filter(([part]) => part !== 'benchmark process').reduce((s, [, v]) => s + v, 0) : NaN;
      out.push({
        tabs, rendered: notes.length, seconds: r.seconds, busy: (tabMs * notes.length) / ((t1 - t0) * tabs), tabMs,
        phases: { load: mean((n) => n.phases?.load ?? 0), settle: mean((n) => n.phases?.settle ?? 0), grow: mean((n) => n.phases?.grow ?? 0), read: mean((n) => n.phases?.read ?? 0) },
        browserCores: browserSeconds / ((t1 - t0) / 1000), load,
      });
      log(`render bench: ${tabs} tabs, round ${round + 1}: ${notes.length} pages rendered in ${r.seconds.toFixed(1)} s, load ${load[0].toFixed(1)}-${load[1].toFixed(1)}`);
    }
  } finally {
    cpu?.stop();
  }
  return out;
}

export interface GrowthRun {
  page: string;
  ms: number;
  steps: number;
  stopped?: string;
  changed?: string;
  load: number;
}

/** The feed and the list read to their end with the default caps, `runs` times each, and the feed of one batch. */
export async function measureGrowth(l: Launched, runs: number, log: (line: string) => void): Promise<GrowthRun[]> {
  const site = await startScriptSite();
  const out: GrowthRun[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      for (const page of ['/feed?batches=1', '/feed?batches=12', '/more?batches=12&size=5']) {
        const load = load1();
        const r = await crawlToEnd(l, {
          name: `growth ${page}`, seeds: [`${site.origin}${page}`], topic: { keywords: ['star'] }, budget: { maxPages: 1 },
          politeness: { delayMs: 0, robots: false }, fetch: { render: 'auto' },
        });
        const note = (await pageRows(l, r.crawlId))[0]?.render;
        out.push({ page, ms: note?.ms ?? NaN, steps: (note?.scrolled ?? 0) + (note?.pressed ?? 0), ...(note?.stopped ? { stopped: note.stopped } : {}), ...(note?.changed ? { changed: note.changed } : {}), load });
        log(`render bench: ${page}: ${note?.ms} ms, ${out[out.length - 1]!.steps} steps`);
      }
    }
  } finally {
    await site.close();
  }
  return out;
}

export function formatGrowth(runs: GrowthRun[]): string {
  if (runs.length === 0) return '';
  const still = median(runs.filter((r) => r.page === '/feed?batches=1').map((r) => r.ms));
  return [
    '### A growing page read to its end with the default caps (each crawled alone)',
    '',
    markdownTable(['page', 'tab ms', 'steps that grew it', 'stopped', 'changed', 'ms a step', 'load average'], runs.map((r) => [
      r.page, String(r.ms), String(r.steps), r.stopped ?? '', r.changed ?? '', r.steps ? ((r.ms - still) / r.steps).toFixed(0) : '', r.load.toFixed(1),
    ])),
    '',
    `A step is the tab time over that of the feed of one batch (median ${still} ms: it settles, is scrolled once, and does not grow), over the steps that grew the page.`,
  ].join('\n');
}

export interface SignsCost {
  kb: number;
  parseMs: number;
  signsMs: number;
  /** The same page without its scripts: what `auto` reads there before it knows there is nothing to render. */
  plainMs: number;
}

/** Times `pageSigns` and `parseHtml` on a 32 KB article page with three scripts, and on it without them; `rounds` times. */
export function measureSigns(rounds: number): SignsCost[] {
  const para = (i: number) => `<p>Paragraph ${i} about the stars of the night sky, their constellations, nebulae and galaxies, with ` +
    `<a href="/wiki/Star_${i}">a link</a> and <a href="/news/story-${i}">another</a>.</p>`;
  const page = '<!doctype html><html><head><title>Stars</title><script src="/static/js/main.3f2a9c1b.js"></script><script>window.dataLayer=[];</script>' +
    `</head><body><div id="app"><h1>Stars</h1>${Array.from({ length: 180 }, (_, i) => para(i)).join('')}</div><script src="/js/analytics.js"></script></body></html>`;
  const plain = page.replace(/<script[^>]*>[^<]*<\/script>/g, '');
  const url = 'https://example.org/news/2024/05/sirius-rises';
  const time = (f: () => unknown, n: number) => {
    for (let i = 0; i < 20; i++) f();
    const t = performance.now();
    for (let i = 0; i < n; i++) f();
    return (performance.now() - t) / n;
  };
  const [parsed, parsedPlain] = [parseHtml(page, url), parseHtml(plain, url)];
  return Array.from({ length: rounds }, () => ({
    kb: page.length / 1024, parseMs: time(() => parseHtml(page, url), 100), signsMs: time(() => pageSigns(page, parsed, url), 1000),
    plainMs: time(() => pageSigns(plain, parsedPlain, url), 5000),
  }));
}

export function formatSigns(runs: SignsCost[]): string {
  if (runs.length === 0) return '';
  return `What auto reads in the HTML of a ${runs[0]!.kb.toFixed(0)} KB page with scripts, against its parse, load average ${load1().toFixed(1)}: ` +
    runs.map((r) => `${r.signsMs.toFixed(2)} of ${r.parseMs.toFixed(1)} ms (${pct(r.signsMs / r.parseMs)})`).join(', ') +
    `; without its scripts: ${runs.map((r) => `${(r.plainMs * 1000).toFixed(0)} µs`).join(', ')}`;
}

/** The middle value, or the mean of the two middle ones. */
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const s1 = (ms: number) => (ms / 1000).toFixed(2);

export function formatMixed(m: MixedFigures): string {
  const share = (x: { found: number; rendered: number }) => pct(x.rendered / Math.max(1, x.found));
  return [
    `### A mixed site: ${m.sitePages} pages (${m.copies} ${m.copies === 1 ? 'copy' : 'copies'} of its sections), 2 tabs, load average ${m.load[0].toFixed(1)} to ${m.load[1].toFixed(1)}`,
    '',
    markdownTable(['render', 'pages found', 'pages rendered', 'share rendered', 'seconds'], (['always', 'auto'] as const).map((k) => [
      k, String(m.modes[k].found), String(m.modes[k].rendered), share(m.modes[k]), m.modes[k].seconds.toFixed(1),
    ])),
    '',
    `auto found ${m.modes.auto.found} pages, always ${m.modes.always.found}; pages always found and auto did not: ${m.missedByAuto.length ? m.missedByAuto.join(', ') : 'none'}. ` +
      `auto / always, seconds: ${(m.modes.auto.seconds / m.modes.always.seconds).toFixed(2)}`,
    '',
    markdownTable(['kind (auto)', 'rendered', 'of them changed', 'left unrendered'], m.kinds.map((k) => [k.kind, String(k.rendered), String(k.changed), String(k.left)])),
  ].join('\n');
}

export function formatTabs(rounds: TabRound[]): string {
  if (rounds.length === 0) return '';
  const at = (tabs: number) => rounds.filter((r) => r.tabs === tabs);
  const rate = (r: TabRound) => r.rendered / r.seconds;
  const summary = [2, 4].map((tabs) => {
    const rs = at(tabs);
    const tab = median(rs.map((r) => r.tabMs));
    const settle = median(rs.map((r) => r.phases.settle));
    return `${tabs} tabs: ${median(rs.map(rate)).toFixed(2)} rendered pages a second (median of ${rs.length}); the tabs were busy ${pct(median(rs.map((r) => r.busy)))} of the time, ` +
      `a page held its tab ${s1(tab)} s of which ${s1(settle)} s (${pct(settle / tab)}) waiting for it to settle; the browser used ${median(rs.map((r) => r.browserCores)).toFixed(2)} CPU cores ` +
      `of the machine's ${cpus().length}`;
  });
  return [
    '### Rendered pages a second at 2 and 4 tabs (every page a shell drawn by its script; rounds alternated in one browser)',
    '',
    markdownTable(['round', 'tabs', 'pages', 'pages/s', 'tabs busy', 'tab s a page', 'loading', 'settling', 'growing', 'reading', 'browser CPU cores', 'load average'], rounds.map((r, i) => [
      String(i + 1), String(r.tabs), String(r.rendered), rate(r).toFixed(2), pct(r.busy), s1(r.tabMs), s1(r.phases.load), s1(r.phases.settle), s1(r.phases.grow), s1(r.phases.read),
      r.browserCores.toFixed(2), `${r.load[0].toFixed(1)}-${r.load[1].toFixed(1)}`,
    ])),
    '',
    ...summary.map((line) => `- ${line}`),
    `- 4 tabs / 2 tabs, medians of this run: ${(median(at(4).map(rate)) / median(at(2).map(rate))).toFixed(2)}`,
  ].join('\n');
}
