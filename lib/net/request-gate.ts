// The one place every request of a crawl goes through: seeds, links, redirect hops and robots.txt. A URL
// is requested only after it passes the session-safety guard, the crawl's scope, robots.txt, dedup and
// politeness, and a redirect is never followed by the HTTP client: each hop is a new URL that passes the
// same gates before it is requested (a link to /go/1 that answers "302 Location: /signout" must not end the
// user's session). Nothing else in the crawler holds the FetchPort. A page rendered in the user's browser goes
// through here too (`render`): its tab waits for the host's politeness slot, and every request the page makes
// itself is put to the crawl's guard, a navigation also to robots.txt.
import type { RobotsCache, RobotsLoader } from './robots';
import type { Politeness } from './politeness';
import { fetchOnce, type Clock, type FetchOutcome, type FetchPort, type HopOutcome, type Validators } from './fetcher';
import type { PageRequest, RenderPort, RenderRequest, RenderResult } from './render';
import { sessionLoss, type SessionLoss } from './session';
import { requestUrl } from '../records/url';

/** What the gate asks of the crawl about a URL. */
export interface GatePolicy {
  /** Why the user's session could be harmed by requesting this URL, or null when it is safe. */
  unsafe(url: string, link?: { anchor?: string; rel?: string[] }): string | null;
  /** Why this URL is outside the crawl, or null when it is inside. */
  outOfScope(url: string): string | null;
  /** Why this URL is a private or loopback address the crawl may not request, or null when it is not one. */
  privateTarget(url: string): string | null;
  /** The canonical form of a redirect's target (its dedup key), or null when it is no http(s) URL. */
  canonical(url: string): string | null;
  /** True once the crawl is pausing or stopping: no new request starts. */
  halted(): boolean;
  /**
   * Why a link of a page planned since this URL was admitted named it unsafe, or null: asked again just before the
   * request goes out, since robots.txt can take seconds to read.
   */
  namedUnsafe?(url: string): string | null;
  /**
   * What a page answered to a request that carried the user's session says of it: null, or that the session has
   * ended (the page is what a visitor who is not logged in sees). Asked before the host's politeness slot is
   * released, so no other request to that host starts before it is answered.
   */
  pageAnswered?(url: string, out: FetchOutcome): SessionLoss | null;
  /**
   * Why a page being rendered may not make this request of its own, or null when it may (render-policy.ts). A gate
   * without it lets a rendered page make no request at all.
   */
  pageRequest?(request: PageRequest): string | null;
}

export interface GateOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Hops followed after the first request. */
  maxRedirects: number;
}

type WithoutChain<T> = T extends unknown ? Omit<T, 'chain'> : never;
/** Why a URL about to be requested may not be, yet or ever. */
type Refusal = WithoutChain<Exclude<GateResult, { kind: 'response' }>>;

/** The link a page is requested by, as far as the gate's checks read it. */
export interface PageLink {
  anchor?: string;
  rel?: string[];
  /**
   * The page is expected to open with the user's session: a seed, or a page the crawl was answered before. Sent to a
   * login page now, its request says the session has ended.
   */
  expectsSession?: boolean;
}

/** One request of a redirect chain, before the final one. */
export interface Hop {
  url: string;
  status: number;
}

/** How a gated page request ended. `chain` holds the redirects followed, in order. */
export type GateResult =
  /** The final answer (HTML, or an error status / not HTML, in `out.error`); `out.finalUrl` is its URL. */
  | { kind: 'response'; out: FetchOutcome; chain: Hop[] }
  /** A 304 to the page asked for with its stored copy's validators: the copy is current (`out` has no body). */
  | { kind: 'notModified'; out: FetchOutcome; chain: Hop[] }
  /**
   * The URL (or, after `chain`, a redirect's target) was not requested. `record`: the target is a URL the crawl
   * should list as skipped with `reason` (unsafe, robots, out of scope), not one it already knows.
   */
  | { kind: 'blocked'; target: string; reason: string; chain: Hop[]; record: boolean; by: 'safety' | 'scope' | 'robots' | 'dedup' | 'redirect' }
  /** A passing fault: ask again after `afterMs` (server-given when `serverAsked`). */
  | { kind: 'retry'; reason: string; afterMs?: number; chain: Hop[]; /** robots.txt could not be read yet */ robots: boolean; out?: FetchOutcome }
  /** Given up for good, with the reason (robots.txt unreadable after every try). */
  | { kind: 'failed'; reason: string; chain: Hop[] }
  /**
   * The answer to `url` (the entry's URL or a redirect hop, which `chain` then ends with) ended the user's session
   * (session.ts): no further hop is followed, and the crawl must stop.
   */
  | { kind: 'sessionLost'; url: string; /** Its canonical form. */ key: string; loss: SessionLoss; chain: Hop[]; out: FetchOutcome };

