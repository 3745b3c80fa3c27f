// The Node crawl path of a Wikispeedia case: the crawl core of lib/ (CrawlService, CrawlRunner, the same
// classifiers and frontier) run in Node on a fake-indexeddb store, pages answered from memory instead of a
// loopback server and Chromium. Same recipe as the extension's benchmark (caseConfig); minutes cheaper, so
// levers can be measured across every topic. Figures from it are labelled "Node" wherever they are reported.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { type FetchPort, realClock } from '../../lib/net/fetcher';
import { articleOfUrl, articleUrl, linkAcrossSites, loadCorpusPages, loadSites, onItsHost } from './corpus-server';
import { TOPIC_KEYWORDS, caseConfig, caseGroundTruth, harvestTable, type CaseOptions } from './wikispeedia';

const ORIGIN = 'http://wikispeedia.test';

const corpusPages = new Map<string, Map<string, string>>();

/**
 * Answers corpus paths from memory, as the loopback server would (decoded-path lookup included); with `sites`, as
 * the web of sites: each article only on its own host, its links absolute across hosts.
 */
export function memoryFetch(corpus: string, sites?: Map<string, string>, sitemaps = false): FetchPort {
  const key = `${corpus}${sites ? ' sites' : ''}`;
  let pages = corpusPages.get(key);
  if (!pages) {
    const read = loadCorpusPages(corpus);
    if (sites) linkAcrossSites(read, sites);
    pages = new Map();
    for (const [path, html] of read) pages.set(decodeURIComponent(path), html);
    corpusPages.set(key, pages);
  }
  const byPath = pages;
  return async (url) => {
    const u = new URL(url);
    // With `sitemaps`, each host lists its articles at /sitemap.xml, as a site's sitemap does (the corpus has none).
    if (u.pathname === '/sitemap.xml' && sitemaps) return new Response(sitemapOf(byPath, u, sites), { status: 200, headers: { 'content-type': 'application/xml' } });
    const html = sites && !onItsHost(u, sites) ? undefined : byPath.get(decodeURIComponent(u.pathname));
    return html === undefined
      ? new Response('not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
      : new Response(html, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
  };
}

/** The sitemap of a host: every article it serves (on the one site, all of them), at most 50,000. */
function sitemapOf(pages: Map<string, string>, u: URL, sites?: Map<string, string>): string {
  const locs = [...pages.keys()].filter((path) => !sites || onItsHost(new URL(path, u.origin), sites)).slice(0, 50_000)
    .map((path) => `<url><loc>${new URL(encodeURI(path), u.origin).href.replace(/&/g, '&amp;')}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</urlset>`;
}

/** Reads the corpus into memory now, so the first case timed does not pay for it. */
export function loadCorpusInMemory(corpus: string, web?: 'one-site' | 'sites'): void {
  memoryFetch(corpus, web === 'sites' ? loadSites(corpus) : undefined);
}

export type NodeCaseOptions = Pick<CaseOptions, 'corpus' | 'topic' | 'seed' | 'budget' | 'strategy' | 'strategyParams' | 'concurrency' | 'learning' | 'rescoreEveryPages' | 'linksToJudged' | 'judgeSmoothing' | 'keywords' | 'classifier' | 'web' | 'maxSources'> & {
  /** `seeds.sitemaps` (default false here, so the figures before it stay comparable), and whether the hosts serve one. */
  seedSitemaps?: boolean;
  serveSitemaps?: boolean;
};

/** One case crawled by the crawl core in Node; returns the harvest table (scored split included) and timing. */
export async function runNodeCase(o: NodeCaseOptions) {
  const truth = caseGroundTruth(o.corpus, o.topic, o.seed);
  const pathOf = new Map(truth.articles.map((a) => [a.article, a.path]));
  const keywords = o.keywords ?? TOPIC_KEYWORDS[o.topic];
  if (!keywords?.length) throw new Error(`no keywords known for topic ${o.topic}`);
  const sites = o.web === 'sites' ? loadSites(o.corpus) : undefined;
  const made = caseConfig(o, truth, (a) => articleUrl(ORIGIN, pathOf.get(a)!, sites), sites !== undefined, keywords);
  const config = { ...made, seeds: { urls: made.seeds, sitemaps: o.seedSitemaps ?? false } };
  const store = new CrawlStore(new CrawlerDB(`sweep-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: memoryFetch(o.corpus, sites, o.serveSitemaps), clock: realClock });
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
  const seconds = (Date.now() - t0) / 1000;
  const crawl = await store.getCrawl(crawlId);
  store.db.close();
  // Crawl-phase throughput from the fetch timestamps (training reads excluded), as the extension's benchmark counts it.
  const span = crawled.length > 1 ? (crawled.at(-1)!.fetchedAt - crawled[0]!.fetchedAt) / 1000 : NaN;
  return {
    table: harvestTable(order, truth.reachOn.length, truth.reachOnScored.length), seconds, pages: order,
    pagesPerSecond: span > 0 ? (crawled.length - 1) / span : NaN, strategyReport: crawl?.strategyReport,
  };
}
