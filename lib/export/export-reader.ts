// Reads a crawl's pages for an export, a chunk at a time in fetch order: each page row with, when the format
// needs them, its stored body and its page label. Only two chunks' bodies are in memory at once: the one being
// written and the next, read meanwhile.
import Dexie from 'dexie';
import { selects, type ExportPage, type ExportSelection } from './selection';
import type { LabelValue } from '../types';
import type { CrawlerDB } from '../store/db';

export interface ReadOptions {
  /** Read the stored bodies too (formats with content). */
  bodies: boolean;
  /** Page rows read per chunk; bodies are read only for the rows selected. */
  chunk?: number;
  /** Told after each chunk how far the read has come: the seq reached. */
  onProgress?: (seq: number) => void;
}

export async function* readExportPages(db: CrawlerDB, crawlId: number, sel: ExportSelection, opts: ReadOptions): AsyncGenerator<ExportPage> {
  const chunk = opts.chunk ?? (opts.bodies ? 100 : 1000);
  // The next chunk is read while the writer works on this one, so the writer does not wait on IndexedDB.
  let reading = readChunk(db, crawlId, sel, opts.bodies, sel.afterSeq ?? 0, chunk);
  try {
    for (;;) {
      const read = await reading;
      if (!read) return;
      reading = readChunk(db, crawlId, sel, opts.bodies, read.last, chunk);
      yield* read.pages;
      opts.onProgress?.(read.last);
    }
  } finally {
    // An export cancelled midway leaves a read in flight: whatever it comes to is not wanted.
    reading.catch(() => {});
  }
}

/** The pages of one chunk after `after`, with what the format needs; null past the last page. */
async function readChunk(db: CrawlerDB, crawlId: number, sel: ExportSelection, bodies: boolean, after: number, chunk: number): Promise<{ pages: ExportPage[]; last: number } | null> {
  // Separate short reads, not one transaction held open across the consumer's awaits: IndexedDB commits a
  // transaction as soon as it has nothing pending, and the consumer writes to a file between chunks.
  const rows = await db.pages.where('[crawlId+seq]').between([crawlId, after + 1], [crawlId, Dexie.maxKey]).limit(chunk).toArray();
  if (rows.length === 0) return null;
  const first = rows[0].seq, last = rows[rows.length - 1].seq;
  const chosen = rows.filter((p) => selects(sel, p));
  const [labels, stored] = await Promise.all([
    pageLabels(db, crawlId, first, last),
    bodies && chosen.length ? db.bodies.bulkGet(chosen.map((p) => [crawlId, p.seq] as [number, number])) : [],
  ]);
  const pages = chosen.map((p, i) => {
    const x: ExportPage = { page: p };
    const body = stored[i];
    if (body) x.body = body;
    const label = labels.get(p.seq);
    if (label !== undefined) x.label = label;
    return x;
  });
  return { pages, last };
}

/** The label of each labeled page in a seq range; the newest when a page was labeled more than once. */
async function pageLabels(db: CrawlerDB, crawlId: number, from: number, to: number): Promise<Map<number, LabelValue>> {
  const rows = await db.pageLabels.where('[crawlId+seq]').between([crawlId, from], [crawlId, to], true, true).toArray();
  rows.sort((a, b) => a.createdAt - b.createdAt);
  return new Map(rows.map((r) => [r.seq, r.label]));
}
