// A logged-in site that misbehaves, for the trust tests: links that redirect to sign-out, account deletion, a
// path robots.txt closes and another host; one page under three spellings; a page that answers 503 with a
// Retry-After; a redirect loop; and a second host whose robots.txt is down twice before it answers. Every
// host is served by one listener, dispatched on the Host header (Chromium maps *.test to it). It logs what
// it was asked, with whether the session cookie came along, and ends the session when sign-out or delete is
// ever requested: the tests read the log, not what the crawler says it did.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback';

export const SESSION_COOKIE = 'club_session=orbit42';

export interface SiteRequest {
  host: string;
  path: string;
  /** The request carried the session cookie. */
  withSession: boolean;
  /** The session was still valid when this request came. */
  sessionValid: boolean;
}

export interface HostileSite {
  port: number;
  origin: string;
  requests: SiteRequest[];
  /** False once sign-out or account deletion was requested with the session. */
  sessionValid(): boolean;
  close(): Promise<void>;
}

/** Paths a crawl must never request (with or without the session). */
export const NEVER_REQUESTED = ['/signout', '/account/delete', '/private/diary', '/landing', '/u/78'];

/** Redirect targets that are no web address: /away/N sends to the Nth. None may be followed, or asked again. */
export const NOT_WEB = ['javascript:alert(document.cookie)', 'data:text/html,<h1>planets</h1>', 'file:///etc/passwd', 'chrome://settings/'];

const TOPIC = [
  ['orbits', 'How orbits work', 'Planets and moons follow elliptical orbits around the Sun; astronomy explains them with gravity.'],
  ['telescopes', 'Telescopes for members', 'Our astronomy club lends telescopes for observing planets, galaxies and nebulae.'],
  ['eclipses', 'Eclipse season', 'A solar eclipse needs a filter; a lunar eclipse turns the Moon red. Astronomy nights follow.'],
  ['comets', 'Comets this year', 'Comets bring meteor showers; astronomers track their orbits with telescopes.'],
];

