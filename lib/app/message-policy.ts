// Who may ask the service worker what. `runtime.onMessage` hears the extension's own pages and its content
// scripts, and a content script runs inside a web page the page's own scripts may attack; so the sender's
// URL, not its tab (the dashboard is a tab too), says whether a request comes from one of our pages.
import { CONTENT_SCRIPT_MESSAGES, type MessageType } from './protocol';

/** What the browser says about a message's sender (the parts of `runtime.MessageSender` that matter here). */
export interface MessageSender {
  id?: string;
  url?: string;
}

/** This extension: its id and the URL of its root, `runtime.getURL('/')` ("chrome-extension://<id>/"). */
export interface ExtensionIdentity {
  id: string;
  rootUrl: string;
}

const FROM_PAGES = new Set<string>(CONTENT_SCRIPT_MESSAGES);

/** Null when the request may be answered, else the sentence its sender gets back. */
export function refusal(type: MessageType, sender: MessageSender, self: ExtensionIdentity): string | null {
  if (!sender.id || sender.id !== self.id) return `Focus answers only its own pages and labeler, not ${sender.id ? `the extension ${sender.id}` : 'an unknown sender'}`;
  if (!sender.url) return `Focus does not answer "${type}" from a sender without an address`;
  if (isExtensionPage(sender.url, self.rootUrl)) return null;
  if (FROM_PAGES.has(type)) return null;
  return `Focus answers "${type}" only from its own pages, not from a web page (${originOf(sender.url)})`;
}

/** True for a URL under the extension's root. A prefix test, not a search: "https://x/chrome-extension://<id>/" is not one. */
function isExtensionPage(url: string, rootUrl: string): boolean {
  // The root ends with "/", so "chrome-extension://<id>x/" (another id that starts with ours) does not match.
  return rootUrl.endsWith('/') && url.startsWith(rootUrl);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an unreadable address';
  }
}
