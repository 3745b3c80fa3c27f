// Per-page pipeline cost in Node on corpus pages: decode, parse (linkedom + link context), judge,
// plan children (normalize, scope, safety, classify every link), and the store commit (fake-indexeddb).
//   npx tsx scripts/bench/pipeline.ts [--corpus DIR] [--pages N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { LinkClassifier } from '../../lib/classifier/link-classifier';
import { PageJudge } from '../../lib/classifier/page-judge';
import { compileRules, planChildren, seedCandidates } from '../../lib/crawl/children';
import { createStrategy } from '../../lib/strategies/registry';
import { parseConfig } from '../../lib/crawl/parse-config';
import { decodeHtml } from '../../lib/fetch/decode';
import { parseHtml } from '../../lib/parse/html';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { FrontierEntry } from '../../lib/types';
import { DEFAULT_CORPUS } from './wikispeedia';

export interface PipelineFigures {
  pages: number;
  linksPerPage: number;
  medianMs: number;
  p99Ms: number;
  stages: Record<string, { medianMs: number; p99Ms: number; share: number | null }>;
}

/** Measures the per-page pipeline on `n` corpus pages spread over the corpus (one warm-up round, one measured). */
export async function measurePipeline(corpus: string, n: number): Promise<PipelineFigures> {
  const lines = gunzipSync(readFileSync(join(corpus, 'pages.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean);
  const step = Math.max(1, Math.floor(lines.length / n));
  const pages = lines.filter((_, i) => i % step === 0).slice(0, n).map((l) => JSON.parse(l) as { path: string; html: string });
  const origin = 'http://corpus.test';
  const encoder = new TextEncoder();
  const bodies = pages.map((p) => encoder.encode(p.html));

  const keywords = ['science', 'biology', 'chemistry', 'physics', 'species', 'animal', 'plant', 'chemical', 'energy'];
  const config = parseConfig({ seeds: [`${origin}/wiki/Science.html`], topic: { keywords } });
  const classifier = new LinkClassifier(keywords);
  const judge = new PageJudge(keywords);
  // Give the classifier a realistic vocabulary: learn the links of the first 50 pages with keyword labels.
  for (const p of pages.slice(0, 50)) for (const l of parseHtml(p.html, origin + p.path).links) classifier.learn(l, /species|chemi|physic/i.test(l.anchor) ? 1 : 0);

  const stages = ['decode', 'parse', 'judge', 'children', 'store'] as const;
  const times: Record<(typeof stages)[number] | 'total', number[]> = { decode: [], parse: [], judge: [], children: [], store: [], total: [] };
  const store = new CrawlStore(new CrawlerDB('bench', { indexedDB: new IDBFactory(), IDBKeyRange }));
  const crawlId = await store.createCrawl(config, (await store.topics.createTopic(config.name, config.topic.keywords, Date.now())).id!, Date.now());
  await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
  // As a run holds them: one strategy and one compilation of the rules for every page.
  const planner = { strategy: createStrategy(config), rules: compileRules(config) };
  let links = 0;

  for (let round = 0; round < 2; round++) {
    // Round 0 warms the JIT; round 1 is measured.
    for (let i = 0; i < pages.length; i++) {
      const url = origin + pages[i].path;
      const entry: FrontierEntry = { crawlId, url, host: 'corpus.test', state: 'inflight', score: 0.5, priority: 0, order: -i, depth: 1, parentUrl: null, anchor: '', context: '', attempts: 1, discoveredAt: 0, updatedAt: 0 };
      const t0 = performance.now();
      const { text } = decodeHtml(bodies[i], 'text/html; charset=utf-8');
      const t1 = performance.now();
      const parsed = parseHtml(text, url);
      const t2 = performance.now();
      const verdict = judge.judge(parsed);
      const t3 = performance.now();
      const children = planChildren(parsed, entry, url, config, classifier, verdict.relevance >= config.judge.threshold, {}, null, planner);
      const t4 = performance.now();
      if (round === 1) {
        await store.commitPage({ crawlId, entry, outcome: 'done', page: { url, finalUrl: url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0.5, relevant: verdict.relevant, relevance: verdict.relevance, title: parsed.title, textLength: parsed.text.length, contentType: 'text/html', bytes: bodies[i].length, truncated: false, linkCount: parsed.links.length, fetchedAt: 0, durationMs: 0 }, body: { headers: {}, html: text }, children, aliases: [], labels: [], site: 'corpus.test', stats: { attempts: 1, fetched: 1 }, activeMs: 0 }, Date.now());
        const t5 = performance.now();
        times.decode.push(t1 - t0); times.parse.push(t2 - t1); times.judge.push(t3 - t2); times.children.push(t4 - t3); times.store.push(t5 - t4);
        times.total.push(t4 - t0);
        links += parsed.links.length;
      }
    }
  }

  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const totalCompute = sum(times.total);
  return {
    pages: pages.length,
    linksPerPage: links / pages.length,
    medianMs: q(times.total, 0.5),
    p99Ms: q(times.total, 0.99),
    stages: Object.fromEntries([...stages, 'total' as const].map((s) => [s, {
      medianMs: q(times[s], 0.5), p99Ms: q(times[s], 0.99),
      share: s === 'store' || s === 'total' ? null : sum(times[s]) / totalCompute,
    }])),
  };
}

export function formatPipeline(f: PipelineFigures): string {
  const lines = [`${f.pages} corpus pages, ${f.linksPerPage.toFixed(0)} links per page`, 'stage      median ms   p99 ms   share of compute'];
  for (const [s, v] of Object.entries(f.stages)) {
    lines.push(`${s.padEnd(10)} ${v.medianMs.toFixed(3).padStart(9)} ${v.p99Ms.toFixed(3).padStart(8)}   ${v.share === null ? '' : `${(v.share * 100).toFixed(0)}%`}`);
  }
  lines.push('(total = decode + parse + judge + children, the work per page besides IndexedDB; store is fake-indexeddb in Node, not representative of Chromium)');
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { corpus: { type: 'string' }, pages: { type: 'string', default: '400' } } });
  const figures = await measurePipeline(values.corpus ?? DEFAULT_CORPUS, Number(values.pages));
  console.log(formatPipeline(figures));
  console.log(JSON.stringify(figures));
}
