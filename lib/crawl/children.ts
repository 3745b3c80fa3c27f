// From a fetched page's links to frontier candidates: normalize, keep in scope, keep the user's session
// safe, score with the link classifier (SPEC A.1: priority = P(+|anchor, context)).
import type { LinkClassifier } from '../classifier/link-classifier';
import type { Candidate } from '../store/crawl-store';
import type { FrontierEntry, ParsedPage } from '../types';
import { hostOf, normalizeUrl } from '../url';
import type { CrawlConfig } from './config';
import { describeBlock, makeSafetyGuard, type SafetyGuard } from './safety';
import { scopeReason } from './scope';

// Compiled per config object: a crawl's config never changes while it runs.
const compiled = new WeakMap<CrawlConfig, { outOfScope: (url: string) => string | null; inScope: (url: string) => boolean; safety: SafetyGuard }>();

/** The crawl's scope and safety rules, compiled once per config. */
export function rulesFor(config: CrawlConfig) {
  let r = compiled.get(config);
  if (!r) {
    const outOfScope = scopeReason(config);
    r = { outOfScope, inScope: (url: string) => outOfScope(url) === null, safety: makeSafetyGuard(config.safety) };
    compiled.set(config, r);
  }
  return r;
}

/** Seeds are taken before anything a page links to. */
const SEED_PRIORITY = Number.MAX_VALUE;

/**
 * Priority of a link under the crawl's strategy: best-first sorts by the classifier's log-odds (monotone in
 * P(+|F), SPEC A.7, but not saturated); breadth-first by depth, earliest found first.
 */
export function priorityOf(config: CrawlConfig, logOdds: number, depth: number): number {
  return config.strategy.name === 'breadth-first' ? -depth : logOdds;
}

export function planChildren(
  page: ParsedPage,
  parent: FrontierEntry,
  pageUrl: string,
  config: CrawlConfig,
  classifier: LinkClassifier,
): Candidate[] {
  const depth = parent.depth + 1;
  // meta robots nofollow is part of obeying robots; a page's links are still read for nothing else.
  if (depth > config.budget.maxDepth || (page.nofollow && config.politeness.robots)) return [];
  const { inScope, safety } = rulesFor(config);
  const out: Candidate[] = [];
  for (const link of page.links) {
    const url = normalizeUrl(link.url, undefined, config.canonical);
    if (!url || url === pageUrl || url === parent.url || !inScope(url)) continue;
    const unsafe = safety.check(url, { anchor: link.anchor, rel: link.rel });
    const { logOdds, score } = unsafe ? { logOdds: -Number.MAX_VALUE, score: 0 } : classifier.rank(link);
    out.push({
      url, host: hostOf(url), score, priority: priorityOf(config, logOdds, depth), depth, parentUrl: parent.url,
      anchor: link.anchor, context: link.context,
      skip: unsafe ? describeBlock(unsafe) : undefined,
    });
  }
  return out;
}

/** Seeds enter with the top score. */
export function seedCandidates(config: CrawlConfig): Candidate[] {
  return config.seeds.flatMap((s) => {
    const url = normalizeUrl(s, undefined, config.canonical);
    const priority = config.strategy.name === 'best-first' ? SEED_PRIORITY : priorityOf(config, 0, 0);
    return url ? [{ url, host: hostOf(url), score: 1, priority, depth: 0, parentUrl: null, anchor: '', context: '' }] : [];
  });
}
