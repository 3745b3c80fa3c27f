// The bodies a batch of page commits stores, two or three to a row.
//
// Every page's body went into IndexedDB as a row of its own, about 21 KiB of a Wikispeedia page. LevelDB writes each
// value into its log and again at its compactions, and many mid-sized rows cost the browser more than fewer larger
// ones: packed up to PACK_BYTES a row, a crawl spent 0.97x of Chromium's CPU (docs/benchmarks.md, "What is left a
// page"). A pack stays under the 64 KB past which Chromium wraps a value as a blob, handed over through the IO thread
// and read back as a file: packs of a whole commit's bodies cost more than they saved, most of all where the crawl
// reads a training read's body back (one pack read per page).
//
// A pack is `{ crawlId, seq, pack }`, keyed by its first page's seq, each body in it keeping its own `seq`; a commit of
// one page (or a body too big to share a row) writes the body alone, as before, and rows stored before stay as they
// are. Bodies are never changed once written and are deleted only with their crawl, so a body is found by its own key
// or in the pack at the greatest key below it. Every reader goes through `readBodies`.
import Dexie, { type Table } from 'dexie';
import type { PageBody } from '../records/types';

export interface BodyPack {
  crawlId: number;
  /** The first body's seq: the row's key. */
  seq: number;
  /** Bodies in seq order, each with its own seq (pages without a body are not there). */
  pack: PageBody[];
}

export type BodyRow = PageBody | BodyPack;

export const isBodyPack = (row: BodyRow): row is BodyPack => 'pack' in row;

/**
 * Bytes of bodies a pack holds at most, as `bytesOf` over-estimates them: under the 64 KB past which Chromium keeps a
 * value as a blob. A body that would take a pack past it starts the next one; a body bigger than it is stored alone
 * (as most rendered pages' are).
 */
export const PACK_BYTES = 56 * 1024;

/** A body's size, over-estimated: its bytes, two bytes a character of its text and headers, and the resources a render kept. */
function bytesOf(b: PageBody): number {
  const headers = Object.entries(b.headers).reduce((n, [k, v]) => n + k.length + v.length, 0);
  return (b.payload?.byteLength ?? 0) + 2 * ((b.html?.length ?? 0) + (b.rendered?.length ?? 0) + headers)
    + (b.resources ?? []).reduce((n, r) => n + r.payload.byteLength + 512, 0) + 512;
}

/** The rows that store these bodies (of one crawl, in seq order): packs of two or more, up to PACK_BYTES each. */
export function bodyRows(bodies: readonly PageBody[]): BodyRow[] {
  const rows: BodyRow[] = [];
  let run: PageBody[] = [];
  let bytes = 0;
  const close = () => {
    if (run.length === 1) rows.push(run[0]!);
    else if (run.length > 1) rows.push({ crawlId: run[0]!.crawlId, seq: run[0]!.seq, pack: run });
    run = [];
    bytes = 0;
  };
  for (const b of bodies) {
    const size = bytesOf(b);
    if (run.length && bytes + size > PACK_BYTES) close();
    run.push(b);
    bytes += size;
  }
  close();
  return rows;
}

/** The body of `seq` in a row read for it, if the row holds it. */
function bodyIn(row: BodyRow | undefined, seq: number): PageBody | undefined {
  if (!row) return undefined;
  if (!isBodyPack(row)) return row.seq === seq ? row : undefined;
  return row.pack.find((b) => b.seq === seq);
}

const holds = (p: BodyPack, crawlId: number, seq: number) => p.crawlId === crawlId && p.pack[0]!.seq <= seq && seq <= p.pack.at(-1)!.seq;

/**
 * The stored bodies of these pages (`bodies`: the database's table), undefined where a page has none: each by its own
 * key, else in the pack at the greatest key below it. Keys close together (an export's chunk) are read with one range
 * read per crawl; scattered ones (a model's labeled pages) one row each.
 */
export async function readBodies(bodies: Table<BodyRow, [number, number]>, keys: readonly { crawlId: number; seq: number }[]): Promise<(PageBody | undefined)[]> {
  const rows = await bodies.bulkGet(keys.map((k) => [k.crawlId, k.seq] as [number, number]));
  const out = keys.map((k, i) => bodyIn(rows[i], k.seq));
  const packs = rows.filter((r): r is BodyPack => r !== undefined && isBodyPack(r));
  // Asked and not found by its own key: in a pack read already, in a pack further down, or stored nowhere.
  const missing = keys.flatMap((k, i) => (out[i] === undefined && rows[i] === undefined ? [i] : []));
  const inRead = (i: number) => {
    const k = keys[i]!;
    const p = packs.find((q) => holds(q, k.crawlId, k.seq));
    if (p) out[i] = bodyIn(p, k.seq);
    return p !== undefined;
  };
  const left = missing.filter((i) => !inRead(i));
  const byCrawl = new Map<number, number[]>();
  for (const i of left) {
    const crawlId = keys[i]!.crawlId;
    if (!byCrawl.has(crawlId)) byCrawl.set(crawlId, []);
    byCrawl.get(crawlId)!.push(i);
  }
  await Promise.all([...byCrawl].map(async ([crawlId, idx]) => {
    const seqs = idx.map((i) => keys[i]!.seq);
    const lo = Math.min(...seqs), hi = Math.max(...seqs);
    const below = (seq: number) => bodies.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, seq], true, true).reverse().limit(1).toArray();
    let found: BodyRow[];
    if (hi - lo <= 8 * idx.length) {
      // Close together: the row at or below the first, and every row up to the last.
      const [first, rest] = await Promise.all([below(lo), bodies.where('[crawlId+seq]').between([crawlId, lo], [crawlId, hi], false, true).toArray()]);
      found = [...first, ...rest];
    } else found = (await Promise.all(seqs.map(below))).flat();
    for (const r of found) if (isBodyPack(r)) packs.push(r);
    for (const i of idx) inRead(i);
  }));
  return out;
}
