// The service worker of crawl-floor.ts's extension: the least a crawler in the browser does for a page, in one of three
// forms, breadth-first from a seed over one site with `concurrency` requests in flight (as Crawlee's CheerioCrawler
// crawls it). Focus's own request options, decoder and parser, nothing of its judging, learning or bookkeeping:
//   parse    fetch, decode and parse each page (links and their contexts); the queue in memory only;
//   keep     and store what was fetched: the body's bytes and a row of the page, one transaction a page;
//   persist  and the queue too, in the same transaction: each new link a row, the page's own row marked done (what a
//            crawl must write to pick up where it was after its worker is stopped).
import { decodeHtml } from '../../lib/net/decode';
import { parseHtml } from '../../lib/parse/html';

export type FloorMode = 'parse' | 'keep' | 'persist';
/**
 * webRequest listeners on the worker's own requests while it crawls, as Focus's fetch port may register them: none;
 * `redirects` (onBeforeRedirect, onErrorOccurred: events only for redirects and errors); `headers` (onHeadersReceived
 * with the response's headers, onErrorOccurred); `cookies` (also onSendHeaders, both with Chrome's 'extraHeaders',
 * which show Cookie and Set-Cookie).
 */
export type FloorListeners = 'none' | 'redirects' | 'headers' | 'cookies';

declare const chrome: {
  webRequest: Record<string, { addListener(f: (d: unknown) => void, filter: unknown, extra?: string[]): void; removeListener(f: (d: unknown) => void): void }>;
};

const OWN = { urls: ['<all_urls>'], tabId: -1 };

function listenTo(kind: FloorListeners): () => void {
  let events = 0;
  const count = () => void events++;
  const on: [string, string[] | undefined][] =
    kind === 'redirects' ? [['onBeforeRedirect', undefined], ['onErrorOccurred', undefined]]
    : kind === 'headers' ? [['onHeadersReceived', ['responseHeaders']], ['onErrorOccurred', undefined]]
    : kind === 'cookies' ? [['onSendHeaders', ['requestHeaders', 'extraHeaders']], ['onHeadersReceived', ['responseHeaders', 'extraHeaders']], ['onErrorOccurred', undefined]]
    : [];
  for (const [event, extra] of on) chrome.webRequest[event]!.addListener(count, OWN, extra);
  return () => {
    for (const [event] of on) chrome.webRequest[event]!.removeListener(count);
  };
}

export interface FloorRun {
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  failed: number;
}

function openDb(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const db = open.result;
      db.createObjectStore('pages', { keyPath: 'seq' });
      db.createObjectStore('bodies', { keyPath: 'seq' });
      db.createObjectStore('queue', { keyPath: 'url' });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

async function floorCrawl(o: { seed: string; budget: number; concurrency: number; mode: FloorMode; db: string; listeners?: FloorListeners }): Promise<FloorRun> {
  const stop = listenTo(o.listeners ?? 'none');
  const db = o.mode === 'parse' ? null : await openDb(o.db);
  const origin = new URL(o.seed).origin;
  const seen = new Set([o.seed]);
  const queue = [o.seed];
  let next = 0, started = 0, inFlight = 0, pages = 0, failed = 0;
  let wake: (() => void)[] = [];
  const t0 = performance.now();
  const one = async (url: string, seq: number) => {
    const res = await fetch(url, { credentials: 'include', redirect: 'manual', cache: 'no-store' });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (!res.ok) {
      failed++;
      return;
    }
    const { text } = decodeHtml(bytes, res.headers.get('content-type'));
    const parsed = parseHtml(text, res.url || url);
    const found: string[] = [];
    for (const link of parsed.links) {
      const u = new URL(link.url);
      u.hash = '';
      const href = u.href;
      if (u.origin !== origin || seen.has(href)) continue;
      seen.add(href);
      found.push(href);
    }
    if (db) {
      const stores = o.mode === 'persist' ? ['pages', 'bodies', 'queue'] : ['pages', 'bodies'];
      const tx = db.transaction(stores, 'readwrite');
      tx.objectStore('pages').put({ seq, url, status: res.status, title: parsed.title, links: parsed.links.length, bytes: bytes.byteLength, at: Date.now() });
      tx.objectStore('bodies').put({ seq, payload: bytes, charset: 'utf-8', headers: { 'content-type': res.headers.get('content-type') ?? '' } });
      if (o.mode === 'persist') {
        const q = tx.objectStore('queue');
        q.put({ url, state: 'done', seq });
        for (const href of found) q.put({ url: href, state: 'queued', parent: url, at: Date.now() });
      }
      await done(tx);
    }
    queue.push(...found);
    pages++;
  };
  const worker = async () => {
    for (;;) {
      if (started >= o.budget) return;
      if (next >= queue.length) {
        if (inFlight === 0) return;
        await new Promise<void>((r) => wake.push(r));
        continue;
      }
      const url = queue[next++]!;
      const seq = started++;
      inFlight++;
      try {
        await one(url, seq);
      } catch {
        failed++;
      } finally {
        inFlight--;
        const w = wake;
        wake = [];
        for (const r of w) r();
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  db?.close();
  stop();
  return { pages, seconds, pagesPerSecond: pages / seconds, failed };
}

(globalThis as unknown as { floorCrawl: typeof floorCrawl }).floorCrawl = floorCrawl;
