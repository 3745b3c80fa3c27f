// Which cookies the worker's requests carried, and which their answers' Set-Cookie lines cleared (the `cookieTrace`
// a crawl reads to notice a request logged the user out). In Chrome the listeners that see cookies need
// 'extraHeaders', which costs every request they cover a pass through the browser process, so they cover only the
// hosts the browser holds cookies for (lib/net/cookie-hosts.ts), a pair of listeners added for each host a cookie
// is set for while the crawl runs. In Firefox one pair observes every request of the worker.
import { browser } from 'wxt/browser';
import { CookieHosts, type JarCookie } from '../net/cookie-hosts';
import { clearedCookies, cookieNames } from '../net/session';
import type { RequestObservations } from './request-observations';
import { headerValues, OWN_REQUESTS, registered, type HeadersDetails, type Listener, type OwnRequests, type SendHeadersDetails, type WebRequestEvent } from './web-request';

/** A cookie jar of more hosts than this has every request's cookies observed, rather than a filter that long. */
const MAX_COOKIE_HOSTS = 5_000;

const hostnameOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

export class CookieObserver {
  /** Cookie names each request of the worker sent, by request id, until its headers come back. */
  private readonly sentBy = new Map<string, string[]>();
  /** What the listeners in force observe cookies of: every request, or these hosts' (null: none yet). */
  private watching: CookieHosts | 'all' | null = null;
  /** Hosts a cookie listener was asked for, in force or not yet. */
  private asked = new CookieHosts();
  /** Each pair of cookie listeners added, with the event each is on, to take them all off. */
  private added: [WebRequestEvent, Listener][] = [];
  /** Counts the times the listeners went off: a registration answered after that is not in force. */
  private generation = 0;
  /** The registrations asked for by cookies set while the crawl runs, until they are in force. */
  private growing: Promise<unknown> | null = null;

  constructor(private readonly web: OwnRequests, private readonly log: RequestObservations) {}

  /** Observes the cookies of the hosts the browser holds cookies for (Firefox: of every request), and of those it is given. */
  async start(): Promise<void> {
    if (!this.web.cookiesNeedExtra) return this.watch('all');
    browser.cookies.onChanged.addListener(this.onCookieChanged);
    this.asked = new CookieHosts();
    try {
      for (const c of await browser.cookies.getAll({})) this.asked.add(c);
    } catch {
      return this.watch('all');
    }
    await this.watch(this.asked.size > MAX_COOKIE_HOSTS ? 'all' : this.asked);
    // With no cookie at all, nothing is waited on above: the listeners just added are in force once this is answered.
    await registered();
  }

  /** Takes every cookie listener off; registrations still under way then are not in force. */
  stop(): void {
    if (this.web.cookiesNeedExtra) browser.cookies.onChanged.removeListener(this.onCookieChanged);
    for (const [event, l] of this.added) event.removeListener(l);
    this.added = [];
    this.watching = null;
    this.growing = null;
    this.generation++;
  }

  /** Whether the listeners in force see the cookies of a request to `url`. */
  seen(url: string): boolean {
    return this.watching === null || this.watching === 'all' ? this.watching === 'all' : this.watching.covers(hostnameOf(url));
  }

  /** A request to a host the browser was just given a cookie for waits until its cookies are observed. */
  async ready(url: string): Promise<void> {
    if (this.growing && !this.seen(url) && this.asked.covers(hostnameOf(url))) await this.growing;
  }

  /** A request that failed sends no headers back: what it sent is forgotten. */
  forget(requestId: string): void {
    this.sentBy.delete(requestId);
  }

  private readonly onSendHeaders = (d: SendHeadersDetails) => {
    if (this.web.mine(d)) this.sentBy.set(d.requestId, cookieNames(headerValues(d.requestHeaders, 'cookie').join('; ')));
  };

  /** A listener that sees cookies (Chrome's with 'extraHeaders', or Firefox's). */
  private readonly onHeaders = (d: HeadersDetails) => {
    if (!this.web.mine(d)) return undefined;
    const sent = this.sentBy.get(d.requestId) ?? [];
    this.sentBy.delete(d.requestId);
    // Firefox joins several Set-Cookie lines into one value, one cookie a line.
    const setCookie = headerValues(d.responseHeaders, 'set-cookie').flatMap((v) => v.split('\n'));
    this.log.record(d, { sent, cleared: clearedCookies(setCookie, Date.now()) });
    return undefined;
  };

  /** A cookie set while the crawl runs: its host's requests are observed from then on. */
  private readonly onCookieChanged = (change: { removed: boolean; cookie: JarCookie }) => {
    if (change.removed || this.watching === 'all') return;
    const one = new CookieHosts();
    if (!one.add(change.cookie) || !this.asked.add(change.cookie)) return;
    const grown = this.watch(this.asked.size > MAX_COOKIE_HOSTS ? 'all' : one).catch(() => undefined);
    const all: Promise<unknown> = Promise.all([this.growing, grown]).then(() => {
      if (this.growing === all) this.growing = null;
    });
    this.growing = all;
  };

  /** Observes the cookies of requests to `hosts` (every request: 'all'), with a listener pair of its own. */
  private async watch(wanted: CookieHosts | 'all'): Promise<void> {
    // The hosts as wanted now: any added to `wanted` meanwhile are in force only once their own pair is.
    const hosts = wanted === 'all' ? wanted : wanted.copy();
    const extra = this.web.cookiesNeedExtra ? ['extraHeaders'] : [];
    const filter = hosts === 'all' ? OWN_REQUESTS : { urls: hosts.patterns(), tabId: -1 };
    if (filter.urls.length === 0) return;
    // Listeners are fresh functions, so a pair added for more hosts leaves the pairs before it in force.
    const send = (d: never) => this.onSendHeaders(d);
    const headers = (d: never) => this.onHeaders(d);
    try {
      this.addListener(this.web.events.onSendHeaders, send, filter, ['requestHeaders', ...extra]);
      this.addListener(this.web.events.onHeadersReceived, headers, filter, ['responseHeaders', ...extra]);
    } catch {
      // A host the browser's match patterns cannot say: every request is observed instead.
      if (hosts === 'all') throw new Error('the browser refused to observe its own requests');
      return this.watch('all');
    }
    const at = this.generation;
    await registered();
    if (at !== this.generation) return;
    const now = this.watching;
    if (hosts === 'all' || now === 'all') this.watching = 'all';
    else {
      const grown = now ?? new CookieHosts();
      grown.addAll(hosts);
      this.watching = grown;
    }
  }

  private addListener(event: WebRequestEvent, l: Listener, filter: { urls: string[]; tabId: number }, extra: string[]): void {
    event.addListener(l, filter, extra);
    this.added.push([event, l]);
  }
}
