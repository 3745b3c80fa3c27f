// Export at scale: a crawl of N pages (default 100,000) is made in the real extension's IndexedDB by copying one
// crawled page with its stored body, then exported through the dashboard's own export code (the runner's hook)
// in each format, first at a tenth of N (the crawl then grown to N in the same browser) so the peak heaps can be
// compared. Reports each export's time, size and the exporting page's peak JS heap (DevTools protocol, sampled
// every 100 ms). `--before DIR` runs another build's extension (its .output/chrome-mv3) on the same crawl, format by
// format in turn with this one, and prints the ratio. `--live-heap` also forces a garbage collection every second
// and reports the largest heap left after one (what the export holds, apart from garbage not yet collected).
// Part of `npm run bench`; alone:
//   npx tsx scripts/bench/export.ts [--pages 100000] [--smaller 10000 | --smaller 0] [--before DIR] [--live-heap] [--formats wacz,warc,jsonl,csv,zip]
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { FORMATS } from '../../lib/export/formats';
import type { ExportFormat } from '../../lib/records/rows';
import { startDemoServer } from '../../tests/fixtures/sites/demo-site';
import { ensureBuilt, launchWithExtension, send } from '../lib/browser';
import { markdownTable } from './report';

export interface ExportFigure {
  format: ExportFormat;
  pages: number;
  /** Which build exported: this one, or the one given with --before. */
  build: 'this' | 'before';
  seconds: number;
  megabytes: number;
  peakHeapMiB: number;
  /** The page's heap before the export, after a forced collection: the peak less this is the export's own. */
  baseHeapMiB: number;
  /** How far into the file the peak came (MB written when it was sampled): which part of the export it belongs to. */
  peakAtMB: number;
  /** With `liveHeap`: the largest heap left after a garbage collection forced every second. */
  peakLiveMiB?: number;
}

export interface ExportRun {
  figures: ExportFigure[];
  fillSeconds: number;
  /** What the machine was doing: the figures are only comparable within one run. */
  conditions: { date: string; cpus: number; cpuModel: string; memoryGiB: number; loadStart: number; loadEnd: number };
}

/** The goals for an export of 100,000 pages. */
export const EXPORT_GOALS = { seconds: 120, peakRatio: 1.2 };

type Hook = { focusExport: { open(c: number, r: { format: string }): Promise<{ id: number }>; next(id: number): Promise<string | null> } };

/** One browser with the extension and a crawl of copied pages that can grow, exporting through its dashboard. */
interface Bench {
  build: ExportFigure['build'];
  fill(to: number): Promise<void>;
  exportAs(format: ExportFormat, pages: number): Promise<ExportFigure>;
  close(): Promise<void>;
}

