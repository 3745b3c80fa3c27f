// The Node crawl path of a Wikispeedia case: the crawl core of lib/ (CrawlService, CrawlRunner, the same
// classifiers and frontier) run in Node on a fake-indexeddb store, pages answered from memory instead of a
// loopback server and Chromium. Same recipe as the extension's benchmark (caseConfig); minutes cheaper, so
// levers can be measured across every topic. Figures from it are labelled "Node" wherever they are reported.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/crawl/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { type FetchPort, realClock } from '../../lib/fetch/fetcher';
import { articleOfUrl, loadCorpusPages } from './corpus-server';
import { TOPIC_KEYWORDS, caseConfig, caseGroundTruth, harvestTable, type CaseOptions } from './wikispeedia';

const ORIGIN = 'http://wikispeedia.test';

const corpusPages = new Map<string, Map<string, string>>();

/** Answers corpus paths from memory, as the loopback server would (decoded-path lookup included). */
export function memoryFetch(corpus: string): FetchPort {
  let pages = corpusPages.get(corpus);
  if (!pages) {
    pages = new Map();
    for (const [path, html] of loadCorpusPages(corpus)) pages.set(decodeURIComponent(path), html);
    corpusPages.set(corpus, pages);
  }
  const byPath = pages;
  return async (url) => {
    const html = byPath.get(decodeURIComponent(new URL(url).pathname));
    return html === undefined
      ? new Response('not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
      : new Response(html, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
  };
}

export type NodeCaseOptions = Pick<CaseOptions, 'corpus' | 'topic' | 'seed' | 'budget' | 'strategy' | 'strategyParams' | 'concurrency' | 'learning' | 'rescoreEveryPages' | 'linksToJudged' | 'judgeSmoothing' | 'keywords' | 'classifier'>;

/** One case crawled by the crawl core in Node; returns the harvest table (scored split included) and timing. */
export async function runNodeCase(o: NodeCaseOptions) {
  const truth = caseGroundTruth(o.corpus, o.topic, o.seed);
  const pathOf = new Map(truth.articles.map((a) => [a.article, a.path]));
  const keywords = o.keywords ?? TOPIC_KEYWORDS[o.topic];
  if (!keywords?.length) throw new Error(`no keywords known for topic ${o.topic}`);
  const config = caseConfig(o, truth, (a) => ORIGIN + pathOf.get(a)!, false, keywords);
  const store = new CrawlStore(new CrawlerDB(`sweep-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: memoryFetch(o.corpus), clock: realClock });
  const t0 = Date.now();
  const { crawlId } = await service.handlers.start(config);
  await service.settled(crawlId);
  const rows = await store.pages.pagesAfter(crawlId, 0, 1e6);
  const crawled = rows.filter((r) => r.phase === 'crawl' && r.outcome === 'done' && r.status === 200).sort((a, b) => a.seq - b.seq);
  const seen = new Set<string>();
  const order: { article: string; on: boolean; scored: boolean; relevant: boolean | null; score: number; depth: number }[] = [];
  for (const r of crawled) {
    const article = articleOfUrl(r.finalUrl || r.url);
    if (!article || seen.has(article)) continue;
    seen.add(article);
    order.push({ article, on: truth.onTopic(article), scored: !truth.trainSet.has(article), relevant: r.relevant, score: r.score, depth: r.depth });
  }
  store.db.close();
  return { table: harvestTable(order, truth.reachOn.length, truth.reachOnScored.length), seconds: (Date.now() - t0) / 1000, pages: order };
}
