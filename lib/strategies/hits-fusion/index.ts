// SPEC C, Best-First fused with HITS: a link's score mixes text similarity (its parent page's and its
// anchor's, TF-IDF cosine to the topic, or the Naive Bayes link posterior) with the authority and hub scores
// of its target in the crawled graph. HITS runs every `every` pages, warm-started (hits.ts), and the queue is
// re-ranked through the crawl's re-scoring path, which yields to the crawl between chunks.
import type { Strategy, StrategyModule, StrategyParams } from '../types';
import { SEED_PRIORITY } from '../types';
import { LinkGraph } from './hits';
import { linkScore, weightsProblem, type FusionWeights } from './score';
import { TopicModel, type TopicModelState } from './tfidf';

const weightsOf = (p: StrategyParams): FusionWeights => ({
  textWeight: p.textWeight as number, anchorWeight: p.anchorWeight as number, linkWeight: p.linkWeight as number,
  authority: p.authority as number, hub: p.hub as number,
});

export const hitsFusion: StrategyModule = {
  name: 'hits-fusion',
  description: "Best-first on text similarity to the topic fused with the hub and authority scores of the crawled link graph.",
  followsModel: true,
  params: [
    { key: 'text', label: 'Text score', default: 'tfidf', choices: ['tfidf', 'naive-bayes'],
      help: 'TF-IDF cosine of the page and the anchor to the topic, or the link classifier\'s posterior.' },
    { key: 'textWeight', label: 'Text weight', default: 0.5, min: 0, max: 1, integer: false, help: 'Weight of the text part (A); A + B + C = 1.' },
    { key: 'anchorWeight', label: 'Anchor weight', default: 0.2, min: 0, max: 1, integer: false, help: 'Weight of the anchor inside the text part (B).' },
    { key: 'linkWeight', label: 'Link weight', default: 0.3, min: 0, max: 1, integer: false, help: 'Weight of the hub and authority part (C).' },
    { key: 'authority', label: 'Authority share', default: 0.7, min: 0, max: 1, integer: false, help: "The target's authority in the link part (α)." },
    { key: 'hub', label: 'Hub share', default: 0.3, min: 0, max: 1, integer: false, help: "The target's hub score in the link part (β, below α)." },
    { key: 'scale', label: 'Link scale', default: 'max', choices: ['max', 'unit'],
      help: 'Hub and authority divided by the round\'s largest (the best is 1, like a text score), or as unit-length vectors (they shrink as the graph grows).' },
    { key: 'every', label: 'HITS every', default: 100, min: 10, max: 100_000, integer: true, help: 'Pages fetched between two HITS rounds (p).' },
    { key: 'minPages', label: 'HITS after', default: 50, min: 0, max: 100_000, integer: true, help: 'Relevant pages before hub and authority count at all.' },
    { key: 'threshold', label: 'Drop below', default: 0.02, min: 0, max: 1, integer: false, help: 'Links scoring below this are not queued.' },
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
  let sincePages = 0;
  let ranOnce = false;
  let lastRound: ReturnType<LinkGraph['compute']> | null = null;
  /** Rounds run by this worker and their summed time: what HITS cost the crawl. */
  const spent = { rounds: 0, ms: 0 };
  const runRound = () => {
    lastRound = graph.compute();
    ranOnce = true;
    spent.rounds++;
    spent.ms += lastRound.ms;
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
      // With the classifier as the text part, its posterior stands for both similarities (SPEC C.1's place).
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
      // SPEC C.4: only relevant pages' links feed the graph.
      if (page.relevant) {
        relevantPages++;
        graph.addPage(page.url, page.links);
      }
      if (++sincePages < every || relevantPages < minPages) return;
      sincePages = 0;
      runRound();
      return 'rerank';
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
      // The graph is exact (written with each relevant page's commit); the text model as of the last round.
      for (const row of rows) graph.addPage(row.url, row.links);
      relevantPages = rows.length;
      const s = saved as { topic?: TopicModelState } | undefined;
      if (!naiveBayes && s?.topic) topic.restore(s.topic);
      if (relevantPages >= minPages && rows.length > 0) runRound();
    },
    ...(naiveBayes ? {} : { save: () => ({ topic: topic.toJSON() }) }),
    report() {
      if (!lastRound) return null;
      return { round: lastRound, spent: { ...spent }, ...graph.top(10) };
    },
  };
}
