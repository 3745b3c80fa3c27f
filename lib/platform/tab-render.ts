// The RenderPort in the browser: a page is loaded in a tab of a window the crawl makes for it (minimized, never focused,
// its tabs never active), with the user's cookies as any tab has them, and read once it settles.
//
// Why a tab and not an offscreen document: an offscreen document is an extension page; the only way it shows a site
// is in an iframe, where the site is third-party (SameSite cookies are not sent, so the user's session is missing),
// X-Frame-Options and frame-ancestors refuse it, and chrome.scripting cannot reach into it. A tab is the page as the
// user would open it.
//
// Every request the rendered page makes must pass the same gate as links, and be stopped before it leaves the
// browser: a TabGuard does that, with the debugger in Chrome (debugger-guard.ts) and blocking webRequest in Firefox
// (web-request-guard.ts). Firefox makes the render window as Chrome does.
//
// A worker that stops mid-render leaves its tabs behind: their ids live in chrome.storage.session (cleared when the
// browser closes, so an id can never name a user's tab of a later session), and the next start closes them.
import { browser } from 'wxt/browser';
import type { RenderPort, RenderRequest, RenderResult } from '../net/render';
import { LOAD_MORE_TEXT } from '../parse/script-shell';
import type { GrowthStop } from '../records/types';
import { domQuietMs, pageSize, pressLoadMore, scrollToEnd, serializeDom } from './serialize-dom';
import { TabWatch, type TabGuard } from './tab-watch';

const OWNED_KEY = 'focusRenderTabs';
/** The render window is closed when no page has rendered for this long. */
const WINDOW_IDLE_MS = 20_000;
/** How often the settle loop looks at the page. */
const POLL_MS = 200;

interface Owned {
  windowId?: number;
  tabIds: number[];
}

export function makeTabRender(guard: TabGuard): RenderPort {
  const watches = new Map<number, TabWatch>();
  let windowId: number | undefined;
  let making: Promise<number> | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const tabIds = new Set<number>();
  const save = () => browser.storage.session.set({ [OWNED_KEY]: { windowId, tabIds: [...tabIds] } satisfies Owned }).catch(() => undefined);

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
      // Read as the server sent it, and the row says why; no window is made for nothing.
      const missing = guard.unavailable();
      if (missing) return { kind: 'failed', reason: missing, blocked: [], durationMs: 0 };
      clearTimeout(idleTimer);
      let tabId: number | undefined;
      let watch: TabWatch | undefined;
      try {
        const tab = await browser.tabs.create({ windowId: await renderWindow(), url: 'about:blank', active: false });
        tabId = tab.id!;
        tabIds.add(tabId);
        await save();
        const w = new TabWatch(tabId, req);
        watch = w;
        watches.set(tabId, w);
        await guard.attach(w, req);
        await guard.navigate(w, req.url);
        const settled = await settle(w, req, started + req.timeoutMs);
        const settledAt = Date.now();
        const { scrolled, pressed, stopped } = settled ? await grow(w, req) : { scrolled: 0, pressed: 0 };
        const grownAt = Date.now();
        // A redirect of the tab's load, or a script sending it elsewhere (both guarded), is another page than the
        // one the gate fetched: it is not read as this one. history.pushState loads no document and does not count.
        if (watch.mainDocument !== null && watch.mainDocument !== req.url) throw new Error(`the page sent its tab to ${watch.mainDocument}`);
        const [read] = await browser.scripting.executeScript({ target: { tabId }, func: serializeDom });
        if (typeof read?.result !== 'string') throw new Error('the rendered page could not be read');
        const url = (await browser.tabs.get(tabId)).url ?? req.url;
        const resources = await watch.captured();
        const [loadedAt, end] = [Math.min(watch.loadTime ?? settledAt, settledAt), Date.now()];
        const phases = { load: loadedAt - started, settle: settledAt - loadedAt, grow: grownAt - settledAt, read: end - grownAt };
        return {
          kind: 'rendered', html: read.result, url, settled, scrolled, pressed, ...(stopped ? { stopped } : {}), blocked: watch.blocked,
          durationMs: end - started, phases,
          ...(resources.length ? { resources } : {}),
        };
      } catch (err) {
        const reason = watch?.detached ?? (err instanceof Error ? err.message : String(err));
        return { kind: 'failed', reason, blocked: watch?.blocked ?? [], durationMs: Date.now() - started };
      } finally {
        if (tabId !== undefined) {
          watches.delete(tabId);
          if (watch) await guard.detach(watch).catch(() => undefined);
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
 * A settled page that grows, read to its end: an endless feed scrolled to its end, or a list whose "load more" is
 * pressed when scrolling brings nothing, while each step makes it grow (a step that adds nothing ends it), within the
 * request's caps: steps of each kind, time from now, links on the page. Returns the steps that made it grow and, when
 * any did, what stopped it.
 */
async function grow(watch: TabWatch, req: RenderRequest): Promise<{ scrolled: number; pressed: number; stopped?: GrowthStop }> {
  const target = { tabId: watch.tabId };
  const until = Date.now() + req.growMs;
  const measure = async () => (await browser.scripting.executeScript({ target, func: pageSize }))[0]?.result as [number, number] | undefined;
  /** One step: true when the page grew. A step still busy at the time cap is read as it is then. */
  const step = async (act: 'scroll' | 'press'): Promise<boolean> => {
    const before = await measure();
    const [acted] = act === 'scroll'
      ? await browser.scripting.executeScript({ target, func: scrollToEnd })
      : await browser.scripting.executeScript({ target, func: pressLoadMore, args: [LOAD_MORE_TEXT.source] });
    if (typeof acted?.result !== 'number' || acted.result === -1) return false; // nothing to scroll or press
    await settle(watch, req, until, Date.now());
    const after = await measure();
    return before !== undefined && after !== undefined && after[0] > before[0];
  };
  let scrolled = 0;
  let pressed = 0;
  const grown = (stopped: GrowthStop) => ({ scrolled, pressed, ...(scrolled + pressed > 0 ? { stopped } : {}) });
  for (;;) {
    if (((await measure())?.[1] ?? 0) >= req.growLinks) return grown('links');
    if (Date.now() >= until) return grown('time');
    const canScroll = scrolled < req.scrolls;
    const canPress = pressed < req.clicks;
    if (!canScroll && !canPress) return grown('steps');
    if (canScroll && (await step('scroll'))) scrolled++;
    else if (canPress && (await step('press'))) pressed++;
    // Neither grew it: its end, unless a kind of step that had made it grow was spent (it might have grown again).
    else return grown((!canScroll && scrolled > 0) || (!canPress && pressed > 0) ? 'steps' : 'end');
  }
}

/**
 * Waits until the page has loaded and both its network and its DOM have been quiet for `quietMs`, or the deadline;
 * true when it settled. `since`: what the page was just asked to do (a scroll) counts as activity, as the requests it
 * starts are told to the worker a moment later.
 */
async function settle(watch: TabWatch, req: RenderRequest, deadline: number, since = 0): Promise<boolean> {
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
