// What the host heads (lib/store/host-heads.ts) cost the page commit, counted by a Dexie middleware on the
// store's database (in the benchmark, not in shipped code): per commit transaction (one that writes the pages table),
// the head rows it reads by key, puts and deletes, the puts that wrote what the row already held, and its reads of a
// host's best URL through the host index after its head left the queue; and the time those reads add at the end of
// the commit (they wait for the commit's writes), against the commit's own time. Runs in Node and in a page.
import type { DBCore, DBCoreTable, DBCoreTransaction } from 'dexie';
import type { CrawlerDB } from '../../lib/store/db';
import type { HostHead } from '../../lib/records/rows';

const HOST_INDEX = '[crawlId+site+state+host+priority+order]';

export interface HeadsMeter {
  /** Commit transactions seen (a group commit of several pages is one), and their time from first request to complete. */
  commits: number; commitMs: number;
  /** Frontier rows the commits wrote. */
  frontierWrites: number;
  headKeyReads: number; headPuts: number; headDeletes: number;
  /** Puts that wrote the head the table already held (counted only with `checkUnchanged`: it reads the row first). */
  headPutsUnchanged: number;
  /** Reads of a host's queue through the host index in commits: the heads read again after they left. */
  reReads: number;
  /** Per commit, from its first re-read to its last answer: what the re-reads add to the commit. */
  reReadMs: number;
}

export function meterHeads(db: CrawlerDB, opts: { checkUnchanged?: boolean } = {}): HeadsMeter {
  const m: HeadsMeter = { commits: 0, commitMs: 0, frontierWrites: 0, headKeyReads: 0, headPuts: 0, headDeletes: 0, headPutsUnchanged: 0, reReads: 0, reReadMs: 0 };
  /** Per commit transaction: when it began, and its re-reads' span. */
  const seen = new WeakMap<IDBTransaction, { start: number; reFirst?: number; reLast?: number }>();
  const commitOf = (trans: DBCoreTransaction) => {
    const tx = trans as unknown as IDBTransaction;
    if (!tx.objectStoreNames?.contains('pages') || tx.mode !== 'readwrite') return undefined;
    let c = seen.get(tx);
    if (!c) {
      seen.set(tx, (c = { start: performance.now() }));
      m.commits++;
      tx.addEventListener('complete', () => {
        m.commitMs += performance.now() - c!.start;
        if (c!.reFirst !== undefined) m.reReadMs += c!.reLast! - c!.reFirst;
      });
    }
    return c;
  };
  db.use({
    stack: 'dbcore', name: 'meter-heads',
    create: (down: DBCore): DBCore => ({
      ...down,
      table(name: string): DBCoreTable {
        const t = down.table(name);
        if (name === 'frontier') {
          return {
            ...t,
            mutate(req) {
              if (commitOf(req.trans) && (req.type === 'add' || req.type === 'put')) m.frontierWrites += req.values.length;
              return t.mutate(req);
            },
            // Dexie's own promises throughout: a native one in a transaction's chain can let it commit early.
            query(req) {
              const c = commitOf(req.trans);
              if (!c || req.query.index.name !== HOST_INDEX) return t.query(req);
              m.reReads++;
              c.reFirst ??= performance.now();
              return t.query(req).then((res) => {
                c.reLast = performance.now();
                return res;
              });
            },
          };
        }
        if (name !== 'hostHeads') return t;
        return {
          ...t,
          getMany(req) {
            if (commitOf(req.trans)) m.headKeyReads += req.keys.length;
            return t.getMany(req);
          },
          get(req) {
            if (commitOf(req.trans)) m.headKeyReads++;
            return t.get(req);
          },
          mutate(req) {
            if (!commitOf(req.trans)) return t.mutate(req);
            if (req.type === 'delete') m.headDeletes += req.keys.length;
            if ((req.type === 'put' || req.type === 'add') && opts.checkUnchanged) {
              m.headPuts += req.values.length;
              const values = req.values as HostHead[];
              return t.getMany({ trans: req.trans, keys: values.map((v) => [v.crawlId, v.site, v.host]) }).then((before) => {
                values.forEach((v, i) => {
                  const b = before[i] as HostHead | undefined;
                  if (b?.priority === v.priority && b?.order === v.order) m.headPutsUnchanged++;
                });
                return t.mutate(req);
              });
            }
            if (req.type === 'put' || req.type === 'add') m.headPuts += req.values.length;
            return t.mutate(req);
          },
        };
      },
    }),
  });
  return m;
}
