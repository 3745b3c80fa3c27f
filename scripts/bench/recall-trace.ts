// A Wikispeedia case crawled by the crawl core in Node (node-crawl.ts), with everything a recall estimator could
// be fed written down as it happens: each committed page (the score it was taken at, its verdict, its links and their
// scores) and, every SNAPSHOT_EVERY pages fetched, the queued URLs with their scores. With the corpus's truth, a trace
// lets estimators be compared offline against the true recall (scripts/bench/recall.ts).
import { writeFileSync } from 'node:fs';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import type { PageCommit } from '../../lib/ports';
import { articleOfUrl, articleUrl, loadSites } from './corpus-server';
import { memoryFetch } from './node-crawl';
import { TOPIC_KEYWORDS, caseConfig, caseGroundTruth, reachableFrom, type CaseOptions } from './wikispeedia';

const ORIGIN = 'http://wikispeedia.test';
const SNAPSHOT_EVERY = 50;

export interface TracePage {
  /** Crawl-phase pages fetched (stats.fetched) once this page is counted. */
  fetched: number;
  article: string;
  phase: 'train' | 'crawl';
  /** The entry's score when taken, and its log-odds as the strategy ranked it. */
  score: number;
  priority: number;
  relevant: boolean | null;
  copy: boolean;
  /** The page's links: article, link log-odds (absent for a link kept from requesting). */
  links: [string, number | null][];
  /** Labels the page's training read made (a training read's own label). */
  pageLabel?: 0 | 1;
}

export interface Trace {
  topic: string;
  seed: string;
  budget: number;
  strategy: string;
  /** Articles on topic (labels.tsv), reachable from the seed. */
  onTopic: string[];
  reachable: string[];
  pages: TracePage[];
  /** At each snapshot: pages fetched and the queued URLs' articles with score and link count. */
  snapshots: { fetched: number; queued: [string, number, number][] }[];
  stats: Record<string, number>;
  message?: string;
}

export type TraceOptions = Pick<CaseOptions, 'corpus' | 'topic' | 'seed' | 'budget' | 'strategy' | 'maxSources' | 'concurrency' | 'web' | 'keywords'> & {
  /** Extra config merged in (e.g. `budget.targetRecall`). */
  extra?: Record<string, unknown>;
};

export async function traceCase(o: TraceOptions): Promise<Trace> {
  const truth = caseGroundTruth(o.corpus, o.topic, o.seed);
  const pathOf = new Map(truth.articles.map((a) => [a.article, a.path]));
  const keywords = o.keywords ?? TOPIC_KEYWORDS[o.topic]!;
  const sites = o.web === 'sites' ? loadSites(o.corpus) : undefined;
  const base = caseConfig(o, truth, (a) => articleUrl(ORIGIN, pathOf.get(a)!, sites), sites !== undefined, keywords);
  const extra = o.extra ?? {};
  const config = { ...base, ...extra, budget: { ...base.budget, ...(extra.budget as object | undefined) } };
  const store = new CrawlStore(new CrawlerDB(`trace-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const pages: TracePage[] = [];
  const snapshots: Trace['snapshots'] = [];
  let fetched = 0;
  let nextSnapshot = SNAPSHOT_EVERY;
  let crawlIdSeen = 0;
  const commitPages = store.commitPages.bind(store);
  store.commitPages = async (commits: PageCommit[], now: number) => {
    const seqs = await commitPages(commits, now);
    for (const c of commits) {
      crawlIdSeen = c.crawlId;
      if (!c.page || c.outcome !== 'done') continue;
      fetched += c.stats.fetched ?? 0;
      const article = articleOfUrl(c.page.finalUrl || c.page.url);
      if (!article) continue;
      pages.push({
        fetched, article, phase: c.page.phase, score: c.entry?.score ?? 0, priority: c.entry?.priority ?? 0,
        relevant: c.page.relevant, copy: c.page.copyOf !== undefined,
        links: c.children.flatMap((ch) => {
          const a = articleOfUrl(ch.url);
          return a ? [[a, ch.skip ? null : ch.logOdds ?? null] as [string, number | null]] : [];
        }),
        ...(c.pageLabel === undefined ? {} : { pageLabel: c.pageLabel }),
      });
    }
    if (fetched >= nextSnapshot && crawlIdSeen) {
      nextSnapshot = (Math.floor(fetched / SNAPSHOT_EVERY) + 1) * SNAPSHOT_EVERY;
      const rows = await store.db.frontier.where('[crawlId+state+priority+order]')
        .between([crawlIdSeen, 'queued', -Infinity, -Infinity], [crawlIdSeen, 'queued', Infinity, Infinity]).toArray();
      snapshots.push({
        fetched,
        queued: rows.flatMap((e) => {
          const a = articleOfUrl(e.url);
          return a ? [[a, e.score, e.inlinks?.n ?? 1] as [string, number, number]] : [];
        }),
      });
    }
    return seqs;
  };
  const service = new CrawlService({ store, fetch: memoryFetch(o.corpus, sites), clock: realClock });
  const { crawlId } = await service.handlers.start(config);
  await service.settled(crawlId);
  const crawl = await store.getCrawl(crawlId);
  store.db.close();
  const decoded = (a: string) => decodeURIComponent(a);
  return {
    topic: o.topic, seed: o.seed, budget: o.budget, strategy: o.strategy,
    onTopic: truth.articles.map((a) => a.article).filter(truth.onTopic).map(decoded),
    reachable: [...reachableFrom(o.seed, truth.links)].map(decoded),
    pages: pages.map((p) => ({ ...p, article: decoded(p.article), links: p.links.map(([a, s]) => [decoded(a), s] as [string, number | null]) })),
    snapshots: snapshots.map((s) => ({ ...s, queued: s.queued.map(([a, x, n]) => [decoded(a), x, n] as [string, number, number]) })),
    stats: { ...(crawl?.stats as unknown as Record<string, number>) },
    ...(crawl?.message ? { message: crawl.message } : {}),
  };
}

export function writeTrace(path: string, t: Trace): void {
  writeFileSync(path, JSON.stringify(t));
}

async function main(): Promise<void> {
  const { parseArgs } = await import('node:util');
  const { mkdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { DEFAULT_CORPUS } = await import('./wikispeedia');
  const { values: v } = parseArgs({
    options: {
      cases: { type: 'string' }, budget: { type: 'string', default: '2500' }, out: { type: 'string', default: 'out/recall-traces' },
      'max-sources': { type: 'string', default: '300' }, strategy: { type: 'string', default: 'best-first' }, web: { type: 'string', default: 'one-site' },
      extra: { type: 'string' },
    },
  });
  mkdirSync(v.out!, { recursive: true });
  for (const c of v.cases!.split(',')) {
    const [topic, seed] = c.split(':') as [string, string];
    const t0 = Date.now();
    const trace = await traceCase({
      corpus: DEFAULT_CORPUS, topic, seed, budget: Number(v.budget), strategy: v.strategy!, maxSources: Number(v['max-sources']),
      web: v.web === 'sites' ? 'sites' : 'one-site', ...(v.extra ? { extra: JSON.parse(v.extra) as Record<string, unknown> } : {}),
    });
    const name = `${topic}-${seed}-${v.strategy}${v.web === 'sites' ? '-sites' : ''}.json`.replace(/[^\w.-]+/g, '_');
    writeTrace(join(v.out!, name), trace);
    process.stderr.write(`${c}: ${trace.pages.length} pages, ${trace.snapshots.length} snapshots, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  }
}

if (process.argv[1]?.endsWith('recall-trace.ts')) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
