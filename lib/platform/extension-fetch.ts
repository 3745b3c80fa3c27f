// The extension's FetchPort. In an MV3 service worker `fetch(url, { redirect: 'manual' })` answers a redirect
// with an opaque response: no status, no Location. The request gate must see where a redirect goes before
// anything is requested there, so the worker observes its own requests' headers through the webRequest API
// (read-only: no blocking) and hands the gate a plain 3xx response carrying the Location it saw. The same
// observation tells which cookies a request carried and which its answer's Set-Cookie lines cleared (the
// `cookieTrace`), which a page's fetch can never read: that is how a crawl notices a request logged the user out.
// Chrome shows Cookie and Set-Cookie to webRequest only with 'extraHeaders'; Firefox shows them without it and
// refuses the option. Works the same otherwise in both, where observing an extension's own requests needs host
// permissions only.
import { browser } from 'wxt/browser';
import { NonWebRedirect, type FetchPort, type PortResponse } from '../fetch/fetcher';
import { clearedCookies, cookieNames, type CookieTrace } from '../fetch/session';

interface Seen {
  status: number;
  location: string | null;
  cookies: CookieTrace;
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

type HeaderList = { name: string; value?: string }[] | undefined;
const headerValues = (headers: HeaderList, name: string) =>
  (headers ?? []).filter((h) => h.name.toLowerCase() === name).map((h) => h.value ?? '');

export function makeExtensionFetch(): FetchPort {
  const ownOrigin = new URL(browser.runtime.getURL('/')).origin;
  const seen = new Map<string, Seen[]>();
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
  const extra = (kind: 'OnSendHeadersOptions' | 'OnHeadersReceivedOptions') => {
    const options = (browser.webRequest as unknown as Record<string, Record<string, string> | undefined>)[kind];
    return options && Object.values(options).includes('extraHeaders') ? (['extraHeaders'] as const) : [];
  };

  type Details<E extends { addListener: (l: never, ...rest: never[]) => void }> = Parameters<Parameters<E['addListener']>[0]>[0];
  const onSendHeaders = (d: Details<typeof browser.webRequest.onSendHeaders>) => {
    if (mine(d)) sentBy.set(d.requestId, cookieNames(headerValues(d.requestHeaders, 'cookie').join('; ')));
  };
  const onHeadersReceived = (d: Details<typeof browser.webRequest.onHeadersReceived>) => {
    if (!mine(d)) return undefined;
    const sent = sentBy.get(d.requestId) ?? [];
    sentBy.delete(d.requestId);
    const location = d.statusCode >= 300 && d.statusCode <= 399 ? headerValues(d.responseHeaders, 'location')[0] ?? null : null;
    // Firefox joins several Set-Cookie lines into one value, one cookie a line.
    const setCookie = headerValues(d.responseHeaders, 'set-cookie').flatMap((v) => v.split('\n'));
    const list = seen.get(d.url) ?? [];
    list.push({ status: d.statusCode, location, cookies: { sent, cleared: clearedCookies(setCookie, Date.now()) }, at: Date.now() });
    seen.set(d.url, list);
    wake(d.url);
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
  // a webRequest listener whatever the listener's filter says.
  let on: Promise<void> | null = null;
  let inFlight = 0;
  let offTimer: ReturnType<typeof setTimeout> | undefined;
  const listen = (): Promise<void> => {
    clearTimeout(offTimer);
    if (!on) {
      browser.webRequest.onSendHeaders.addListener(onSendHeaders, OWN_REQUESTS, ['requestHeaders', ...extra('OnSendHeadersOptions')]);
      browser.webRequest.onHeadersReceived.addListener(onHeadersReceived, OWN_REQUESTS, ['responseHeaders', ...extra('OnHeadersReceivedOptions')]);
      browser.webRequest.onErrorOccurred.addListener(onErrorOccurred, OWN_REQUESTS);
      // The browser registers a filtered listener through a call of the extension API, which answers this worker's
      // calls in order: once the next call is answered, a request made is seen.
      on = browser.runtime.getPlatformInfo().then(() => undefined, () => undefined);
    }
    return on;
  };
  const release = () => {
    if (--inFlight > 0) return;
    clearTimeout(offTimer);
    offTimer = setTimeout(() => {
      if (inFlight > 0 || !on) return;
      browser.webRequest.onSendHeaders.removeListener(onSendHeaders);
      browser.webRequest.onHeadersReceived.removeListener(onHeadersReceived);
      browser.webRequest.onErrorOccurred.removeListener(onErrorOccurred);
      on = null;
    }, LINGER_MS);
  };

  const take = (url: string): Seen | undefined => {
    const now = Date.now();
    const list = (seen.get(url) ?? []).filter((s) => now - s.at < KEEP_MS);
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
  const observed = async (url: string, waitMs: number): Promise<Seen | undefined> => {
    await until(url, () => (seen.get(url)?.length ?? 0) > 0, waitMs);
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
    const hop = await observed(res.url || url, redirect ? OBSERVE_WAIT_MS : HEADERS_WAIT_MS);
    if (!redirect) {
      if (hop && init.credentials === 'include') res.cookieTrace = hop.cookies;
      return res;
    }
    // Unseen: the opaque response goes back as it is, and the fetcher refuses to follow it blind.
    if (!hop) return res;
    const answer: PortResponse = new Response(null, { status: hop.status, headers: hop.location === null ? {} : { location: hop.location } });
    if (init.credentials === 'include') answer.cookieTrace = hop.cookies;
    return answer;
  }
}