/**
 * Dedup of a redirect target: null when it may be requested now under the page being fetched (the caller then
 * holds it until that page is committed), else why not (e.g. it was already fetched).
 */
export type ClaimTarget = (url: string) => Promise<string | null>;

/** A robots.txt redirect's target as the server spelled it, less the fragment; null when it is no http(s) URL. */
function robotsHop(location: string | null): string | null {
  if (location === null) return null;
  const u = new URL(location);
  u.hash = '';
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
}

export class RequestGate {
  private readonly robots: RobotsCache | null;

  constructor(
    private readonly port: FetchPort,
    private readonly clock: Clock,
    private readonly policy: GatePolicy,
    private readonly politeness: Politeness,
    robots: ((load: RobotsLoader) => RobotsCache) | null,
    private readonly opts: GateOptions,
    private readonly renderer?: RenderPort,
  ) {
    this.robots = robots ? robots(this.robotsLoader) : null;
  }

  /**
   * robots.txt reads for the RobotsCache, without the user's cookies. RFC 9309 2.3.1.2: redirects are followed, to
   * other hosts too (a site's robots.txt often answers from its www host or a CDN), up to five; after a sixth the
   * file counts as unavailable (no rules), as the RFC allows. A hop to a private or loopback address that no seed
   * names is not requested: the file counts as unreachable, like a network error.
   */
  readonly robotsLoader: RobotsLoader = async (robotsUrl) => {
    const hops: string[] = [];
    for (let url = robotsUrl; ; ) {
      const h = await fetchOnce(url, {
        fetch: this.port, clock: this.clock, timeoutMs: this.opts.timeoutMs, maxBytes: 500 * 1024, credentials: 'omit', body: 'text',
      });
      if (h.kind === 'retry') return { error: h.out.error ?? 'failed' };
      if (h.kind === 'notModified') return { error: 'HTTP 304 to a request that asked for none' };
      if (h.kind === 'response') return h.out.status === 0 ? { error: h.out.error ?? 'failed' } : { status: h.out.status, text: h.out.text ?? '', url, hops };
      const next = robotsHop(h.location);
      if (next === null || hops.length === 5) return { status: h.out.status, text: '', url, hops };
      const refused = this.policy.privateTarget(next);
      if (refused) return { error: `robots.txt redirects to ${next}, ${refused}` };
      hops.push(url);
      url = next;
    }
  };

