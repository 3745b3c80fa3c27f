// The RenderPort in Chrome: a page is loaded in a tab of a window the crawl makes for it (minimized, never focused,
// its tabs never active), with the user's cookies as any tab has them, and read once it settles.
//
// Why a tab and not an offscreen document: an offscreen document is an extension page; the only way it shows a site
// is in an iframe, where the site is third-party (SameSite cookies are not sent, so the user's session is missing),
// X-Frame-Options and frame-ancestors refuse it, and chrome.scripting cannot reach into it. A tab is the page as the
// user would open it.
//
// Why the debugger: every request the rendered page makes must pass the same guard as links, and be stopped
// before it leaves the browser. webRequest cannot block in MV3, and declarativeNetRequest rules are patterns that
// cannot ask the guard (its words, languages and segmentation are code). The debugger's Fetch domain pauses each
// request of the tab until the worker answers it, so the guard itself decides; its Network domain tells when the
// page's network is quiet. Chrome shows that Focus is debugging the browser while a page renders.
//
// A worker that stops mid-render leaves its tabs behind: their ids live in chrome.storage.session (cleared when the
// browser closes, so an id can never name a user's tab of a later session), and the next start closes them.
import { browser } from 'wxt/browser';
import type { BlockedRequest, RenderPort, RenderRequest, RenderResult } from '../fetch/render';
import { crawlUserAgent } from './crawl-identity';
import { domQuietMs, pageHeight, scrollToEnd, serializeDom } from './serialize-dom';

const OWNED_KEY = 'focusRenderTabs';
/** The render window is closed when no page has rendered for this long. */
const WINDOW_IDLE_MS = 20_000;
/** How often the settle loop looks at the page. */
const POLL_MS = 200;

interface Owned {
  windowId?: number;
  tabIds: number[];
}

interface FetchPaused {
  requestId: string;
  request: { url: string; method: string };
  resourceType: string;
  frameId: string;
}

/** One page being rendered: the debugger's events for its tab. */
class TabWatch {
  readonly blocked: BlockedRequest[] = [];
  private readonly inflight = new Set<string>();
  lastNetwork = Date.now();
  detached: string | null = null;
  loaded = false;
  private firstDocument = true;
  /** The tab's top frame, and the last document it was let load: the page read must be the page the gate fetched. */
  mainFrame: string | null = null;
  mainDocument: string | null = null;

  constructor(readonly tabId: number, private readonly req: RenderRequest) {}

  get networkQuietMs(): number {
    return this.inflight.size ? 0 : Date.now() - this.lastNetwork;
  }

  onEvent(method: string, params: Record<string, unknown>): void {
    switch (method) {
      case 'Fetch.requestPaused':
        void this.paused(params as unknown as FetchPaused);
        break;
      case 'Network.requestWillBeSent':
        this.inflight.add(params.requestId as string);
        this.lastNetwork = Date.now();
        break;
      case 'Network.loadingFinished':
      case 'Network.loadingFailed':
        this.inflight.delete(params.requestId as string);
        this.lastNetwork = Date.now();
        break;
      case 'Page.loadEventFired':
        this.loaded = true;
        break;
      case 'Inspector.targetCrashed':
        this.detached = 'the tab crashed';
        break;
    }
  }

  /** The guard's word on one request of the page: it goes on, or fails as blocked by the browser's client. */
  private async paused(p: FetchPaused): Promise<void> {
    const { url, method } = p.request;
    const navigation = p.resourceType === 'Document';
    // The page's own first load was let through by the request gate already.
    const first = navigation && this.firstDocument;
    if (navigation) this.firstDocument = false;
    const reason = first ? null : await this.req.guard({ url, method, type: p.resourceType.toLowerCase(), navigation });
    if (navigation && reason === null && (first || p.frameId === this.mainFrame)) this.mainDocument = url;
    const target = { tabId: this.tabId };
    try {
      if (reason === null) await browser.debugger.sendCommand(target, 'Fetch.continueRequest', { requestId: p.requestId });
      else {
        this.blocked.push({ url, method, reason });
        await browser.debugger.sendCommand(target, 'Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' });
      }
    } catch {
      // The tab went away meanwhile: nothing is requested from a closed tab.
    }
  }
}

