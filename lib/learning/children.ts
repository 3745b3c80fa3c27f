// From a fetched page's links to frontier candidates: normalize, keep in scope, keep the user's session
// safe, score with the link classifier (design A.1: priority = P(+|anchor, context)).
import type { TargetAuthority } from './authority';
import type { LinkClassifier, LinkText } from './link-classifier';
import type { LinkScoring } from '../records/classifier-config';
import { logistic } from './naive-bayes';
import { hubBuckets } from './link-features';
import type { Candidate } from '../ports';
import type { FrontierEntry, KeptByPage, ParsedPage } from '../records/types';
import { createStrategy } from '../strategies/registry';
import type { PlannedLink, Strategy } from '../strategies/types';
import { hostOf, linkTarget, normalizeUrl, requestUrl, siteOf, type LinkTarget } from '../records/url';
import type { CrawlConfig, SafetyAllowance } from '../records/config';
import { compilePatterns, type UrlMatcher } from '../records/patterns';
import { describeBlock, makeSafetyGuard, type SafetyBlock, type SafetyGuard } from '../policy/safety';
import { scopeReason, type ReadHost, type ScopeReason } from '../policy/scope';

/** A crawl's scope and safety rules and its labeled pages, compiled from its config (compileRules). */
export interface CrawlRules {
  outOfScope: ScopeReason;
  inScope: (url: string, read?: ReadHost) => boolean;
  safety: SafetyGuard;
  labeled: LabeledPages;
  /** URLs a link of this run named unsafe, as soon as the page that holds it is planned. */
  namedUnsafe: NamedUnsafe;
  /** URLs (canonical) the user let the crawl request after seeing why they were kept (the crawl row's `allowed`). */
  allowedUrls: ReadonlySet<string>;
}

/**
 * The URLs a page's links named unsafe in this run, with why, from the moment that page is planned: the request gate
 * asks it before every request. The frontier learns it only when that page's commit lands, and a URL an innocent link
 * queued before could be taken meanwhile (design A.7's commits are queued and batched). Bounded: the oldest are
 * forgotten, their commits long landed.
 */
export class NamedUnsafe {
  private readonly reasons = new Map<string, string>();

  constructor(private readonly cap = 50_000) {}

  note(url: string, reason: string): void {
    if (this.reasons.has(url)) return;
    if (this.reasons.size >= this.cap) this.reasons.delete(this.reasons.keys().next().value!);
    this.reasons.set(url, reason);
  }

  /** Why a canonical URL was named unsafe, or undefined. */
  reason(url: string): string | undefined {
    return this.reasons.get(url);
  }
}

/**
 * Compiles the rules of a config; a run compiles them once, and again only when its seeds change (template seeding) or
 * the user allows a kept link (`allowed`, from the crawl row), keeping the URLs already named unsafe (`named`).
 */
