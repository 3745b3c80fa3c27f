// A crawl's config is written once, to its own row, not with every write of the crawl's row.
//
// The crawl row changes with every page commit (its counts), and IndexedDB writes a row whole: a config with a
// training set of a thousand URLs (or big keyword and pattern lists) made each commit write ~150 KB for a few
// changed numbers, three times a page's body. The config does not change once the crawl is created, so this
// middleware stores it in `crawlConfigs` (schema v13) and keeps the crawl row to what changes. Readers see no
// difference: every read of `crawls` (get, getMany, query, cursor) returns rows with their `config`, and every
// transaction over `crawls` also covers `crawlConfigs`. Each context keeps the configs it has read or written, so a
// commit neither reads nor writes the config again: a put whose `config` is the very object read (the commit spreads
// the row it read) writes the crawl row alone; any other config object is written to its row as given.
//
// Rows written before v13 keep their config inline until their next write; reads return them as they are.
import type { DBCore, DBCoreCursor, DBCoreMutateRequest, DBCoreTable, DBCoreTransaction, Middleware } from 'dexie';
import type { CrawlConfig } from '../records/config';
import type { CrawlRecord } from '../records/rows';

export const CONFIG_TABLE = 'crawlConfigs';

/** A crawl's config as stored apart from its row. `createdAt` ties it to that crawl (ids restart when a database is wiped). */
export interface CrawlConfigRow {
  crawlId: number;
  createdAt: number;
  config: CrawlConfig;
}

type Row = Partial<CrawlRecord> & { id?: number };

const upgrading = (trans: DBCoreTransaction): boolean => (trans as unknown as IDBTransaction).mode === 'versionchange';

export function crawlConfigMiddleware(): Middleware<DBCore> {
  // What this context knows of each crawl's config: read from or written to its row. A config never changes.
  const known = new Map<number, { createdAt: number; config: CrawlConfig }>();
  const cached = (r: Row): CrawlConfig | undefined => {
    const k = r.id === undefined ? undefined : known.get(r.id);
    return k && k.createdAt === r.createdAt ? k.config : undefined;
  };
  const joined = (r: Row | undefined): Row | undefined => {
    if (!r || typeof r !== 'object' || 'config' in r) return r;
    const config = cached(r);
    return config ? { ...r, config } : r;
  };

  return {
    stack: 'dbcore',
    name: 'crawl-configs',
    // Below Dexie's own middlewares (its live-query cache is at 0, the values it keeps for hooks at -1): they see rows
    // with their configs, and a read answered from the cache never reaches a transaction that has ended.
    level: -2,
    create(down: DBCore): DBCore {
      if (!down.schema.tables.some((t) => t.name === CONFIG_TABLE)) return down;
      const configs = () => down.table(CONFIG_TABLE);

      /** Reads the configs of rows this context has not seen yet, in the read's own transaction, then joins them. */
      const join = (trans: DBCoreTransaction, rows: (Row | undefined)[]): Promise<(Row | undefined)[]> => {
        const missing = [...new Set(rows.flatMap((r) => (r && !('config' in r) && r.id !== undefined && !cached(r) ? [r.id] : [])))];
        if (!missing.length) return Promise.resolve(rows.map(joined));
        return configs().getMany({ trans, keys: missing }).then((found: (CrawlConfigRow | undefined)[]) => {
          for (const c of found) if (c) known.set(c.crawlId, { createdAt: c.createdAt, config: c.config });
          return rows.map(joined);
        });
      };

      /** Before a cursor over crawl rows opens: every config row this context lacks, so the cursor joins synchronously. */
      const warm = (trans: DBCoreTransaction): Promise<void> =>
        configs().query({ trans, values: false, query: { index: configs().schema.primaryKey, range: { type: 3 /* Any */, lower: undefined, upper: undefined } } }).then(({ result }) => {
          const keys = (result as number[]).filter((id) => !known.has(id));
          if (!keys.length) return;
          return configs().getMany({ trans, keys }).then((found: (CrawlConfigRow | undefined)[]) => {
            for (const c of found) if (c) known.set(c.crawlId, { createdAt: c.createdAt, config: c.config });
          });
        });

      const mutate = (table: DBCoreTable, req: DBCoreMutateRequest) => {
        if (upgrading(req.trans)) return table.mutate(req);
        if (req.type === 'delete') return Promise.all([table.mutate(req), configs().mutate({ trans: req.trans, type: 'delete', keys: req.keys })]).then(([res]) => res);
        if (req.type === 'deleteRange') return Promise.all([table.mutate(req), configs().mutate({ trans: req.trans, type: 'deleteRange', range: req.range })]).then(([res]) => res);
        const values = req.values as Row[];
        // Configs to write: those this context did not read or write as the very same object.
        const fresh = values.map((v) => (v.config !== undefined && (v.id === undefined || cached(v) !== v.config) ? v.config : undefined));
        const stripped = values.map((v) => {
          if (!('config' in v)) return v;
          const { config: _, ...rest } = v;
          return rest;
        });
        return table.mutate({ ...req, values: stripped } as DBCoreMutateRequest).then((res) => {
          const rows: CrawlConfigRow[] = [];
          values.forEach((v, i) => {
            const config = fresh[i];
            const id = (res.results?.[i] ?? v.id) as number | undefined;
            if (config === undefined || id === undefined || res.failures[i]) return;
            rows.push({ crawlId: id, createdAt: v.createdAt ?? 0, config });
          });
          if (!rows.length) return res;
          return configs().mutate({ trans: req.trans, type: 'put', values: rows }).then(() => {
            for (const r of rows) known.set(r.crawlId, { createdAt: r.createdAt, config: r.config });
            return res;
          });
        });
      };

      return {
        ...down,
        transaction(stores, mode, options) {
          return down.transaction(stores.includes('crawls') && !stores.includes(CONFIG_TABLE) ? [...stores, CONFIG_TABLE] : stores, mode, options);
        },
        table(name) {
          const table = down.table(name);
          if (name !== 'crawls') return table;
          return {
            ...table,
            mutate: (req) => mutate(table, req),
            get: (req) => table.get(req).then((r: Row | undefined) => (upgrading(req.trans) ? r : join(req.trans, [r]).then(([j]) => j))),
            getMany: (req) => table.getMany(req).then((rs: (Row | undefined)[]) => (upgrading(req.trans) ? rs : join(req.trans, rs))),
            query: (req) =>
              table.query(req).then((res) => (!req.values || upgrading(req.trans) ? res : join(req.trans, res.result as Row[]).then((result) => ({ ...res, result })))),
            openCursor: (req) => {
              if (!req.values || upgrading(req.trans)) return table.openCursor(req);
              return warm(req.trans).then(() => table.openCursor(req)).then((cursor) => cursor && joinedCursor(cursor, joined));
            },
          };
        },
      };
    },
  };
}

/** The cursor with each value joined to its config (the configs were warmed before it opened). */
function joinedCursor(cursor: DBCoreCursor, joined: (r: Row | undefined) => Row | undefined): DBCoreCursor {
  // As Dexie's own middlewares wrap a cursor: the native cursor's getters must be read on the cursor itself.
  return Object.create(cursor, {
    key: { get: () => cursor.key },
    primaryKey: { get: () => cursor.primaryKey },
    value: { get: () => joined(cursor.value as Row | undefined) },
  }) as DBCoreCursor;
}
