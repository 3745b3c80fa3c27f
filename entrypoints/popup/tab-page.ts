// The tab "Crawl this site" is about, and what its page shows: its address, language, title, headings and links,
// read in the tab itself (what the user sees, logged in or not) by an injected function (lib/ui/page-outline.ts).
import { browser } from 'wxt/browser';
import { isToolbarPopup } from '@/lib/platform/actions';
import type { TabPage } from '@/lib/ui/site-start';
import { pageOutline, type PageOutline } from '@/lib/ui/page-outline';

export type TabTarget = { tabId: number; url: string | undefined; title: string } | { problem: string };

/**
 * The toolbar popup's tab is the active one of its window. Opened in a tab of its own (`popup.html?tab=ID`, as
 * the tests do), the popup is about the tab named; with no tab named there is no page to crawl from.
 */
export async function targetTab(search = location.search): Promise<TabTarget> {
  const named = Number(new URLSearchParams(search).get('tab'));
  let tab: { id?: number; url?: string; title?: string } | undefined;
  if (Number.isInteger(named) && named > 0) tab = await browser.tabs.get(named).catch(() => undefined);
  else if (isToolbarPopup()) [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  else return { problem: 'Open this from the Focus toolbar button while the site you want to crawl is showing.' };
  if (tab?.id === undefined) return { problem: 'There is no page in this window to crawl from.' };
  // Without the `tabs` permission the address shows only where Focus has host access: web pages, not the browser's own.
  return { tabId: tab.id, url: tab.url, title: tab.title ?? '' };
}

/** The page's outline as the tab shows it (lib/ui/page-outline.ts); the tab's title alone where no script may run. */
export async function readTabPage(tabId: number, url: string, title: string): Promise<TabPage> {
  try {
    const [injection] = await browser.scripting.executeScript({ target: { tabId }, func: pageOutline });
    const outline = injection?.result as PageOutline | undefined;
    if (outline) return { ...outline, url, title: outline.title || title };
  } catch {
    // A page the browser keeps scripts from (the web store, a PDF viewer): its title still says something.
  }
  return { url, title, lang: '', headings: [], links: [] };
}
