// A FetchPort for Node tests that reaches named hosts (club.test, ...) on one loopback server, as Chromium's
// --host-resolver-rules does: the request goes to 127.0.0.1:PORT with the URL's host in the Host header. It
// keeps a browser's cookie jar in miniature for one host: the session cookie and whatever the host sets, sent only
// with `credentials: 'include'`, and removed when an answer clears them. Like the extension's port, it tells the
// crawl which cookies a request carried and which its answer cleared (the `cookieTrace`).
import { request } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchPort, PortResponse } from '../../lib/net/fetcher';
import { clearedCookies } from '../../lib/net/session';

export function loopbackFetch(port: number, session?: { host: string; cookie: string }, latencyMs?: () => number): FetchPort {
  const jar = new Map<string, string>();
  if (session) {
    const eq = session.cookie.indexOf('=');
    jar.set(session.cookie.slice(0, eq), session.cookie.slice(eq + 1));
  }
  return (url, init) =>
    new Promise<PortResponse>((resolve, reject) => {
      const u = new URL(url);
      const headers: Record<string, string> = { host: u.host };
      // What the request asks with (the crawl's If-None-Match / If-Modified-Since), as a browser sends it.
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const withJar = session !== undefined && init.credentials === 'include' && u.hostname === session.host;
      const sent = withJar ? [...jar.keys()] : [];
      if (sent.length) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const go = () => {
        const req = request({ host: '127.0.0.1', port, path: u.pathname + u.search, method: 'GET', headers, signal: init.signal ?? undefined }, (res) => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          const setCookie = withJar ? res.headers['set-cookie'] ?? [] : [];
          const cleared = clearedCookies(setCookie, Date.now());
          for (const line of setCookie) {
            const pair = line.split(';')[0] ?? '';
            const eq = pair.indexOf('=');
            const name = pair.slice(0, eq).trim();
            if (eq <= 0) continue;
            if (cleared.includes(name)) jar.delete(name);
            else jar.set(name, pair.slice(eq + 1).trim());
          }
          const answer: PortResponse = new Response(body, { status, headers: h });
          if (init.credentials === 'include') answer.cookieTrace = { sent, cleared };
          resolve(answer);
        });
        req.on('error', (err) => reject(new TypeError('fetch failed', { cause: err })));
        req.end();
      };
      const wait = latencyMs?.() ?? 0;
      if (wait > 0) setTimeout(go, wait);
      else go();
    });
}
