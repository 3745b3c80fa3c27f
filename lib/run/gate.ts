// The crawl's one way to the network: every request of a run (training reads, search pages, frontier entries,
// redirect hops, robots.txt) passes this gate's safety, scope, robots.txt, dedup and politeness checks.
import type { Clock, FetchOutcome, FetchPort } from '../net/fetcher';
import type { SessionLoss } from '../net/session';
import { parseHtml } from '../parse/html';
import type { ParsedPage } from '../records/types';
import { hostOf } from '../records/url';
import type { SessionWatch } from '../policy/session-signs';
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

/** The run's watch on each host's logged-in signs, and where the pages it parsed are kept for the pipeline. */
export interface SessionReading {
  watch: SessionWatch;
  parsed: WeakMap<FetchOutcome, ParsedPage>;
}

export function makeGate(
  ports: { fetch: FetchPort; clock: Clock; render?: RenderPort; store?: { robots?: RobotsShare } }, config: CrawlConfig, rules: CrawlRules, politeness: Politeness, halted: () => boolean,
  session?: SessionReading,
): RequestGate {
  const { clock } = ports;
  const { outOfScope, safety, namedUnsafe, allowedUrls } = rules;
  const canonical = (url: string) => normalizeUrl(url, undefined, config.canonical);
  const robots = config.politeness.robots;
  const share = ports.store?.robots;
  return new RequestGate(ports.fetch, clock, {
    unsafe: (url, link) => {
      const key = canonical(url) ?? url;
      if (allowedUrls.has(key)) return null; // the user saw why it was kept, and allowed it
      const block = safety.check(url, link);
      return block ? describeBlock(block) : (namedUnsafe.reason(key) ?? null);
    },
    // A link of a page planned meanwhile named it unsafe: that page's commit may not have reached the frontier yet.
    namedUnsafe: (url) => {
      const key = canonical(url) ?? url;
      return allowedUrls.has(key) ? null : (namedUnsafe.reason(key) ?? null);
    },
    outOfScope,
    // Scope names the private and loopback addresses a seed does not; that reason, for those addresses only.
    privateTarget: (url) => (isPrivateHost(new URL(url).hostname) ? outOfScope(url) : null),
    canonical,
    halted,
    pageRequest: renderGuard(safety, outOfScope),
    ...(session ? { pageAnswered: (url: string, out: FetchOutcome) => pageSigns(session, politeness, url, out) } : {}),
  }, politeness, robots ? (load) => new RobotsCache(share ? sharedRobotsLoader(load, share, clock) : load, clock, { ...DEFAULT_ROBOTS_OPTIONS, retryBaseMs: config.fetch.retryBaseMs }) : null, {
    timeoutMs: config.fetch.timeoutMs, maxBytes: config.fetch.maxBytes, maxRedirects: 10,
  }, ports.render);
}

/**
 * The requests at once to a host whose pages show the user logged in: with the signs read before each request's slot is
 * freed, at most this many reach the host after its session ended (the one whose page shows it, and one in flight).
 */
const WATCHED_IN_FLIGHT = 2;

/**
 * What a page answered to a request that carried the user's session says of the session: it teaches the host's
 * logged-in signs, or shows them gone. Only pages, fetched whole, with the session sent, are read; the parse is kept
 * for the pipeline.
 */
function pageSigns(session: SessionReading, politeness: Politeness, url: string, out: FetchOutcome): SessionLoss | null {
  if (!out.cookies?.sent.length || out.html === null || out.error || out.status < 200 || out.status >= 300) return null;
  let parsed: ParsedPage;
  try {
    parsed = parseHtml(out.html, out.finalUrl);
  } catch {
    return null; // the pipeline says why it could not be parsed
  }
  session.parsed.set(out, parsed);
  const host = hostOf(out.finalUrl);
  const lost = session.watch.observe(host, url, parsed);
  if (session.watch.watches(host)) politeness.capInFlight(host, WATCHED_IN_FLIGHT);
  return lost && { by: 'signs', what: lost.shows, after: lost.after };
}
