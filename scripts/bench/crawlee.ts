// Baseline: Crawlee's CheerioCrawler on the Wikispeedia corpus (shared/corpora/wikispeedia), served on loopback,
// configured as a user would for a same-site crawl with politeness off, and scored like scripts/bench/wikispeedia.ts
// (harvest at 100/250/500/1000/2000 fetches and recall of the topic's pages reachable from the seed, labels.tsv).
//   npx tsx scripts/bench/crawlee.ts [--corpus DIR] [--seed English_language] [--topic Science] [--budget 2000]
//     [--concurrency 4]
// Crawlee's request queue hands out requests first-in first-out, so with `enqueueLinks` from every page the crawl
// is breadth-first-like (only approximately: `concurrency` handlers enqueue in the order they finish).
// Storage is in memory only (a fresh directory under os.tmpdir(), removed afterwards): nothing is left in the repo.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CheerioCrawler, Configuration, log, LogLevel } from 'crawlee';
import { articleOfUrl, startCorpusServer } from './corpus-server';
import { caseGroundTruth, DEFAULT_CORPUS, scoreUrls } from './wikispeedia';

export interface CrawleeRun {
  /** Fetched page URLs in the order their responses were handled. */
  urls: string[];
  seconds: number;
  pagesPerSecond: number;
}

export async function runCrawlee(opts: { origin: string; seedUrl: string; budget: number; concurrency: number }): Promise<CrawleeRun> {
  const storageDir = mkdtempSync(join(tmpdir(), 'crawlee-bench-'));
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    storageClientOptions: { localDataDirectory: storageDir, persistStorage: false },
    logLevel: LogLevel.ERROR,
  });
  const previousLevel = log.getLevel();
  log.setLevel(LogLevel.ERROR);
  const urls: string[] = [];
  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl: opts.budget,
      minConcurrency: opts.concurrency,
      maxConcurrency: opts.concurrency,
      maxRequestRetries: 0,
      sameDomainDelaySecs: 0,
      async requestHandler({ request, enqueueLinks }) {
        urls.push(request.loadedUrl ?? request.url);
        await enqueueLinks({ strategy: 'same-domain' });
      },
    },
    config,
  );
  try {
    const t0 = performance.now();
    await crawler.run([opts.seedUrl]);
    const seconds = (performance.now() - t0) / 1000;
    return { urls, seconds, pagesPerSecond: urls.length / seconds };
  } finally {
    log.setLevel(previousLevel);
    rmSync(storageDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS }, seed: { type: 'string', default: 'English_language' },
      topic: { type: 'string', default: 'Science' }, budget: { type: 'string', default: '2000' },
      concurrency: { type: 'string', default: '4' },
    },
  });
  const corpus = v.corpus!, seed = v.seed!, topic = v.topic!, budget = Number(v.budget), concurrency = Number(v.concurrency);
  if (!(budget > 0) || !(concurrency > 0)) throw new Error('--budget and --concurrency: positive numbers');
  const truth = caseGroundTruth(corpus, topic, seed); // throws if the seed is not in the corpus
  const seedPath = truth.articles.find((a) => a.article === seed)!.path;

  const site = await startCorpusServer(corpus);
  const tWall = performance.now();
  let run: CrawleeRun;
  try {
    run = await runCrawlee({ origin: site.origin, seedUrl: site.origin + seedPath, budget, concurrency });
  } finally {
    await site.close();
  }
  const wall = (performance.now() - tWall) / 1000;
  const serverRequests = [...site.hits.values()].reduce((a, b) => a + b, 0);
  const table = scoreUrls(run.urls, truth);
  const articles = run.urls.map(articleOfUrl);
  const distinct = new Set(articles.filter(Boolean)).size;

  const f = (x: number | null) => (x === null ? '  -  ' : x.toFixed(3)).padStart(7);
  console.log(`Crawlee CheerioCrawler: ${topic} from ${seed}, budget ${budget}, concurrency ${concurrency}`);
  console.log('order: Crawlee request queue is FIFO (breadth-first-like), enqueueLinks same-domain from every page');
  console.log(`${truth.reachOn.length} ${topic} pages reachable from the seed (${truth.reachOnScored.length} in the scored split); ` +
    `${run.urls.length} responses handled, ${distinct} distinct articles (${run.urls.length - distinct} duplicate or non-article); ` +
    `${serverRequests} server requests`);
  console.log('fetched  harvest   recall | scored: fetched  harvest   recall');
  for (const t of table) {
    console.log(`${String(t.fetched).padStart(7)}  ${f(t.harvest)}  ${f(t.recall)} | ${String(t.scoredFetched).padStart(15)}  ${f(t.scoredHarvest)}  ${f(t.scoredRecall)}`);
  }
  console.log(`crawl ${run.seconds.toFixed(1)} s, ${run.pagesPerSecond.toFixed(1)} pages/s; wall (server + crawl) ${wall.toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`crawlee: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}