export async function startHostileSite(opts: { robotsOutages?: number; retryAfterSeconds?: number } = {}): Promise<HostileSite> {
  const requests: SiteRequest[] = [];
  let valid = true;
  let robotsDown = opts.robotsOutages ?? 2;
  let busyAnswered = false;
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

  const club = (path: string, query: string, res: ServerResponse, send: Send): void => {
    const redirect = (status: number, to: string) => send(status, '', { location: to });
    if (path === '/robots.txt') return send(200, 'User-agent: *\nDisallow: /private/\n', { 'content-type': 'text/plain' });
    if (path === '/') {
      const links = TOPIC.map(([slug, title]) => `<li><a href="/notes/${slug}">${title}</a></li>`).join('');
      return send(200, page('Astronomy club', `<p><a href="/u/78">Astronomy profile</a></p><p>Astronomy news for members: planets, telescopes and galaxies.</p><ul>${links}</ul>
<p>Member tools: <a href="/go/1">Today's astronomy digest</a>, <a href="/go/2">Planet gallery</a>,
<a href="/go/3">Observing diary of telescopes</a>, <a href="/go/4">Galaxy partners</a>, <a href="/go/5">Orbits explained</a>.</p>
<p>Planet tools: ${NOT_WEB.map((_, i) => `<a href="/away/${i}">Astronomy tool ${i}</a>`).join(' ')}</p>
<p>Notes: <a href="/notes?topic=orbit&amp;year=2024&amp;utm_source=x">orbit notes 2024</a>,
<a href="/notes?year=2024&amp;topic=orbit#top">astronomy notes on orbits</a>,
<a href="http://CLUB.test:80/notes?topic=orbit&amp;year=2024&amp;fbclid=y">planet orbit notes</a>.</p>
<p><a href="/u/78">Sign out</a></p>
<p><a href="/session-notes">Planet session notes</a> · <a href="/busy">Busy telescope schedule</a> · <a href="/loop/a">Galaxy loop</a> · <a href="http://flaky.test/">Partner observatory</a></p>`));
    }
    if (path === '/go/1') return redirect(302, '/signout?next=/');
    if (path === '/go/2') return redirect(302, '/account/delete?confirm=yes');
    if (path === '/go/3') return redirect(302, '/private/diary');
    if (path === '/go/4') return redirect(302, 'http://elsewhere.test/landing');
    if (path === '/go/5') return redirect(301, '/notes/orbits');
    const away = /^\/away\/(\d)$/.exec(path);
    if (away && NOT_WEB[+away[1]]) return redirect(302, NOT_WEB[+away[1]]!);
    // An old Java site: it names the same page with a session id in the path before it answers.
    if (path === '/session-notes') return redirect(302, '/session-notes;jsessionid=A1B2');
    if (path === '/session-notes;jsessionid=A1B2') return send(200, page('Session notes', '<p>Astronomy session notes: planets seen through the telescope.</p>'));
    if (path === '/loop/a') return redirect(302, '/loop/b');
    if (path === '/loop/b') return redirect(302, '/loop/a');
    // The member's own page names the sign-out URL innocently; the menu names it as what it is.
    if (path === '/signout' || path === '/account/delete' || path === '/u/78') {
      valid = false;
      return send(200, page('Signed out', '<p>Your session has ended.</p>'), { 'set-cookie': 'club_session=; Path=/; Max-Age=0' });
    }
    if (path === '/notes' && query) {
      return send(200, page('Orbit notes 2024', '<p>Notes on planetary orbits, telescopes and astronomy for 2024.</p>'));
    }
    if (path === '/busy') {
      if (!busyAnswered) {
        busyAnswered = true;
        return send(503, 'busy', { 'retry-after': String(opts.retryAfterSeconds ?? 2) });
      }
      return send(200, page('Telescope schedule', '<p>Telescope bookings for astronomy nights: planets and galaxies.</p>'));
    }
    const m = /^\/notes\/([a-z]+)$/.exec(path);
    const topic = m && TOPIC.find(([slug]) => slug === m[1]);
    if (topic) {
      const others = TOPIC.filter((t) => t !== topic).map(([slug, title]) => `<a href="/notes/${slug}">${title}</a>`).join(' · ');
      return send(200, page(topic[1], `<p>${topic[2]}</p><p>More astronomy: ${others}. <a href="/go/1">Daily astronomy digest</a></p>`));
    }
    send(404, page('Not found', ''));
  };

  const flaky = (path: string, send: Send): void => {
    if (path === '/robots.txt') {
      if (robotsDown > 0) {
        robotsDown--;
        return send(503, 'down for maintenance', { 'content-type': 'text/plain' });
      }
      return send(200, 'User-agent: *\nAllow: /\n', { 'content-type': 'text/plain' });
    }
    if (path === '/') return send(200, page('Partner observatory', '<p>Astronomy at the partner observatory: telescopes, planets. <a href="/dome">The dome</a></p>'));
    if (path === '/dome') return send(200, page('The dome', '<p>The observatory dome houses a telescope for astronomy nights and galaxies.</p>'));
    send(404, page('Not found', ''));
  };

  type Send = (status: number, body: string, headers?: Record<string, string>) => void;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', 'http://x');
    const withSession = (req.headers.cookie ?? '').split(/;\s*/).includes(SESSION_COOKIE);
    requests.push({ host, path: url.pathname, withSession, sessionValid: valid });
    const send: Send = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (host === 'club.test' && url.pathname === '/login') {
      valid = true;
      return send(200, page('Signed in', '<p>Welcome back.</p>'), { 'set-cookie': `${SESSION_COOKIE}; Path=/; Max-Age=86400; SameSite=Lax` });
    }
    if (host === 'club.test') return club(url.pathname, url.search, res, send);
    if (host === 'flaky.test') return flaky(url.pathname, send);
    send(404, page('Not found', '<p>Nothing here.</p>'));
  });
  const { origin, close } = await listenOnLoopback(server);
  return { port: Number(new URL(origin).port), origin, requests, sessionValid: () => valid, close };
}
