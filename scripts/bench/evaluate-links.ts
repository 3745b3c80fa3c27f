// Offline evaluation of the link classifier (design A.8): precision, recall, F1, accuracy and AUC of the two
// feature groups of design A.3, under both evidence rules, on labeled links collected from the Wikispeedia
// corpus the way design A.6 collects them: every link that the crawler's own extractor (parseHtml) finds on a
// source page and that points to a known page is labeled 1 if the target is in the topic, else 0. Ground
// truth is the corpus's labels.tsv.
//   npm run evaluate -- [--corpus DIR] [--topics Science,Geography] [--sources all|train] [--seed 1]
//     [--folds 5] [--top 12] [--json] [--out report.md]
//   npm run evaluate -- --synthetic 70000     (time the evaluation on N synthetic labels instead)
// --sources train reads only the benchmark's training split (30%, seeded) as sources, and keeps links into it.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { evaluateLinks, type CrossValidationReport, type EvaluationReport, type HoldoutReport, type LabeledLinkText } from '../../lib/learning/evaluate';
import type { Figures, TestResult } from '../../lib/learning/evaluation-metrics';
import type { ReadableFeature } from '../../lib/learning/feature-wording';
import type { Evidence } from '../../lib/learning/link-classifier';
import type { FeatureGroup } from '../../lib/learning/link-features';
import { parseHtml } from '../../lib/parse/html';
import { mulberry32 } from '../../lib/records/random';
import { articleOfUrl, loadArticles, loadCorpusPages } from './corpus-server';
import { caseGroundTruth, DEFAULT_CORPUS, TOPIC_KEYWORDS } from './wikispeedia';

const EVIDENCE: readonly Evidence[] = ['context-mean', 'independent'];
/**
 * How labeled links are split into training and test: `link` splits the links (as the paper splits its
 * labeled links 7:3, design A.6); `page` keeps all links to one target page on one side, so the test asks about
 * pages no training link pointed to, as a crawl's frontier mostly does.
 */
const SPLITS = ['link', 'page'] as const;
type SplitBy = (typeof SPLITS)[number];
const ORIGIN = 'http://wikispeedia.test';

/** A link the extractor found on a corpus page, with the articles at both ends. */
interface CorpusLink {
  source: string;
  target: string;
  anchor: string;
  context: string;
}

interface TargetedLink extends LabeledLinkText {
  target: string;
}

