// The runner's view of a browser with Focus loaded: send a protocol message, open one of the extension's pages,
// close. Chromium through playwright-core (browser.ts), Firefox through puppeteer-core over WebDriver BiDi (firefox.ts).
import { ensureBuilt, launchWithExtension, send, type Launched, type LaunchOptions } from './browser';
import { launchFirefoxWithExtension, type ExtensionTab, type FirefoxLaunched } from './firefox';

export const BROWSERS = ['chromium', 'firefox'] as const;
export type BrowserName = (typeof BROWSERS)[number];
export const isBrowserName = (s: string): s is BrowserName => (BROWSERS as readonly string[]).includes(s);

export interface ExtensionPage {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

export interface ExtensionSession {
  browserName: BrowserName;
  extensionId: string;
  /** Sends one protocol message from an extension page; throws the background's error sentence. */
  send<T = unknown>(type: string, data: unknown): Promise<T>;
  /** Opens an extension page (e.g. "dashboard.html?crawl=1") in a new tab. */
  openExtensionPage(path: string): Promise<ExtensionPage>;
  /** The Chromium launch, for callers that reach into it (the service worker, DevTools); absent in Firefox. */
  chromium?: Launched;
  /** The Firefox launch (its puppeteer Browser opens web tabs); absent in Chromium. */
  firefox?: FirefoxLaunched;
  profileDir: string;
  close(): Promise<void>;
}

/** Builds the extension for the browser if its build is stale, then launches the browser with it. */
export async function openSession(name: BrowserName, opts: LaunchOptions, log?: (s: string) => void): Promise<ExtensionSession> {
  ensureBuilt(log, name);
  if (name === 'firefox') {
    const ff = await launchFirefoxWithExtension(opts);
    return {
      browserName: name, extensionId: ff.extensionId, profileDir: ff.profileDir, firefox: ff,
      send: (type, data) => sendFrom(ff.tab, type, data),
      openExtensionPage: (path) => ff.openExtensionPage(path),
      close: () => ff.close(),
    };
  }
  const launched = await launchWithExtension(opts);
  return {
    browserName: name, extensionId: launched.extensionId, profileDir: launched.profileDir, chromium: launched,
    send: (type, data) => send(launched.page, type, data),
    openExtensionPage: async (path) => {
      const page = await launched.context.newPage();
      await page.goto(`chrome-extension://${launched.extensionId}/${path.replace(/^\//, '')}`);
      // Arguments cross as JSON in both browsers; Playwright's types say so with Unboxed<A>, which this face leaves out.
      const evaluate = <R, A>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg);
      return { evaluate, close: () => page.close() };
    },
    close: () => launched.close(),
  };
}

type Reply<T> = { ok: boolean; result?: T; error?: string } | undefined;

async function sendFrom<T>(tab: ExtensionTab, type: string, data: unknown): Promise<T> {
  const reply = await tab.evaluate(
    ([type, data]) => (globalThis as unknown as { browser: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).browser.runtime.sendMessage({ type, data }) as Promise<Reply<T>>,
    [type, data] as const,
  );
  if (!reply) throw new Error('the Focus background did not answer');
  if (!reply.ok) throw new Error(reply.error);
  return reply.result as T;
}

/** Polls an extension page until `ready` holds there. */
export async function waitInPage(page: ExtensionPage, ready: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(ready, null))) {
    if (Date.now() > deadline) throw new Error('the extension page did not get ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}
