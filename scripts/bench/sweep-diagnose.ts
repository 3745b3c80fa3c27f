// Why a sweep case falls short of the oracle: the judge's verdicts against the truth, the link scores' ranking
// of what was fetched, and the same case with an oracle judge (verdicts = the corpus's labels), which
// separates the judge's errors from the link classifier's.
//   npx tsx scripts/bench/sweep-diagnose.ts --cases Design_and_Technology:Pony,History:Armenia [--modes default,oracle-judge]
import { parseArgs } from 'node:util';
import { PageJudge } from '../../lib/learning/page-judge';
import { loadLabels } from './corpus-server';
import { DEFAULT_CORPUS, auc } from './wikispeedia';
import { runNodeCase } from './node-crawl';
import { SWEEP_VARIANTS } from './topic-sweep';

const { values: v } = parseArgs({ options: {
  cases: { type: 'string' }, modes: { type: 'string', default: 'default,oracle-judge' }, variant: { type: 'string', default: 'default' },
  budget: { type: 'string', default: '1000' },
} });
const labels = loadLabels(DEFAULT_CORPUS);
const realJudge = PageJudge.prototype.judge;

for (const c of v.cases!.split(',')) {
  const [topic, seed] = c.split(':') as [string, string];
  for (const mode of v.modes!.split(',')) {
    if (mode === 'oracle-judge') {
      PageJudge.prototype.judge = function (page) {
        const on = labels.get(page.title.replace(/ /g, '_'))?.has(topic) ?? labels.get(encodeURIComponent(page.title.replace(/ /g, '_')))?.has(topic) ?? false;
        return { relevance: on ? 1 : 0, relevant: on, by: 'model' };
      };
    } else PageJudge.prototype.judge = realJudge;
    const variant = SWEEP_VARIANTS[v.variant!]!;
    const r = await runNodeCase({ corpus: DEFAULT_CORPUS, topic, seed, budget: Number(v.budget), strategy: 'best-first', concurrency: 4,
      classifier: variant.classifier, rescoreEveryPages: variant.rescoreEveryPages, linksToJudged: variant.linksToJudged,
      judgeSmoothing: variant.judgeSmoothing });
    const at = (n: number) => r.table.find((x) => x.fetched === n)?.scoredHarvest;
    const judged = r.pages.filter((p) => p.relevant !== null);
    const tp = judged.filter((p) => p.relevant && p.on).length, fp = judged.filter((p) => p.relevant && !p.on).length;
    const fn = judged.filter((p) => !p.relevant && p.on).length;
    const first500 = r.pages.slice(0, 500).filter((p) => p.depth > 0);
    console.log([topic, seed, mode, `@250 ${at(250)?.toFixed(3)}`, `@500 ${at(500)?.toFixed(3)}`, `@1000 ${at(1000)?.toFixed(3)}`,
      `judge P ${(tp / (tp + fp)).toFixed(2)} R ${(tp / (tp + fn)).toFixed(2)}`, `link AUC (first 500) ${auc(first500.map((p) => ({ score: p.score, on: p.on }))).toFixed(3)}`,
      `${r.seconds.toFixed(0)} s`].join('\t'));
  }
}
