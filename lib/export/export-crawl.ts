// One export of a crawl: the pages chosen (all, relevant only, some sites, new since the last export of the
// format) read from IndexedDB a chunk at a time and written in the format as a stream of bytes. The dashboard
// streams it to a file, the command-line runner pulls it chunk by chunk; neither holds the crawl in memory.
import { readExportPages } from './export-reader';
import type { CrawlerDB } from '../store/db';
import type { CrawlRecord } from '../records/rows';
import { FORMATS, writeExport } from './formats';
import { exportMarkKey, type ExportFormat } from '../records/rows';
import type { ExportSelection } from './selection';
import { describedParts } from '../records/crawl-name';

export interface ExportRequest {
  format: ExportFormat;
  relevantOnly?: boolean;
  /** Registrable domains; all when empty. */
  sites?: string[];
  /** Only pages fetched since the last finished export of this crawl in this format. */
  sinceLastExport?: boolean;
  /** JSON Lines only: include each page's HTML. */
  html?: boolean;
}

export interface ExportProgress {
  /** The page seq reached, against the crawl's last. */
  seq: number;
  lastSeq: number;
}

export interface CrawlExport {
  fileName: string;
  mime: string;
  /** The file's bytes, in order. */
  chunks: AsyncIterable<Uint8Array>;
  /** After every chunk is read: the seq to remember as exported (for "new since the last export"). */
  lastSeq: number;
}

export const SOFTWARE = 'Focus 0.1.0 (https://github.com/focus-crawler)';

/** The last seq exported in a format, or 0. */
export async function exportMark(db: CrawlerDB, crawlId: number, format: ExportFormat): Promise<number> {
  const v = (await db.settings.get(exportMarkKey(crawlId, format)))?.value;
  return typeof v === 'number' ? v : 0;
}

/** Letters, digits and dashes (dots only between them, as in a host), lower case: safe on every file system and in a URL. */
function safeWords(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
    .replace(/[^\p{L}\p{N}.]+/gu, '-').replace(/\.(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\./gu, '-')
    .replace(/-+/g, '-').replace(/^-|-$/g, '').slice(0, 80).replace(/-$/, '');
}

/** The crawl's local day, "2026-12-07". */
function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * An export's file name: the crawl's name in safe words, the day it started and the format's file,
 * "astronomy-127.0.0.1-2026-12-07-pages.jsonl". A name the worker described ("astronomy on 127.0.0.1, 7 Dec") gives
 * its topic and host, the day written in full; "(2)" after the day.
 */
export function exportFileName(crawl: Pick<CrawlRecord, 'name' | 'createdAt'>, format: ExportFormat): string {
  const described = describedParts(crawl.name);
  const base = safeWords(described ? `${described.topic} ${described.host}` : crawl.name) || 'crawl';
  return `${base}-${dayOf(crawl.createdAt)}${described?.n ? `-${described.n}` : ''}-${FORMATS[format].fileName}`;
}

export async function exportCrawl(
  db: CrawlerDB, crawl: CrawlRecord, req: ExportRequest, opts: { now: number; onProgress?: (p: ExportProgress) => void; chunk?: number },
): Promise<CrawlExport> {
  const crawlId = crawl.id!;
  const lastSeq = crawl.nextSeq - 1;
  const sel: ExportSelection = {
    relevantOnly: req.relevantOnly,
    sites: req.sites,
    afterSeq: req.sinceLastExport ? await exportMark(db, crawlId, req.format) : undefined,
  };
  const pages = readExportPages(db, crawlId, sel, {
    bodies: FORMATS[req.format].needsBodies, chunk: opts.chunk, captureBytes: crawl.config.fetch?.renderCaptureBytes,
    onProgress: (seq) => opts.onProgress?.({ seq, lastSeq }),
  });
  return {
    fileName: exportFileName(crawl, req.format),
    mime: FORMATS[req.format].mime,
    chunks: writeExport(req.format, pages, crawl, { html: req.html, now: opts.now, software: SOFTWARE }),
    lastSeq,
  };
}
