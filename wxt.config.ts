import { defineConfig } from 'wxt';
import { lazyLinkedomEvents } from './scripts/build/linkedom-events';

/** The build the command-line runner and the end-to-end tests load into Chromium (scripts/lib/browser.ts). */
const RUNNER_MODE = 'runner';

// Manifest and build settings. Permissions are explained in docs/security.md ("Permissions").
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // Parsing a page makes no listener map for each of its nodes (lib/parse/event-target.ts).
  vite: () => ({ plugins: [lazyLinkedomEvents()] }),
  manifest: ({ browser, mode }) => ({
    name: 'Focus: topical crawler',
    description: 'Crawls the web for one topic from your own browser, guided by a link classifier you train.',
    // No `storage` for data: everything lives in IndexedDB. `activeTab` only in Firefox, where host access is not granted
    // at install and the labeler may be switched on before the user allows it; in Chrome <all_urls> covers it.
    // `declarativeNetRequestWithHostAccess`: one session rule names the crawl in the User-Agent of the extension's
    // own requests (lib/platform/crawl-identity.ts); it acts only where host access is granted, and adds no warning.
    // A page rendered in a tab (`fetch.render`) has each of its requests guarded: by `debugger` in Chrome, by
    // `webRequestBlocking` in Firefox (lib/platform/tab-render.ts); `storage` keeps that tab's id for the session,
    // so a restarted worker closes it. Chrome's `debugger` is optional, asked for when a crawl that may render is
    // started from the dashboard, except in the command-line runner's build (`wxt build --mode runner`): the runner
    // loads it into a browser of its own, where there is no one to answer a prompt.
    permissions: [
      'unlimitedStorage', 'alarms', 'scripting', 'contextMenus', 'webRequest', 'declarativeNetRequestWithHostAccess', 'storage',
      ...(browser === 'firefox' ? ['activeTab', 'webRequestBlocking'] : ['cookies', ...(mode === RUNNER_MODE ? ['debugger'] : [])]),
    ],
    ...(browser !== 'firefox' && mode !== RUNNER_MODE ? { optional_permissions: ['debugger'] } : {}),
    host_permissions: ['<all_urls>'],
    // 'wasm-unsafe-eval' lets the extension's pages compile the WebAssembly it ships (hash-wasm's SHA-256, which
    // warcio and the WACZ writer use while exporting); scripts still come only from the extension itself.
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
    commands: {
      'toggle-labeler': {
        suggested_key: { default: 'Alt+Shift+L' },
        description: 'Label links on this page (switch the on-page labeler on or off)',
      },
    },
    ...(browser === 'firefox'
      ? { browser_specific_settings: { gecko: { id: 'focus-crawler@example.org', strict_min_version: '115.0' } } }
      : {}),
  }),
});
