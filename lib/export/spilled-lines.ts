// Lines an archive writes only after its records (the WACZ's CDXJ index, sorted, and its page list), kept out of
// the JS heap: a few thousand at a time are held as strings, the rest packed into Blobs, whose bytes the browser
// keeps apart from the page's heap (and pages out to disk when they are large). So the memory an export holds does
// not grow with the crawl. A sorted list is an external merge sort: each run of lines is sorted before it is
// packed, and the runs are merged as they are read back. Runs are short (2,000 lines, under a MiB) because the
// lines held live long enough to be promoted to V8's old generation, where they stay as garbage until a full
// collection: with runs of 10,000 that garbage was most of what a WACZ export's heap peak added to a WARC's.
import { utf8 } from './bytes';

const RUN = 2_000;
/** Bytes read from a Blob at a time while merging: one such buffer per run (500 runs at a million pages: 8 MiB). */
const SLICE = 16 * 1024;

/** Lines read back in the order added. */
export class SpilledLines {
  private held: string[] = [];
  private readonly packed: Blob[] = [];

  constructor(private readonly run = RUN) {}

  add(line: string): void {
    this.held.push(line);
    if (this.held.length >= this.run) this.pack();
  }

  private pack(): void {
    if (this.held.length) this.packed.push(new Blob([this.held.join('\n') + '\n']));
    this.held = [];
  }

  /** The lines as UTF-8, each ended by a newline, a few hundred KiB a chunk; the list is empty afterwards. */
  async *bytes(): AsyncGenerator<Uint8Array> {
    this.pack();
    for (const blob of this.packed.splice(0)) {
      for (let at = 0; at < blob.size; at += 16 * SLICE) yield new Uint8Array(await blob.slice(at, at + 16 * SLICE).arrayBuffer());
    }
  }
}

/** Lines read back sorted as `Array.prototype.sort` sorts strings (by UTF-16 code units). */
export class SortedLines {
  private held: string[] = [];
  private readonly runs: Blob[] = [];
  /** Whether some line has a character past U+FFFF (a surrogate pair), and some one in U+E000-U+FFFF. */
  private astral = false;
  private highBmp = false;

  constructor(private readonly run = RUN) {}

  add(line: string): void {
    if (!this.astral && /[\uD800-\uDFFF]/.test(line)) this.astral = true;
    if (!this.highBmp && /[\uE000-\uFFFF]/.test(line)) this.highBmp = true;
    this.held.push(line);
    if (this.held.length >= this.run) this.pack();
  }

  private pack(): void {
    if (this.held.length) this.runs.push(new Blob([this.held.sort().join('\n') + '\n']));
    this.held = [];
  }

  /**
   * The lines in order, each ended by a newline, a few hundred KiB a chunk; the list is empty afterwards. The runs
   * are merged as UTF-8 bytes, not strings: UTF-8's byte order is the order of code points, which is the order of
   * UTF-16 code units unless the lines hold both characters past U+FFFF and characters in U+E000-U+FFFF (a CDXJ
   * index of percent-encoded URLs holds neither); then they are decoded and compared as strings. Merging strings
   * (a decoded line and a promise or two per line) made the index the peak of a WACZ export's heap at 100,000 pages.
   */
  async *bytes(): AsyncGenerator<Uint8Array> {
    if (this.runs.length === 0) {
      // All of it fits in one run: no Blob to write and read back.
      const held = this.held.sort();
      this.held = [];
      for (let at = 0; at < held.length; at += 500) yield utf8(held.slice(at, at + 500).join('\n') + '\n');
      return;
    }
    this.pack();
    const heads = new MergeHeap(this.astral && this.highBmp ? textLess : bytesLess);
    for (const run of this.runs.splice(0)) {
      const cursor = new RunCursor(run);
      if (await cursor.next()) heads.push(cursor);
    }
    let out = new Uint8Array(OUT);
    let n = 0;
    for (let top = heads.peek(); top; top = heads.peek()) {
      const line = top.held.subarray(top.start, top.end);
      if (n + line.byteLength + 1 > OUT && n) {
        yield out.subarray(0, n);
        out = new Uint8Array(Math.max(OUT, line.byteLength + 1));
        n = 0;
      }
      out.set(line, n);
      out[n + line.byteLength] = 10;
      n += line.byteLength + 1;
      if (top.nextHeld() || (await top.next())) heads.siftDown();
      else heads.pop();
    }
    if (n) yield out.subarray(0, n);
  }
}

