// Export at scale: a crawl of N pages (default 100,000) is made in the real extension's IndexedDB by copying one
// crawled page with its stored body, then exported through the dashboard's own export code (the runner's hook)
// in each format. Reports each export's time, size and the exporting page's peak JS heap (DevTools protocol,
// sampled every 100 ms). Part of `npm run bench`; alone:
//   npx tsx scripts/bench/export.ts [--pages 100000] [--formats wacz,warc,jsonl,csv,zip]
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { FORMATS } from '../../lib/export/formats';
import type { ExportFormat } from '../../lib/records';
import { startDemoServer } from '../../tests/fixtures/sites/demo-site';
import { ensureBuilt, launchWithExtension, send } from '../lib/browser';
import { markdownTable } from './report';

export interface ExportFigure {
  format: ExportFormat;
  pages: number;
  seconds: number;
  megabytes: number;
  peakHeapMiB: number;
}

type Hook = { focusExport: { open(c: number, r: { format: string }): Promise<{ id: number }>; next(id: number): Promise<string | null> } };

export async function measureExport(o: { pages: number; formats: ExportFormat[]; log: (line: string) => void }): Promise<{ figures: ExportFigure[]; fillSeconds: number }> {
  ensureBuilt(o.log);
  const site = await startDemoServer();
  const launched = await launchWithExtension();
  const dir = mkdtempSync(join(tmpdir(), 'focus-export-bench-'));
  try {
    const { crawlId } = await send<{ crawlId: number }>(launched.page, 'start', {
      name: 'export bench', seeds: [`${site.origin}/space/`], topic: { keywords: ['astronomy', 'planet', 'star'] },
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
    o.log(`export bench: writing ${o.pages} pages into IndexedDB`);
    const t0 = Date.now();
    await filler.evaluate(async ([id, n]) => {
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
      for (let from = 2; from <= n; from += 2000) {
        await new Promise<void>((res, rej) => {
          const tx = db.transaction(['pages', 'bodies'], 'readwrite');
          for (let seq = from; seq < Math.min(from + 2000, n + 1); seq++) {
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
    }, [crawlId, o.pages] as const);
    const fillSeconds = (Date.now() - t0) / 1000;
    o.log(`export bench: written in ${fillSeconds.toFixed(0)} s`);
    const dash = await launched.context.newPage();
    await dash.goto(`chrome-extension://${launched.extensionId}/dashboard.html?crawl=${crawlId}`);
    await dash.waitForFunction(() => 'focusExport' in globalThis);
    const cdp = await launched.context.newCDPSession(dash);
    await cdp.send('Performance.enable');
    const heap = async () => {
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    };
    const figures: ExportFigure[] = [];
    for (const format of o.formats) {
      await dash.evaluate(() => (globalThis as { gc?: () => void }).gc?.());
      let peak = await heap();
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await heap().catch(() => 0));
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      const started = Date.now();
      const file = createWriteStream(join(dir, FORMATS[format].fileName));
      let bytes = 0;
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
      const f: ExportFigure = { format, pages: o.pages, seconds: (Date.now() - started) / 1000, megabytes: bytes / 1e6, peakHeapMiB: peak / 2 ** 20 };
      o.log(`export bench: ${format}: ${f.seconds.toFixed(1)} s, ${f.megabytes.toFixed(0)} MB, peak heap ${f.peakHeapMiB.toFixed(0)} MiB`);
      figures.push(f);
    }
    return { figures, fillSeconds };
  } finally {
    await launched.close();
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatExport(r: { figures: ExportFigure[]; fillSeconds: number }): string {
  return [
    `Export of a ${r.figures[0]?.pages.toLocaleString('en-US')}-page crawl (one stored page copied; written into IndexedDB in ${r.fillSeconds.toFixed(0)} s), through the dashboard's export code, pulled a MiB at a time:`,
    '',
    markdownTable(['format', 'seconds', 'MB written', 'pages per second', "exporting page's peak JS heap (MiB)"],
      r.figures.map((f) => [f.format, f.seconds.toFixed(1), f.megabytes.toFixed(0), Math.round(f.pages / f.seconds), f.peakHeapMiB.toFixed(0)])),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values: v } = parseArgs({ options: { pages: { type: 'string', default: '100000' }, formats: { type: 'string', default: 'wacz,warc,jsonl,csv,zip' } } });
  measureExport({ pages: Number(v.pages), formats: v.formats!.split(',') as ExportFormat[], log: (l) => process.stderr.write(`[bench] ${l}\n`) })
    .then((r) => console.log(formatExport(r)), (err) => {
      console.error(`export bench: ${err instanceof Error ? err.stack : err}`);
      process.exit(1);
    });
}
