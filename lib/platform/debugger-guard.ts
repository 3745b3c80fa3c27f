// Chrome's guard of a rendering tab: the debugger's Fetch domain pauses each request of the tab until the worker
// answers it, so the request gate itself decides (webRequest cannot block in Chrome's MV3, and declarativeNetRequest
// rules are patterns that cannot ask the gate: its words, languages and segmentation are code). Its Network domain
// tells when the page's network is quiet, and hands over the bodies of what the page loaded, kept for the archive
// (Network.getResponseBody once a response has finished loading). Chrome shows that Focus is debugging the browser
// while a page renders.
import { browser } from 'wxt/browser';
import type { RenderRequest } from '../net/render';
import { crawlUserAgent } from './crawl-identity';
import type { TabGuard, TabWatch } from './tab-watch';

/** A response of the tab that may be kept, until its body has loaded. */
interface Answered {
  url: string;
  status: number;
  headers: Record<string, string>;
}

interface Watched {
  watch: TabWatch;
  mainFrame: string | null;
  answered: Map<string, Answered>;
}

interface FetchPaused {
  requestId: string;
  request: { url: string; method: string };
  resourceType: string;
  frameId: string;
}

/**
 * Why a page cannot be rendered without the debugger. It is an optional permission: Chrome's install prompt does not
 * ask for it, and the dashboard asks when a crawl is started with rendering on (lib/platform/actions.ts).
 */
export const NO_DEBUGGER =
  "rendering needs Chrome's debugger permission, which was not given: start a crawl with rendering on from the dashboard and allow it when Chrome asks";

/** Run in each document of a rendering tab before its own scripts: the page can neither register nor reach a worker. */
const NO_SERVICE_WORKER = 'delete Navigator.prototype.serviceWorker;';

