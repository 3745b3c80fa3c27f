// The crawl detail's Export panel: a format, which pages (relevant only, some sites, new since the last export),
// a progress bar and Cancel. The file is streamed from IndexedDB: to disk through the File System Access API
// where the browser offers it, else into a Blob built a few megabytes at a time (Chromium keeps large blobs out
// of the page's memory), then downloaded. The command-line runner pulls the same stream through `focusExport`.
import { concatBytes } from '@/lib/records/bytes.ts';
import { exportCrawl, exportMark, type ExportRequest } from '@/lib/export/export-crawl';
import { FORMATS } from '@/lib/export/formats';
import { EXPORT_FORMATS } from '@/lib/records/rows.ts';
import { isExportFormat } from '@/lib/export/selection';
import { downloadFile } from '@/lib/platform/actions';
import { byId, errorText, h } from '@/lib/platform/dom';
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import { formatBytes, formatCount } from '@/lib/ui/format';
import { pageSites } from '@/lib/ui/page-query';

/** Bytes gathered before they are folded into the Blob. */
const BLOB_STEP = 8 * 1024 * 1024;

type Picker = (o: { suggestedName: string }) => Promise<{ createWritable(): Promise<{ write(b: Uint8Array): Promise<void>; close(): Promise<void>; abort(): Promise<void> }> }>;

export class ExportPanel {
  private readonly format = byId<HTMLSelectElement>('export-format');
  private readonly relevant = byId<HTMLInputElement>('export-relevant');
  private readonly fresh = byId<HTMLInputElement>('export-new');
  private readonly html = byId<HTMLInputElement>('export-html');
  private readonly sites = byId<HTMLSelectElement>('export-sites');
  private readonly start = byId<HTMLButtonElement>('export-start');
  private readonly cancel = byId<HTMLButtonElement>('export-cancel');
  private readonly progress = byId<HTMLProgressElement>('export-progress');
  private readonly status = byId('export-status');
  private readonly panel = byId<HTMLDetailsElement>('export-panel');
  private crawl: CrawlRecord | undefined;
  private shownFor: number | undefined;
  /** The crawl whose sites the list holds (or is being read). */
  private sitesFor: number | undefined;
  private abort: AbortController | null = null;

  constructor(private readonly db: CrawlerDB, private readonly report: (error: string | null) => void) {
    this.format.replaceChildren(...EXPORT_FORMATS.map((f) => h('option', { value: f }, FORMATS[f].label)));
    this.format.addEventListener('change', () => void this.refresh());
    this.fresh.addEventListener('change', () => void this.refresh());
    this.start.addEventListener('click', () => void this.run());
    this.cancel.addEventListener('click', () => this.abort?.abort());
    this.panel.addEventListener('toggle', () => this.listSites());
  }

  /** The crawl shown; its sites fill the list when another crawl is selected and the panel is open. */
  show(crawl: CrawlRecord | undefined): void {
    this.crawl = crawl;
    if (!crawl || crawl.id === this.shownFor) return;
    this.shownFor = crawl.id;
    this.sitesFor = undefined;
    this.sites.replaceChildren();
    this.listSites();
    void this.refresh();
  }

  /**
   * Each site with the page rows an export of it holds (the Pages table's site filter counts the same rows), read
   * once the panel is opened: counting walks every page row of the crawl's index, and on a dashboard just opened
   * on 100,000 pages the other views' first reads would wait behind it.
   */
  private listSites(): void {
    const id = this.shownFor;
    if (id === undefined || id === this.sitesFor || !this.panel.open) return;
    this.sitesFor = id;
    void pageSites(this.db, id, Infinity).then((rows) => {
      if (this.shownFor !== id) return;
      this.sites.replaceChildren(...rows.map((r) => h('option', { value: r.site }, `${r.site} (${formatCount(r.pages)})`)));
    });
  }

  private request(): ExportRequest {
    const format = this.format.value;
    if (!isExportFormat(format)) throw new Error(`unknown format ${format}`);
    return {
      format, relevantOnly: this.relevant.checked, sinceLastExport: this.fresh.checked, html: this.html.checked,
      sites: [...this.sites.selectedOptions].map((o) => o.value),
    };
  }

  private async refresh(): Promise<void> {
    const crawl = this.crawl;
    byId('export-html-row').hidden = this.format.value !== 'jsonl';
    if (!crawl || !isExportFormat(this.format.value)) return;
    const mark = await exportMark(this.db, crawl.id!, this.format.value);
    byId('export-mark').textContent = mark ? `(last export reached page ${mark} of ${crawl.nextSeq - 1})` : '(no export in this format yet)';
  }

