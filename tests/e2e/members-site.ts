// A members-only site for the logged-in crawl test: pages need the session cookie set by logging in,
// and a "Log out" link would end that session if the crawler ever requested it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const TOPIC = ['Telescope maintenance for members', 'Members-only star party schedule', 'Astrophotography of galaxies', 'Planet observing log'];

export interface MembersSite {
  port: number;
  server: Server;
  /** Path -> whether each request carried the session cookie. */
  requests: { path: string; loggedIn: boolean }[];
  close(): Promise<void>;
}

export async function startMembersSite(): Promise<MembersSite> {
  const requests: MembersSite['requests'] = [];
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/members/">Members home</a> <a href="/logout">Log out</a></nav><h1>${title}</h1>${body}</body></html>`;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const loggedIn = /(?:^|;\s*)session=s3cret/.test(req.headers.cookie ?? '');
    requests.push({ path, loggedIn });
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path === '/login' && req.method === 'POST') {
      return send(303, '', { location: '/members/', 'set-cookie': 'session=s3cret; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax' });
    }
    if (path === '/login') return send(200, page('Sign in', '<form method="post" action="/login"><button id="login">Sign in</button></form>'));
    if (path === '/logout') return send(200, page('Signed out', '<p>You are signed out.</p>'), { 'set-cookie': 'session=; Path=/; Max-Age=0' });
    if (path === '/robots.txt') return send(404, '');
    if (!loggedIn) return send(302, '', { location: '/login' });
    if (path === '/members/') {
      const list = TOPIC.map((t, i) => `<li><a href="/members/astro-${i}">${t}</a></li>`).join('');
      return send(200, page('Members home', `<p>Welcome back to the astronomy society.</p><ul>${list}</ul>`));
    }
    const m = /^\/members\/astro-(\d)$/.exec(path);
    if (m && TOPIC[+m[1]]) {
      const next = (+m[1] + 1) % TOPIC.length;
      return send(200, page(TOPIC[+m[1]], `<p>Notes on astronomy, telescopes, planets and galaxies for society members.</p>
<p>Continue with <a href="/members/astro-${next}">${TOPIC[next]}</a>, or <a href="/account/delete">delete your account</a>.</p>`));
    }
    send(404, page('Not found', ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { port, server, requests, close: () => new Promise((r) => server.close(() => r())) };
}