export function debuggerGuard(): TabGuard {
  const watches = new Map<number, Watched>();
  let listening = false;
  // Registered at the first render rather than at worker start: the debugger may be granted later (it is optional),
  // and its events only matter while a tab renders, which keeps the worker awake.
  const listen = () => {
    if (listening) return;
    listening = true;
    browser.debugger.onEvent.addListener((source, method, params) => {
      const w = source.tabId === undefined ? undefined : watches.get(source.tabId);
      if (w) onEvent(w, method, (params ?? {}) as Record<string, unknown>);
    });
    browser.debugger.onDetach.addListener((source, reason) => {
      const w = source.tabId === undefined ? undefined : watches.get(source.tabId);
      if (w) w.watch.detached ??= reason === 'canceled_by_user' ? 'rendering was cancelled in the browser' : `the tab was closed (${reason})`;
    });
  };

  const onEvent = (w: Watched, method: string, params: Record<string, unknown>) => {
    const { watch } = w;
    switch (method) {
      case 'Fetch.requestPaused':
        void paused(w, params as unknown as FetchPaused);
        break;
      case 'Network.requestWillBeSent':
        watch.requestStarted(params.requestId as string);
        break;
      case 'Network.responseReceived': {
        const { url, status, headers } = (params.response ?? {}) as { url?: string; status?: number; headers?: Record<string, string> };
        if (url && status && watch.wants(url, status)) w.answered.set(params.requestId as string, { url, status, headers: archiveHeaders(headers ?? {}) });
        break;
      }
      case 'Network.loadingFinished': {
        const id = params.requestId as string;
        const answer = w.answered.get(id);
        w.answered.delete(id);
        // The page's read waits for the body (TabWatch.captured), so the tab is not closed while it is asked for.
        if (answer && watch.wants(answer.url, answer.status, Number(params.encodedDataLength) || 0)) watch.reading(keep(watch, id, answer));
        watch.requestEnded(id);
        break;
      }
      case 'Network.loadingFailed':
        w.answered.delete(params.requestId as string);
        watch.requestEnded(params.requestId as string);
        break;
      case 'Page.loadEventFired':
        watch.loaded = true;
        break;
      case 'Inspector.targetCrashed':
        watch.detached = 'the tab crashed';
        break;
    }
  };

  /** The gate's word on one request of the page: it goes on, or fails as blocked by the browser's client. */
  const paused = async (w: Watched, p: FetchPaused) => {
    const { url, method } = p.request;
    const navigation = p.resourceType === 'Document';
    const reason = await w.watch.decide({ url, method, type: p.resourceType.toLowerCase(), navigation }, p.frameId === w.mainFrame);
    const target = { tabId: w.watch.tabId };
    try {
      if (reason === null) await browser.debugger.sendCommand(target, 'Fetch.continueRequest', { requestId: p.requestId });
      else await browser.debugger.sendCommand(target, 'Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' });
    } catch {
      // The tab went away meanwhile: nothing is requested from a closed tab.
    }
  };

  const send = (tabId: number, method: string, params?: Record<string, unknown>) => browser.debugger.sendCommand({ tabId }, method, params);

  /** The body of a finished response, as Chrome decoded it, kept when it fits what is left of the page's capture. */
  const keep = async (watch: TabWatch, requestId: string, answer: Answered) => {
    const got = (await send(watch.tabId, 'Network.getResponseBody', { requestId })) as { body: string; base64Encoded: boolean } | undefined;
    if (!got) return;
    const payload = got.base64Encoded ? Uint8Array.from(atob(got.body), (c) => c.charCodeAt(0)) : new TextEncoder().encode(got.body);
    watch.keep({ ...answer, payload });
  };

  return {
    // Chrome defines chrome.debugger only while the permission is granted, and at once when it is.
    unavailable: () => (typeof browser.debugger?.attach === 'function' ? null : NO_DEBUGGER),
    async attach(watch: TabWatch, req: RenderRequest) {
      listen();
      const w: Watched = { watch, mainFrame: null, answered: new Map() };
      watches.set(watch.tabId, w);
      const { tabId } = watch;
      await browser.debugger.attach({ tabId }, '1.3');
      await send(tabId, 'Page.enable');
      await send(tabId, 'Inspector.enable');
      // Chrome keeps the bodies of the tab's responses for getResponseBody up to these sizes; one larger than what the
      // page may keep is not kept at all.
      const keepBytes = req.capture.bytes;
      await send(tabId, 'Network.enable', keepBytes > 0 ? { maxResourceBufferSize: keepBytes, maxTotalBufferSize: Math.max(keepBytes * 2, 4 * 1024 * 1024) } : {});
      // A service worker of the site would answer the page's requests out of the guard's sight.
      await send(tabId, 'Network.setBypassServiceWorker', { bypass: true });
      // It also fetches on its own behalf, as a worker of its own that this tab's Fetch domain never sees: a page told
      // to sync by its script would have it call /logout unguarded, and rendering would install it in the user's
      // browser. The tab's pages are left without navigator.serviceWorker, as in a browser without workers.
      await send(tabId, 'Page.addScriptToEvaluateOnNewDocument', { source: NO_SERVICE_WORKER });
      if (req.identify) await send(tabId, 'Network.setUserAgentOverride', { userAgent: crawlUserAgent() });
      await send(tabId, 'Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
      const tree = (await send(tabId, 'Page.getFrameTree')) as { frameTree?: { frame?: { id?: string } } } | undefined;
      w.mainFrame = tree?.frameTree?.frame?.id ?? null;
    },
    async navigate(watch: TabWatch, url: string) {
      const nav = (await send(watch.tabId, 'Page.navigate', { url })) as { errorText?: string } | undefined;
      if (nav?.errorText) throw new Error(`the page did not load (${nav.errorText})`);
    },
    async detach(watch: TabWatch) {
      watches.delete(watch.tabId);
      await browser.debugger.detach({ tabId: watch.tabId }).catch(() => undefined);
    },
  };
}

/**
 * A response's headers as an archive keeps them: Chrome joins repeated headers with newlines, which a WARC header
 * cannot hold, so they are joined with commas; Set-Cookie is left out, as the cookies are the user's session.
 */
function archiveHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'set-cookie') continue;
    kept[name] = value.split('\n').join(', ');
  }
  return kept;
}
