// Reads a crawl's pages for an export, a chunk at a time in fetch order: each page row with, when the format
// needs them, its stored body and its page label. Only a chunk's bodies are in memory at once.
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
  let after = sel.afterSeq ?? 0;
  for (;;) {
    // Separate short reads, not one transaction held open across the consumer's awaits: IndexedDB commits a
    // transaction as soon as it has nothing pending, and the consumer writes to a file between chunks.
    const rows = await db.pages.where('[crawlId+seq]').between([crawlId, after + 1], [crawlId, Dexie.maxKey]).limit(chunk).toArray();
    if (rows.length === 0) return;
    const first = rows[0].seq, last = rows[rows.length - 1].seq;
    after = last;
    const chosen = rows.filter((p) => selects(sel, p));
    const labels = await pageLabels(db, crawlId, first, last);
    const bodies = opts.bodies && chosen.length ? await db.bodies.bulkGet(chosen.map((p) => [crawlId, p.seq] as [number, number])) : [];
    for (let i = 0; i < chosen.length; i++) {
      const p = chosen[i];
      const x: ExportPage = { page: p };
      const body = bodies[i];
      if (body) x.body = body;
      const label = labels.get(p.seq);
      if (label !== undefined) x.label = label;
      yield x;
    }
    opts.onProgress?.(last);
  }
}

/** The label of each labeled page in a seq range; the newest when a page was labeled more than once. */
async function pageLabels(db: CrawlerDB, crawlId: number, from: number, to: number): Promise<Map<number, LabelValue>> {
  const rows = await db.pageLabels.where('[crawlId+seq]').between([crawlId, from], [crawlId, to], true, true).toArray();
  rows.sort((a, b) => a.createdAt - b.createdAt);
  return new Map(rows.map((r) => [r.seq, r.label]));
}
