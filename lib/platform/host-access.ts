// A crawl needs the browser's leave to read websites. Chrome grants an MV3 extension's host_permissions at install;
// Firefox does from version 127, and before that only when the user allows it. In both the user can take it back
// (Firefox: the Extensions menu or about:addons, Permissions; Chrome: "Site access" in chrome://extensions). Without
// it the background's requests are refused as cross-origin and webRequest sees none of them, so a crawl would
// only retry and wait: the background says so before it starts or resumes one.
import { browser } from 'wxt/browser';
import type { MessageType } from '../app/protocol';
import type { Handlers } from './messaging';

const ALL_SITES = { origins: ['<all_urls>'] };

export const NO_HOST_ACCESS = import.meta.env.FIREFOX
  ? 'Focus may not read websites: allow "Access your data for all websites" for Focus in Firefox\'s Extensions menu (or about:addons, Focus, Permissions), then try again'
  : 'Focus may not read websites: set its "Site access" to "On all sites" in chrome://extensions, then try again';

export async function assertHostAccess(): Promise<void> {
  if (!(await browser.permissions.contains(ALL_SITES))) throw new Error(NO_HOST_ACCESS);
}

/** Makes each named handler check the host access first, and refuse with NO_HOST_ACCESS without it. */
export function requireHostAccess(handlers: Handlers, names: MessageType[]): void {
  const all = handlers as unknown as Record<MessageType, (data: unknown) => unknown>;
  for (const name of names) {
    const handler = all[name];
    all[name] = async (data: unknown) => {
      await assertHostAccess();
      return handler(data);
    };
  }
}