async function openBench(build: ExportFigure['build'], extensionDir: string | undefined, origin: string, dir: string, log: (line: string) => void, liveHeap = false): Promise<Bench> {
  const jsFlags = process.env.FOCUS_EXPORT_JS_FLAGS;
  const launched = await launchWithExtension({ ...(extensionDir ? { extensionDir } : {}), ...(jsFlags ? { args: [`--js-flags=${jsFlags}`] } : {}) });
  const { crawlId } = await send<{ crawlId: number }>(launched.page, 'start', {
    name: 'export bench', seeds: [`${origin}/space/`], topic: { keywords: ['astronomy', 'planet', 'star'] },
    budget: { maxPages: 1 }, politeness: { delayMs: 0, concurrency: 1, robots: false },
  });
  for (;;) {
    const s = await send<{ crawl: { state: string } } | null>(launched.page, 'status', { crawlId });
    if (s && ['finished', 'failed', 'stopped'].includes(s.crawl.state)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // The copies are written from a page without UI (the dashboard's live views would re-read on every write).
  const filler = launched.page;
  // tsx names the functions it compiles with a `__name` helper the page does not have.
  await filler.evaluate('globalThis.__name = (f) => f');
  let filled = 1;
  const dash = await launched.context.newPage();
  const cdp = await launched.context.newCDPSession(dash);
  await cdp.send('Performance.enable');
  const heap = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  };
  return {
    build,
    async fill(to) {
      log(`export bench (${build}): writing pages ${filled + 1}-${to} into IndexedDB`);
      await filler.evaluate(async ([id, from, n]) => {
        const db: IDBDatabase = await new Promise((res, rej) => {
          const r = indexedDB.open('focus');
          r.onsuccess = () => res(r.result);
          r.onerror = () => rej(r.error);
        });
        const get = <T>(store: string, key: IDBValidKey) => new Promise<T>((res, rej) => {
          const r = db.transaction(store).objectStore(store).get(key);
          r.onsuccess = () => res(r.result as T);
          r.onerror = () => rej(r.error);
        });
        const page = await get<Record<string, unknown>>('pages', [id, 1]);
        const body = await get<Record<string, unknown>>('bodies', [id, 1]);
        const url = page.url as string;
        for (let at = from; at <= n; at += 2000) {
          await new Promise<void>((res, rej) => {
            const tx = db.transaction(['pages', 'bodies'], 'readwrite');
            for (let seq = at; seq < Math.min(at + 2000, n + 1); seq++) {
              const u = `${url}?copy=${seq}`;
              tx.objectStore('pages').put({ ...page, seq, url: u, finalUrl: u, relevant: seq % 3 !== 0 });
              tx.objectStore('bodies').put({ ...body, seq });
            }
            tx.oncomplete = () => res();
            tx.onerror = () => rej(tx.error);
          });
        }
        const crawl = await get<Record<string, unknown> & { stats: Record<string, number> }>('crawls', id);
        await new Promise<void>((res, rej) => {
          const tx = db.transaction('crawls', 'readwrite');
          tx.objectStore('crawls').put({ ...crawl, nextSeq: n + 1, stats: { ...crawl.stats, fetched: n, attempts: n } });
          tx.oncomplete = () => res();
          tx.onerror = () => rej(tx.error);
        });
        db.close();
      }, [crawlId, filled + 1, to] as const);
      filled = to;
      // A fresh dashboard for each size, so that one export's leftovers do not count in the next one's heap.
      await dash.goto(`chrome-extension://${launched.extensionId}/dashboard.html?crawl=${crawlId}`);
      await dash.waitForFunction(() => 'focusExport' in globalThis);
    },
    async exportAs(format, pages) {
      await cdp.send('HeapProfiler.collectGarbage');
      const base = await heap();
      let peak = base;
      let peakAt = 0;
      let live = 0;
      let sampling = true;
      let bytes = 0;
      const sampler = (async () => {
        for (let i = 1; sampling; i++) {
          const h = await heap().catch(() => 0);
          if (h > peak) {
            peak = h;
            peakAt = bytes;
          }
          if (liveHeap && i % 10 === 0) {
            // The used heap includes garbage V8 has not yet collected, which grows with how long it runs; after a
            // full collection what is left is what the export holds.
            await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
            live = Math.max(live, await heap().catch(() => 0));
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const started = Date.now();
      const file = createWriteStream(join(dir, `${build}-${FORMATS[format].fileName}`));
      const { id } = await dash.evaluate(([c, f]) => (globalThis as unknown as Hook).focusExport.open(c, { format: f }), [crawlId, format] as const);
      for (;;) {
        const chunk = await dash.evaluate((i) => (globalThis as unknown as Hook).focusExport.next(i), id);
        if (chunk === null) break;
        const buf = Buffer.from(chunk, 'base64');
        bytes += buf.length;
        if (!file.write(buf)) await new Promise<void>((r) => file.once('drain', () => r()));
      }
      await new Promise<void>((r) => file.end(() => r()));
      sampling = false;
      await sampler;
      const f: ExportFigure = {
        format, pages, build, seconds: (Date.now() - started) / 1000, megabytes: bytes / 1e6, peakHeapMiB: peak / 2 ** 20, baseHeapMiB: base / 2 ** 20, peakAtMB: peakAt / 1e6,
        ...(liveHeap ? { peakLiveMiB: live / 2 ** 20 } : {}),
      };
      log(`export bench (${build}): ${format} of ${pages}: ${f.seconds.toFixed(1)} s, ${f.megabytes.toFixed(0)} MB, peak heap ${f.peakHeapMiB.toFixed(0)} MiB (${f.baseHeapMiB.toFixed(0)} before it; reached when ${f.peakAtMB.toFixed(0)} MB had been written)${liveHeap ? `, after collections ${f.peakLiveMiB!.toFixed(0)} MiB` : ''}`);
      return f;
    },
    close: () => launched.close(),
  };
}

/**
 * Exports of `pages` pages in each format, and first of `smaller` pages (a tenth unless given; 0 for none; same
 * browser, the crawl then grown) to compare the peak heap. With `before` (the .output/chrome-mv3 of another build), that build exports the same
 * crawl too, format by format in turn with this one, so that the two share the machine's load.
 */
export async function measureExport(o: { pages: number; smaller?: number; before?: string; liveHeap?: boolean; formats: ExportFormat[]; log: (line: string) => void }): Promise<ExportRun> {
  ensureBuilt(o.log);
  const site = await startDemoServer();
  const dir = mkdtempSync(join(tmpdir(), 'focus-export-bench-'));
  const benches: Bench[] = [];
  try {
    benches.push(await openBench('this', undefined, site.origin, dir, o.log, o.liveHeap));
    if (o.before) benches.push(await openBench('before', o.before, site.origin, dir, o.log, o.liveHeap));
    const figures: ExportFigure[] = [];
    const t0 = Date.now();
    const loadStart = loadavg()[0];
    let fillSeconds = 0;
    const smaller = o.smaller ?? Math.round(o.pages / 10);
    for (const size of [...(smaller ? [smaller] : []), o.pages]) {
      const filling = Date.now();
      for (const b of benches) await b.fill(size);
      fillSeconds += (Date.now() - filling) / 1000;
      for (const format of o.formats) for (const b of benches) figures.push(await b.exportAs(format, size));
    }
    o.log(`export bench: done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const conditions = {
      date: new Date(t0).toISOString(), cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', memoryGiB: Math.round(totalmem() / 2 ** 30),
      loadStart, loadEnd: loadavg()[0],
    };
    return { figures, fillSeconds, conditions };
  } finally {
    for (const b of benches) await b.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One line per goal at the largest size, this build: the seconds an export took, and its peak heap over
 * the peak at the smaller size, each against its goal, with the run's conditions.
 */
export function exportGoals(r: ExportRun): string[] {
  const mine = r.figures.filter((f) => f.build === 'this');
  const largest = Math.max(...mine.map((f) => f.pages));
  const c = r.conditions;
  const out: string[] = [];
  for (const f of mine.filter((x) => x.pages === largest)) {
    const at = `${f.format} at ${f.pages.toLocaleString('en-US')} pages`;
    out.push(`goal ${at}: ${f.seconds.toFixed(1)} s (goal <= ${EXPORT_GOALS.seconds} s: ${f.seconds <= EXPORT_GOALS.seconds ? 'met' : 'NOT met'})`);
    const small = mine.find((s) => s.format === f.format && s.pages < f.pages);
    if (small) {
      const ratio = f.peakHeapMiB / small.peakHeapMiB;
      out.push(`goal ${at}: peak JS heap ${f.peakHeapMiB.toFixed(0)} MiB, ${ratio.toFixed(2)}x the ${small.peakHeapMiB.toFixed(0)} MiB at ${small.pages.toLocaleString('en-US')} (goal <= ${EXPORT_GOALS.peakRatio}x: ${ratio <= EXPORT_GOALS.peakRatio ? 'met' : 'NOT met'})`);
    }
  }
  out.push(`conditions: ${c.date}, ${c.cpus} cores (${c.cpuModel}), ${c.memoryGiB} GiB, load average ${c.loadStart.toFixed(1)} at the start and ${c.loadEnd.toFixed(1)} at the end; one run`);
  return out;
}

export function formatExport(r: ExportRun): string {
  const { figures } = r;
  const largest = Math.max(...figures.map((f) => f.pages));
  const find = (format: ExportFormat, pages: number, build: ExportFigure['build']) => figures.find((f) => f.format === format && f.pages === pages && f.build === build);
  const notes: string[] = [];
  for (const f of figures.filter((f) => f.build === 'this' && f.pages === largest)) {
    const before = find(f.format, f.pages, 'before');
    if (before) notes.push(`- ${f.format} at ${f.pages.toLocaleString('en-US')} pages: ${(before.seconds / f.seconds).toFixed(1)}x faster than the build before (${before.seconds.toFixed(1)} s -> ${f.seconds.toFixed(1)} s, same run)`);
    const small = figures.find((s) => s.build === 'this' && s.format === f.format && s.pages < f.pages);
    if (small) {
      const own = (x: ExportFigure) => x.peakHeapMiB - x.baseHeapMiB;
      notes.push(`- ${f.format}: peak heap at ${f.pages.toLocaleString('en-US')} pages is ${(f.peakHeapMiB / small.peakHeapMiB).toFixed(2)}x the peak at ${small.pages.toLocaleString('en-US')} (goal: at most 1.2x); above the page's heap before the export, ${(own(f) / own(small)).toFixed(2)}x`);
    }
    if (small?.peakLiveMiB && f.peakLiveMiB) notes.push(`- ${f.format}: heap after forced collections at ${f.pages.toLocaleString('en-US')} pages is ${(f.peakLiveMiB / small.peakLiveMiB).toFixed(2)}x that at ${small.pages.toLocaleString('en-US')}`);
  }
  return [
    `Export of a crawl of one stored page copied (written into IndexedDB in ${r.fillSeconds.toFixed(0)} s in all), through the dashboard's export code, pulled a MiB at a time:`,
    '',
    markdownTable(['format', 'pages', 'build', 'seconds', 'MB written', 'pages per second', "exporting page's peak JS heap (MiB)", 'its heap before the export (MiB)', ...(figures[0]?.peakLiveMiB !== undefined ? ['after forced collections (MiB)'] : [])],
      figures.map((f) => [f.format, f.pages.toLocaleString('en-US'), f.build, f.seconds.toFixed(1), f.megabytes.toFixed(0), Math.round(f.pages / f.seconds), f.peakHeapMiB.toFixed(0), f.baseHeapMiB.toFixed(0), ...(f.peakLiveMiB !== undefined ? [f.peakLiveMiB.toFixed(0)] : [])])),
    ...(notes.length ? ['', ...notes] : []),
    '',
    ...exportGoals(r).map((g) => `- ${g}`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: v } = parseArgs({
    options: {
      pages: { type: 'string', default: '100000' },
      smaller: { type: 'string' },
      before: { type: 'string' },
      'live-heap': { type: 'boolean', default: false },
      formats: { type: 'string', default: 'wacz,warc,jsonl,csv,zip' },
    },
  });
  const pages = Number(v.pages);
  measureExport({
    pages, smaller: v.smaller === undefined ? undefined : Number(v.smaller), before: v.before, liveHeap: v['live-heap'],
    formats: v.formats!.split(',') as ExportFormat[], log: (l) => process.stderr.write(`[bench] ${l}\n`),
  })
    .then((r) => console.log(formatExport(r)), (err) => {
      console.error(`export bench: ${err instanceof Error ? err.stack : err}`);
      process.exit(1);
    });
}
