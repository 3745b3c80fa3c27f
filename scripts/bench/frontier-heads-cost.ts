// What the host heads cost the page commit on the Wikispeedia crawl: head rows read, written and deleted
// per crawled page, the writes that changed nothing, and the heads read again after they left the queue, counted by
// heads-meter.ts's middleware; the crawl core in Node on fake-indexeddb (node-crawl.ts's recipe), so the counts are
// the extension's (its time is not: see frontier-take-fifo.ts and frontier-scale.ts for Chromium's).
//   npx tsx scripts/bench/frontier-heads-cost.ts [--topic Science] [--seed English_language] [--budget 1000] [--web sites]
import { parseArgs } from 'node:util';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/app/service';
import { realClock } from '../../lib/net/fetcher';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { articleUrl, loadSites } from './corpus-server';
import { meterHeads } from './heads-meter';
import { memoryFetch } from './node-crawl';
import { DEFAULT_CORPUS, TOPIC_KEYWORDS, caseConfig, caseGroundTruth } from './wikispeedia';

export async function measureHeadsCost(o: { corpus: string; topic: string; seed: string; budget: number; web?: 'sites' }) {
  const truth = caseGroundTruth(o.corpus, o.topic, o.seed);
  const pathOf = new Map(truth.articles.map((a) => [a.article, a.path]));
  // The web of sites: each article on its own host, so the heads of many hosts move.
  const sites = o.web === 'sites' ? loadSites(o.corpus) : undefined;
  const config = caseConfig({ ...o, strategy: 'best-first', concurrency: 8 }, truth, (a) => articleUrl('http://wikispeedia.test', pathOf.get(a)!, sites),
    sites !== undefined, TOPIC_KEYWORDS[o.topic]!);
  const db = new CrawlerDB(`heads-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  const meter = meterHeads(db, { checkUnchanged: true });
  const store = new CrawlStore(db);
  const service = new CrawlService({ store, fetch: memoryFetch(o.corpus, sites), clock: realClock });
  const { crawlId } = await service.handlers.start(config);
  await service.settled(crawlId);
  const rows = await store.pages.pagesAfter(crawlId, 0, 1e6);
  const crawl = await store.getCrawl(crawlId);
  if (crawl?.state !== 'finished') throw new Error(`the crawl ended ${crawl?.state}: ${crawl?.message ?? ''}`);
  db.close();
  return { pages: rows.length, crawled: rows.filter((r) => r.phase === 'crawl').length, meter };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { corpus: { type: 'string', default: DEFAULT_CORPUS }, topic: { type: 'string', default: 'Science' },
    seed: { type: 'string', default: 'English_language' }, budget: { type: 'string', default: '1000' }, web: { type: 'string' } } });
  const r = await measureHeadsCost({ corpus: values.corpus!, topic: values.topic!, seed: values.seed!, budget: Number(values.budget),
    ...(values.web === 'sites' ? { web: 'sites' as const } : {}) });
  const m = r.meter;
  const per = (n: number) => (n / r.crawled).toFixed(2);
  console.log(`${r.pages} pages committed (${r.crawled} in the crawl phase), ${m.commits} commit transactions`);
  console.log(`per page of the crawl phase: ${per(m.frontierWrites)} frontier rows written; head rows ${per(m.headKeyReads)} read by key, ${per(m.headPuts)} put ` +
    `(${per(m.headPutsUnchanged)} unchanged), ${per(m.headDeletes)} deleted; ${per(m.reReads)} heads read again after they left the queue`);
  console.log(`re-reads' span ${(m.reReadMs / Math.max(1, m.commits)).toFixed(2)} ms a commit against ${(m.commitMs / Math.max(1, m.commits)).toFixed(2)} ms ` +
    `(${((m.reReadMs / Math.max(1, m.commitMs)) * 100).toFixed(1)}%; fake-indexeddb, not Chromium's times)`);
}
