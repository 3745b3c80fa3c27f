// Heads in memory: a list of keyed frontier positions, best first, that the worker keeps in step with its
// own frontier writes, inside their transactions. Host heads (host-heads.ts) and the FIFO queues' heads by host
// (queue-heads.ts) are both such lists.
import Dexie from 'dexie';
import type { FrontierEntry } from '../records/types';

/** Hosts whose queued rows are kept at most, per list: the front of the queue, which the takes read. */
const KEPT_ROWS = 4096;
/** Queued rows kept at most, per list and over all its hosts. */
const KEPT_QUEUE_ROWS = 16_384;
/** The best queued rows of a host a take reads at once (and a list keeps): the next takes from it read none. */
export const QUEUE_AHEAD = 8;

/** A frontier position: [priority, order], compared in that order (the tail of the frontier's indexes). */
export type Position = [number, number];

/** The frontier index a host's queued URLs are read through, best first (and a queue's, within a priority). */
export const HOST_INDEX = '[crawlId+site+state+host+priority+order]';

export const above = (a: Position, b: Position) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
const posOf = (e: Pick<FrontierEntry, 'priority' | 'order'>): Position => [e.priority, e.order];

/** The best queued rows of a key, best first, as stored; `whole`: they are all its queued rows. */
export interface HeldQueue {
  rows: readonly FrontierEntry[];
  whole: boolean;
}

/**
 * Keyed positions, best first. Positions are unique (`order` is), so a position finds its key. Also the best queued
 * rows of some keys as last read (their head row first): a take passes a busy host by its head row, and takes a ready
 * host's next URLs from the rows held, without a read. The writer forgets a key's rows whenever it writes a row of that
 * key (a take that wrote them keeps what it left), and they go when the head moves, so held rows are the rows as stored.
 */
export class HeadList {
  private readonly byKey = new Map<string, Position>();
  /** Best first. */
  private readonly list: { key: string; pos: Position }[] = [];
  private readonly rows = new Map<string, HeldQueue>();
  private heldRows = 0;

  /** The head row of `key`, if held. */
  row(key: string): FrontierEntry | undefined {
    return this.rows.get(key)?.rows[0];
  }

  /** The best queued rows of `key` held, head first, if any. */
  queue(key: string): HeldQueue | undefined {
    return this.rows.get(key);
  }

  /** Holds a row read as the head of `key` (when it is). */
  keep(key: string, e: FrontierEntry): void {
    this.keepQueue(key, [e], false);
  }

  /**
   * Holds the best queued rows of `key` as read, best first (when the first is its head); `whole` when they are all
   * of them. Copies, at most QUEUE_AHEAD * 2.
   */
  keepQueue(key: string, rows: readonly FrontierEntry[], whole: boolean): void {
    const pos = this.get(key);
    const e = rows[0];
    if (!pos || !e || pos[0] !== e.priority || pos[1] !== e.order || e.state !== 'queued') return;
    this.forget(key);
    const kept = rows.slice(0, 2 * QUEUE_AHEAD).map((r) => ({ ...r }));
    this.rows.set(key, { rows: kept, whole: whole && kept.length === rows.length });
    this.heldRows += kept.length;
    while (this.rows.size > KEPT_ROWS || this.heldRows > KEPT_QUEUE_ROWS) this.forget(this.rows.keys().next().value!);
  }

  /**
   * A row of `key` is written (`was` what it was, if known): the rows held stay its best queued rows, in order. A row
   * that leaves the queue leaves them; one queued among them (or anywhere, when they are all of them) joins them.
   * Anything they do not account for (a queued row not held that ranks among them) forgets them.
   */
  noteWrite(key: string, row: FrontierEntry, was: FrontierEntry | undefined): void {
    const held = this.rows.get(key);
    if (!held) return;
    const rows = [...held.rows];
    const last = posOf(rows.at(-1)!);
    /** Ranks among the rows held: above the last of them, or anywhere when they are all of the host's. */
    const among = (e: FrontierEntry) => held.whole || above(posOf(e), last);
    const i = rows.findIndex((e) => e.url === row.url);
    if (was?.state === 'queued') {
      // Held, it must be held as it was; not held, it must rank below them.
      if (i >= 0 ? rows[i]!.priority !== was.priority || rows[i]!.order !== was.order : held.whole || !above(last, posOf(was))) return this.forget(key);
      if (i >= 0) rows.splice(i, 1);
    } else if (i >= 0) return this.forget(key);
    if (row.state === 'queued' && among(row)) {
      const at = rows.findIndex((e) => above(posOf(row), posOf(e)));
      rows.splice(at < 0 ? rows.length : at, 0, { ...row });
    }
    if (!rows.length) return this.forget(key);
    const kept = rows.slice(0, 2 * QUEUE_AHEAD);
    this.heldRows += kept.length - held.rows.length;
    this.rows.set(key, { rows: kept, whole: held.whole && kept.length === rows.length });
  }

  /** Forgets the rows of `key` (a row of it is written). */
  forget(key: string): void {
    const held = this.rows.get(key);
    if (!held) return;
    this.heldRows -= held.rows.length;
    this.rows.delete(key);
  }

  get size(): number {
    return this.list.length;
  }

  get(key: string): Position | undefined {
    return this.byKey.get(key);
  }

  /** The i-th best head. */
  at(i: number): { key: string; pos: Position } | undefined {
    return this.list[i];
  }

  /** Where `pos` goes in the list: the first index whose head is not above it. */
  place(pos: Position): number {
    let lo = 0, hi = this.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (above(this.list[mid]!.pos, pos)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  set(key: string, pos: Position): void {
    // The rows held stay while the first is the head (a write that moved the head noted its rows first).
    const held = this.rows.get(key);
    const row = held && held.rows[0]!.priority === pos[0] && held.rows[0]!.order === pos[1] ? held : undefined;
    this.delete(key);
    if (row) {
      this.rows.set(key, row);
      this.heldRows += row.rows.length;
    }
    this.byKey.set(key, pos);
    this.list.splice(this.place(pos), 0, { key, pos });
  }

  delete(key: string): void {
    this.forget(key);
    const pos = this.byKey.get(key);
    if (!pos) return;
    this.byKey.delete(key);
    for (let i = this.place(pos); i < this.list.length; i++) {
      if (this.list[i]!.key === key) {
        this.list.splice(i, 1);
        return;
      }
    }
  }
}

/** Per transaction, what to drop if it aborts (by name, so that each is registered once). */
const onAbort = new WeakMap<IDBTransaction, Map<string, () => void>>();

/**
 * A list about to change inside the current transaction: `drop` runs if the transaction aborts (the list would name
 * writes that never happened). Outside a transaction there is nothing to keep in step with: answers false, and the
 * caller drops its list.
 */
export function inTransaction(name: string, drop: () => void): boolean {
  const tx = Dexie.currentTransaction?.idbtrans;
  if (!tx) return false;
  let drops = onAbort.get(tx);
  if (!drops) {
    onAbort.set(tx, (drops = new Map()));
    tx.addEventListener('abort', () => {
      for (const d of drops!.values()) d();
    });
  }
  drops.set(name, drop);
  return true;
}
