// robots.txt, obeyed by default (RFC 9309) through the robots-parser library; one fetch per origin, cached.
import robotsParser from 'robots-parser';
import type { FetchPort } from '../fetch/fetcher';

/** The product token matched against robots.txt user-agent lines. */
export const ROBOTS_AGENT = 'FocusCrawler';

export interface RobotsVerdict {
  allowed: boolean;
  /** robots.txt crawl-delay for our agent, in ms. */
  crawlDelayMs?: number;
  /** Why a URL is disallowed, in words. */
  reason?: string;
}

type Rules = { isAllowed(url: string, ua?: string): boolean | undefined; getCrawlDelay(ua?: string): number | undefined };

interface OriginRules {
  rules: Rules | null;
  /** Set when robots.txt could not be read and the origin is treated as fully disallowed. */
  unreachable?: string;
}

export class RobotsCache {
  private readonly origins = new Map<string, Promise<OriginRules>>();

  constructor(private readonly fetch: FetchPort, private readonly timeoutMs = 15_000) {}

  async check(url: string): Promise<RobotsVerdict> {
    const origin = new URL(url).origin;
    let pending = this.origins.get(origin);
    if (!pending) {
      pending = this.load(origin);
      this.origins.set(origin, pending);
    }
    const { rules, unreachable } = await pending;
    if (unreachable) return { allowed: false, reason: unreachable };
    if (!rules) return { allowed: true };
    const allowed = rules.isAllowed(url, ROBOTS_AGENT) !== false;
    const delay = rules.getCrawlDelay(ROBOTS_AGENT);
    return {
      allowed,
      crawlDelayMs: typeof delay === 'number' && delay > 0 ? Math.min(delay, 120) * 1000 : undefined,
      reason: allowed ? undefined : 'blocked by robots.txt',
    };
  }

  private async load(origin: string): Promise<OriginRules> {
    const robotsUrl = `${origin}/robots.txt`;
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), this.timeoutMs);
    try {
      const res = await this.fetch(robotsUrl, { credentials: 'include', redirect: 'follow', signal: ctl.signal });
      // RFC 9309 2.3.1: 4xx means no restrictions; 5xx means assume complete disallow.
      if (res.status >= 500) return { rules: null, unreachable: `robots.txt unreachable (HTTP ${res.status}): site treated as disallowed` };
      if (!res.ok) return { rules: null };
      const text = (await res.text()).slice(0, 500 * 1024); // RFC 9309 2.5: parse at least 500 KiB
      return { rules: robotsParser(robotsUrl, text) as Rules };
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      return { rules: null, unreachable: `robots.txt unreachable (${msg}): site treated as disallowed` };
    } finally {
      clearTimeout(timer);
    }
  }
}
