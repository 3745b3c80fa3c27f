// Design C, Best-First fused with HITS: a link's score mixes text similarity (its parent page's and its
// anchor's, TF-IDF cosine to the topic, or the Naive Bayes link posterior) with the authority and hub scores
// of its target in the crawled graph. HITS runs every `every` pages, warm-started (hits.ts), and the queue is
// re-ranked through the crawl's re-scoring path, which yields to the crawl between chunks.
import type { Strategy, StrategyModule, StrategyParams } from '../types';
import { SEED_PRIORITY } from '../types';
import { LinkGraph, type HitsRound } from './hits';
import { linkScore, weightsProblem, type FusionWeights } from './score';
import { TopicModel, type TopicModelState } from './tfidf';

/**
 * Edge visits per slice of a HITS round (about a millisecond of work here): a round over a million links takes a few
 * dozen pages to finish instead of stalling one (scripts/bench/hits.ts).
 */
export const SLICE_WORK = 250_000;

/**
 * The defaults, from the sweep over topics and seeds of the web of sites (scripts/bench/hits-sweep.ts,
 * docs/benchmarks.md "Best-first fused with HITS"): the classifier's posterior as the text part (TF-IDF is far behind
 * it in the sweep); a round every 500 pages, the crawl's own re-scoring period, since each
 * round re-ranks the whole queue; the weights as good as any the sweep tried (within a point of recall).
 */
export const SWEPT_DEFAULTS = {
  text: 'naive-bayes', textWeight: 0.5, anchorWeight: 0.2, linkWeight: 0.3, every: 500, threshold: 0.02,
} as const;

const weightsOf = (p: StrategyParams): FusionWeights => ({
  textWeight: p.textWeight as number, anchorWeight: p.anchorWeight as number, linkWeight: p.linkWeight as number,
  authority: p.authority as number, hub: p.hub as number,
});

export const hitsFusion: StrategyModule = {
  name: 'hits-fusion',
  description: "Best-first on text similarity to the topic fused with the hub and authority scores of the crawled link graph.",
  followsModel: true,
  params: [
    { key: 'text', label: 'Text score', default: SWEPT_DEFAULTS.text, choices: ['naive-bayes', 'tfidf'],
      help: 'TF-IDF cosine of the page and the anchor to the topic, or the link classifier\'s posterior.' },
    { key: 'textWeight', label: 'Text weight', default: SWEPT_DEFAULTS.textWeight, min: 0, max: 1, integer: false, help: 'Weight of the text part (A); A + B + C = 1.' },
    { key: 'anchorWeight', label: 'Anchor weight', default: SWEPT_DEFAULTS.anchorWeight, min: 0, max: 1, integer: false, help: 'Weight of the anchor inside the text part (B).' },
    { key: 'linkWeight', label: 'Link weight', default: SWEPT_DEFAULTS.linkWeight, min: 0, max: 1, integer: false, help: 'Weight of the hub and authority part (C).' },
    { key: 'authority', label: 'Authority share', default: 0.7, min: 0, max: 1, integer: false, help: "The target's authority in the link part (α)." },
    { key: 'hub', label: 'Hub share', default: 0.3, min: 0, max: 1, integer: false, help: "The target's hub score in the link part (β, below α)." },
    { key: 'scale', label: 'Link scale', default: 'max', choices: ['max', 'unit'],
      help: 'Hub and authority divided by the round\'s largest (the best is 1, like a text score), or as unit-length vectors (they shrink as the graph grows).' },
    { key: 'every', label: 'HITS every', default: SWEPT_DEFAULTS.every, min: 10, max: 100_000, integer: true, help: 'Pages fetched between two HITS rounds (p).' },
    { key: 'minPages', label: 'HITS after', default: 50, min: 0, max: 100_000, integer: true, help: 'Relevant pages before hub and authority count at all.' },
    { key: 'threshold', label: 'Drop below', default: SWEPT_DEFAULTS.threshold, min: 0, max: 1, integer: false, help: 'Links scoring below this are not queued.' },
  ],
  check: (p) => weightsProblem(weightsOf(p)),
  create: (p, { keywords }) => fusion(p, keywords),
};

