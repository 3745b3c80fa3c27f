// How many frontier rows a crawl reads and writes per page it commits, on the Wikispeedia corpus (issue 36): the
// page commit reads the frontier row of every link it found, to dedup and raise, and writes the rows that change.
// Counted here, in the benchmark, by a Dexie middleware on the store's own database: the crawl core runs in Node on
// fake-indexeddb (node-crawl.ts's recipe), so the counts are the extension's, and the time is not reported.
//   npx tsx scripts/bench/frontier-commit-ops.ts [--topic Science] [--seed English_language] [--budget 1000] [--web sites]
//     [--classifier '{"everyLink":false}']
import { parseArgs } from 'node:util';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { DBCore, DBCoreTable } from 'dexie';
import type { FrontierEntry } from '../../lib/types';
import { CrawlService } from '../../lib/crawl/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/fetch/fetcher';
import { articleUrl, loadSites } from './corpus-server';
import { memoryFetch } from './node-crawl';
import { DEFAULT_CORPUS, TOPIC_KEYWORDS, caseConfig, caseGroundTruth } from './wikispeedia';

/** Frontier rows asked for by key, rows added or put, and rows a take or scan returned. */
export interface FrontierOps {
  keyReads: number; known: number; writes: number; rangeRows: number;
  /** Puts over an existing row: changing its state, else its priority, else neither (its queue position stays). */
  stateChanges: number; priorityChanges: number; samePosition: number;
}

/** Counts the frontier table's requests of `db` into `ops` (the middleware sees every Dexie call of the store). */
function countFrontier(db: CrawlerDB, ops: FrontierOps): void {
  db.use({
    stack: 'dbcore', name: 'count-frontier',
    create: (down: DBCore): DBCore => ({
      ...down,
      table(name: string): DBCoreTable {
        const t = down.table(name);
        if (name !== 'frontier') return t;
        return {
          ...t,
          async getMany(req) {
            const rows = await t.getMany(req);
            ops.keyReads += req.keys.length;
            ops.known += rows.filter((r) => r !== undefined).length;
            return rows;
          },
          async get(req) {
            const row = await t.get(req);
            ops.keyReads++;
            if (row !== undefined) ops.known++;
            return row;
          },
          async mutate(req) {
            if (req.type === 'add' || req.type === 'put') ops.writes += req.values.length;
            if (req.type === 'put') {
              // What each put changes of the row it replaces (read in the same transaction, for the count only).
              const keys = req.values.map((v: FrontierEntry) => [v.crawlId, v.url]);
              const before = await t.getMany({ trans: req.trans, keys });
              req.values.forEach((v: FrontierEntry, i) => {
                const old = before[i] as FrontierEntry | undefined;
                if (!old) return;
                if (old.state !== v.state) ops.stateChanges++;
                else if (old.priority !== v.priority) ops.priorityChanges++;
                else ops.samePosition++;
              });
            }
            return t.mutate(req);
          },
          async query(req) {
            const res = await t.query(req);
            ops.rangeRows += res.result.length;
            return res;
          },
        };
      },
    }),
  });
}

export async function measureCommitOps(o: { corpus: string; topic: string; seed: string; budget: number; web?: 'sites'; classifier?: Record<string, unknown> }) {
  const truth = caseGroundTruth(o.corpus, o.topic, o.seed);
  const pathOf = new Map(truth.articles.map((a) => [a.article, a.path]));
  const sites = o.web === 'sites' ? loadSites(o.corpus) : undefined;
  const config = caseConfig({ ...o, strategy: 'best-first', concurrency: 8 }, truth, (a) => articleUrl('http://wikispeedia.test', pathOf.get(a)!, sites),
    sites !== undefined, TOPIC_KEYWORDS[o.topic]!);
  const db = new CrawlerDB(`ops-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  const ops: FrontierOps = { keyReads: 0, known: 0, writes: 0, rangeRows: 0, stateChanges: 0, priorityChanges: 0, samePosition: 0 };
  countFrontier(db, ops);
  const store = new CrawlStore(db);
  const service = new CrawlService({ store, fetch: memoryFetch(o.corpus, sites), clock: realClock });
  const { crawlId } = await service.handlers.start(config);
  await service.settled(crawlId);
  const crawl = await store.getCrawl(crawlId);
  const rows = await store.pages.pagesAfter(crawlId, 0, 1e6);
  db.close();
  return { pages: rows.length, crawled: rows.filter((r) => r.phase === 'crawl').length, queued: crawl!.stats.queued, ops };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { corpus: { type: 'string', default: DEFAULT_CORPUS }, topic: { type: 'string', default: 'Science' },
    seed: { type: 'string', default: 'English_language' }, budget: { type: 'string', default: '1000' }, web: { type: 'string' }, classifier: { type: 'string' } } });
  const r = await measureCommitOps({ corpus: values.corpus!, topic: values.topic!, seed: values.seed!, budget: Number(values.budget),
    ...(values.web === 'sites' ? { web: 'sites' as const } : {}),
    ...(values.classifier ? { classifier: JSON.parse(values.classifier) as Record<string, unknown> } : {}) });
  const per = (n: number) => (n / r.crawled).toFixed(1);
  console.log(`${r.pages} pages committed (${r.crawled} in the crawl phase, the rest training reads), ${r.queued} URLs left queued`);
  console.log(`frontier rows per crawled page: ${per(r.ops.keyReads)} read by key (${per(r.ops.known)} of them known, ${per(r.ops.keyReads - r.ops.known)} new), `
    + `${per(r.ops.writes)} written, ${per(r.ops.rangeRows)} returned by range reads (takes, scans)`);
  console.log(`puts over a known row per crawled page: ${per(r.ops.stateChanges)} change its state, ${per(r.ops.priorityChanges)} only its priority, `
    + `${per(r.ops.samePosition)} neither (a link counted into the row: inlinks, found-by)`);
}