/** Every link of every corpus page, by the crawler's own extractor (parseHtml), whose target is a corpus page. */
function extractLinks(corpus: string): { links: CorpusLink[]; pages: number; unknownTargets: number; seconds: number } {
  const t0 = performance.now();
  const pages = loadCorpusPages(corpus);
  const articles = loadArticles(corpus);
  const byName = new Map(articles.map((a) => [safeDecode(a.article), a.article]));
  const links: CorpusLink[] = [];
  let unknownTargets = 0;
  for (const { article, path } of articles) {
    const html = pages.get(path);
    if (html === undefined) continue;
    for (const link of parseHtml(html, ORIGIN + path).links) {
      const name = articleOfUrl(link.url);
      const target = name === null ? undefined : byName.get(safeDecode(name));
      if (target === undefined) unknownTargets++;
      else links.push({ source: article, target, anchor: link.anchor, context: link.context });
    }
  }
  return { links, pages: pages.size, unknownTargets, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Design A.6 on the corpus: a link is a positive example when its target page is in the topic (labels.tsv),
 * else a negative one. With sources `train`, only links from and to the benchmark's 30% training split.
 */
function labelLinks(links: readonly CorpusLink[], topic: string, o: Options): { labeled: TargetedLink[]; sources: number } {
  // The benchmark's topic labels and training split (its crawl seed article plays no part here).
  const truth = caseGroundTruth(o.corpus, topic, loadArticles(o.corpus)[0]!.article, 0.3, o.seed);
  const inScope = (article: string) => o.sources === 'all' || truth.trainSet.has(article);
  const labeled = links
    .filter((l) => inScope(l.source) && inScope(l.target))
    .map((l) => ({ anchor: l.anchor, context: l.context, label: truth.onTopic(l.target) ? (1 as const) : (0 as const), target: l.target }));
  const sources = o.sources === 'all' ? truth.articles.length : truth.trainSet.size;
  return { labeled, sources };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

// ---- one topic ----

interface TopicResult {
  topic: string;
  keywords: string[];
  sources: number;
  labels: { pos: number; neg: number };
  targets: number;
  runs: Record<SplitBy, Record<Evidence, EvaluationReport>>;
}

async function evaluateTopic(links: readonly CorpusLink[], topic: string, o: Options): Promise<TopicResult> {
  const keywords = TOPIC_KEYWORDS[topic];
  if (!keywords) throw new Error(`no keywords known for topic ${topic} (known: ${Object.keys(TOPIC_KEYWORDS).join(', ')})`);
  const { labeled, sources } = labelLinks(links, topic, o);
  const runs = { link: {}, page: {} } as TopicResult['runs'];
  for (const split of SPLITS) {
    for (const evidence of EVIDENCE) {
      const targetOf = split === 'page' ? (l: TargetedLink) => l.target : undefined;
      runs[split][evidence] = await evaluateLinks(labeled, { keywords, evidence, targetOf, seed: o.seed, folds: o.folds, topFeatures: o.top });
    }
  }
  const pos = labeled.filter((l) => l.label === 1).length;
  const targets = new Set(labeled.map((l) => l.target)).size;
  return { topic, keywords, sources, labels: { pos, neg: labeled.length - pos }, targets, runs };
}

// ---- printing ----

const num = (x: number | null, d = 3) => (x === null ? '-' : x.toFixed(d));
const int = (x: number) => x.toLocaleString('en-US');

/**
 * Rows of the tables: group 1 once (without context features both evidence rules give the same log-odds, up
 * to rounding: its AUC can differ in the 7th decimal), group 2 per rule.
 */
const ROWS: readonly { name: string; group: FeatureGroup; evidence: Evidence }[] = [
  { name: 'group 1 (anchor)', group: 1, evidence: 'context-mean' },
  { name: 'group 2, context-mean', group: 2, evidence: 'context-mean' },
  { name: 'group 2, independent', group: 2, evidence: 'independent' },
];

function holdoutTable(r: TopicResult, md: boolean): string[] {
  const lines: string[] = [];
  const head = ['split by', 'features', 'precision', 'recall', 'F1', 'accuracy', 'AUC', 'tp', 'fp', 'fn', 'tn'];
  const rows: string[][] = [];
  for (const split of SPLITS) {
    const first = r.runs[split]['context-mean'].holdout;
    if (!first.ok) {
      lines.push(`hold-out split by ${split}: ${first.problem}`);
      continue;
    }
    lines.push(
      `${md ? '- ' : ''}hold-out ${Math.round(first.trainFraction * 10)}:${Math.round((1 - first.trainFraction) * 10)} by ${split} (seed ${first.seed}): ` +
        `train ${int(first.train.pos)} on / ${int(first.train.neg)} off, test ${int(first.test.pos)} on / ${int(first.test.neg)} off`,
    );
    for (const { name, group, evidence } of ROWS) {
      const t: TestResult = (r.runs[split][evidence].holdout as Extract<HoldoutReport, { ok: true }>).groups[group];
      const c = t.confusion;
      rows.push([split, name, num(t.precision), num(t.recall), num(t.f1), num(t.accuracy), num(t.auc), int(c.tp), int(c.fp), int(c.fn), int(c.tn)]);
    }
  }
  return [...lines, ...(md ? [''] : []), ...table(head, rows, md)];
}

function crossValidationTable(r: TopicResult, md: boolean): string[] {
  const lines: string[] = [];
  const pm = (mean: Figures, sd: Figures, key: keyof Figures) => `${num(mean[key])} ± ${num(sd[key])}`;
  const head = ['split by', 'features', 'precision', 'recall', 'F1', 'accuracy', 'AUC'];
  const rows: string[][] = [];
  for (const split of SPLITS) {
    const first = r.runs[split]['context-mean'].crossValidation;
    if (!first.ok) {
      lines.push(`cross-validation by ${split}: ${first.problem}`);
      continue;
    }
    if (split === SPLITS[0]) lines.push(`${first.k}-fold cross-validation (seed ${first.seed}), mean ± sd over the folds`);
    for (const { name, group, evidence } of ROWS) {
      const cv = r.runs[split][evidence].crossValidation as Extract<CrossValidationReport, { ok: true }>;
      rows.push([split, name, ...(['precision', 'recall', 'f1', 'accuracy', 'auc'] as const).map((k) => pm(cv.mean[group], cv.sd[group], k))]);
    }
  }
  return [...lines, ...(md ? [''] : []), ...table(head, rows, md)];
}

function featureLines(r: TopicResult, md: boolean): string[] {
  const top = r.runs.link['context-mean'].topFeatures;
  if (!top) return [];
  const item = (f: ReadableFeature) => `${f.text} ${int(f.pos)}/${int(f.neg)} (${f.weight.toFixed(2)})`;
  const bullet = md ? '- ' : '  ';
  return [
    'strongest features of a group-2 model of all labels (on/off-topic labeled links with it, log-likelihood ratio):',
    `${bullet}on topic: ${top.positive.map(item).join('; ')}`,
    `${bullet}off topic: ${top.negative.map(item).join('; ')}`,
  ];
}

function topicReport(r: TopicResult, md: boolean): string[] {
  const times = SPLITS.flatMap((s) => EVIDENCE.map((e) => `${s}/${e} ${(r.runs[s][e].ms / 1000).toFixed(1)} s`)).join(', ');
  const bullet = md ? '- ' : '';
  return [
    md ? `## ${r.topic}\n` : `=== ${r.topic} ===`,
    `${bullet}${int(r.labels.pos + r.labels.neg)} labeled links from ${int(r.sources)} source pages to ${int(r.targets)} target pages: ` +
      `${int(r.labels.pos)} on topic, ${int(r.labels.neg)} off topic`,
    `${bullet}keywords: ${r.keywords.join(', ')}`,
    `${bullet}evaluation time (hold-out + ${r.runs.link['context-mean'].crossValidation.ok ? 'k-fold + ' : ''}top features): ${times}`,
    '',
    ...holdoutTable(r, md),
    '',
    ...crossValidationTable(r, md),
    '',
    ...featureLines(r, md),
    '',
  ];
}

/** The first two columns (split, features) are text, aligned left; the figures align right. */
function table(head: string[], rows: string[][], md: boolean): string[] {
  if (md) return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line)];
}

// ---- synthetic timing ----

/** N labeled links of ~2 anchor words and 20 context words over a ~100,000-word vocabulary, 40% on topic. */
function syntheticLinks(n: number, seed: number): LabeledLinkText[] {
  const rand = mulberry32(seed);
  const on = 'ocean reef coral marine fish tide kelp whale shark plankton current salinity lagoon atoll dolphin turtle'.split(' ');
  const off = 'news sport weather market travel recipe garden music film theatre election school health science history'.split(' ');
  const word = (label: number) => {
    const w = (rand() < (label ? 0.6 : 0.4) ? on : off)[Math.floor(rand() * 16)]!;
    return rand() < 0.3 ? w + Math.floor(rand() * 3000) : w; // rare variants make the vocabulary realistic in size
  };
  const text = (m: number, label: number) => Array.from({ length: m }, () => word(label)).join(' ');
  return Array.from({ length: n }, () => {
    const label = rand() < 0.4 ? 1 : 0;
    return { anchor: text(1 + Math.floor(rand() * 3), label), context: text(20, label), label };
  });
}

async function timeSynthetic(n: number, o: Options): Promise<Record<string, unknown>> {
  const links = syntheticLinks(n, o.seed);
  // The longest stretch the event loop was blocked: what a page running the evaluation would feel.
  let longest = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const t = performance.now();
    longest = Math.max(longest, t - last);
    last = t;
  }, 5);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const report = await evaluateLinks(links, { keywords: ['ocean', 'reef', 'marine'], seed: o.seed, folds: o.folds });
  const seconds = (performance.now() - t0) / 1000;
  // CPU time as well: on a shared machine the wall time includes waiting for a core.
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  clearInterval(probe);
  const ok = report.holdout.ok && report.crossValidation.ok;
  console.log(`${int(n)} synthetic labels: hold-out + ${o.folds}-fold + top features in ${seconds.toFixed(2)} s ` +
    `(CPU ${cpuSeconds.toFixed(2)} s); longest event-loop block ${longest.toFixed(0)} ms; ${ok ? 'ok' : 'FAILED'}`);
  return { synthetic: n, seconds, cpuSeconds, longestBlockMs: longest, report };
}

