// The webRequest API as the extension's fetch observes it (extension-fetch.ts): its three events, which of the
// requests they report are the worker's own, and whether Chrome's 'extraHeaders' is needed to see cookies.
import { browser } from 'wxt/browser';

export type RequestFilter = { urls: string[]; tabId: number };
export type Listener = (d: never) => void;
export type WebRequestEvent = { addListener(l: Listener, filter: RequestFilter, extra?: string[]): void; removeListener(l: Listener): void };

type Details<E extends { addListener: (l: never, ...rest: never[]) => void }> = Parameters<Parameters<E['addListener']>[0]>[0];
export type SendHeadersDetails = Details<typeof browser.webRequest.onSendHeaders>;
export type HeadersDetails = Details<typeof browser.webRequest.onHeadersReceived>;
export type ErrorDetails = Details<typeof browser.webRequest.onErrorOccurred>;

/**
 * The requests the listeners are told of: those of no tab (the worker's own, and other extensions' background
 * requests, which `mine` then leaves out). The browser filters them, so while a crawl runs the requests of the user's
 * tabs are not sent to the worker. (A filter does not keep a stopped worker asleep; the listeners being off does.)
 */
export const OWN_REQUESTS: RequestFilter = { urls: ['<all_urls>'], tabId: -1 };

type HeaderList = { name: string; value?: string }[] | undefined;
export const headerValues = (headers: HeaderList, name: string) =>
  (headers ?? []).filter((h) => h.name.toLowerCase() === name).map((h) => h.value ?? '');

export interface OwnRequests {
  readonly events: Record<'onSendHeaders' | 'onHeadersReceived' | 'onErrorOccurred', WebRequestEvent>;
  /** Whether a reported request is the worker's own: of no tab, and started by this extension. */
  mine(d: { tabId: number }): boolean;
  /** Chrome: cookies are seen only with 'extraHeaders', so they are observed where they may be sent. Firefox: everywhere. */
  readonly cookiesNeedExtra: boolean;
}

export function ownRequests(): OwnRequests {
  const ownOrigin = new URL(browser.runtime.getURL('/')).origin;
  const extraHeaders = (kind: 'OnSendHeadersOptions' | 'OnHeadersReceivedOptions') => {
    const options = (browser.webRequest as unknown as Record<string, Record<string, string> | undefined>)[kind];
    return options && Object.values(options).includes('extraHeaders');
  };
  return {
    events: browser.webRequest as unknown as OwnRequests['events'],
    mine: (d) => {
      if (d.tabId !== -1) return false; // a page's request, not the worker's
      const from = (d as { initiator?: string; originUrl?: string }).initiator ?? (d as { originUrl?: string }).originUrl ?? '';
      return !from || from.startsWith(ownOrigin);
    },
    cookiesNeedExtra: !!(extraHeaders('OnSendHeadersOptions') && extraHeaders('OnHeadersReceivedOptions')),
  };
}

/**
 * The browser registers a filtered listener through a call of the extension API, which answers this worker's calls
 * in order: once the next call is answered, a request made is seen.
 */
export const registered = () => browser.runtime.getPlatformInfo().then(() => undefined, () => undefined);