/** Bytes of merged lines gathered before they are handed on. */
const OUT = 256 * 1024;

/**
 * A run's newline-ended lines, read from its Blob a slice at a time (a newline byte never falls inside a UTF-8
 * character). The slice stays bytes, outside the JS heap; the current line is `held[start, end)`, decoded only if
 * the merge compares strings. The merge awaits only when a slice is used up, not once a line.
 */
class RunCursor {
  held: Uint8Array = new Uint8Array(0);
  start = 0;
  end = 0;
  private text: string | undefined;
  private from = 0;
  private read = 0;
  private readonly decoder = new TextDecoder();

  constructor(private readonly blob: Blob) {}

  /** The current line as a string. */
  get line(): string {
    return (this.text ??= this.decoder.decode(this.held.subarray(this.start, this.end)));
  }

  /** Moves to the next line if the slice in hand has it whole. */
  nextHeld(): boolean {
    const end = this.held.indexOf(10, this.from);
    if (end < 0) return false;
    this.start = this.from;
    this.end = end;
    this.from = end + 1;
    this.text = undefined;
    return true;
  }

  /** Moves to the next line, reading from the Blob as far as it takes; false past the run's end. */
  async next(): Promise<boolean> {
    while (!this.nextHeld()) {
      if (this.read >= this.blob.size) {
        if (this.from >= this.held.byteLength) return false;
        [this.start, this.end, this.from, this.text] = [this.from, this.held.byteLength, this.held.byteLength, undefined];
        return true;
      }
      const slice = new Uint8Array(await this.blob.slice(this.read, this.read + SLICE).arrayBuffer());
      this.read += SLICE;
      this.held = join(this.held.subarray(this.from), slice);
      this.from = 0;
    }
    return true;
  }
}

type Less = (a: RunCursor, b: RunCursor) => boolean;

const textLess: Less = (a, b) => a.line < b.line;

function bytesLess(a: RunCursor, b: RunCursor): boolean {
  const x = a.held, y = b.held;
  const n = Math.min(a.end - a.start, b.end - b.start);
  for (let i = 0; i < n; i++) {
    const p = x[a.start + i]!, q = y[b.start + i]!;
    if (p !== q) return p < q;
  }
  return a.end - a.start < b.end - b.start;
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) return b;
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** The runs' current lines, least on top: a binary heap, as a crawl of a million pages merges hundreds of runs. */
class MergeHeap {
  private readonly items: RunCursor[] = [];

  constructor(private readonly less: Less) {}

  peek(): RunCursor | undefined {
    return this.items[0];
  }

  push(h: RunCursor): void {
    const items = this.items;
    items.push(h);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i]!, items[parent]!)) break;
      [items[parent], items[i]] = [items[i]!, items[parent]!];
      i = parent;
    }
  }

  pop(): void {
    const last = this.items.pop()!;
    if (this.items.length === 0) return;
    this.items[0] = last;
    this.siftDown();
  }

  /** Restores the order after the top's line changed. */
  siftDown(): void {
    const items = this.items;
    for (let i = 0; ;) {
      const l = 2 * i + 1, r = l + 1;
      let least = i;
      if (l < items.length && this.less(items[l]!, items[least]!)) least = l;
      if (r < items.length && this.less(items[r]!, items[least]!)) least = r;
      if (least === i) return;
      [items[least], items[i]] = [items[i]!, items[least]!];
      i = least;
    }
  }
}