  /**
   * Requests a page with the user's session. Its host's politeness slot is already reserved by the frontier's
   * take; the gate releases it when the answer is in, and reserves the slot of each redirect hop's host itself.
   * `validators`: the stored copy's, for a page the crawl has one of; only the first request asks with them (a
   * redirect's target is another page, whose copy they do not describe). Null, with the slot released, when the crawl
   * halted before the first request went out (its robots.txt read can take seconds): nothing was requested.
   */
  page(url: string, link: PageLink | undefined, claim: ClaimTarget): Promise<Exclude<GateResult, { kind: 'notModified' }> | null>;
  page(url: string, link: PageLink | undefined, claim: ClaimTarget, validators: Validators | undefined): Promise<GateResult | null>;
  async page(url: string, link: PageLink | undefined, claim: ClaimTarget, validators?: Validators): Promise<GateResult | null> {
    const chain: Hop[] = [];
    let current = url;
    let slotHeld = true;
    try {
      for (;;) {
        const blocked = await this.admit(current, chain.length === 0 ? link : undefined);
        if (blocked) return { ...blocked, chain } as GateResult;
        if (chain.length === 0 && this.policy.halted()) return null;
        const named = this.policy.namedUnsafe?.(current) ?? null;
        if (named) return { kind: 'blocked', target: this.policy.canonical(current) ?? current, reason: named, chain, record: true, by: 'safety' };
        if (!slotHeld) {
          const host = new URL(current).host;
          if (!(await this.acquire(host))) return { kind: 'retry', reason: 'paused before a redirect was followed', chain, robots: false, afterMs: 0 };
          slotHeld = true;
        }
        const { hop, pageLoss } = await this.request(current, chain.length === 0 ? validators : undefined);
        slotHeld = false;
        const loss = sessionLoss(hop.out.cookies, hop.kind === 'redirect' ? hop.location : null, link?.expectsSession ?? false) ?? pageLoss;
        if (loss) {
          const lostChain = hop.kind === 'redirect' ? [...chain, { url: current, status: hop.out.status }] : chain;
          return { kind: 'sessionLost', url: current, key: this.policy.canonical(current) ?? current, loss, chain: lostChain, out: hop.out };
        }
        if (hop.kind === 'retry') return { kind: 'retry', reason: hop.out.error ?? 'failed', afterMs: hop.afterMs, chain, robots: false, out: hop.out };
        if (hop.kind === 'response') return { kind: 'response', out: hop.out, chain };
        if (hop.kind === 'notModified') return { kind: 'notModified', out: hop.out, chain };
        chain.push({ url: current, status: hop.out.status });
        const next = hop.location === null ? null : this.policy.canonical(hop.location);
        if (next === null || hop.location === null) {
          // javascript:, data:, file:, chrome: and the like are no page to fetch: recorded as not followed, never retried.
          const scheme = hop.location === null ? null : /^([a-z][a-z0-9+.-]*):/i.exec(hop.location)?.[1]?.toLowerCase();
          const reason = hop.out.error ?? `not a web address (${scheme ?? 'unknown'}:), never requested`;
          return { kind: 'blocked', target: hop.location ?? '', reason, chain, record: false, by: 'redirect' };
        }
        // The next URL is requested as the server spelled it (requestUrl); its canonical form is the page it is. A
        // target that is a page the chain already requested (/a sent to /a;jsessionid=1) is that page under the
        // server's own spelling: asked for, not claimed again. A loop is a URL requested twice.
        const samePage = chain.some((h) => this.policy.canonical(h.url) === next);
        let target = requestUrl(hop.location) ?? next;
        // A server that keeps its session in the URL alone sends /a back to /a;jsessionid=1: asked without the id, that
        // is /a again, a loop. Then the id the server gave for this very request is sent, as it spelled it.
        if (samePage && chain.some((h) => h.url === target)) target = requestUrl(hop.location, undefined, true) ?? target;
        if (chain.some((h) => h.url === target)) {
          return { kind: 'blocked', target: next, reason: 'redirect loop', chain, record: false, by: 'redirect' };
        }
        if (chain.length > this.opts.maxRedirects) {
          return { kind: 'blocked', target: next, reason: `too many redirects (more than ${this.opts.maxRedirects})`, chain, record: false, by: 'redirect' };
        }
        if (!samePage) {
          const taken = await claim(next);
          if (taken !== null) return { kind: 'blocked', target: next, reason: taken, chain, record: false, by: 'dedup' };
        }
        current = target;
      }
    } finally {
      if (slotHeld) this.politeness.end(new URL(current).host, this.clock.now());
    }
  }

  /**
   * Reads a file that is no page (a sitemap) without the user's cookies, through the same gates as a page: safety,
   * scope and robots.txt for it and each redirect hop (five at most), the host's politeness slot for each request. Its
   * body's bytes, at most `maxBytes` (`out.truncated` past it), or why it was not had. Null when the crawl halted first.
   */
  async file(url: string, maxBytes: number): Promise<{ kind: 'file'; out: FetchOutcome; requests: number } | { kind: 'refused' | 'failed'; reason: string; requests: number } | null> {
    let current = url;
    for (let requests = 0; ; ) {
      const blocked = await this.admit(current);
      if (blocked) return { kind: 'refused', reason: 'reason' in blocked ? blocked.reason : 'refused', requests };
      const host = new URL(current).host;
      if (!(await this.acquire(host))) return requests === 0 ? null : { kind: 'failed', reason: 'paused before a redirect was followed', requests };
      let h: HopOutcome;
      try {
        h = await fetchOnce(current, { fetch: this.port, clock: this.clock, timeoutMs: this.opts.timeoutMs, maxBytes, credentials: 'omit', body: 'bytes' });
      } finally {
        this.politeness.end(host, this.clock.now());
      }
      requests++;
      if (h.kind === 'response') return h.out.error ? { kind: 'failed', reason: h.out.error, requests } : { kind: 'file', out: h.out, requests };
      if (h.kind !== 'redirect') return { kind: 'failed', reason: h.out.error ?? `HTTP ${h.out.status}`, requests };
      const next = h.location === null ? null : requestUrl(h.location);
      if (next === null || requests > 5) return { kind: 'failed', reason: next === null ? 'a redirect to what is no web address' : 'too many redirects', requests };
      current = next;
    }
  }

