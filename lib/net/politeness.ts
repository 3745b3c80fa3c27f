// Per-host politeness: at most `perHost` requests in flight to a host, and `delayMs` between the end of one
// request and the start of the next (robots.txt crawl-delay and server Retry-After can lengthen it).

interface HostSlot {
  inFlight: number;
  /** Earliest time the next request may start. */
  nextAt: number;
  /** Delay for this host when larger than the crawl's (crawl-delay). */
  delayMs: number;
  /** What set `nextAt`: the crawl's delay, robots.txt's crawl-delay, or the server asking to come back later. */
  why: 'delay' | 'crawl-delay' | 'server';
  /** The server's answer that set `nextAt` (e.g. "HTTP 503, asked again in 2 s"), when `why` is 'server'. */
  serverReason?: string;
  /** At most this many in flight, when fewer than `perHost` (a host whose pages are watched for the session's signs). */
  maxInFlight?: number;
}

export class Politeness {
  private readonly hosts = new Map<string, HostSlot>();

  constructor(private readonly opts: { delayMs: number; perHost: number }) {}

  private slot(host: string): HostSlot {
    let s = this.hosts.get(host);
    if (!s) {
      s = { inFlight: 0, nextAt: 0, delayMs: this.opts.delayMs, why: 'delay' };
      this.hosts.set(host, s);
    }
    return s;
  }

  /** 0 when a request to `host` may start now, else milliseconds to wait (Infinity while its slots are full). */
  waitFor(host: string, now: number): number {
    const s = this.hosts.get(host);
    if (!s) return 0;
    if (s.inFlight >= this.limit(s)) return Infinity;
    return Math.max(0, s.nextAt - now);
  }

  begin(host: string): void {
    this.slot(host).inFlight++;
  }

  end(host: string, now: number): void {
    const s = this.slot(host);
    s.inFlight = Math.max(0, s.inFlight - 1);
    if (now + s.delayMs > s.nextAt) {
      s.nextAt = now + s.delayMs;
      s.why = s.delayMs > this.opts.delayMs ? 'crawl-delay' : 'delay';
    }
  }

  /** Why a request to `host` must wait, in words, or null when it need not. */
  waitReason(host: string, now: number): string | null {
    const s = this.hosts.get(host);
    if (!s) return null;
    if (s.inFlight >= this.limit(s)) return `${host}: ${s.inFlight} request${s.inFlight === 1 ? '' : 's'} in flight, the most one host gets at once`;
    if (s.nextAt <= now) return null;
    // Every URL of the host waits for the same answer: say it the same way whichever URL the crawl waits on.
    if (s.why === 'server') return s.serverReason ? `${host}: ${s.serverReason}` : `${host} asked to come back later (Retry-After or a passing error)`;
    if (s.why === 'crawl-delay') return `the crawl-delay robots.txt sets for ${host} (${Math.round(s.delayMs / 100) / 10} s between requests)`;
    return `the politeness delay for ${host} (${Math.round(s.delayMs / 100) / 10} s between requests)`;
  }

  private limit(s: HostSlot): number {
    return Math.min(this.opts.perHost, s.maxInFlight ?? Infinity);
  }

  /** Fewer requests at once to `host` than the crawl's `perHost` (never more). */
  capInFlight(host: string, max: number): void {
    this.slot(host).maxInFlight = max;
  }

  /** robots.txt crawl-delay: never shortens the configured delay. */
  setCrawlDelay(host: string, ms: number): void {
    const s = this.slot(host);
    s.delayMs = Math.max(this.opts.delayMs, ms);
  }

  /** The server asked us to come back later (429/503 Retry-After). */
  backOff(host: string, until: number, reason?: string): void {
    const s = this.slot(host);
    if (until > s.nextAt) {
      s.nextAt = until;
      s.why = 'server';
      s.serverReason = reason;
    }
  }
}
