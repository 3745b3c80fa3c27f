// A FetchPort for Node tests that reaches named hosts (club.test, ...) on one loopback server, as Chromium's
// --host-resolver-rules does: the request goes to 127.0.0.1:PORT with the URL's host in the Host header. It
// keeps a browser's cookie jar in miniature: one session cookie, sent only with `credentials: 'include'`.
import { request } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchPort } from '../../lib/fetch/fetcher';

export function loopbackFetch(port: number, session?: { host: string; cookie: string }, latencyMs?: () => number): FetchPort {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const u = new URL(url);
      const headers: Record<string, string> = { host: u.host };
      if (session && init.credentials === 'include' && u.hostname === session.host) headers.cookie = session.cookie;
      const go = () => {
        const req = request({ host: '127.0.0.1', port, path: u.pathname + u.search, method: 'GET', headers, signal: init.signal ?? undefined }, (res) => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, headers: h }));
        });
        req.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
        req.end();
      };
      const wait = latencyMs?.() ?? 0;
      if (wait > 0) setTimeout(go, wait);
      else go();
    });
}
