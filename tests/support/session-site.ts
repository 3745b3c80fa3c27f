// A logged-in shop whose sign-out link no word list can know: `/x7`, its anchor "✕". Requesting it answers with a
// Set-Cookie that expires the session, and the server forgets the session too, so every later request with the old
// cookie is sent to the login page, as real sites do. Also: a staff area that sends even a logged-in member to log in
// (an innocent redirect to login), and a page that clears a cookie the browser never had. The log says what was
// asked, in order, and whether the session cookie came along.
import { createServer } from 'node:http';
import { listenOnLoopback } from '../../scripts/lib/loopback';

export const SHOP_COOKIE = 'shop_sid=k3y';

export interface SessionSite {
  port: number;
  requests: { path: string; withSession: boolean }[];
  /** The session the server holds is still valid. */
  sessionValid(): boolean;
  /** The server forgets the session (it expired on its side), without telling the browser. */
  expire(): void;
  close(): Promise<void>;
}

const TOPIC = ['Telescopes on sale', 'Star charts', 'Planet globes', 'Binoculars for astronomy', 'Moon maps', 'Galaxy posters'];

export async function startSessionSite(): Promise<SessionSite> {
  const requests: SessionSite['requests'] = [];
  let valid = true;
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/">Shop</a> <a href="/x7" title="">✕</a> <a href="/staff">Staff</a> <a href="/promo">Offers</a></nav><h1>${title}</h1>${body}</body></html>`;
  const server = createServer((req, res) => {
    const { pathname: path, searchParams } = new URL(req.url ?? '/', 'http://x');
    const withSession = (req.headers.cookie ?? '').split(/;\s*/).includes(SHOP_COOKIE);
    requests.push({ path, withSession });
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path === '/robots.txt') return send(404, '');
    if (path === '/login' && searchParams.get('as') !== 'member') return send(200, page('Sign in', '<form><input type="password"></form>'));
    if (path === '/login') {
      // The user logs in (a test's own step: `/login?as=member`).
      valid = true;
      return send(200, page('Signed in', '<p>Welcome back.</p>'), { 'set-cookie': `${SHOP_COOKIE}; Path=/; Max-Age=86400; SameSite=Lax` });
    }
    if (!withSession || !valid) return send(302, '', { location: `/login?next=${encodeURIComponent(path)}` });
    if (path === '/x7') {
      valid = false;
      return send(200, page('Goodbye', '<p>You are signed out.</p>'), { 'set-cookie': 'shop_sid=; Path=/; Max-Age=0' });
    }
    if (path === '/staff') return send(302, '', { location: '/login?next=/staff&role=staff' });
    if (path === '/promo') return send(200, page('Offers', '<p>Astronomy offers this week.</p>'), { 'set-cookie': 'promo_seen=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT' });
    if (path === '/') {
      const list = TOPIC.map((t, i) => `<li><a href="/p/${i}">${t}</a></li>`).join('');
      return send(200, page('Astronomy shop', `<p>Telescopes, star charts and astronomy gear for members.</p><ul>${list}</ul>`));
    }
    const m = /^\/p\/(\d)$/.exec(path);
    if (m && TOPIC[+m[1]]) {
      const next = (+m[1] + 1) % TOPIC.length;
      return send(200, page(TOPIC[+m[1]], `<p>Astronomy gear: telescopes, planets and galaxies.</p><p><a href="/p/${next}">${TOPIC[next]}</a></p>`));
    }
    send(404, page('Not found', ''));
  });
  const { origin, close } = await listenOnLoopback(server);
  return { port: Number(new URL(origin).port), requests, sessionValid: () => valid, expire: () => (valid = false), close };
}
