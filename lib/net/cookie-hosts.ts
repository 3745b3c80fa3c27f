// The hosts a request can carry cookies to: those the browser's cookie jar holds a cookie for. A host-only cookie is
// sent to its own host; a domain cookie to its domain and every host under it. The fetch port observes the Cookie and
// Set-Cookie of requests to these hosts only (lib/platform/extension-fetch.ts): a request to any other host carries
// no cookie, so no answer to it can end a session (session.ts `sessionLoss`).

/** A cookie as the browser's cookies API describes it: its domain, and whether it is sent to that host alone. */
export interface JarCookie {
  domain: string;
  hostOnly: boolean;
}

export class CookieHosts {
  private readonly exact = new Set<string>();
  private readonly domains = new Set<string>();

  /** How many hosts and domains are held. */
  get size(): number {
    return this.exact.size + this.domains.size;
  }

  /** Adds a cookie's host or domain; true when it was not held yet. */
  add(cookie: JarCookie): boolean {
    const name = cookie.domain.replace(/^\./, '').toLowerCase();
    if (!name) return false;
    const set = cookie.hostOnly ? this.exact : this.domains;
    if (set.has(name)) return false;
    set.add(name);
    return true;
  }

  /** A copy: what is added to it later is not added to this. */
  copy(): CookieHosts {
    const c = new CookieHosts();
    c.addAll(this);
    return c;
  }

  /** Adds every host and domain of `other`. */
  addAll(other: CookieHosts): void {
    for (const h of other.exact) this.exact.add(h);
    for (const d of other.domains) this.domains.add(d);
  }

  /** Whether a request to `host` (lowercase, no port) may carry one of the cookies held. */
  covers(host: string): boolean {
    if (this.exact.has(host)) return true;
    for (let h = host; ; ) {
      if (this.domains.has(h)) return true;
      const dot = h.indexOf('.');
      if (dot < 0) return false;
      h = h.slice(dot + 1);
    }
  }

  /** Match patterns of the hosts held, for a webRequest filter (a domain's pattern matches it and its subdomains). */
  patterns(): string[] {
    return [...[...this.exact].map((h) => `*://${h}/*`), ...[...this.domains].map((d) => `*://*.${d}/*`)];
  }
}
