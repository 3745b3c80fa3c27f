// Launches Debian's (or the user's) Chromium with the built Focus extension, through playwright-core.
// Firefox has its own launcher beside this one (firefox.ts); session.ts gives the runner one face for both.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/**
 * The runner's Chromium build (`wxt build --mode runner`): as the one users load, but with the debugger asked for at
 * install rather than when a crawl starts (wxt.config.ts), as its browser is the runner's own and no one answers a prompt.
 * FOCUS_EXTENSION_DIR names another build's (a benchmark run side by side with an older tree's).
 */
export const EXTENSION_DIR = process.env.FOCUS_EXTENSION_DIR || join(ROOT, '.output', 'chrome-mv3-runner');
/** The build users load (`npm run build`). */
export const USER_EXTENSION_DIR = join(ROOT, '.output', 'chrome-mv3');

// Playwright watches a service worker's requests through DevTools unless told not to: each of the crawl's fetches sent
// its events through the browser's main thread to this process, which handled them beside the site's server. A user's
// browser has no DevTools attached, and nothing here reads those events (a benchmark that wants the worker's requests
// attaches a session of its own), so they are off. FOCUS_WATCH_WORKER_NETWORK=1 leaves them on, to measure what they
// cost (docs/benchmarks.md).
if (process.env.FOCUS_WATCH_WORKER_NETWORK !== '1') process.env.PLAYWRIGHT_DISABLE_SERVICE_WORKER_NETWORK ??= '1';

export function chromePath(): string {
  const path = process.env.CHROME_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(`no Chromium at ${path}: install it (Debian: apt-get install chromium) or set CHROME_PATH`);
  }
  return path;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds the extension for Chromium (or Firefox) when its build is missing or older than its sources. */
export function ensureBuilt(log: (s: string) => void = () => {}, target: 'chromium' | 'firefox' | 'chromium-user' = 'chromium'): string {
  const dir = target === 'firefox' ? join(ROOT, '.output', 'firefox-mv3') : target === 'chromium' ? EXTENSION_DIR : USER_EXTENSION_DIR;
  const manifest = join(dir, 'manifest.json');
  const sources = Math.max(...['entrypoints', 'lib', 'public'].map((d) => newestMtime(join(ROOT, d))), statSync(join(ROOT, 'wxt.config.ts')).mtimeMs);
  if (!existsSync(manifest) || statSync(manifest).mtimeMs < sources) {
    const args = target === 'firefox' ? ['build', '-b', 'firefox', '--mv3'] : target === 'chromium' ? ['build', '--mode', 'runner'] : ['build'];
    log(`building the extension (wxt ${args.join(' ')})...`);
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'wxt', 'bin', 'wxt.mjs'), ...args], { cwd: ROOT, stdio: 'pipe' });
  }
  return dir;
}

export interface LaunchOptions {
  profileDir?: string;
  headed?: boolean;
  /** Chromium --host-resolver-rules, e.g. "MAP *.test 127.0.0.1:8080". */
  hostRules?: string;
  extensionDir?: string;
  /** More Chromium flags (a benchmark's V8 settings, e.g. `--js-flags=...`). */
  args?: string[];
}

export interface Launched {
  context: BrowserContext;
  extensionId: string;
  worker: Worker;
  /** An extension-origin page (no UI) to speak the message protocol from. */
  page: Page;
  profileDir: string;
  close(): Promise<void>;
}

export async function launchWithExtension(opts: LaunchOptions = {}): Promise<Launched> {
  const ext = opts.extensionDir ?? EXTENSION_DIR;
  const profileDir = opts.profileDir ?? mkdtempSync(join(tmpdir(), 'focus-profile-'));
  const args = [
    `--disable-extensions-except=${ext}`,
    `--load-extension=${ext}`,
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-default-apps',
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  if (opts.hostRules) args.push(`--host-resolver-rules=${opts.hostRules}`);
  if (opts.args) args.push(...opts.args);
  // More flags for every browser a benchmark launches, space-separated (a trace: crawl-speed.ts --trace-out).
  if (process.env.FOCUS_CHROME_ARGS) args.push(...process.env.FOCUS_CHROME_ARGS.split(' ').filter(Boolean));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromePath(),
    headless: !opts.headed,
    args,
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  // The protocol is spoken from an extension resource that runs no UI: the popup's live queries would
  // re-read the crawl on every change and slow the crawl it watches.
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/manifest.json`);
  return { context, extensionId, worker, page, profileDir, close: () => context.close() };
}

/** Sends one protocol message from an extension page; throws the worker's error sentence. */
export async function send<T = unknown>(page: Page, type: string, data: unknown): Promise<T> {
  const reply = (await page.evaluate(
    ([type, data]) => (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime.sendMessage({ type, data }),
    [type, data] as const,
  )) as { ok: boolean; result?: T; error?: string } | undefined;
  if (!reply) throw new Error('the Focus service worker did not answer');
  if (!reply.ok) throw new Error(reply.error);
  return reply.result as T;
}

/** The extension service worker's used JS heap in bytes (DevTools protocol), or null when none is running. */
export async function workerHeapUsed(launched: Launched): Promise<number | null> {
  const cdp = await launched.context.newCDPSession(launched.page);
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.includes(launched.extensionId));
    if (!sw) return null;
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false })) as { sessionId: string };
    const reply = new Promise<number>((resolve) =>
      cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
        const m = JSON.parse(e.message) as { id?: number; result?: { usedSize: number } };
        if (m.id === 1 && m.result) resolve(m.result.usedSize);
      }),
    );
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method: 'Runtime.getHeapUsage' }) });
    const used = await Promise.race([reply, new Promise<null>((r) => setTimeout(() => r(null), 2000))]);
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {});
    return used;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** A benchmark's harness page: a bundled script served on loopback, opened in headless Chromium with a fresh profile. */
export interface HarnessPage {
  page: Page;
  context: BrowserContext;
  /** The browser profile; removed when the process exits (a benchmark may read its IndexedDB files after `close`). */
  profileDir: string;
  browserVersion: string;
  /** The loopback port the page is served from (its origin's IndexedDB directory is named by it). */
  port: number;
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

export async function openHarnessPage(script: string, title: string, log: (line: string) => void): Promise<HarnessPage> {
  const server = createServer((req, res) => {
    if (req.url === '/harness.js') res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><meta charset="utf-8"><title>${title}</title><script src="/harness.js"></script>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const profileDir = mkdtempSync(join(tmpdir(), `focus-${title}-`));
  process.on('exit', () => rmSync(profileDir, { recursive: true, force: true }));
  const args = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: chromePath(), headless: true, args });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => log(`page error: ${e.message}`));
  const port = (server.address() as AddressInfo).port;
  await page.goto(`http://127.0.0.1:${port}/`);
  const browserVersion = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
  return {
    page, context, profileDir, browserVersion, port,
    close: async () => {
      await context.close();
      server.close();
    },
  };
}