  /** The sitemaps the robots.txt of `url`'s origin names (none when robots.txt is not read: `politeness.robots` off). */
  sitemapsNamed(url: string): Promise<string[]> {
    return this.robots ? this.robots.sitemaps(url) : Promise.resolve([]);
  }

  /** True when pages can be rendered here (the browser gave a RenderPort). */
  get canRender(): boolean {
    return this.renderer !== undefined;
  }

  /**
   * Loads a page the gate already answered (its final URL) in the user's browser and reads its DOM. The tab waits for
   * the host's politeness slot and holds it while the page loads; each request the page makes is put to the policy
   * (`pageRequest`), a navigation also to robots.txt. Null when the crawl halted before it began.
   */
  async render(req: Omit<RenderRequest, 'guard'>): Promise<RenderResult | null> {
    if (!this.renderer) return { kind: 'failed', reason: 'this browser cannot render pages', blocked: [], durationMs: 0 };
    const host = new URL(req.url).host;
    if (!(await this.acquire(host))) return null;
    try {
      return await this.renderer.render({ ...req, guard: (r) => this.pageRequestGuard(r) });
    } finally {
      this.politeness.end(host, this.clock.now());
    }
  }

  private async pageRequestGuard(r: PageRequest): Promise<string | null> {
    const refused = this.policy.pageRequest ? this.policy.pageRequest(r) : 'no guard for the requests of a rendered page';
    if (refused || !r.navigation || !this.robots || !/^https?:/i.test(r.url)) return refused;
    const verdict = await this.robots.check(r.url);
    return verdict.kind === 'disallowed' ? verdict.reason : verdict.kind === 'allowed' ? null : `robots.txt could not be read (${verdict.reason})`;
  }

  /** Safety, scope and robots for a URL about to be requested; null when it may go. */
  private async admit(url: string, link?: { anchor?: string; rel?: string[] }): Promise<Refusal | null> {
    // `url` is as it would be requested; a refused one is recorded under its canonical form, the key it is known by.
    const target = this.policy.canonical(url) ?? url;
    const unsafe = this.policy.unsafe(url, link);
    if (unsafe) return { kind: 'blocked', target, reason: unsafe, record: true, by: 'safety' };
    const outside = this.policy.outOfScope(url);
    if (outside) return { kind: 'blocked', target, reason: outside, record: true, by: 'scope' };
    if (!this.robots) return null;
    const verdict = await this.robots.check(url);
    const host = new URL(url).host;
    switch (verdict.kind) {
      case 'allowed':
        if (verdict.crawlDelayMs) this.politeness.setCrawlDelay(host, verdict.crawlDelayMs);
        return null;
      case 'disallowed':
        return { kind: 'blocked', target, reason: verdict.reason, record: true, by: 'robots' };
      case 'wait':
        this.politeness.backOff(host, this.clock.now() + verdict.afterMs);
        return { kind: 'retry', reason: verdict.reason, afterMs: verdict.afterMs, robots: true };
      case 'unavailable':
        return { kind: 'failed', reason: verdict.reason };
    }
  }

  /** Waits for a politeness slot of `host`; false when the crawl halts meanwhile. */
  private async acquire(host: string): Promise<boolean> {
    for (;;) {
      if (this.policy.halted()) return false;
      const w = this.politeness.waitFor(host, this.clock.now());
      if (w === 0) {
        this.politeness.begin(host);
        return true;
      }
      await this.clock.sleep(Math.min(w === Infinity ? 50 : w, 1000));
    }
  }

  /**
   * The only call of the FetchPort for pages. Releases the host slot when the answer is in and, for a page, once the
   * policy has read what it says of the session.
   */
  private async request(url: string, validators?: Validators) {
    const host = new URL(url).host;
    try {
      const hop = await fetchOnce(url, {
        fetch: this.port, clock: this.clock, timeoutMs: this.opts.timeoutMs, maxBytes: this.opts.maxBytes, credentials: 'include',
        ...(validators ? { validators } : {}),
      });
      const pageLoss = hop.kind === 'response' && this.policy.pageAnswered ? this.policy.pageAnswered(url, hop.out) : null;
      return { hop, pageLoss };
    } finally {
      this.politeness.end(host, this.clock.now());
    }
  }
}
