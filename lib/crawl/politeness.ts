// Per-host politeness: at most `perHost` requests in flight to a host, and `delayMs` between the end of one
// request and the start of the next (robots.txt crawl-delay and server Retry-After can lengthen it).

interface HostSlot {
  inFlight: number;
  /** Earliest time the next request may start. */
  nextAt: number;
  /** Delay for this host when larger than the crawl's (crawl-delay). */
  delayMs: number;
}

export class Politeness {
  private readonly hosts = new Map<string, HostSlot>();

  constructor(private readonly opts: { delayMs: number; perHost: number }) {}

  private slot(host: string): HostSlot {
    let s = this.hosts.get(host);
    if (!s) {
      s = { inFlight: 0, nextAt: 0, delayMs: this.opts.delayMs };
      this.hosts.set(host, s);
    }
    return s;
  }

  /** 0 when a request to `host` may start now, else milliseconds to wait (Infinity while its slots are full). */
  waitFor(host: string, now: number): number {
    const s = this.hosts.get(host);
    if (!s) return 0;
    if (s.inFlight >= this.opts.perHost) return Infinity;
    return Math.max(0, s.nextAt - now);
  }

  begin(host: string): void {
    this.slot(host).inFlight++;
  }

  end(host: string, now: number): void {
    const s = this.slot(host);
    s.inFlight = Math.max(0, s.inFlight - 1);
    s.nextAt = Math.max(s.nextAt, now + s.delayMs);
  }

  /** robots.txt crawl-delay: never shortens the configured delay. */
  setCrawlDelay(host: string, ms: number): void {
    const s = this.slot(host);
    s.delayMs = Math.max(this.opts.delayMs, ms);
  }

  /** The server asked us to come back later (429/503 Retry-After). */
  backOff(host: string, until: number): void {
    const s = this.slot(host);
    s.nextAt = Math.max(s.nextAt, until);
  }
}
