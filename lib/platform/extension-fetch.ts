// The extension's FetchPort. In an MV3 service worker `fetch(url, { redirect: 'manual' })` answers a redirect
// with an opaque response: no status, no Location. The request gate must see where a redirect goes before
// anything is requested there, so the worker observes its own requests' headers through the webRequest API
// (read-only: no blocking) and hands the gate a plain 3xx response carrying the Location it saw. The same
// observation tells which cookies a request carried and which its answer's Set-Cookie lines cleared (the
// `cookieTrace`), which a page's fetch can never read: that is how a crawl notices a request logged the user out.
// Chrome shows Cookie and Set-Cookie to webRequest only with 'extraHeaders', and such a listener has every request it
// covers pass its headers through the browser process (measured: about 0.85 ms of Chromium's CPU a page, 12% of what
// the least crawler in the browser spends; docs/benchmarks.md). So in Chrome the cookie listeners cover only the hosts
// the browser holds cookies for (lib/net/cookie-hosts.ts), growing as cookies are set while the crawl runs, and a
// listener without 'extraHeaders' reads every other request's redirects. A request to any other host carries no
// cookie, so no answer to it can end a session. Firefox shows Cookie and Set-Cookie without 'extraHeaders' and refuses
// the option: there one pair of listeners observes every request, as before. Observing an extension's own requests
// needs host permissions only. The parts: the listeners' lifetime (below), the observations they make and a fetch
// waits for (request-observations.ts), the cookie observation (cookie-observer.ts), and the request itself (below).
import { NonWebRedirect, type FetchPort, type PortResponse } from '../net/fetcher';
import { CookieObserver } from './cookie-observer';
import { RequestObservations } from './request-observations';
import { ownRequests, OWN_REQUESTS, type ErrorDetails, type HeadersDetails, type Listener, type OwnRequests } from './web-request';

/** How long to wait for the webRequest event after fetch has answered (both cross processes separately). */
const OBSERVE_WAIT_MS = 3000;
/** For an answer that is no redirect, how long to wait for its headers (they nearly always came first). */
const HEADERS_WAIT_MS = 1000;
/**
 * After a network error, how long to wait at most for the browser's word on why. Every failed request of the worker
 * gets an onErrorOccurred, so the wait ends when it comes; on a busy machine it came after 500 ms.
 */
const ERROR_WAIT_MS = 3000;
/** How long the listeners stay on after the worker's last request ended (the next page's requests follow at once). */
const LINGER_MS = 10_000;

export function makeExtensionFetch(): FetchPort {
  const web = ownRequests();
  const log = new RequestObservations();
  const cookies = new CookieObserver(web, log);
  const listeners = new ListenersWhileRequesting(web, log, cookies);
  return (url, init) => listeners.during(() => observedFetch(url, init, log, cookies));
}

/**
 * The listeners are on while the worker's own requests are: from its first request until LINGER_MS after its last
 * one ended. Only its own requests are observed, and it makes them only while it runs. Registered for good, they
 * had the browser wake the worker for every request of the user's tabs, crawl or no crawl: it wakes a worker for
 * a webRequest listener whatever the listener's filter says. The cookie jar's changes are listened to for as long.
 */
class ListenersWhileRequesting {
  private on: Promise<void> | null = null;
  private inFlight = 0;
  private offTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly web: OwnRequests, private readonly log: RequestObservations, private readonly cookies: CookieObserver) {}

  /** Runs one request with the listeners on. */
  async during<T>(request: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      await this.listen();
      return await request();
    } finally {
      this.release();
    }
  }

  private listen(): Promise<void> {
    clearTimeout(this.offTimer);
    this.on ??= (async () => {
      this.web.events.onErrorOccurred.addListener(this.onErrorOccurred as Listener, OWN_REQUESTS);
      if (this.web.cookiesNeedExtra) this.web.events.onHeadersReceived.addListener(this.onRedirect as Listener, OWN_REQUESTS, ['responseHeaders']);
      await this.cookies.start();
    })();
    return this.on;
  }

  private release(): void {
    if (--this.inFlight > 0) return;
    clearTimeout(this.offTimer);
    this.offTimer = setTimeout(() => {
      if (this.inFlight > 0 || !this.on) return;
      this.web.events.onErrorOccurred.removeListener(this.onErrorOccurred as Listener);
      if (this.web.cookiesNeedExtra) this.web.events.onHeadersReceived.removeListener(this.onRedirect as Listener);
      this.cookies.stop();
      this.on = null;
    }, LINGER_MS);
  }

  /** Chrome's listener for every request of the worker, without cookies: only a redirect's status and Location are kept. */
  private readonly onRedirect = (d: HeadersDetails) => {
    if (this.web.mine(d) && d.statusCode >= 300 && d.statusCode <= 399) this.log.record(d);
    return undefined;
  };

  private readonly onErrorOccurred = (d: ErrorDetails) => {
    if (!this.web.mine(d)) return;
    this.cookies.forget(d.requestId);
    this.log.recordError(d.url, d.error);
  };
}

/**
 * The request itself: fetch, then what the listeners saw of it. A redirect goes back as a plain 3xx with the Location
 * seen; an answer from a host whose cookies are observed carries its cookie trace.
 */
async function observedFetch(url: string, init: RequestInit, log: RequestObservations, cookies: CookieObserver): Promise<PortResponse> {
  await cookies.ready(url);
  const withCookies = cookies.seen(url);
  let res: PortResponse;
  try {
    res = await fetch(url, init);
  } catch (err) {
    // Chromium refuses a redirect to what is no web address (javascript:, data:, file:) with a network error, even
    // in manual mode, and shows no headers for it: the gate is told it was such a redirect, which is recorded as
    // not followed rather than asked again as a network error.
    if ((await log.error(url, ERROR_WAIT_MS)) === 'net::ERR_UNSAFE_REDIRECT') throw new NonWebRedirect();
    throw err;
  }
  const redirect = res.type === 'opaqueredirect';
  // An answer that is no redirect, from a host the browser held no cookie for, carried none and has nothing to wait for.
  if (!redirect && !withCookies) return res;
  const hop = await log.observed(res.url || url, redirect ? OBSERVE_WAIT_MS : HEADERS_WAIT_MS, withCookies);
  if (!redirect) {
    if (hop?.cookies && init.credentials === 'include') res.cookieTrace = hop.cookies;
    return res;
  }
  // Unseen: the opaque response goes back as it is, and the fetcher refuses to follow it blind.
  if (!hop) return res;
  const answer: PortResponse = new Response(null, { status: hop.status, headers: hop.location === null ? {} : { location: hop.location } });
  if (hop.cookies && init.credentials === 'include') answer.cookieTrace = hop.cookies;
  return answer;
}
