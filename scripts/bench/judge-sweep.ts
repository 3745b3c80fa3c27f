// The page judge on every Wikispeedia topic, without crawling: trained on the pages of the 30% training split
// (as a sweep case's training reads teach it), asked about every page of the scored split. Precision, recall
// and F1 of its verdicts against labels.tsv, for each `judge.smoothing` given. The judge's verdicts are the
// harvest the user sees, the parent-page feature and what online learning learns from, so a topic it cannot
// recognise is a topic the crawl cannot learn.
//   npx tsx scripts/bench/judge-sweep.ts [--smoothing 1,0.1] [--topics Art,IT]
import { parseArgs } from 'node:util';
import { PageJudge, type PageText } from '../../lib/learning/page-judge';
import { parseHtml } from '../../lib/parse/html';
import { articleOfUrl, loadCorpusPages } from './corpus-server';
import { DEFAULT_CORPUS, TOPIC_KEYWORDS, caseGroundTruth } from './wikispeedia';
import { TOPICS } from './topic-sweep';

const { values: v } = parseArgs({
  options: { corpus: { type: 'string', default: DEFAULT_CORPUS }, smoothing: { type: 'string', default: '1,0.1' }, topics: { type: 'string' } },
});
const smoothings = v.smoothing!.split(',').map(Number);
if (smoothings.some((a) => !(a > 0))) throw new Error(`--smoothing: numbers above 0, not ${v.smoothing}`);

const pages = new Map<string, PageText>();
for (const [path, html] of loadCorpusPages(v.corpus!)) {
  const url = `http://wiki.test${path}`;
  const article = articleOfUrl(url);
  if (article) pages.set(article, parseHtml(html, url));
}
const page = (article: string) => {
  const p = pages.get(article);
  if (!p) throw new Error(`no page for ${article} in the corpus`);
  return p;
};

const f1s = new Map<number, number[]>(smoothings.map((a) => [a, []]));
const header = ['topic', 'on topic (scored)', ...smoothings.flatMap((a) => [`P a=${a}`, `R a=${a}`, `F1 a=${a}`])];
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const topic of v.topics?.split(',') ?? TOPICS) {
  // The seed only picks reachability; the split is the same for every seed.
  const truth = caseGroundTruth(v.corpus!, topic, 'English_language');
  const judge = new PageJudge(TOPIC_KEYWORDS[topic] ?? []);
  for (const a of truth.trainSet) judge.learn(page(a), truth.onTopic(a) ? 1 : 0);
  const scored = truth.order.filter((a) => !truth.trainSet.has(a));
  const row = [topic.replace(/_/g, ' '), String(scored.filter(truth.onTopic).length)];
  for (const a of smoothings) {
    let tp = 0, fp = 0, fn = 0;
    for (const article of scored) {
      const relevant = judge.judge(page(article), a).relevant;
      const on = truth.onTopic(article);
      if (relevant && on) tp++;
      else if (relevant) fp++;
      else if (on) fn++;
    }
    const precision = tp + fp ? tp / (tp + fp) : 0, recall = tp + fn ? tp / (tp + fn) : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    f1s.get(a)!.push(f1);
    row.push(precision.toFixed(2), recall.toFixed(2), f1.toFixed(2));
  }
  console.log(`| ${row.join(' | ')} |`);
}
for (const [a, f] of f1s) {
  console.log(`smoothing ${a}: mean F1 ${(f.reduce((s, x) => s + x, 0) / f.length).toFixed(3)}, lowest ${Math.min(...f).toFixed(2)}`);
}
