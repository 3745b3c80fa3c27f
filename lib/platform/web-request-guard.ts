// Firefox's guard of a rendering tab. Firefox has no debugger API, but keeps blocking webRequest in MV3 for an add-on
// with host access (`webRequestBlocking`): a listener keyed to the rendering tab (the `tabId` filter) is asked about
// each request of that tab before it leaves the browser, awaits the request gate, and cancels what the gate refuses.
// The same listeners tell when the tab's network is quiet; tabs.onUpdated tells when the page has loaded.
//
// What it cannot see: requests a service worker of the site makes by itself (they belong to no tab). Chrome's guard
// bypasses the site's service worker; Firefox offers no way to, so a site whose worker fetches on its own behalf is
// guarded only for what its pages request.
import { browser } from 'wxt/browser';
import type { RenderRequest } from '../fetch/render';
import { crawlUserAgent } from './crawl-identity';
import type { TabGuard, TabWatch } from './tab-watch';

interface RequestDetails {
  requestId: string;
  url: string;
  method: string;
  type: string;
  frameId: number;
  tabId: number;
  error?: string;
  requestHeaders?: { name: string; value?: string }[];
}

type Listener = (d: RequestDetails) => unknown;
interface WebRequestEvent {
  addListener(l: Listener, filter: { urls: string[]; tabId?: number }, extra?: string[]): void;
  removeListener(l: Listener): void;
}
type WebRequest = Record<'onBeforeRequest' | 'onBeforeSendHeaders' | 'onCompleted' | 'onErrorOccurred', WebRequestEvent>;

/** Firefox's resource types in the words of Chrome's, which the guard and the page rows use. */
const TYPES: Record<string, string> = { main_frame: 'document', sub_frame: 'document', xmlhttprequest: 'xhr', beacon: 'ping' };

export function webRequestGuard(): TabGuard {
  const webRequest = browser.webRequest as unknown as WebRequest;
  const removers = new Map<number, () => void>();

  const onTabUpdated = new Map<number, (status: string | undefined, url: string | undefined) => void>();
  const onTabRemoved = new Map<number, () => void>();
  let listening = false;
  const listen = () => {
    if (listening) return;
    listening = true;
    browser.tabs.onUpdated.addListener((tabId, change, tab) => onTabUpdated.get(tabId)?.(change.status, tab.url));
    browser.tabs.onRemoved.addListener((tabId) => onTabRemoved.get(tabId)?.());
  };

  return {
    unavailable: () => null, // webRequestBlocking is asked at install, with the host access it needs
    async attach(watch: TabWatch, req: RenderRequest) {
      listen();
      const filter = { urls: ['<all_urls>'], tabId: watch.tabId };
      const before: Listener = async (d) => {
        const navigation = d.type === 'main_frame' || d.type === 'sub_frame';
        const reason = await watch.decide({ url: d.url, method: d.method, type: TYPES[d.type] ?? d.type, navigation }, d.type === 'main_frame');
        if (reason !== null) return { cancel: true };
        watch.requestStarted(d.requestId);
        return {};
      };
      const headers: Listener = (d) => {
        const requestHeaders = (d.requestHeaders ?? []).map((h) => (h.name.toLowerCase() === 'user-agent' ? { name: h.name, value: crawlUserAgent() } : h));
        return { requestHeaders };
      };
      const completed: Listener = (d) => watch.requestEnded(d.requestId);
      const failed: Listener = (d) => {
        watch.requestEnded(d.requestId);
        // The page itself could not be had (the guard never refuses the tab's first document).
        if (d.type === 'main_frame' && !watch.loaded && d.error && !watch.blocked.some((b) => b.url === d.url)) {
          watch.detached ??= `the page did not load (${d.error})`;
        }
      };
      webRequest.onBeforeRequest.addListener(before, filter, ['blocking']);
      if (req.identify) webRequest.onBeforeSendHeaders.addListener(headers, filter, ['blocking', 'requestHeaders']);
      webRequest.onCompleted.addListener(completed, filter);
      webRequest.onErrorOccurred.addListener(failed, filter);
      onTabUpdated.set(watch.tabId, (status, url) => {
        // The blank tab's own load is not the page's.
        if (status === 'complete' && watch.navigated && url !== 'about:blank') watch.loaded = true;
      });
      onTabRemoved.set(watch.tabId, () => {
        watch.detached ??= 'the tab was closed';
      });
      removers.set(watch.tabId, () => {
        webRequest.onBeforeRequest.removeListener(before);
        webRequest.onBeforeSendHeaders.removeListener(headers);
        webRequest.onCompleted.removeListener(completed);
        webRequest.onErrorOccurred.removeListener(failed);
        onTabUpdated.delete(watch.tabId);
        onTabRemoved.delete(watch.tabId);
      });
    },
    async navigate(watch: TabWatch, url: string) {
      await browser.tabs.update(watch.tabId, { url });
    },
    async detach(watch: TabWatch) {
      removers.get(watch.tabId)?.();
      removers.delete(watch.tabId);
    },
  };
}