export function compileRules(config: CrawlConfig, named = new NamedUnsafe(), allowed: readonly SafetyAllowance[] = []): CrawlRules {
  const outOfScope = scopeReason(config);
  return {
    outOfScope, inScope: (url, read) => outOfScope(url, read) === null, safety: makeSafetyGuard(config.safety, allowed), labeled: labeledPages(config),
    namedUnsafe: named, allowedUrls: new Set(allowed.flatMap((a) => ('url' in a ? [a.url] : []))),
  };
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

/** What a run holds that plans links: its strategy instance and its compiled rules. */
export interface LinkPlanner {
  strategy: Strategy;
  rules: CrawlRules;
}

/**
 * A fetched page's links as frontier candidates, planned by the crawl's strategy (lib/strategies): unsafe links
 * are recorded as skipped; links the strategy drops are counted by reason in `dropped`, never queued. A run passes
 * its own `planner`; without one, a strategy and rules are made from `config` for this page alone. Every link is
 * read before any is planned: a URL that one link names unsafe is kept from requesting however innocently, and
 * wherever on the page, another names it ("Jo Weber" before "Sign out"), and `kept` lists which link named it.
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
  planner?: LinkPlanner,
  kept: KeptByPage[] = [],
): Candidate[] {
  const depth = parent.depth + 1;
  // meta robots nofollow is part of obeying robots; a page's links are still read for nothing else.
  if (depth > config.budget.maxDepth || (page.nofollow && config.politeness.robots)) return [];
  const { strategy, rules } = planner ?? { strategy: createStrategy(config), rules: compileRules(config) };
  const { inScope, safety, labeled } = rules;
  const out: Candidate[] = [];
  // Each link's URL is read once here, in every form planning asks for (url.ts linkTarget).
  const targets: (LinkTarget | null)[] = page.links.map((link) => linkTarget(link.url, config.canonical));
  // The page as a hub: its links to labeled pages (the page's own URL is not one of its links).
  const { base } = labeled;
  const hubs = base === null ? [] : hubBuckets(targets.map((t) => ({ url: t?.url ?? '', label: t && t.url !== pageUrl ? labeled.label(t.url) : undefined })), base);
  // First, which of the links are to plan, and which URLs any of them names unsafe, and by which link.
  const unsafe = new Map<string, { block: SafetyBlock; at: number; alsoAs: string[] }>();
  const checked: (SafetyBlock | null | undefined)[] = page.links.map((link, i) => {
    const target = targets[i];
    if (!target || target.url === pageUrl || target.url === parent.url || !inScope(target.url, target)) return undefined;
    // What would be requested is what the guard reads; a URL the user allowed is not read.
    const block = rules.allowedUrls.has(target.url) ? null : safety.check(target.href, { anchor: link.anchor, rel: link.rel, markup: link.markup }, target.requested);
    if (block && !unsafe.has(target.url)) unsafe.set(target.url, { block, at: i, alsoAs: [] });
    return block;
  });
  page.links.forEach((link, i) => {
    const target = targets[i];
    if (!target || checked[i] === undefined) return;
    const { url, href, host, site } = target;
    const named = unsafe.get(url);
    // Another link named this URL unsafe: this one is not planned (kept lists its name), whichever came first.
    if (named && named.at !== i) {
      const text = link.anchor.trim();
      if (!checked[i] && text && !named.alsoAs.includes(text) && named.alsoAs.length < 3) named.alsoAs.push(text);
      return;
    }
    // The candidate is built once and completed in place, its fields in the order the row has always had (object
    // spreads copied it two or three times a link, a share of planning's time and of its garbage).
    const candidate: Candidate = href === url
      ? { url, host, site, depth, parentUrl: parent.url, anchor: link.anchor, context: link.context, parentOnTopic: relevant } as Candidate
      : { url, href, host, site, depth, parentUrl: parent.url, anchor: link.anchor, context: link.context, parentOnTopic: relevant } as Candidate;
    const parentHub = hubs[i];
    if (parentHub !== undefined) candidate.parentHub = parentHub;
    if (named) {
      candidate.score = 0;
      candidate.priority = -Number.MAX_VALUE;
      candidate.skip = describeBlock(named.block);
      rules.namedUnsafe.note(url, `${candidate.skip} (the link "${link.anchor}" on ${pageUrl})`);
      out.push(candidate);
      return;
    }
    const { logOdds, score } = rankLink(classifier, authority, candidate, config.classifier);
    const planned: PlannedLink = { url, anchor: link.anchor, logOdds, score, depth };
    if (link.pagination) planned.pagination = link.pagination;
    if (link.replies !== undefined) planned.replies = link.replies;
    const plan = strategy.plan(planned, { entry: parent, relevant, url: pageUrl, text: page.text });
    if ('drop' in plan) {
      dropped[plan.drop] = (dropped[plan.drop] ?? 0) + 1;
      return;
    }
    candidate.score = score;
    candidate.logOdds = logOdds;
    candidate.priority = plan.priority;
    if (plan.state) candidate.strategy = plan.state;
    if (plan.revisit !== undefined) candidate.revisit = plan.revisit;
    out.push(candidate);
  });
  for (const [url, { block, at, alsoAs }] of unsafe) {
    kept.push({ url, anchor: page.links[at]!.anchor, rule: block.rule, match: block.match, ...(alsoAs.length ? { alsoAs } : {}) });
  }
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

/** Seeds enter with the top score, at the priority the strategy gives seeds. */
export function seedCandidates(config: CrawlConfig, strategy: Strategy = createStrategy(config)): Candidate[] {
  const priority = strategy.seedPriority();
  return config.seeds.flatMap((s) => {
    const url = normalizeUrl(s, undefined, config.canonical);
    const href = requestUrl(s);
    return url ? [{ url, ...(href === null || href === url ? {} : { href }), host: hostOf(url), site: siteOf(url), score: 1, priority, depth: 0, parentUrl: null, anchor: '', context: '', strategy: { tunnel: 0 } }] : [];
  });
}

/**
 * URLs a sitemap lists, as frontier candidates (docs/duplicates.md, "Sitemaps"): each scored as a link whose anchor is
 * the words of its path (a sitemap carries no anchor) and no context, from no page (the parent-page feature unknown),
 * one link from a seed; kept in scope and safe as links are, and planned by the strategy, which may drop it. Each keeps
 * its `<lastmod>`. `listedBy`: the sitemap's URL.
 */
export function planListed(
  entries: readonly { url: string; anchor: string; lastmod?: number }[], listedBy: string, config: CrawlConfig, classifier: LinkClassifier,
  authority: TargetAuthority | null, planner: LinkPlanner, dropped: Record<string, number> = {},
): Candidate[] {
  if (config.budget.maxDepth < 1) return [];
  const { strategy, rules } = planner;
  const parent: FrontierEntry = {
    crawlId: 0, url: listedBy, host: hostOf(listedBy), state: 'done', score: 1, priority: strategy.seedPriority(), order: 0, depth: 0, parentUrl: null,
    anchor: '', context: '', attempts: 0, discoveredAt: 0, updatedAt: 0, strategy: { tunnel: 0 },
  };
  const out: Candidate[] = [];
  for (const e of entries) {
    const target = linkTarget(e.url, config.canonical);
    if (!target || !rules.inScope(target.url, target)) continue;
    const { url, href, host, site } = target;
    const candidate: Candidate = { url, ...(href === url ? {} : { href }), host, site, depth: 1, parentUrl: listedBy, anchor: e.anchor, context: '', score: 0, priority: 0,
      sitemap: e.lastmod === undefined ? {} : { lastmod: e.lastmod } };
    const unsafe = rules.safety.check(href, { anchor: e.anchor }, target.requested);
    if (unsafe) {
      out.push({ ...candidate, priority: -Number.MAX_VALUE, skip: describeBlock(unsafe) });
      continue;
    }
    const { logOdds, score } = rankLink(classifier, authority, { url, anchor: e.anchor, context: '' }, config.classifier);
    const plan = strategy.plan({ url, anchor: e.anchor, logOdds, score, depth: 1 }, { entry: parent, relevant: false, url: listedBy, text: '' });
    if ('drop' in plan) {
      dropped[plan.drop] = (dropped[plan.drop] ?? 0) + 1;
      continue;
    }
    out.push({ ...candidate, score, logOdds, priority: plan.priority, ...(plan.state ? { strategy: plan.state } : {}) });
  }
  return out;
}
