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
// needs host permissions only.
import { browser } from 'wxt/browser';
import { CookieHosts, type JarCookie } from '../net/cookie-hosts';
import { NonWebRedirect, type FetchPort, type PortResponse } from '../net/fetcher';
import { clearedCookies, cookieNames, type CookieTrace } from '../net/session';

interface Seen {
  requestId: string;
  status: number;
  location: string | null;
  /** Present when a listener that sees cookies observed the request. */
  cookies?: CookieTrace;
  at: number;
}

/** How long to wait for the webRequest event after fetch has answered (both cross processes separately). */
const OBSERVE_WAIT_MS = 3000;
/** For an answer that is no redirect, how long to wait for its headers (they nearly always came first). */
const HEADERS_WAIT_MS = 1000;
/**
 * After a network error, how long to wait at most for the browser's word on why. Every failed request of the worker
 * gets an onErrorOccurred, so the wait ends when it comes; on a busy machine it came after 500 ms.
 */
const ERROR_WAIT_MS = 3000;
/**
 * The requests the listeners are told of: those of no tab (the worker's own, and other extensions' background
 * requests, which `mine` then leaves out). The browser filters them, so while a crawl runs the requests of the user's
 * tabs are not sent to the worker. (A filter does not keep a stopped worker asleep; the listeners being off does.)
 */
const OWN_REQUESTS = { urls: ['<all_urls>'], tabId: -1 };
/** How long the listeners stay on after the worker's last request ended (the next page's requests follow at once). */
const LINGER_MS = 10_000;
/** Observations older than this are dropped (a request nobody asked about). */
const KEEP_MS = 60_000;
/** A cookie jar of more hosts than this has every request's cookies observed, rather than a filter that long. */
const MAX_COOKIE_HOSTS = 5_000;

type HeaderList = { name: string; value?: string }[] | undefined;
const headerValues = (headers: HeaderList, name: string) =>
  (headers ?? []).filter((h) => h.name.toLowerCase() === name).map((h) => h.value ?? '');

type RequestFilter = { urls: string[]; tabId: number };
type Listener = (d: never) => void;
type WebRequestEvent = { addListener(l: Listener, filter: RequestFilter, extra?: string[]): void; removeListener(l: Listener): void };

