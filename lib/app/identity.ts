// How the crawl names itself to the sites it requests. RFC 9309 2.2.1: a crawler SHOULD send its product token
// in the User-Agent, and robots.txt groups written for it can only apply if it does. In the browser the header
// is set for the worker's own requests by one rule that is global to the extension, while each crawl chooses
// (`politeness.identify`): the plan below turns the choices of the crawls running at once into that one rule.
import type { CrawlConfig } from '../records/config';
import { ROBOTS_AGENT } from '../net/robots';
import { hostKey } from '../policy/scope';
import { engineUrl } from '../records/template-config';
import { siteOf, siteOfHostOrUrl } from '../records/url';

/**
 * Whether the extension's requests carry the product token now. `exceptDomains`: hosts (and their subdomains)
 * whose requests do not, because a running crawl that was told not to identify itself may request them.
 */
export type IdentityPlan = { identify: false } | { identify: true; exceptDomains: string[] };

/** Applies a plan to the browser; the service calls it before a crawl's first request and after each crawl ends. */
export interface IdentityPort {
  apply(plan: IdentityPlan): Promise<void>;
}

/** What the crawl adds to the browser's User-Agent: `FocusCrawler/0.1.0`, with ` (+homepage)` when there is one. */
export function productToken(version: string, homepage?: string): string {
  return `${ROBOTS_AGENT}/${version}${homepage ? ` (+${homepage})` : ''}`;
}

/** Crawls stored before the setting existed identify themselves, as new ones do by default. */
export const identifies = (config: CrawlConfig): boolean => config.politeness.identify !== false;

const hostnameOf = (url: string): string | null => {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
};

/**
 * The domains a crawl may request (a domain covers its subdomains), or null when its scope has no bound.
 * Wider than scope itself on purpose (every seed, link source and search engine host, and `www.x` as `x`):
 * for an opted-out crawl, a host too many only leaves another crawl unnamed there, a host too few names it.
 */
export function domainsOf(config: CrawlConfig): string[] | null {
  const { mode, sites } = config.scope;
  if (mode === 'anywhere') return null;
  const seeds = config.template ? [...config.seeds, engineUrl(config.template)] : config.seeds;
  const domains = [
    ...[...seeds, ...config.training.linkSources].map(hostnameOf).filter((h): h is string => h !== null).map(hostKey),
    ...(mode === 'seed-sites' ? seeds.map(siteOf) : []),
    ...(mode === 'listed-sites' ? sites.map(siteOfHostOrUrl) : []),
  ];
  return [...new Set(domains)].sort();
}

/**
 * The one rule for the crawls running together. The token is sent while any of them identifies itself; the
 * domains of those that do not are left out, so an opt-out always holds (a site that refuses the token keeps
 * being crawled). When an opted-out crawl may go anywhere, nothing identifies until it ends: the other crawls
 * then go unnamed for a while, which costs a site nothing, where naming the opted-out crawl would break it.
 */
export function identityPlan(running: readonly CrawlConfig[]): IdentityPlan {
  if (!running.some(identifies)) return { identify: false };
  const except = new Set<string>();
  for (const config of running.filter((c) => !identifies(c))) {
    const domains = domainsOf(config);
    if (domains === null) return { identify: false };
    for (const d of domains) except.add(d);
  }
  return { identify: true, exceptDomains: [...except].sort() };
}
