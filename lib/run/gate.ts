// The crawl's one way to the network: every request of a run (training reads, search pages, frontier entries,
// redirect hops, robots.txt) passes this gate's safety, scope, robots.txt, dedup and politeness checks.
import type { Clock, FetchPort } from '../fetch/fetcher';
import type { RenderPort } from '../fetch/render';
import { RequestGate } from '../fetch/request-gate';
import { normalizeUrl } from '../url';
import type { CrawlRules } from '../crawl/children';
import type { CrawlConfig } from '../crawl/config';
import type { Politeness } from '../fetch/politeness';
import { isPrivateHost } from '../fetch/private-host';
import { DEFAULT_ROBOTS_OPTIONS, RobotsCache } from '../fetch/robots';
import { sharedRobotsLoader, type RobotsShare } from '../fetch/shared-robots';
import { describeBlock } from '../crawl/safety';
import { renderGuard } from '../crawl/render-policy';

export function makeGate(
  ports: { fetch: FetchPort; clock: Clock; render?: RenderPort; store?: { robots?: RobotsShare } }, config: CrawlConfig, rules: CrawlRules, politeness: Politeness, halted: () => boolean,
): RequestGate {
  const { clock } = ports;
  const { outOfScope, safety } = rules;
  const robots = config.politeness.robots;
  const share = ports.store?.robots;
  return new RequestGate(ports.fetch, clock, {
    unsafe: (url, link) => {
      const block = safety.check(url, link);
      return block ? describeBlock(block) : null;
    },
    outOfScope,
    // Scope names the private and loopback addresses a seed does not; that reason, for those addresses only.
    privateTarget: (url) => (isPrivateHost(new URL(url).hostname) ? outOfScope(url) : null),
    canonical: (url) => normalizeUrl(url, undefined, config.canonical),
    halted,
    pageRequest: renderGuard(safety, outOfScope),
  }, politeness, robots ? (load) => new RobotsCache(share ? sharedRobotsLoader(load, share, clock) : load, clock, { ...DEFAULT_ROBOTS_OPTIONS, retryBaseMs: config.fetch.retryBaseMs }) : null, {
    timeoutMs: config.fetch.timeoutMs, maxBytes: config.fetch.maxBytes, maxRedirects: 10,
  }, ports.render);
}
