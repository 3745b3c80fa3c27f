// Heads in memory (issue 36): a list of keyed frontier positions, best first, that the worker keeps in step with its
// own frontier writes, inside their transactions. Host heads (host-heads.ts) and the FIFO queues' heads by host
// (queue-heads.ts) are both such lists.
import Dexie from 'dexie';
import type { FrontierEntry } from '../types';

/** Head rows kept at most, per list: the front of the queue, which the takes read. */
const KEPT_ROWS = 4096;

/** A frontier position: [priority, order], compared in that order (the tail of the frontier's indexes). */
export type Position = [number, number];

/** The frontier index a host's queued URLs are read through, best first (and a queue's, within a priority). */
export const HOST_INDEX = '[crawlId+site+state+host+priority+order]';

export const above = (a: Position, b: Position) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

/**
 * Keyed positions, best first. Positions are unique (`order` is), so a position finds its key. Also the rows of some
 * heads as last read: a take passes a busy host by its head row, and one the list holds costs no read. The writer
 * forgets a key's row whenever it writes a row of that key, and a row goes when its head moves, so a held row is the
 * row as stored.
 */
export class HeadList {
  private readonly byKey = new Map<string, Position>();
  /** Best first. */
  private readonly list: { key: string; pos: Position }[] = [];
  private readonly rows = new Map<string, FrontierEntry>();

  /** The head row of `key`, if held. */
  row(key: string): FrontierEntry | undefined {
    return this.rows.get(key);
  }

  /** Holds a row read as the head of `key` (when it is). */
  keep(key: string, e: FrontierEntry): void {
    const pos = this.get(key);
    if (!pos || pos[0] !== e.priority || pos[1] !== e.order || e.state !== 'queued') return;
    this.rows.delete(key);
    this.rows.set(key, { ...e });
    if (this.rows.size > KEPT_ROWS) this.rows.delete(this.rows.keys().next().value!);
  }

  /** Forgets the row of `key` (a row of it is written). */
  forget(key: string): void {
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
    const was = this.byKey.get(key);
    const row = was && was[0] === pos[0] && was[1] === pos[1] ? this.rows.get(key) : undefined;
    this.delete(key);
    if (row) this.rows.set(key, row);
    this.byKey.set(key, pos);
    this.list.splice(this.place(pos), 0, { key, pos });
  }

  delete(key: string): void {
    this.rows.delete(key);
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
