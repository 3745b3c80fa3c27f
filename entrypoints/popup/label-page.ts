// "Label links on this page": switches the on-page labeler on in the tab the popup was opened over.
import { browser } from 'wxt/browser';
import { sendMessage } from '@/lib/platform/messaging';
import { isToolbarPopup } from '@/lib/platform/actions';

export type LabelOutcome = { ok: true; message: string } | { ok: false; message: string };

/** Only web pages (and local files) can be labeled; the browser keeps its own pages from extensions. */
const LABELABLE = /^(https?|file):/i;

export async function labelActiveTab(): Promise<LabelOutcome> {
  // Opened as a tab (as the tests do), the popup is itself the active tab: there is no page to label.
  if (!isToolbarPopup()) {
    return { ok: false, message: 'Open this from the Focus toolbar button while the page whose links you want to label is showing.' };
  }
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  if (tab?.id === undefined) return { ok: false, message: 'There is no page in this window to label.' };
  // Without the `tabs` permission the URL shows only where Focus has host access (everywhere but the browser's pages).
  if (tab.url !== undefined && !LABELABLE.test(tab.url)) {
    return { ok: false, message: 'Focus can label links on web pages only, not on the browser’s own pages.' };
  }
  const { on } = await sendMessage('setLabeler', { tabId: tab.id, on: true });
  return on ? { ok: true, message: 'The labeler is on in this page.' } : { ok: false, message: 'The labeler did not start in this page.' };
}
