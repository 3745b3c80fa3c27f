// The crawl's one way to the network: every request of a run (training reads, search pages, frontier entries,
// redirect hops, robots.txt) passes this gate's safety, scope, robots.txt, dedup and politeness checks.
import type { Clock, FetchPort } from '../net/fetcher';
import type { RenderPort } from '../net/render';
import { RequestGate } from '../net/request-gate';
import { normalizeUrl } from '../records/url';
import type { CrawlRules } from '../learning/children';
import type { CrawlConfig } from '../records/config';
import type { Politeness } from '../net/politeness';
import { isPrivateHost } from '../net/private-host';
import { DEFAULT_ROBOTS_OPTIONS, RobotsCache } from '../net/robots';
import { sharedRobotsLoader, type RobotsShare } from '../net/shared-robots';
import { describeBlock } from '../policy/safety';
import { renderGuard } from '../policy/render-policy';

export function makeGate(
  ports: { fetch: FetchPort; clock: Clock; render?: RenderPort; store?: { robots?: RobotsShare } }, config: CrawlConfig, rules: CrawlRules, politeness: Politeness, halted: () => boolean,
): RequestGate {
  const { clock } = ports;
  const { outOfScope, safety, namedUnsafe } = rules;
  const canonical = (url: string) => normalizeUrl(url, undefined, config.canonical);
  const robots = config.politeness.robots;
  const share = ports.store?.robots;
  return new RequestGate(ports.fetch, clock, {
    unsafe: (url, link) => {
      const block = safety.check(url, link);
      return block ? describeBlock(block) : (namedUnsafe.reason(canonical(url) ?? url) ?? null);
    },
    // A link of a page planned meanwhile named it unsafe: that page's commit may not have reached the frontier yet.
    namedUnsafe: (url) => namedUnsafe.reason(canonical(url) ?? url) ?? null,
    outOfScope,
    // Scope names the private and loopback addresses a seed does not; that reason, for those addresses only.
    privateTarget: (url) => (isPrivateHost(new URL(url).hostname) ? outOfScope(url) : null),
    canonical,
    halted,
    pageRequest: renderGuard(safety, outOfScope),
  }, politeness, robots ? (load) => new RobotsCache(share ? sharedRobotsLoader(load, share, clock) : load, clock, { ...DEFAULT_ROBOTS_OPTIONS, retryBaseMs: config.fetch.retryBaseMs }) : null, {
    timeoutMs: config.fetch.timeoutMs, maxBytes: config.fetch.maxBytes, maxRedirects: 10,
  }, ports.render);
}
