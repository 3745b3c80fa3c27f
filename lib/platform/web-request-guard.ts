// Firefox's guard of a rendering tab. Firefox has no debugger API, but keeps blocking webRequest in MV3 for an add-on
// with host access (`webRequestBlocking`): a listener keyed to the rendering tab (the `tabId` filter) is asked about
// each request of that tab before it leaves the browser, awaits the request gate, and cancels what the gate refuses.
// The same listeners tell when the tab's network is quiet; tabs.onUpdated tells when the page has loaded.
//
// A service worker of the site fetches on its own behalf (a page's requests it answers, and its own): its requests
// belong to no tab (`tabId` -1), and their `originUrl` is the worker's script. While a page renders, such requests
// from a worker of the page's origin are put to the same gate, and a worker's script the page would install
// (`Service-Worker: script`, Service Workers §Update) is refused: rendering leaves no worker in the user's browser.
import { browser } from 'wxt/browser';
import type { RenderRequest } from '../net/render';
import { crawlUserAgent } from './crawl-identity';
import type { TabGuard, TabWatch } from './tab-watch';

interface RequestDetails {
  requestId: string;
  url: string;
  method: string;
  type: string;
  frameId: number;
  tabId: number;
  /** Who asked (Firefox): a page, or a worker's script; the crawl's own requests name the add-on's page. */
  originUrl?: string;
  documentUrl?: string;
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

/** Why a worker's script is refused while a page renders. */
export const WORKER_SCRIPT = 'a service worker: a rendered page may not install one in the browser';

const isWorkerScript = (d: RequestDetails) => (d.requestHeaders ?? []).some((h) => h.name.toLowerCase() === 'service-worker' && h.value === 'script');

function originOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

export function webRequestGuard(): TabGuard {
  const webRequest = browser.webRequest as unknown as WebRequest;
  const removers = new Map<number, () => void>();
  const workers = workerGuard(webRequest);

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
      workers.add(watch, req.url);
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
        workers.remove(watch);
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

/**
 * The requests of service workers of the origins being rendered, which belong to no tab: put to the gate of a page of
 * that origin while it renders. A user's own tab on that site has its worker's requests guarded too for those seconds
 * (Firefox does not say which page a worker fetches for). Listening only while a page renders keeps the user's
 * browsing free of a blocking listener the rest of the time.
 */
function workerGuard(webRequest: WebRequest) {
  const rendering = new Map<TabWatch, string>();
  const pageOf = (d: RequestDetails): TabWatch | undefined => {
    if (d.tabId !== -1) return [...rendering.keys()].find((w) => w.tabId === d.tabId);
    const origin = originOf(d.originUrl ?? d.documentUrl);
    return [...rendering].find(([, o]) => o === origin)?.[0];
  };
  const before: Listener = async (d) => {
    const watch = d.tabId === -1 ? pageOf(d) : undefined;
    if (!watch) return {};
    const reason = await watch.decide({ url: d.url, method: d.method, type: TYPES[d.type] ?? d.type, navigation: false }, false);
    return reason === null ? {} : { cancel: true };
  };
  const headers: Listener = (d) => {
    const watch = isWorkerScript(d) ? pageOf(d) : undefined;
    if (!watch) return {};
    watch.blocked.push({ url: d.url, method: d.method, reason: WORKER_SCRIPT });
    return { cancel: true };
  };
  return {
    add(watch: TabWatch, url: string) {
      if (rendering.size === 0) {
        webRequest.onBeforeRequest.addListener(before, { urls: ['<all_urls>'] }, ['blocking']);
        webRequest.onBeforeSendHeaders.addListener(headers, { urls: ['<all_urls>'] }, ['blocking', 'requestHeaders']);
      }
      rendering.set(watch, originOf(url) ?? '');
    },
    remove(watch: TabWatch) {
      if (!rendering.delete(watch) || rendering.size) return;
      webRequest.onBeforeRequest.removeListener(before);
      webRequest.onBeforeSendHeaders.removeListener(headers);
    },
  };
}
