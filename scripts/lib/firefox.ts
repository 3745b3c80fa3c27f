// Launches a system Firefox (Debian's firefox-esr, or FIREFOX_PATH) with the built Focus extension, through
// puppeteer-core over WebDriver BiDi. Playwright's Firefox is a patched build of its own; BiDi drives the stock one.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { ROOT } from './browser';

export const FIREFOX_EXTENSION_DIR = join(ROOT, '.output', 'firefox-mv3');
/** The add-on id the Firefox build declares (browser_specific_settings.gecko.id in wxt.config.ts). */
export const FIREFOX_ADDON_ID = 'focus-crawler@example.org';
/**
 * The extension's internal UUID (its moz-extension:// host) in profiles this launcher makes. Firefox draws one at
 * random on first install and keeps it in the `extensions.webextensions.uuids` preference; naming it beforehand
 * tells the runner where the extension's pages are, and keeps the same origin, so the same IndexedDB, in a
 * profile used again with --profile.
 */
export const FIREFOX_EXTENSION_UUID = 'f0c05f0c-0c05-4f0c-8c05-f0c05f0c05f0';

export function firefoxPath(): string {
  const path = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
  if (!existsSync(path)) {
    throw new Error(`no Firefox at ${path}: install it (Debian: apt-get install firefox-esr) or set FIREFOX_PATH`);
  }
  return path;
}

/** True when a Firefox binary is installed where firefoxPath() looks. */
export function hasFirefox(): boolean {
  return existsSync(process.env.FIREFOX_PATH || '/usr/bin/firefox-esr');
}

/**
 * Chromium's --host-resolver-rules ("MAP *.test 127.0.0.1:8080, MAP other.example 127.0.0.1:9090") as a PAC
 * script: Firefox has no host resolver rules, so matching hosts go to the mapped address as to an HTTP proxy,
 * and everything else goes direct. The server then sees the absolute URL in the request line and the name in Host.
 */
export function pacFromHostRules(rules: string): string {
  const maps = rules.split(',').map((r) => r.trim()).filter(Boolean).map((rule) => {
    const m = /^MAP\s+(\S+)\s+(\S+:\d+)$/i.exec(rule);
    if (!m) throw new Error(`host rule "${rule}": only "MAP <host pattern> <address>:<port>" is understood in Firefox`);
    return `if (shExpMatch(host, ${JSON.stringify(m[1])})) return ${JSON.stringify(`PROXY ${m[2]}`)};`;
  });
  return `function FindProxyForURL(url, host) { ${maps.join(' ')} return "DIRECT"; }`;
}

export interface FirefoxLaunchOptions {
  profileDir?: string;
  headed?: boolean;
  /** As Chromium's --host-resolver-rules: "MAP *.test 127.0.0.1:8080" (turned into a PAC script). */
  hostRules?: string;
  extensionDir?: string;
  /** More Firefox preferences (tests shorten the background's idle timeout with them). */
  prefs?: Record<string, unknown>;
}

/** An extension page (moz-extension://) open in a tab. */
export interface ExtensionTab {
  page: Page;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

export interface FirefoxLaunched {
  browser: Browser;
  /** The extension's moz-extension:// host. */
  extensionId: string;
  /** An extension-origin page (no UI) to speak the message protocol from. */
  tab: ExtensionTab;
  profileDir: string;
  openExtensionPage(path: string): Promise<ExtensionTab>;
  close(): Promise<void>;
}

export async function launchFirefoxWithExtension(opts: FirefoxLaunchOptions = {}): Promise<FirefoxLaunched> {
  const profileDir = opts.profileDir ?? mkdtempSync(join(tmpdir(), 'focus-firefox-'));
  const prefs: Record<string, unknown> = {
    'extensions.webextensions.uuids': JSON.stringify({ [FIREFOX_ADDON_ID]: FIREFOX_EXTENSION_UUID }),
    // A temporary add-on is uninstalled when Firefox quits, which would drop its UUID and its IndexedDB: a profile
    // used again would start empty. These keep both, as a permanent install would.
    'extensions.webextensions.keepUuidOnUninstall': true,
    'extensions.webextensions.keepStorageOnUninstall': true,
    // manifest.json as plain text rather than in the JSON viewer's page.
    'devtools.jsonview.enabled': false,
    ...opts.prefs,
  };
  if (opts.hostRules) {
    prefs['network.proxy.type'] = 2;
    prefs['network.proxy.autoconfig_url'] = `data:application/x-ns-proxy-autoconfig,${encodeURIComponent(pacFromHostRules(opts.hostRules))}`;
  }
  const firefox = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: !opts.headed,
    userDataDir: profileDir,
    extraPrefsFirefox: prefs,
    // WebDriver BiDi refuses to navigate a tab to a moz-extension:// page unless the browser was started with this.
    args: ['--remote-allow-system-access'],
  });
  try {
    // A temporary add-on, as about:debugging loads one: unsigned builds install no other way in release Firefox.
    const id = await firefox.installExtension(opts.extensionDir ?? FIREFOX_EXTENSION_DIR);
    if (id !== FIREFOX_ADDON_ID) throw new Error(`Firefox installed the add-on as ${id}, not ${FIREFOX_ADDON_ID}`);
    const openExtensionPage = (path: string) => openTab(firefox, `moz-extension://${FIREFOX_EXTENSION_UUID}/${path.replace(/^\//, '')}`);
    const tab = await openExtensionPage('manifest.json');
    // Firefox 127 and later grant an MV3 extension's host_permissions at install, as Chrome does; an older
    // Firefox, or a user who revoked the access, leaves the extension unable to fetch. Say so now.
    const granted = await tab.evaluate(() => (globalThis as unknown as ExtensionGlobal).browser.permissions.contains({ origins: ['<all_urls>'] }), null);
    if (!granted) throw new Error('Firefox did not grant Focus access to all sites (<all_urls>): Firefox 127 or later grants it at install');
    return {
      browser: firefox, extensionId: FIREFOX_EXTENSION_UUID, tab, profileDir, openExtensionPage,
      close: () => firefox.close(),
    };
  } catch (err) {
    await firefox.close();
    throw err;
  }
}

type ExtensionGlobal = { browser: { permissions: { contains(p: { origins: string[] }): Promise<boolean> } } };

/**
 * Opens a moz-extension:// page in a new tab. Firefox's BiDi reports no load for these pages, so puppeteer's goto
 * would wait out its timeout: the navigation is started, and the tab is watched until the page has loaded.
 */
async function openTab(browser: Browser, url: string): Promise<ExtensionTab> {
  const page = await browser.newPage();
  // goto's own promise only times out here (no load is reported); the loop below decides.
  void page.goto(url, { timeout: 15_000 }).catch(() => undefined);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const at = await page.evaluate(() => (document.readyState === 'complete' ? location.href : '')).catch(() => '');
    if (at.startsWith(url.split('?')[0])) break;
    if (Date.now() > deadline) throw new Error(`Firefox did not open ${url}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    page,
    evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg) as Promise<R>,
    close: () => page.close(),
  };
}
