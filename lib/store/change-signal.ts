// How the crawl's writes reach the pages that show them: a few messages a second, not one a transaction.
//
// Dexie tells every other context of each write transaction as it completes (a BroadcastChannel message of the exact
// keys written, per table and index), and each open page merges those keys into every live query it runs. A crawl
// commits several transactions a page, many pages a second: with the dashboard open, merging them took about a third
// of the dashboard's busy time, and the crawl ran at about 0.8 of the pace it kept with nothing open. The views read
// again at most twice a second (lib/ui/queries.ts), so exact keys a few milliseconds apart buy nothing.
//
// In the context that runs crawls, `paceChangeSignals` takes each write transaction's mutated parts as it completes,
// before Dexie announces them, and announces what was written every `everyMs` instead: for each part, one range from
// the least key written to the greatest. A range holds every key written, so a live query that read any of them
// runs again, as before; it may run again for a key between them that was not written, which a view reading twice a
// second does not notice. The announcement goes out through Dexie's own event, so it reaches other contexts and this
// one's live queries alike, at most `everyMs` late.
//
// It leans on one thing Dexie does not document: a write transaction carries its mutated parts as `mutatedParts`
// until its `complete` event, where Dexie fires them (tests/unit/change-signal.test.ts fails if that changes).
import Dexie, { cmp, RangeSet, type DBCore, type DBCoreTransaction, type IndexableType, type IntervalTree, type ObservabilitySet } from 'dexie';

/** How often, at most, the crawl's writes are announced to the pages showing them. */
export const CHANGE_SIGNAL_MS = 200;

interface Bounds {
  from: IndexableType;
  to: IndexableType;
}

/** The least and greatest key of a set of ranges (undefined when it is empty). */
function bounds(tree: IntervalTree): Bounds | undefined {
  let first: Bounds | undefined;
  let last: Bounds | undefined;
  // The ranges of a set come in key order and do not overlap: the first starts lowest, the last ends highest.
  for (const node of RangeSet(tree)) {
    first ??= node;
    last = node;
  }
  return first && last ? { from: first.from, to: last.to } : undefined;
}

/** Announces `db`'s write transactions every `everyMs`, each part as one range (see above). Call before `db` opens. */
export function paceChangeSignals(db: Dexie, everyMs = CHANGE_SIGNAL_MS): void {
  let pending = new Map<string, Bounds>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    timer = undefined;
    const parts: ObservabilitySet = {};
    for (const [part, b] of pending) parts[part] = new RangeSet(b.from, b.to);
    pending = new Map();
    Dexie.on.storagemutated.fire(parts);
  };

  const heard = (mutated: ObservabilitySet) => {
    for (const part of Object.keys(mutated)) {
      const b = bounds(mutated[part]);
      if (!b) continue;
      const had = pending.get(part);
      pending.set(part, had ? { from: cmp(b.from, had.from) < 0 ? b.from : had.from, to: cmp(b.to, had.to) > 0 ? b.to : had.to } : b);
    }
    timer ??= setTimeout(flush, everyMs);
  };

  db.use({
    stack: 'dbcore',
    name: 'paced-change-signals',
    create: (down: DBCore): DBCore => ({
      ...down,
      transaction(stores, mode, options) {
        const trans = down.transaction(stores, mode, options);
        if (mode === 'readwrite') {
          const idb = trans as DBCoreTransaction & IDBTransaction & { mutatedParts?: ObservabilitySet };
          // Registered before Dexie sets `oncomplete` on the transaction it was handed, so this runs first.
          idb.addEventListener('complete', () => {
            const mutated = idb.mutatedParts;
            if (!mutated) return;
            delete idb.mutatedParts;
            heard(mutated);
          });
        }
        return trans;
      },
    }),
  });
}
