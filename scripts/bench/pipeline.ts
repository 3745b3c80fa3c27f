// Per-page pipeline cost in Node on corpus pages: decode, parse (linkedom + link context), judge,
// plan children (normalize, scope, safety, classify every link), and the store commit (fake-indexeddb).
//   npx tsx scripts/bench/pipeline.ts [--corpus DIR] [--pages N] [--cpu ROUNDS]
// With --cpu, each stage's CPU a page instead (the judge trained), and a digest of every verdict and link score.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { PageJudge, type PageVerdict } from '../../lib/learning/page-judge';
import { compileRules, planChildren, seedCandidates } from '../../lib/learning/children';
import { createStrategy } from '../../lib/strategies/registry';
import { parseConfig } from '../../lib/app/parse-config';
import { decodeHtml } from '../../lib/net/decode';
import { parseHtml } from '../../lib/parse/html';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { Candidate } from '../../lib/ports';
import type { FrontierEntry, ParsedPage } from '../../lib/records/types';
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

/** CPU a page per stage, in milliseconds (process.cpuUsage: user + system, garbage collection included). */
export interface CpuFigures {
  pages: number;
  rounds: number;
  /** Per stage, the median over rounds of the stage's CPU over all pages, divided by the pages. */
  msPerPage: Record<'decode' | 'parse' | 'judge' | 'plan', number>;
  /** A digest of every verdict and every planned link, all their fields: equal digests, equal results. */
  digest: string;
}

/**
 * The per-page stages run one at a time over all pages, each timed by CPU rather than the clock (steadier on a shared
 * machine), with the judge trained (it scores by its model, as in a crawl with labeled pages) and the link classifier
 * trained on labeled links. Round 0 warms the JIT and is not counted.
 */
export async function measureCpu(corpus: string, n: number, rounds: number): Promise<CpuFigures> {
  const lines = gunzipSync(readFileSync(join(corpus, 'pages.jsonl.gz'))).toString('utf8').split('\n').filter(Boolean);
  const all = lines.map((l) => JSON.parse(l) as { path: string; html: string });
  const step = Math.max(1, Math.floor(all.length / n));
  const pages = all.filter((_, i) => i % step === 0).slice(0, n);
  // Trained on other pages than the measured ones: labels.tsv's Science pages are on topic.
  const science = new Set(readFileSync(join(corpus, 'labels.tsv'), 'utf8').split('\n').filter((l) => l.split('\t')[1] === 'Science').map((l) => l.split('\t')[0]));
  const onTopic = (path: string) => science.has(decodeURIComponent(path).replace(/^\/wiki\//, '').replace(/\.html$/, '')) || science.has(path.replace(/^\/wiki\//, '').replace(/\.html$/, ''));
  const training = all.filter((_, i) => i % step === Math.floor(step / 2)).slice(0, 200);
  const origin = 'http://corpus.test';
  const keywords = ['science', 'biology', 'chemistry', 'physics', 'species', 'animal', 'plant', 'chemical', 'energy'];
  const config = parseConfig({ seeds: [`${origin}/wiki/Science.html`], topic: { keywords } });
  const classifier = new LinkClassifier(keywords);
  const judge = new PageJudge(keywords);
  for (const p of training) {
    const parsed = parseHtml(p.html, origin + p.path);
    judge.learn(parsed, onTopic(p.path) ? 1 : 0);
    for (const l of parsed.links) classifier.learn({ ...l, parentOnTopic: onTopic(p.path) }, onTopic(new URL(l.url).pathname) ? 1 : 0);
  }
  const planner = { strategy: createStrategy(config), rules: compileRules(config) };
  const encoder = new TextEncoder();
  const bodies = pages.map((p) => encoder.encode(p.html));
  const cpu = (f: () => void) => {
    const t = process.cpuUsage();
    f();
    const d = process.cpuUsage(t);
    return (d.user + d.system) / 1000;
  };
  const samples: Record<keyof CpuFigures['msPerPage'], number[]> = { decode: [], parse: [], judge: [], plan: [] };
  let digest = '';
  for (let round = 0; round <= rounds; round++) {
    let texts: string[] = [], parsed: ParsedPage[] = [], verdicts: PageVerdict[] = [], planned: Candidate[][] = [];
    const t = {
      decode: cpu(() => (texts = bodies.map((b) => decodeHtml(b, 'text/html; charset=utf-8').text))),
      parse: cpu(() => (parsed = texts.map((text, i) => parseHtml(text, origin + pages[i].path)))),
      judge: cpu(() => (verdicts = parsed.map((p) => judge.judge(p, config.judge.smoothing)))),
      plan: cpu(() => (planned = parsed.map((p, i) => {
        const url = origin + pages[i].path;
        const entry: FrontierEntry = { crawlId: 1, url, host: 'corpus.test', state: 'inflight', score: 0.5, priority: 0, order: -i, depth: 1, parentUrl: null, anchor: '', context: '', attempts: 1, discoveredAt: 0, updatedAt: 0 };
        return planChildren(p, entry, url, config, classifier, verdicts[i].relevant, {}, null, planner);
      }))),
    };
    if (round === 0) {
      digest = digestOf(verdicts, planned);
      continue;
    }
    for (const s of Object.keys(samples) as (keyof typeof samples)[]) samples[s].push(t[s] / pages.length);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    pages: pages.length,
    rounds,
    msPerPage: { decode: median(samples.decode), parse: median(samples.parse), judge: median(samples.judge), plan: median(samples.plan) },
    digest,
  };
}

/** FNV-1a over the verdicts and the candidates as JSON (every field, in order, numbers at full precision). */
function digestOf(verdicts: readonly PageVerdict[], planned: readonly Candidate[][]): string {
  let h = 0x811c9dc5;
  const add = (s: string) => {
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  };
  for (const v of verdicts) add(JSON.stringify(v));
  for (const cs of planned) for (const c of cs) add(JSON.stringify(c));
  return h.toString(16).padStart(8, '0');
}

export function formatCpu(f: CpuFigures): string {
  const m = f.msPerPage;
  const total = m.decode + m.parse + m.judge + m.plan;
  return [
    `CPU ms a page (median of ${f.rounds} rounds over ${f.pages} pages; judge trained, by its model): ` +
      `decode ${m.decode.toFixed(3)}, parse ${m.parse.toFixed(3)}, judge ${m.judge.toFixed(3)}, plan ${m.plan.toFixed(3)}, total ${total.toFixed(3)}`,
    `verdicts and link scores digest ${f.digest}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { corpus: { type: 'string' }, pages: { type: 'string', default: '400' }, cpu: { type: 'string' } } });
  if (values.cpu !== undefined) {
    // --cpu ROUNDS: only the CPU a page per stage, and the digest that says whether two builds score alike.
    const f = await measureCpu(values.corpus ?? DEFAULT_CORPUS, Number(values.pages), Number(values.cpu));
    console.log(formatCpu(f));
    console.log(JSON.stringify(f));
    process.exit(0);
  }
  const figures = await measurePipeline(values.corpus ?? DEFAULT_CORPUS, Number(values.pages));
  console.log(formatPipeline(figures));
  console.log(JSON.stringify(figures));
}
