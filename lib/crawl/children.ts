// From a fetched page's links to frontier candidates: normalize, keep in scope, keep the user's session
// safe, score with the link classifier (SPEC A.1: priority = P(+|anchor, context)).
import type { TargetAuthority } from '../classifier/authority';
import type { LinkClassifier, LinkScoring, LinkText } from '../classifier/link-classifier';
import { logistic } from '../classifier/naive-bayes';
import { hubBuckets } from '../classifier/link-features';
import type { Candidate } from '../store/crawl-store';
import type { FrontierEntry, ParsedPage } from '../types';
import { strategyOf } from '../strategies/registry';
import { hostOf, normalizeUrl, requestUrl, siteOf } from '../url';
import type { CrawlConfig } from './config';
import { compilePatterns, type UrlMatcher } from './patterns';
import { describeBlock, makeSafetyGuard, type SafetyGuard } from './safety';
import { scopeReason } from './scope';

// Compiled per config object: a crawl's config never changes while it runs.
const compiled = new WeakMap<CrawlConfig, {
  outOfScope: (url: string) => string | null; inScope: (url: string) => boolean; safety: SafetyGuard; labeled: LabeledPages;
}>();

/** The crawl's scope and safety rules, and its labeled pages, compiled once per config. */
export function rulesFor(config: CrawlConfig) {
  let r = compiled.get(config);
  if (!r) {
    const outOfScope = scopeReason(config);
    r = { outOfScope, inScope: (url: string) => outOfScope(url) === null, safety: makeSafetyGuard(config.safety), labeled: labeledPages(config) };
    compiled.set(config, r);
  }
  return r;
}

/**
 * The pages the user labeled (`training.positive` and `training.negative`), compiled: what training reads labels
 * with, and what a hub bucket counts. `base` is the share of positives among the listed pages, which a hub bucket
 * is measured against; null unless both lists are given (a page linking only to known positives says nothing).
 */
export interface LabeledPages {
  positive: UrlMatcher;
  negative: UrlMatcher;
  /** The label of a URL normalized with the crawl's `canonical` rules (as the frontier keys it). */
  label(url: string): 0 | 1 | undefined;
  base: number | null;
}

function labeledPages(config: CrawlConfig): LabeledPages {
  const { positive, negative } = config.training;
  const pos = compilePatterns(positive, config.canonical), neg = compilePatterns(negative, config.canonical);
  return {
    positive: pos, negative: neg,
    label: (url) => (pos.matches(url) ? 1 : neg.matches(url) ? 0 : undefined),
    base: positive.length > 0 && negative.length > 0 ? positive.length / (positive.length + negative.length) : null,
  };
}

/**
 * A fetched page's links as frontier candidates, planned by the crawl's strategy (lib/strategies): unsafe links
 * are recorded as skipped; links the strategy drops are counted by reason in `dropped`, never queued.
 */
export function planChildren(
  page: ParsedPage,
  parent: FrontierEntry,
  pageUrl: string,
  config: CrawlConfig,
  classifier: LinkClassifier,
  relevant: boolean,
  dropped: Record<string, number> = {},
  authority: TargetAuthority | null = null,
): Candidate[] {
  const depth = parent.depth + 1;
  // meta robots nofollow is part of obeying robots; a page's links are still read for nothing else.
  if (depth > config.budget.maxDepth || (page.nofollow && config.politeness.robots)) return [];
  const { inScope, safety, labeled } = rulesFor(config);
  const strategy = strategyOf(config);
  const out: Candidate[] = [];
  const urls = page.links.map((link) => normalizeUrl(link.url, undefined, config.canonical));
  // The page as a hub: its links to labeled pages (the page's own URL is not one of its links).
  const { base } = labeled;
  const hubs = base === null ? [] : hubBuckets(urls.map((url) => ({ url: url ?? '', label: url && url !== pageUrl ? labeled.label(url) : undefined })), base);
  page.links.forEach((link, i) => {
    const url = urls[i];
    if (!url || url === pageUrl || url === parent.url || !inScope(url)) return;
    // What would be requested is what the guard reads.
    const href = requestUrl(link.url) ?? url;
    const unsafe = safety.check(href, { anchor: link.anchor, rel: link.rel });
    const parentHub = hubs[i];
    const base = { url, ...(href === url ? {} : { href }), host: hostOf(url), site: siteOf(url), depth, parentUrl: parent.url, anchor: link.anchor, context: link.context, parentOnTopic: relevant,
      ...(parentHub === undefined ? {} : { parentHub }) };
    if (unsafe) {
      out.push({ ...base, score: 0, priority: -Number.MAX_VALUE, skip: describeBlock(unsafe) });
      return;
    }
    const { logOdds, score } = rankLink(classifier, authority, base, config.classifier);
    const plan = strategy.plan({
      url, anchor: link.anchor, logOdds, score, depth,
      ...(link.pagination ? { pagination: link.pagination } : {}), ...(link.replies !== undefined ? { replies: link.replies } : {}),
    }, { entry: parent, relevant, url: pageUrl, text: page.text });
    if ('drop' in plan) {
      dropped[plan.drop] = (dropped[plan.drop] ?? 0) + 1;
      return;
    }
    out.push({ ...base, score, logOdds, priority: plan.priority, ...(plan.state ? { strategy: plan.state } : {}), ...(plan.revisit !== undefined ? { revisit: plan.revisit } : {}) });
  });
  return out;
}

/**
 * A link's rank: the link classifier's log-odds for it, plus the authority of the URL it leads to (the crawl has
 * one only with `classifier.targetAuthority`; every link to a URL gets the same). What planChildren queues and
 * re-scoring recomputes.
 */
export function rankLink(classifier: LinkClassifier, authority: TargetAuthority | null, link: LinkText & { url: string }, scoring: LinkScoring) {
  const ranked = classifier.rank(link, scoring);
  if (!authority) return ranked;
  const logOdds = ranked.logOdds + authority.logOdds(link.url);
  return { logOdds, score: logistic(logOdds) };
}

/** Seeds enter with the top score. */
export function seedCandidates(config: CrawlConfig): Candidate[] {
  return config.seeds.flatMap((s) => {
    const url = normalizeUrl(s, undefined, config.canonical);
    const href = requestUrl(s);
    const priority = strategyOf(config).seedPriority();
    return url ? [{ url, ...(href === null || href === url ? {} : { href }), host: hostOf(url), site: siteOf(url), score: 1, priority, depth: 0, parentUrl: null, anchor: '', context: '', strategy: { tunnel: 0 } }] : [];
  });
}