function fusion(p: StrategyParams, keywords: string[]): Strategy {
  const w = weightsOf(p);
  const naiveBayes = p.text === 'naive-bayes';
  const every = p.every as number, minPages = p.minPages as number, threshold = p.threshold as number;
  const topic = new TopicModel(keywords);
  const graph = new LinkGraph();
  let relevantPages = 0;
  /** Of those, the pages other workers of a shared crawl fetched. */
  let othersPages = 0;
  let sincePages = 0;
  let ranOnce = false;
  /** The last round that ended: when, over how many relevant pages (how many of them other workers'), and its cost. */
  let lastRound: (HitsRound & { at: number; pages: number; byOthers?: number }) | null = null;
  let roundPages = 0;
  let roundOthers = 0;
  /** Rounds run by this worker and their summed time: what HITS cost the crawl. */
  const spent = { rounds: 0, ms: 0 };
  const startRound = () => {
    graph.startRound();
    roundPages = relevantPages;
    roundOthers = othersPages;
  };
  /** One slice of the round under way; when the round ends, its scores count and the queue is re-ranked. */
  const slice = (): 'rerank' | undefined => {
    const round = graph.advance(SLICE_WORK);
    if (!round) return;
    lastRound = { ...round, at: Date.now(), pages: roundPages, ...(roundOthers ? { byOthers: roundOthers } : {}) };
    ranOnce = true;
    spent.rounds++;
    spent.ms += round.ms;
    return 'rerank';
  };
  const pageSim = { url: '', sim: 0 };
  const byMax = p.scale !== 'unit';
  const linkPart = (url: string) => (ranOnce && relevantPages >= minPages ? (byMax ? graph.scaled(url) : graph.scores(url)) : undefined);
  const logistic = (x: number) => 1 / (1 + Math.exp(-x));
  const score = (url: string, simPage: number, simAnchor: number) => linkScore(w, { page: simPage, anchor: simAnchor }, linkPart(url));

  return {
    name: 'hits-fusion',
    next: 'priority',
    followsModel: true,
    seedPriority: () => SEED_PRIORITY,
    plan(link, parent) {
      if (pageSim.url !== parent.url) Object.assign(pageSim, { url: parent.url, sim: naiveBayes ? 0 : topic.similarity(parent.text) });
      // With the classifier as the text part, its posterior stands for both similarities (design C.1's place).
      const simPage = naiveBayes ? link.score : pageSim.sim;
      const simAnchor = naiveBayes ? link.score : topic.similarity(link.anchor);
      const s = score(link.url, simPage, simAnchor);
      // Links are dropped only once the topic has pages behind it: before that the text model knows only the
      // keywords, and a seed page whose links name none of them would end the crawl at once.
      if (s < threshold && relevantPages >= minPages) return { drop: 'score below the threshold' };
      return { priority: s, state: { simPage, simAnchor } };
    },
    afterPage(page) {
      if (!naiveBayes) topic.addPage(page.text, page.relevant);
      // Design C.4: only relevant pages' links feed the graph.
      if (page.relevant) {
        relevantPages++;
        if (page.byOther) othersPages++;
        graph.addPage(page.url, page.links);
      }
      // A round runs in slices, one after each page, so no page waits for a whole round on a large graph.
      if (graph.rounding) return slice();
      if (++sincePages < every || relevantPages < minPages) return;
      sincePages = 0;
      startRound();
      return slice();
    },
    rerank(entry, logOdds) {
      const st = entry.strategy;
      if (st?.simPage === undefined) return null;
      const simPage = naiveBayes ? logistic(logOdds) : st.simPage;
      const simAnchor = naiveBayes ? logistic(logOdds) : st.simAnchor ?? 0;
      return score(entry.url, simPage, simAnchor);
    },
    keepsGraph: true,
    restore({ graph: rows, saved }) {
      // The graph is exact (written with each relevant page's commit); the text model as of the last round. The
      // first round over it starts at once and runs in slices like any other.
      for (const row of rows) graph.addPage(row.url, row.links);
      relevantPages = rows.length;
      const s = saved as { topic?: TopicModelState } | undefined;
      if (!naiveBayes && s?.topic) topic.restore(s.topic);
      if (relevantPages >= minPages && rows.length > 0) startRound();
    },
    ...(naiveBayes ? {} : { save: () => ({ topic: topic.toJSON() }) }),
    report() {
      if (!lastRound) return null;
      return { round: lastRound, spent: { ...spent }, ...graph.top(10) };
    },
  };
}