// ---- main ----

interface Options {
  corpus: string;
  topics: string[];
  sources: 'all' | 'train';
  seed: number;
  folds: number;
  top: number;
}

async function main(): Promise<void> {
  const { values: v } = parseArgs({
    options: {
      corpus: { type: 'string', default: DEFAULT_CORPUS },
      topics: { type: 'string', default: 'Science,Geography' },
      sources: { type: 'string', default: 'all' },
      seed: { type: 'string', default: '1' },
      folds: { type: 'string', default: '5' },
      top: { type: 'string', default: '12' },
      synthetic: { type: 'string' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  });
  if (v.sources !== 'all' && v.sources !== 'train') throw new Error(`--sources: all or train, not ${v.sources}`);
  const o: Options = {
    corpus: v.corpus!, topics: v.topics!.split(',').map((s) => s.trim()).filter(Boolean), sources: v.sources,
    seed: Number(v.seed), folds: Number(v.folds), top: Number(v.top),
  };
  if (v.synthetic) {
    const result = await timeSynthetic(Number(v.synthetic), o);
    if (v.json) console.log(JSON.stringify(result));
    return;
  }
  const t0 = performance.now();
  const extracted = extractLinks(o.corpus);
  console.log(`extracted ${int(extracted.links.length)} links to corpus pages from ${int(extracted.pages)} pages in ` +
    `${extracted.seconds.toFixed(1)} s${extracted.unknownTargets ? ` (${int(extracted.unknownTargets)} to unknown pages left out)` : ''}\n`);
  const results: TopicResult[] = [];
  for (const topic of o.topics) {
    const r = await evaluateTopic(extracted.links, topic, o);
    results.push(r);
    console.log(topicReport(r, false).join('\n'));
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage();
  console.log(`${o.sources === 'all' ? 'every corpus page' : 'the 30% training split'} as sources; ` +
    `total ${seconds.toFixed(1)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s)`);
  if (v.out) {
    const md = [
      '# Link classifier: offline precision and recall (design A.8) on Wikispeedia',
      '',
      `\`npm run evaluate -- ${process.argv.slice(2).join(' ')}\` on ${new Date().toISOString().slice(0, 10)}. ` +
        `Sources: ${o.sources === 'all' ? 'every corpus page' : 'the 30% training split'}; a link is on topic when its target page is (labels.tsv). ` +
        'Split by link: labeled links split at random, as design A.6 splits them. Split by page: all links to one target page on the same side.',
      '',
      ...results.flatMap((r) => topicReport(r, true)),
    ];
    writeFileSync(v.out, md.join('\n'));
    console.log(`report: ${v.out}`);
  }
  if (v.json) console.log(JSON.stringify({ corpus: o.corpus, sources: o.sources, seed: o.seed, folds: o.folds, seconds, links: extracted.links.length, topics: results }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`evaluate-links: ${err instanceof Error ? err.stack ?? err.message : err}`);
    process.exit(1);
  });
}
