// The extension's FetchPort. In an MV3 service worker `fetch(url, { redirect: 'manual' })` answers a redirect
// with an opaque response: no status, no Location. The request gate must see where a redirect goes before
// anything is requested there, so the worker observes its own requests' response headers through the
// webRequest API (read-only: no blocking, no declarativeNetRequest rules) and hands the gate a plain 3xx
// response carrying the Location it saw. Works the same in Chrome and Firefox, where webRequest observation
// of an extension's own requests is available with host permissions.
import { browser } from 'wxt/browser';
import type { FetchPort } from '../fetch/fetcher';

interface Seen {
  status: number;
  location: string | null;
  at: number;
}

/** How long to wait for the webRequest event after fetch has answered (both cross processes separately). */
const OBSERVE_WAIT_MS = 3000;
/** Observations older than this are dropped (a redirect nobody asked about). */
const KEEP_MS = 60_000;

export function makeExtensionFetch(): FetchPort {
  const ownOrigin = new URL(browser.runtime.getURL('/')).origin;
  const seen = new Map<string, Seen[]>();
  const waiters = new Map<string, (() => void)[]>();

  // Registered synchronously at worker start, as MV3 requires of listeners that must not miss events.
  browser.webRequest.onHeadersReceived.addListener(
    (d) => {
      if (d.tabId !== -1) return undefined; // a page's request, not the worker's
      const from = (d as { initiator?: string; originUrl?: string }).initiator ?? (d as { originUrl?: string }).originUrl ?? '';
      if (from && !from.startsWith(ownOrigin)) return undefined;
      if (d.statusCode < 300 || d.statusCode > 399) return undefined;
      const location = d.responseHeaders?.find((h) => h.name.toLowerCase() === 'location')?.value ?? null;
      const list = seen.get(d.url) ?? [];
      list.push({ status: d.statusCode, location, at: Date.now() });
      seen.set(d.url, list);
      for (const wake of waiters.get(d.url) ?? []) wake();
      waiters.delete(d.url);
      return undefined;
    },
    { urls: ['<all_urls>'] },
    ['responseHeaders'],
  );

  const take = (url: string): Seen | undefined => {
    const now = Date.now();
    const list = (seen.get(url) ?? []).filter((s) => now - s.at < KEEP_MS);
    const first = list.shift();
    if (list.length) seen.set(url, list);
    else seen.delete(url);
    return first;
  };

  const observed = async (url: string): Promise<Seen | undefined> => {
    const ready = take(url);
    if (ready) return ready;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, OBSERVE_WAIT_MS);
      const list = waiters.get(url) ?? [];
      list.push(() => {
        clearTimeout(timer);
        resolve();
      });
      waiters.set(url, list);
    });
    return take(url);
  };

  return async (url, init) => {
    const res = await fetch(url, init);
    if (res.type !== 'opaqueredirect') return res;
    const hop = await observed(res.url || url);
    // Unseen: the opaque response goes back as it is, and the fetcher refuses to follow it blind.
    if (!hop) return res;
    return new Response(null, { status: hop.status, headers: hop.location === null ? {} : { location: hop.location } });
  };
}
