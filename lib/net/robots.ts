// robots.txt, obeyed by default (RFC 9309, read by robots-txt.ts); one read per origin, cached.
// RFC 9309 2.3.1: a 4xx answer means no rules; 5xx (and 429, timeouts, network errors) mean the site cannot
// say now, so its URLs wait and robots.txt is asked again with backoff; only after several tries spread over
// minutes are they given up, each with that reason.
import type { Clock } from './fetcher';
import { parseRobotsTxt, type RobotsRules } from './robots-txt';

/** The product token matched against robots.txt user-agent lines. */
export const ROBOTS_AGENT = 'FocusCrawler';

export type RobotsVerdict =
  | { kind: 'allowed'; /** robots.txt crawl-delay for our agent, in ms. */ crawlDelayMs?: number }
  | { kind: 'disallowed'; reason: string }
  /** robots.txt could not be read just now: ask again after `afterMs`. */
  | { kind: 'wait'; afterMs: number; reason: string }
  /** robots.txt could not be read after every try: the origin's URLs are given up. */
  | { kind: 'unavailable'; reason: string };

/** Where an origin's robots.txt answer came from: `url` answered, after redirects from each of `hops` in turn. */
export interface RobotsSource {
  url: string;
  hops: string[];
}

/**
 * How robots.txt is read: the request gate's job (no cookies, redirects followed as RFC 9309 2.3.1.2 says). The
 * answer's status is the last one: a 3xx when redirects were not followed to the end (that reads as no rules).
 */
export type RobotsLoader = (robotsUrl: string) => Promise<({ status: number; text: string } & RobotsSource) | { error: string }>;

export interface RobotsOptions {
  /** First wait after a failed read; each next wait is three times longer. */
  retryBaseMs: number;
  /** Reads tried before the origin is given up. */
  tries: number;
}

export const DEFAULT_ROBOTS_OPTIONS: RobotsOptions = { retryBaseMs: 10_000, tries: 5 };

interface OriginState {
  /** Set once read: the rules, or null for none (4xx), and where they were read. */
  read?: { rules: RobotsRules | null; source: RobotsSource };
  pending?: Promise<void>;
  failures: number;
  firstFailureAt: number;
  nextTryAt: number;
  lastTryAt: number;
  lastError: string;
}

export class RobotsCache {
  private readonly origins = new Map<string, OriginState>();

  constructor(
    private readonly load: RobotsLoader,
    private readonly clock: Clock,
    private readonly opts: RobotsOptions = DEFAULT_ROBOTS_OPTIONS,
  ) {}

  async check(url: string): Promise<RobotsVerdict> {
    const origin = new URL(url).origin;
    let s = this.origins.get(origin);
    if (!s) {
      s = { failures: 0, firstFailureAt: 0, nextTryAt: 0, lastTryAt: 0, lastError: '' };
      this.origins.set(origin, s);
    }
    for (;;) {
      if (s.read) return verdictOf(s.read, url);
      if (s.pending) {
        await s.pending;
        continue;
      }
      if (s.failures >= this.opts.tries) {
        const span = s.lastTryAt - s.firstFailureAt;
        const over = span >= 60_000 ? `${Math.round(span / 60_000)} min` : `${Math.round(span / 1000)} s`;
        return { kind: 'unavailable', reason: `robots.txt could not be read after ${s.failures} tries over ${over} (${s.lastError}): not crawled` };
      }
      const now = this.clock.now();
      if (now < s.nextTryAt) {
        return { kind: 'wait', afterMs: s.nextTryAt - now, reason: `robots.txt unavailable (${s.lastError}), asked again in ${Math.ceil((s.nextTryAt - now) / 1000)} s` };
      }
      s.pending = this.read(origin, s).finally(() => {
        s.pending = undefined;
      });
    }
  }

  /**
   * The sitemaps the robots.txt of `url`'s origin names (read now if it was not yet); none when it names none, has none
   * (4xx) or could not be read.
   */
  async sitemaps(url: string): Promise<string[]> {
    const verdict = await this.check(url);
    if (verdict.kind === 'wait' || verdict.kind === 'unavailable') return [];
    return this.origins.get(new URL(url).origin)?.read?.rules?.sitemaps ?? [];
  }

  /** Where the rules for `url`'s origin were read, once they were. */
  source(url: string): RobotsSource | undefined {
    return this.origins.get(new URL(url).origin)?.read?.source;
  }

  private async read(origin: string, s: OriginState): Promise<void> {
    const robotsUrl = `${origin}/robots.txt`;
    const got = await this.load(robotsUrl);
    if ('error' in got || got.status >= 500 || got.status === 429) {
      const now = this.clock.now();
      if (s.failures === 0) s.firstFailureAt = now;
      s.lastTryAt = now;
      s.lastError = 'error' in got ? got.error : `HTTP ${got.status}`;
      s.nextTryAt = now + this.opts.retryBaseMs * 3 ** s.failures;
      s.failures++;
      return;
    }
    // RFC 9309 2.5: at least 500 KiB are read; 2.3.1.2: a redirect not followed leaves the file unavailable.
    const rules = got.status >= 200 && got.status < 300 ? parseRobotsTxt(got.text.slice(0, 500 * 1024)) : null;
    s.read = { rules, source: { url: got.url, hops: got.hops } };
  }
}

/** The path and query of `url` as given: the request target robots.txt rules are matched against. */
function requestTarget(url: string): string {
  const u = new URL(url);
  return u.pathname + (u.search || (u.href.replace(/#.*$/, '').endsWith('?') ? '?' : ''));
}

function verdictOf({ rules, source }: { rules: RobotsRules | null; source: RobotsSource }, url: string): RobotsVerdict {
  if (!rules) return { kind: 'allowed' };
  if (!rules.isAllowed(requestTarget(url), ROBOTS_AGENT)) {
    const n = source.hops.length;
    const where = n === 0 ? '' : ` (read at ${source.url} after ${n} redirect${n === 1 ? '' : 's'})`;
    return { kind: 'disallowed', reason: `blocked by robots.txt${where}` };
  }
  const delay = rules.crawlDelay(ROBOTS_AGENT);
  return { kind: 'allowed', crawlDelayMs: typeof delay === 'number' && delay > 0 ? Math.min(delay, 120) * 1000 : undefined };
}
