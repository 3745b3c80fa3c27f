// What to ask the user next: questions ranked by their expected effect on the crawl, not only by the
// model's doubt. A question is about a link ("is the page this link leads to on topic?", answered for a queued
// URL) or about a page ("is this page on topic?", a fetched page). The effect counted:
//
// - Direct: what the answer changes in what is fetched. A queued URL among the next `horizon` to fetch is fetched
//   whatever the model learns; "off topic" takes it out, saving the fetch: worth (1 - P) of one page. One further
//   down is not fetched soon; "on topic" puts it first: worth P, less what the fetch it displaces would have
//   found (P at the horizon). P is the model's posterior.
// - Through learning: the answer teaches its features, and the queued links that share them move. Counted as
//   the model's doubt 4P(1-P) (how much an answer can surprise it) times the links that share a word of the
//   anchor (the names a topic is made of), each worth `reachWeight` of a page.
// - A page question settles its links through the parent-page feature: the judge's doubt 4P(1-P) on the page
//   times its queued children, each worth `reachWeight`.
//
// Ties go to the question with more reach, then the URL, so the order is deterministic.
import type { LinkScorer } from './uncertainty';

export interface LinkQuestionCandidate {
  url: string;
  anchor: string;
  context: string;
  /** P(+|F) under the current model (the queued entry's score). */
  score: number;
  /** Its place in the frontier, 0 the next to fetch. */
  rank: number;
}

export interface PageQuestionCandidate {
  url: string;
  /** The judge's probability that the page is on topic. */
  relevance: number;
  /** Queued links whose best link is on this page: the parent feature the answer settles. */
  children: number;
}

export type Question =
  | { kind: 'link'; link: LinkQuestionCandidate; value: number; reach: number }
  | { kind: 'page'; page: PageQuestionCandidate; value: number; reach: number };

export interface QuestionOptions {
  /** Fetches the crawl makes before the answers could be revised: what counts as "fetched soon". Default 100. */
  horizon?: number;
  /** What one re-ranked link is worth, in pages. 0 ranks by the direct effect alone. Default 0.02. */
  reachWeight?: number;
  /** URLs already answered: never asked again. */
  answered?: ReadonlySet<string>;
  /** Questions returned. Default 50. */
  limit?: number;
}

const doubt = (p: number) => 4 * p * (1 - p);

/** The anchor's word features: what links to the same names share. */
function anchorWords(scorer: LinkScorer, link: { anchor: string; context: string }): string[] {
  return scorer.features({ anchor: link.anchor, context: '' }).filter((f) => f.startsWith('a:'));
}

/** The questions worth most to the crawl first (the rule above). */
export function rankQuestions(
  links: readonly LinkQuestionCandidate[],
  pages: readonly PageQuestionCandidate[],
  scorer: LinkScorer,
  opts: QuestionOptions = {},
): Question[] {
  const horizon = opts.horizon ?? 100;
  const reachWeight = opts.reachWeight ?? 0.02;
  const answered = opts.answered ?? new Set<string>();
  const limit = opts.limit ?? 50;
  const open = links.filter((l) => !answered.has(l.url));
  // The posterior of the link the horizon falls on: what a displaced fetch would have found.
  const byRank = [...links].sort((a, b) => a.rank - b.rank);
  const atHorizon = byRank[Math.min(horizon, byRank.length) - 1]?.score ?? 0;

  const words = open.map((l) => anchorWords(scorer, l));
  const sharing = new Map<string, number>();
  for (const ws of words) for (const w of new Set(ws)) sharing.set(w, (sharing.get(w) ?? 0) + 1);

  const out: Question[] = open.map((link, i) => {
    // Links that share at least one anchor word, bounded by the most shared word's count (an upper bound's
    // cheap stand-in: names rarely share two words with different links).
    let reach = 0;
    for (const w of new Set(words[i])) reach = Math.max(reach, sharing.get(w)! - 1);
    const p = link.score;
    const direct = link.rank < horizon ? 1 - p : Math.max(0, p - atHorizon);
    return { kind: 'link', link, reach, value: direct + doubt(p) * reach * reachWeight };
  });
  for (const page of pages) {
    if (answered.has(page.url)) continue;
    out.push({ kind: 'page', page, reach: page.children, value: doubt(page.relevance) * page.children * reachWeight });
  }
  const urlOf = (q: Question) => (q.kind === 'link' ? q.link.url : q.page.url);
  out.sort((a, b) => b.value - a.value || b.reach - a.reach || (urlOf(a) < urlOf(b) ? -1 : urlOf(a) > urlOf(b) ? 1 : 0));
  return out.slice(0, Math.max(0, limit));
}
