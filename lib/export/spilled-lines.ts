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

  constructor(private readonly run = RUN) {}

  add(line: string): void {
    this.held.push(line);
    if (this.held.length >= this.run) this.pack();
  }

  private pack(): void {
    if (this.held.length) this.runs.push(new Blob([this.held.sort().join('\n') + '\n']));
    this.held = [];
  }

  /**
   * The lines in order, each ended by a newline, a few hundred lines a chunk; the list is empty afterwards. The merge
   * awaits only when a run's slice is used up, not once a line: at a hundred thousand lines, a promise or two per
   * line was most of what the merge allocated.
   */
  async *bytes(): AsyncGenerator<Uint8Array> {
    let out: string[] = [];
    const flush = () => {
      const chunk = utf8(out.join('\n') + '\n');
      out = [];
      return chunk;
    };
    if (this.runs.length === 0) {
      // All of it fits in one run: no Blob to write and read back.
      for (const line of this.held.sort()) {
        out.push(line);
        if (out.length >= 500) yield flush();
      }
      this.held = [];
      if (out.length) yield flush();
      return;
    }
    this.pack();
    const heads = new MergeHeap();
    for (const run of this.runs.splice(0)) {
      const cursor = new RunCursor(run);
      if (await cursor.next()) heads.push(cursor);
    }
    for (let top = heads.peek(); top; top = heads.peek()) {
      out.push(top.line);
      if (out.length >= 500) yield flush();
      if (top.nextHeld() || (await top.next())) heads.siftDown();
      else heads.pop();
    }
    if (out.length) yield flush();
  }
}

/**
 * A run's newline-ended lines, read from its Blob a slice at a time (a newline byte never falls inside a UTF-8
 * character). The slice stays bytes, outside the JS heap, and a line is decoded only when the merge reaches it:
 * decoding a whole slice and splitting it kept every line of it alive while the merge drew lines from the other
 * runs, long enough to be promoted to V8's old generation.
 */
class RunCursor {
  /** The run's current line. */
  line = '';
  private held: Uint8Array = new Uint8Array(0);
  private from = 0;
  private read = 0;
  private readonly decoder = new TextDecoder();

  constructor(private readonly blob: Blob) {}

  /** Moves to the next line if the slice in hand has it whole. */
  nextHeld(): boolean {
    const end = this.held.indexOf(10, this.from);
    if (end < 0) return false;
    this.line = this.decoder.decode(this.held.subarray(this.from, end));
    this.from = end + 1;
    return true;
  }

  /** Moves to the next line, reading from the Blob as far as it takes; false past the run's end. */
  async next(): Promise<boolean> {
    while (!this.nextHeld()) {
      if (this.read >= this.blob.size) {
        if (this.from >= this.held.byteLength) return false;
        this.line = this.decoder.decode(this.held.subarray(this.from));
        this.from = this.held.byteLength;
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

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) return b;
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** The runs' current lines, least on top: a binary heap, as a crawl of a million pages merges a hundred runs. */
class MergeHeap {
  private readonly items: RunCursor[] = [];

  peek(): RunCursor | undefined {
    return this.items[0];
  }

  push(h: RunCursor): void {
    const items = this.items;
    items.push(h);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (items[parent]!.line <= items[i]!.line) break;
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
      if (l < items.length && items[l]!.line < items[least]!.line) least = l;
      if (r < items.length && items[r]!.line < items[least]!.line) least = r;
      if (least === i) return;
      [items[least], items[i]] = [items[i]!, items[least]!];
      i = least;
    }
  }
}
