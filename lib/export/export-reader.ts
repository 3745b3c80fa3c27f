// Reads a crawl's pages for an export in fetch order: each page row with, when the format needs them, its stored
// body and its page label. Bodies are read a batch at a time, and a batch is bounded by the bytes its bodies may
// hold as well as by their number: a rendered page's body keeps what its tab loaded (up to
// `fetch.renderCaptureBytes`, 2 MiB by default), so a hundred of them would be 200 MiB in hand. Only two batches'
// bodies are in memory at once: the one being written and the next, read meanwhile.
import Dexie from 'dexie';
import { DEFAULTS } from '../records/config';
import { selects, type ExportPage, type ExportSelection } from './selection';
import type { LabelValue, PageRecord } from '../records/types';
import { readBodies } from '../store/body-packs';
import type { CrawlerDB } from '../store/db';

export interface ReadOptions {
  /** Read the stored bodies too (formats with content). */
  bodies: boolean;
  /** Page rows read at a time, and at most as many bodies; bodies are read only for the rows selected. */
  chunk?: number;
  /** The bytes a batch of bodies may hold, as far as the page rows tell (a batch has at least one body). */
  batchBytes?: number;
  /** The most a rendered page kept of what its tab loaded (the crawl's `fetch.renderCaptureBytes`). */
  captureBytes?: number;
  /** Told after each batch how far the read has come: the seq reached. */
  onProgress?: (seq: number) => void;
}

/** The bytes of bodies a batch may hold by default: two batches in hand stay a few tens of MiB. */
export const BATCH_BYTES = 16 * 2 ** 20;

/** Rows of one read, and the seq the read reached (rows not selected count as read). */
interface Batch {
  rows: PageRecord[];
  last: number;
}

export async function* readExportPages(db: CrawlerDB, crawlId: number, sel: ExportSelection, opts: ReadOptions): AsyncGenerator<ExportPage> {
  const chunk = opts.chunk ?? (opts.bodies ? 100 : 1000);
  const bound = { bytes: opts.batchBytes ?? BATCH_BYTES, capture: opts.captureBytes ?? DEFAULTS.fetch.renderCaptureBytes };
  const batches = opts.bodies ? boundedBatches(rowChunks(db, crawlId, sel, chunk), bound) : rowChunks(db, crawlId, sel, chunk);
  const load = async (): Promise<{ pages: ExportPage[]; last: number } | null> => {
    const next = await batches.next();
    return next.done ? null : { pages: await withBodies(db, crawlId, next.value.rows, opts.bodies), last: next.value.last };
  };
  // The next batch is read while the writer works on this one, so the writer does not wait on IndexedDB.
  let reading = load();
  try {
    for (;;) {
      const read = await reading;
      if (!read) return;
      reading = load();
      yield* read.pages;
      opts.onProgress?.(read.last);
    }
  } finally {
    // An export cancelled midway leaves a read in flight: whatever it comes to is not wanted.
    reading.catch(() => {});
    void batches.return(undefined).catch(() => {});
  }
}

/** The selected rows after `sel.afterSeq`, `chunk` rows read at a time. */
async function* rowChunks(db: CrawlerDB, crawlId: number, sel: ExportSelection, chunk: number): AsyncGenerator<Batch> {
  for (let after = sel.afterSeq ?? 0; ;) {
    // Separate short reads, not one transaction held open across the consumer's awaits: IndexedDB commits a
    // transaction as soon as it has nothing pending, and the consumer writes to a file between chunks.
    const rows = await db.pages.where('[crawlId+seq]').between([crawlId, after + 1], [crawlId, Dexie.maxKey]).limit(chunk).toArray();
    if (rows.length === 0) return;
    after = rows[rows.length - 1].seq;
    yield { rows: rows.filter((p) => selects(sel, p)), last: after };
  }
}

/** The chunks' rows regrouped so that the bodies of a group are expected to hold at most `bound.bytes`. */
async function* boundedBatches(chunks: AsyncIterable<Batch>, bound: { bytes: number; capture: number }): AsyncGenerator<Batch> {
  for await (const { rows, last } of chunks) {
    let group: PageRecord[] = [];
    let held = 0;
    for (const row of rows) {
      const size = bodyBytes(row, bound.capture);
      if (group.length && held + size > bound.bytes) {
        yield { rows: group, last: group[group.length - 1].seq };
        group = [];
        held = 0;
      }
      group.push(row);
      held += size;
    }
    yield { rows: group, last };
  }
}

/**
 * What a page's stored body may hold, from its row: the payload (`bytes`), the HTML decoded from it (up to two
 * bytes a character in the JS heap), and for a rendered page the DOM its scripts built and what its tab loaded, up
 * to the crawl's capture limit. An overestimate for most rows; it has to hold for the largest.
 */
export function bodyBytes(row: PageRecord, capture: number): number {
  const bytes = Math.max(row.bytes || 0, 1024);
  return row.render?.rendered ? 5 * bytes + capture : 3 * bytes;
}

/** The pages of a batch with their labels and, when asked, their bodies. */
async function withBodies(db: CrawlerDB, crawlId: number, rows: PageRecord[], bodies: boolean): Promise<ExportPage[]> {
  if (rows.length === 0) return [];
  const [labels, stored] = await Promise.all([
    pageLabels(db, crawlId, rows[0].seq, rows[rows.length - 1].seq),
    bodies ? readBodies(db.bodies, rows.map((p) => ({ crawlId, seq: p.seq }))) : [],
  ]);
  return rows.map((p, i) => {
    const x: ExportPage = { page: p };
    const body = stored[i];
    if (body) x.body = body;
    const label = labels.get(p.seq);
    if (label !== undefined) x.label = label;
    return x;
  });
}

/** The label of each labeled page in a seq range; the newest when a page was labeled more than once. */
async function pageLabels(db: CrawlerDB, crawlId: number, from: number, to: number): Promise<Map<number, LabelValue>> {
  const rows = await db.pageLabels.where('[crawlId+seq]').between([crawlId, from], [crawlId, to], true, true).toArray();
  rows.sort((a, b) => a.createdAt - b.createdAt);
  return new Map(rows.map((r) => [r.seq, r.label]));
}
