// What a shared crawl's Redis applies of its config's policy (docs/scale-out.md), read from the config and its strategy
// once, by the first worker: how a link found again counts, the labeled links of links to judged pages, the re-score's
// page count, the site book of a strategy that admits and closes sites by their counts (design B.4, B.5), and the
// queues of a strategy that takes by queues (design D.3). The strategy stays the one place its rules are written: the
// site book's numbers are read from its own answers, and a strategy whose answers no count threshold reproduces is
// refused rather than run differently.
import { DEFAULTS, type CrawlConfig } from '../records/config';
import type { FrontierEntry } from '../records/types';
import { createStrategy, strategyParams } from '../strategies/registry';
import type { SiteView, Strategy } from '../strategies/types';
import type { CrawlRules } from '../store/shared/redis-frontier';

/** The largest count the site book's rules are looked for under (a strategy's caps are far below). */
const MAX_COUNT = 1_000_000;

export function crawlRules(config: CrawlConfig): CrawlRules {
  const strategy = createStrategy(config);
  const { learning } = config;
  const queues = strategy.next === 'priority' ? null : strategyParams(config.strategy.name, config.strategy);
  return {
    everyLink: config.classifier.everyLink && strategy.followsModel ? (ranksByLogOdds(strategy) ? 'logodds' : 'max') : '',
    judged: learning.fromVerdicts && learning.linksToJudged ? learning.linksPerJudgedPage ?? DEFAULTS.learning.linksPerJudgedPage : 0,
    everyPages: strategy.followsModel ? learning.rescoreEveryPages : 0,
    ...siteRules(strategy),
    queues: queues ? Number(queues.maxPriority) : 0,
    iFactor: queues ? Number(queues.iFactor) : 0,
  };
}

/** Why the crawl's rules cannot be kept by a shared frontier, or null. */
export function rulesProblem(config: CrawlConfig): string | null {
  const strategy = createStrategy(config);
  const name = config.strategy.name;
  if (strategy.next !== 'priority') {
    const p = strategyParams(name, config.strategy);
    if (typeof p.maxPriority !== 'number' || typeof p.iFactor !== 'number') return `strategy "${name}" takes by queues the shared frontier does not know`;
  }
  const r = siteRules(strategy);
  const view = (queued: number, fetched: number, relevant: number): SiteView => ({ site: 'probe.invalid', fetched, relevant, queued });
  for (const relevant of [0, 1, 3]) {
    for (const q of [0, 1, r.unknownSiteQueue - 1, r.unknownSiteQueue, r.unknownSiteQueue + 7].filter((x) => x >= 0)) {
      const refused = r.unknownSiteQueue > 0 && relevant === 0 && q >= r.unknownSiteQueue;
      if ((strategy.admit?.(view(q, relevant + 2, relevant)) ?? null) !== null !== refused) return `strategy "${name}" admits sites by a rule the shared frontier cannot keep`;
    }
    for (const f of [relevant, relevant + r.blacklistAfter, relevant + r.blacklistAfter + 1, relevant + r.blacklistAfter + 9]) {
      const closed = r.blacklistAfter > 0 && f - relevant > r.blacklistAfter;
      if ((strategy.judgeSite?.(view(0, f, relevant)) ?? null) !== null !== closed) return `strategy "${name}" closes sites by a rule the shared frontier cannot keep`;
    }
  }
  return null;
}

/**
 * Whether the strategy's priority is the URL's log-odds itself (best-first, sparse tunneling): then Redis ranks a URL
 * by every link found to it as the strategy would; any other keeps the better link's priority.
 */
function ranksByLogOdds(strategy: Strategy): boolean {
  const probe: FrontierEntry = { crawlId: 0, url: 'http://probe.invalid/', host: 'probe.invalid', state: 'queued', score: 0.5, priority: 0, order: 0, depth: 1,
    parentUrl: 'http://probe.invalid/parent', anchor: '', context: '', attempts: 0, discoveredAt: 0, updatedAt: 0 };
  return [-2.5, 0, 1.75].every((x) => strategy.rerank(probe, x) === x);
}

/**
 * The site book's rules, as the strategy answers: the least URLs queued at which it refuses a site with no relevant page
 * (design B.4), the most off-topic pages it lets a site have (design B.5), and what it says then (`%d`: how many).
 */
function siteRules(strategy: Strategy): Pick<CrawlRules, 'unknownSiteQueue' | 'admitReason' | 'blacklistAfter' | 'closeReason'> {
  const view = (queued: number, fetched: number): SiteView => ({ site: 'probe.invalid', fetched, relevant: 0, queued });
  const R = strategy.admit ? least((q) => strategy.admit!(view(q, 0)) !== null) : null;
  const F = strategy.judgeSite ? least((f) => strategy.judgeSite!(view(0, f)) !== null) : null;
  const closeReason = F === null ? '' : strategy.judgeSite!(view(0, F))!.replace(/%/g, '%%').replace(new RegExp(`\\(${F}\\)$`), '(%d)');
  return {
    unknownSiteQueue: R ?? 0, admitReason: R === null ? '' : strategy.admit!(view(R, 0))!,
    blacklistAfter: F === null ? 0 : F - 1, closeReason,
  };
}

/** The least count at which `yes` holds, for a `yes` that holds from some count on; null when it never does. */
function least(yes: (n: number) => boolean): number | null {
  if (!yes(MAX_COUNT)) return null;
  let lo = 0, hi = MAX_COUNT;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (yes(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
