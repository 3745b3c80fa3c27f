// What the pages ask of the service worker or the browser. Browser-only.
import { browser } from 'wxt/browser';
import { sendMessage } from './messaging';
import type { CrawlRecord } from '../records/rows';

export type CrawlControl = 'pause' | 'resume' | 'stop';

/** Asks the worker to pause, resume or stop a crawl; resolves with the crawl row it answers. */
export const controlCrawl = (action: CrawlControl, crawlId: number): Promise<CrawlRecord> => sendMessage(action, { crawlId });

/** The dashboard's address, with the crawl to preselect. */
export const dashboardUrl = (crawlId?: number): string =>
  browser.runtime.getURL(crawlId === undefined ? '/dashboard.html' : `/dashboard.html?crawl=${crawlId}`);

/** Opens the dashboard in a new tab. */
export async function openDashboard(crawlId?: number): Promise<void> {
  await browser.tabs.create({ url: dashboardUrl(crawlId) });
}

/** True when this page is the toolbar popup (not the same file opened in a tab, as tests do). */
export function isToolbarPopup(): boolean {
  try {
    return browser.extension.getViews({ type: 'popup' }).includes(window);
  } catch {
    return false;
  }
}

/** Offers `parts` as a file download (extension pages can; the service worker cannot). */
export function downloadFile(parts: BlobPart[], fileName: string, type = 'application/x-ndjson'): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: the download reads the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}


/**
 * Firefox grants an MV3 extension's host access at install from version 127, before that only when the user allows
 * it, and the user may take it back; ask on "Start crawl" (a user gesture, which Firefox requires, so nothing may
 * be awaited before this call; granted already, it resolves at once without a prompt). Chrome grants it at install.
 */
export function requestHostAccess(): Promise<boolean> {
  if (!import.meta.env.FIREFOX) return Promise.resolve(true);
  return browser.permissions.request({ origins: ['<all_urls>'] });
}

/**
 * What a crawl needs of the browser, asked on "Start crawl" (a user gesture, which both browsers require of a
 * permission request: nothing may be awaited before this call). Firefox: the host access (see requestHostAccess).
 * Chrome: the debugger, an optional permission that guards a rendering tab's requests, only when the crawl may render
 * pages (`fetch.render` other than `never`). A refused debugger does not refuse the crawl: pages are read as the
 * server sends them, and each row that would have been rendered says why. Resolves with the host access.
 */
export function requestCrawlAccess(render: string | undefined): Promise<boolean> {
  if (import.meta.env.FIREFOX) return requestHostAccess();
  if (render === 'never') return Promise.resolve(true);
  return browser.permissions.request({ permissions: ['debugger'] }).then(() => true, () => true);
}