export function makeTabRender(): RenderPort {
  const watches = new Map<number, TabWatch>();
  let windowId: number | undefined;
  let making: Promise<number> | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const tabIds = new Set<number>();
  const save = () => browser.storage.session.set({ [OWNED_KEY]: { windowId, tabIds: [...tabIds] } satisfies Owned }).catch(() => undefined);

  // Registered synchronously at worker start, as MV3 requires of listeners.
  browser.debugger.onEvent.addListener((source, method, params) => {
    if (source.tabId !== undefined) watches.get(source.tabId)?.onEvent(method, (params ?? {}) as Record<string, unknown>);
  });
  browser.debugger.onDetach.addListener((source, reason) => {
    const watch = source.tabId === undefined ? undefined : watches.get(source.tabId);
    if (watch) watch.detached ??= reason === 'canceled_by_user' ? 'rendering was cancelled in the browser' : `the tab was closed (${reason})`;
  });
  browser.windows.onRemoved.addListener((id) => {
    if (id === windowId) windowId = undefined;
  });
  // The first render waits for the last worker's tabs to be closed, so it cannot close the new ones.
  const cleaned = closeOrphans().catch(() => undefined);

  const renderWindow = (): Promise<number> => {
    if (windowId !== undefined) return Promise.resolve(windowId);
    making ??= cleaned
      .then(() => browser.windows.create({ url: 'about:blank', focused: false, state: 'minimized', type: 'normal' }))
      .then(async (w) => {
        if (w?.id === undefined) throw new Error('no window could be made to render in');
        windowId = w.id;
        for (const t of w.tabs ?? []) if (t.id !== undefined) tabIds.add(t.id);
        await save();
        return windowId;
      })
      .finally(() => {
        making = null;
      });
    return making;
  };

  const closeWhenIdle = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (watches.size || windowId === undefined) return;
      const id = windowId;
      windowId = undefined;
      tabIds.clear();
      void browser.windows.remove(id).catch(() => undefined).then(save);
    }, WINDOW_IDLE_MS);
  };

  return {
    async render(req: RenderRequest): Promise<RenderResult> {
      const started = Date.now();
      clearTimeout(idleTimer);
      let tabId: number | undefined;
      let watch: TabWatch | undefined;
      try {
        const tab = await browser.tabs.create({ windowId: await renderWindow(), url: 'about:blank', active: false });
        tabId = tab.id!;
        tabIds.add(tabId);
        await save();
        watch = new TabWatch(tabId, req);
        watches.set(tabId, watch);
        const target = { tabId };
        const send = (method: string, params?: Record<string, unknown>) => browser.debugger.sendCommand(target, method, params);
        await browser.debugger.attach(target, '1.3');
        await send('Page.enable');
        await send('Inspector.enable');
        await send('Network.enable');
        // A service worker of the site would answer the page's requests out of the guard's sight.
        await send('Network.setBypassServiceWorker', { bypass: true });
        if (req.identify) await send('Network.setUserAgentOverride', { userAgent: crawlUserAgent() });
        await send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
        const tree = (await send('Page.getFrameTree')) as { frameTree?: { frame?: { id?: string } } } | undefined;
        watch.mainFrame = tree?.frameTree?.frame?.id ?? null;
        const nav = (await send('Page.navigate', { url: req.url })) as { errorText?: string } | undefined;
        if (nav?.errorText) throw new Error(`the page did not load (${nav.errorText})`);
        let settled = await settle(watch, req, started);
        let scrolled = 0;
        // An endless feed: scrolled to its end while it grows, up to the cap and within the timeout.
        while (settled && scrolled < req.scrolls) {
          const [before] = await browser.scripting.executeScript({ target: { tabId }, func: scrollToEnd });
          if (before?.result === -1) break; // the page fits its window
          settled = await settle(watch, req, started, Date.now());
          const [after] = await browser.scripting.executeScript({ target: { tabId }, func: pageHeight });
          if (typeof before?.result !== 'number' || typeof after?.result !== 'number' || after.result <= before.result) break;
          scrolled++;
        }
        // A redirect of the tab's load, or a script sending it elsewhere (both guarded), is another page than the
        // one the gate fetched: it is not read as this one. history.pushState loads no document and does not count.
        if (watch.mainDocument !== null && watch.mainDocument !== req.url) throw new Error(`the page sent its tab to ${watch.mainDocument}`);
        const [read] = await browser.scripting.executeScript({ target: { tabId }, func: serializeDom });
        if (typeof read?.result !== 'string') throw new Error('the rendered page could not be read');
        const url = (await browser.tabs.get(tabId)).url ?? req.url;
        return { kind: 'rendered', html: read.result, url, settled, scrolled, blocked: watch.blocked, durationMs: Date.now() - started };
      } catch (err) {
        const reason = watch?.detached ?? (err instanceof Error ? err.message : String(err));
        return { kind: 'failed', reason, blocked: watch?.blocked ?? [], durationMs: Date.now() - started };
      } finally {
        if (tabId !== undefined) {
          watches.delete(tabId);
          await browser.debugger.detach({ tabId }).catch(() => undefined);
          await browser.tabs.remove(tabId).catch(() => undefined);
          tabIds.delete(tabId);
          await save();
        }
        closeWhenIdle();
      }
    },
  };
}

/**
 * Waits until the page has loaded and both its network and its DOM have been quiet for `quietMs`, or the timeout;
 * true when it settled. `since`: what the page was just asked to do (a scroll) counts as activity, as the requests it
 * starts are told to the worker a moment later.
 */
async function settle(watch: TabWatch, req: RenderRequest, started: number, since = 0): Promise<boolean> {
  const deadline = started + req.timeoutMs;
  const sleep = () => new Promise((r) => setTimeout(r, POLL_MS));
  for (;;) {
    if (watch.detached) throw new Error(watch.detached);
    if (Date.now() >= deadline) return false;
    if (watch.loaded && watch.networkQuietMs >= req.quietMs && Date.now() - since >= req.quietMs) {
      const [dom] = await browser.scripting.executeScript({ target: { tabId: watch.tabId }, func: domQuietMs }).catch(() => []);
      if (typeof dom?.result === 'number' && dom.result >= req.quietMs) return true;
    }
    await sleep();
  }
}

/** Tabs and the window a stopped worker left behind, closed at the next start. */
async function closeOrphans(): Promise<void> {
  const got = (await browser.storage.session.get(OWNED_KEY).catch(() => ({}))) as Record<string, Owned | undefined>;
  const owned = got[OWNED_KEY];
  if (!owned) return;
  await Promise.all(owned.tabIds.map((id) => browser.tabs.remove(id).catch(() => undefined)));
  if (owned.windowId !== undefined) await browser.windows.remove(owned.windowId).catch(() => undefined);
  await browser.storage.session.remove(OWNED_KEY).catch(() => undefined);
}