export function makeExtensionFetch(): FetchPort {
  const ownOrigin = new URL(browser.runtime.getURL('/')).origin;
  const seen = new Map<string, Seen[]>();
  /**
   * The observations of the last KEEP_MS, by request, taken or not: the two listeners a Chrome request to a cookie host
   * has fill one, in either order, even once it was taken.
   */
  const byRequest = new Map<string, Seen>();
  const errors = new Map<string, { error: string; at: number }>();
  /** Cookie names each request of the worker sent, by request id, until its headers come back. */
  const sentBy = new Map<string, string[]>();
  const waiters = new Map<string, (() => void)[]>();
  const wake = (url: string) => {
    const list = waiters.get(url) ?? [];
    waiters.delete(url);
    for (const w of list) w();
  };
  const mine = (d: { tabId: number }) => {
    if (d.tabId !== -1) return false; // a page's request, not the worker's
    const from = (d as { initiator?: string; originUrl?: string }).initiator ?? (d as { originUrl?: string }).originUrl ?? '';
    return !from || from.startsWith(ownOrigin);
  };
  const extraHeaders = (kind: 'OnSendHeadersOptions' | 'OnHeadersReceivedOptions') => {
    const options = (browser.webRequest as unknown as Record<string, Record<string, string> | undefined>)[kind];
    return options && Object.values(options).includes('extraHeaders');
  };
  /** Chrome: cookies are seen only with 'extraHeaders', so they are observed where they may be sent. Firefox: everywhere. */
  const cookiesNeedExtra = extraHeaders('OnSendHeadersOptions') && extraHeaders('OnHeadersReceivedOptions');
  const webRequest = browser.webRequest as unknown as Record<'onSendHeaders' | 'onHeadersReceived' | 'onErrorOccurred', WebRequestEvent>;

  type Details<E extends { addListener: (l: never, ...rest: never[]) => void }> = Parameters<Parameters<E['addListener']>[0]>[0];
  type HeadersDetails = Details<typeof browser.webRequest.onHeadersReceived>;
  let recorded = 0;
  const record = (d: HeadersDetails, cookies?: CookieTrace) => {
    let s = byRequest.get(d.requestId);
    if (!s) {
      // Now and then, what nobody asked about goes (a request whose cookies came to be observed while it was made).
      if (++recorded % 1000 === 0) {
        const now = Date.now();
        for (const u of [...seen.keys()]) {
          const list = fresh(u, now);
          if (list.length) seen.set(u, list);
          else seen.delete(u);
        }
        for (const [id, old] of byRequest) if (now - old.at >= KEEP_MS) byRequest.delete(id);
      }
      const location = d.statusCode >= 300 && d.statusCode <= 399 ? headerValues(d.responseHeaders, 'location')[0] ?? null : null;
      s = { requestId: d.requestId, status: d.statusCode, location, at: Date.now() };
      byRequest.set(d.requestId, s);
      const list = seen.get(d.url) ?? [];
      list.push(s);
      seen.set(d.url, list);
    }
    if (cookies) s.cookies = cookies;
    wake(d.url);
  };
  const onSendHeaders = (d: Details<typeof browser.webRequest.onSendHeaders>) => {
    if (mine(d)) sentBy.set(d.requestId, cookieNames(headerValues(d.requestHeaders, 'cookie').join('; ')));
  };
  /** A listener that sees cookies (Chrome's with 'extraHeaders', or Firefox's). */
  const onHeadersWithCookies = (d: HeadersDetails) => {
    if (!mine(d)) return undefined;
    const sent = sentBy.get(d.requestId) ?? [];
    sentBy.delete(d.requestId);
    // Firefox joins several Set-Cookie lines into one value, one cookie a line.
    const setCookie = headerValues(d.responseHeaders, 'set-cookie').flatMap((v) => v.split('\n'));
    record(d, { sent, cleared: clearedCookies(setCookie, Date.now()) });
    return undefined;
  };
  /** Chrome's listener for every request of the worker, without cookies: only a redirect's status and Location are kept. */
  const onHeaders = (d: HeadersDetails) => {
    if (mine(d) && d.statusCode >= 300 && d.statusCode <= 399) record(d);
    return undefined;
  };
  const onErrorOccurred = (d: Details<typeof browser.webRequest.onErrorOccurred>) => {
    if (!mine(d)) return;
    sentBy.delete(d.requestId);
    errors.set(d.url, { error: d.error, at: Date.now() });
    wake(d.url);
  };

  // The listeners are on while the worker's own requests are: from its first request until LINGER_MS after its last
  // one ended. Only its own requests are observed, and it makes them only while it runs. Registered for good, they
  // had the browser wake the worker for every request of the user's tabs, crawl or no crawl: it wakes a worker for
  // a webRequest listener whatever the listener's filter says. The cookie jar's changes are listened to for as long.
  let on: Promise<void> | null = null;
  let inFlight = 0;
  let offTimer: ReturnType<typeof setTimeout> | undefined;
  /** What the listeners in force observe cookies of: every request, or these hosts' (null: none yet). */
  let watching: CookieHosts | 'all' | null = null;
  /** Hosts a cookie listener was asked for, in force or not yet. */
  let asked = new CookieHosts();
  /** Each pair of cookie listeners added, with the event each is on, to take them all off. */
  let added: [WebRequestEvent, Listener][] = [];
  /** Counts the times the listeners went off: a registration answered after that is not in force. */
  let generation = 0;
  // The browser registers a filtered listener through a call of the extension API, which answers this worker's calls
  // in order: once the next call is answered, a request made is seen.
  const registered = () => browser.runtime.getPlatformInfo().then(() => undefined, () => undefined);
  const addListener = (event: WebRequestEvent, l: Listener, filter: RequestFilter, extra: string[]) => {
    event.addListener(l, filter, extra);
    added.push([event, l]);
  };
  /** Observes the cookies of requests to `hosts` (every request: 'all'), with a listener pair of its own. */
  const watchCookies = async (wanted: CookieHosts | 'all'): Promise<void> => {
    // The hosts as wanted now: any added to `wanted` meanwhile are in force only once their own pair is.
    const hosts = wanted === 'all' ? wanted : wanted.copy();
    const extra = cookiesNeedExtra ? ['extraHeaders'] : [];
    const filter = hosts === 'all' ? OWN_REQUESTS : { urls: hosts.patterns(), tabId: -1 };
    if (filter.urls.length === 0) return;
    // Listeners are fresh functions, so a pair added for more hosts leaves the pairs before it in force.
    const send = (d: never) => onSendHeaders(d);
    const headers = (d: never) => onHeadersWithCookies(d);
    try {
      addListener(webRequest.onSendHeaders, send, filter, ['requestHeaders', ...extra]);
      addListener(webRequest.onHeadersReceived, headers, filter, ['responseHeaders', ...extra]);
    } catch {
      // A host the browser's match patterns cannot say: every request is observed instead.
      if (hosts === 'all') throw new Error('the browser refused to observe its own requests');
      return watchCookies('all');
    }
    const at = generation;
    await registered();
    if (at !== generation) return;
    const now = watching;
    if (hosts === 'all' || now === 'all') watching = 'all';
    else {
      const grown = now ?? new CookieHosts();
      grown.addAll(hosts);
      watching = grown;
    }
  };
  /** The registrations asked for by cookies set while the crawl runs, until they are in force. */
  let growing: Promise<unknown> | null = null;
  /** A cookie set while the crawl runs: its host's requests are observed from then on. */
  const onCookieChanged = (change: { removed: boolean; cookie: JarCookie }) => {
    if (change.removed || watching === 'all') return;
    const one = new CookieHosts();
    if (!one.add(change.cookie) || !asked.add(change.cookie)) return;
    const grown = watchCookies(asked.size > MAX_COOKIE_HOSTS ? 'all' : one).catch(() => undefined);
    const all: Promise<unknown> = Promise.all([growing, grown]).then(() => {
      if (growing === all) growing = null;
    });
    growing = all;
  };
  const listen = (): Promise<void> => {
    clearTimeout(offTimer);
    on ??= (async () => {
      webRequest.onErrorOccurred.addListener(onErrorOccurred as Listener, OWN_REQUESTS);
      if (!cookiesNeedExtra) return watchCookies('all');
      webRequest.onHeadersReceived.addListener(onHeaders as Listener, OWN_REQUESTS, ['responseHeaders']);
      browser.cookies.onChanged.addListener(onCookieChanged);
      asked = new CookieHosts();
      try {
        for (const c of await browser.cookies.getAll({})) asked.add(c);
      } catch {
        return watchCookies('all');
      }
      await watchCookies(asked.size > MAX_COOKIE_HOSTS ? 'all' : asked);
      // With no cookie at all, nothing is waited on above: the listeners just added are in force once this is answered.
      await registered();
    })();
    return on;
  };
  const release = () => {
    if (--inFlight > 0) return;
    clearTimeout(offTimer);
    offTimer = setTimeout(() => {
      if (inFlight > 0 || !on) return;
      webRequest.onErrorOccurred.removeListener(onErrorOccurred as Listener);
      if (cookiesNeedExtra) {
        webRequest.onHeadersReceived.removeListener(onHeaders as Listener);
        browser.cookies.onChanged.removeListener(onCookieChanged);
      }
      for (const [event, l] of added) event.removeListener(l);
      added = [];
      watching = null;
      growing = null;
      generation++;
      on = null;
    }, LINGER_MS);
  };
  const hostnameOf = (url: string): string => {
    try {
      return new URL(url).hostname;
    } catch {
      return '';
    }
  };
  /** Whether the listeners in force see the cookies of a request to `url`. */
  const cookiesSeen = (url: string): boolean =>
    watching === null || watching === 'all' ? watching === 'all' : watching.covers(hostnameOf(url));

  /** `url`'s observations not taken, of the last KEEP_MS, oldest first. */
  const fresh = (url: string, now: number): Seen[] => (seen.get(url) ?? []).filter((s) => now - s.at < KEEP_MS);
  const take = (url: string): Seen | undefined => {
    const list = fresh(url, Date.now());
    const first = list.shift();
    if (list.length) seen.set(url, list);
    else seen.delete(url);
    return first;
  };
  const takeError = (url: string): string | undefined => {
    const e = errors.get(url);
    errors.delete(url);
    return e && Date.now() - e.at < KEEP_MS ? e.error : undefined;
  };
  // Waits until `ready()`, or `waitMs`. Any event for the URL wakes the waiters, and each checks its own condition
  // again: the headers of a redirect Chromium then refuses come before its error, and must not end a wait for it.
  const until = (url: string, ready: () => boolean, waitMs: number) =>
    ready()
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          const wait = () => {
            if (!ready()) return void waiters.set(url, [...(waiters.get(url) ?? []), wait]);
            clearTimeout(timer);
            resolve();
          };
          const list = waiters.get(url) ?? [];
          list.push(wait);
          waiters.set(url, list);
        });
  /** The first observation of `url`; with `withCookies`, once a listener that sees cookies has observed it too. */
  const observed = async (url: string, waitMs: number, withCookies: boolean): Promise<Seen | undefined> => {
    await until(url, () => { const first = seen.get(url)?.[0]; return first !== undefined && (!withCookies || first.cookies !== undefined); }, waitMs);
    return take(url);
  };

  return async (url, init) => {
    inFlight++;
    try {
      await listen();
      return await observedFetch(url, init);
    } finally {
      release();
    }
  };

  async function observedFetch(url: string, init: RequestInit): Promise<PortResponse> {
    // A request to a host the browser was just given a cookie for waits until its cookies are observed.
    if (growing && !cookiesSeen(url) && asked.covers(hostnameOf(url))) await growing;
    const withCookies = cookiesSeen(url);
    let res: PortResponse;
    try {
      res = await fetch(url, init);
    } catch (err) {
      // Chromium refuses a redirect to what is no web address (javascript:, data:, file:) with a network error, even
      // in manual mode, and shows no headers for it: the gate is told it was such a redirect, which is recorded as
      // not followed rather than asked again as a network error.
      await until(url, () => errors.has(url), ERROR_WAIT_MS);
      if (takeError(url) === 'net::ERR_UNSAFE_REDIRECT') throw new NonWebRedirect();
      throw err;
    }
    const redirect = res.type === 'opaqueredirect';
    // An answer that is no redirect, from a host the browser held no cookie for, carried none and has nothing to wait for.
    if (!redirect && !withCookies) return res;
    const hop = await observed(res.url || url, redirect ? OBSERVE_WAIT_MS : HEADERS_WAIT_MS, withCookies);
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
}