  private async run(): Promise<void> {
    const crawl = this.crawl;
    if (!crawl || this.abort) return;
    this.report(null);
    const req = this.request();
    const abort = (this.abort = new AbortController());
    this.start.disabled = true;
    this.cancel.hidden = false;
    this.progress.hidden = false;
    this.progress.value = 0;
    this.status.textContent = 'Exporting…';
    let bytes = 0;
    try {
      const out = await exportCrawl(this.db, crawl, req, {
        now: Date.now(),
        onProgress: ({ seq, lastSeq }) => {
          this.progress.value = lastSeq ? seq / lastSeq : 1;
          this.status.textContent = `Exporting… page ${seq} of ${lastSeq}, ${formatBytes(bytes)}`;
        },
      });
      const counted = (async function* () {
        for await (const c of out.chunks) {
          if (abort.signal.aborted) throw new DOMException('cancelled', 'AbortError');
          bytes += c.byteLength;
          yield c;
        }
      })();
      const picker = (globalThis as { showSaveFilePicker?: Picker }).showSaveFilePicker;
      if (picker && !navigator.webdriver) await toFile(picker, out.fileName, counted);
      else downloadFile([await toBlob(counted, out.mime)], out.fileName, out.mime);
      await sendMessage('markExported', { crawlId: crawl.id!, format: req.format, seq: out.lastSeq });
      this.progress.value = 1;
      this.status.textContent = `Exported ${out.fileName} (${formatBytes(bytes)}).`;
      void this.refresh();
    } catch (err) {
      const cancelled = abort.signal.aborted || (err instanceof DOMException && err.name === 'AbortError');
      this.status.textContent = cancelled ? 'Export cancelled: nothing was saved.' : '';
      if (!cancelled) this.report(`Could not export the crawl: ${errorText(err)}`);
    } finally {
      this.abort = null;
      this.start.disabled = false;
      this.cancel.hidden = true;
      this.progress.hidden = true;
    }
  }
}

async function toFile(picker: Picker, name: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const handle = await picker({ suggestedName: name });
  const file = await handle.createWritable();
  try {
    for await (const c of chunks) await file.write(c);
    await file.close();
  } catch (err) {
    await file.abort().catch(() => undefined);
    throw err;
  }
}

/** A Blob built by folding a few megabytes at a time into it: the page never holds the whole file. */
export async function toBlob(chunks: AsyncIterable<Uint8Array>, type: string): Promise<Blob> {
  let blob = new Blob([], { type });
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const c of chunks) {
    parts.push(c);
    held += c.byteLength;
    if (held >= BLOB_STEP) {
      blob = new Blob([blob, ...(parts as BlobPart[])], { type });
      parts = [];
      held = 0;
    }
  }
  return new Blob([blob, ...(parts as BlobPart[])], { type });
}

/**
 * What the command-line runner calls on this page (through Playwright): opens an export, then pulls it a chunk
 * at a time as base64, so neither side holds the whole file.
 */
export function exposeExportHook(db: CrawlerDB): void {
  const open = new Map<number, AsyncIterator<Uint8Array>>();
  const marks = new Map<number, { crawlId: number; format: string; seq: number }>();
  let next = 1;
  (globalThis as Record<string, unknown>).focusExport = {
    async open(crawlId: number, req: ExportRequest): Promise<{ id: number; fileName: string }> {
      const crawl = await db.crawls.get(crawlId);
      if (!crawl) throw new Error(`crawl ${crawlId} does not exist`);
      const out = await exportCrawl(db, crawl, req, { now: Date.now() });
      const id = next++;
      open.set(id, batched(out.chunks)[Symbol.asyncIterator]());
      marks.set(id, { crawlId, format: req.format, seq: out.lastSeq });
      return { id, fileName: out.fileName };
    },
    async next(id: number): Promise<string | null> {
      const it = open.get(id);
      if (!it) throw new Error(`no export ${id}`);
      const r = await it.next();
      if (!r.done) return base64(r.value);
      open.delete(id);
      const mark = marks.get(id)!;
      marks.delete(id);
      await sendMessage('markExported', mark);
      return null;
    },
  };
}

/** Chunks of about 1 MiB: few round trips, little held. */
async function* batched(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const c of chunks) {
    parts.push(c);
    held += c.byteLength;
    if (held >= 1 << 20) {
      yield concatBytes(parts, held);
      parts = [];
      held = 0;
    }
  }
  if (held) yield concatBytes(parts, held);
}

function base64(bytes: Uint8Array): string {
  // Chromium 140+ encodes natively, several times faster than building a binary string for btoa.
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (native) return native.call(bytes);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
