// A session the server ended without a cookie or a redirect: each host's logged-in signs are learned from its pages,
// and a page that shows them gone pauses the crawl within two requests of that host. What counts is the server's log.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { realClock } from '../../lib/net/fetcher';
import { parseHtml } from '../../lib/parse/html';
import { readSigns, SessionWatch, SIGN_IN_TEXTS, SIGN_OUT_TEXTS } from '../../lib/policy/session-signs';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { FORUM_COOKIE, startQuietLogoutSite, type QuietLogoutSite } from '../fixtures/sites/quiet-logout-site';
import { loopbackFetch } from '../support/loopback-fetch';

const NAV = '<nav><a href="/">Home</a> <a href="/latest">Latest</a> <a href="/categories">Categories</a> <a href="/about">About</a></nav>';
const page = (body: string, nav = NAV) => parseHtml(`<html><body>${nav}${body}</body></html>`, 'http://forum.test/t/1');
const IN = page('<div><a href="/u/jo">Jo Weber</a> <a href="/logout">Sign out</a> <a href="/prefs">Preferences</a></div><p>Saturn.</p>');

describe('the signs of a page', () => {
  it.each([
    ['a sign-out link, by its text', '<a href="/x">Abmelden</a>', true, false],
    ['a sign-out link, by its route', '<a href="/users/sign_out">Jo</a>', true, false],
    ['a sign-out link, by its accessible name', '<a href="/x" aria-label="ログアウト"><i class="icon"></i></a>', true, false],
    ['a sign-in link', '<a href="/login">Sign in</a>', false, true],
    ['a sign-in link by its route', '<a href="/users/sign_in">Jo</a>', false, true],
    ['a password field', '<form><input type="password" name="p"></form>', false, true],
    ['"Anmelden" signs in, "Abmelden" out', '<a href="/a">Anmelden</a>', false, true],
    ['"Connexion" signs in, "Déconnexion" out', '<a href="/a">Connexion</a>', false, true],
    ['an article about signing out', '<a href="/a">How to sign out of every device you own</a>', false, false],
  ])('%s', (_, html, signedOut, signIn) => {
    const signs = readSigns(page(html));
    expect(signs.signOut >= 0).toBe(signedOut);
    expect(signs.signIn).toBe(signIn);
  });

  it('knows the user\'s menu by the links beside the sign-out link', () => {
    expect(readSigns(IN).menu).toEqual(['Jo Weber', 'Preferences']);
  });

  it('has no text that both signs in and out', () => {
    expect(SIGN_OUT_TEXTS.filter((t) => SIGN_IN_TEXTS.includes(t))).toEqual([]);
  });
});

describe('watching a host\'s signs', () => {
  const watched = () => {
    const w = new SessionWatch();
    expect(w.observe('forum.test', 'http://forum.test/t/1', IN)).toBeNull();
    expect(w.observe('forum.test', 'http://forum.test/t/2', IN)).toBeNull();
    return w;
  };
  const OUT = page('<div><a href="/login">Sign in</a> <a href="/signup">Create account</a></div><p>Saturn.</p>');

  it('says the session ended when the sign-out link and the menu are gone and a sign-in link is there, in the same frame', () => {
    expect(watched().observe('forum.test', 'http://forum.test/t/3', OUT)).toEqual({ shows: 'a sign-in link', after: 'http://forum.test/t/2' });
    expect(watched().observe('forum.test', 'http://forum.test/t/3', page('<form><input type="password"></form>'))).toMatchObject({ shows: 'a sign-in form' });
  });

  it.each([
    ['a page that still shows the sign-out link', IN],
    ['a page with the user\'s menu but no sign-out link', page('<a href="/u/jo">Jo Weber</a> <a href="/login">Sign in as someone else</a>')],
    ['a page without the frame (a print view)', parseHtml('<html><body><a href="/login">Sign in</a><p>Saturn</p></body></html>', 'http://forum.test/print/1')],
    ['a page of another application on the host', page('<a href="/wiki/login">Log in</a>', '<nav><a href="/wiki/">Wiki home</a> <a href="/wiki/recent">Recent</a></nav>')],
    ['a logged-out page without a sign-in link or form', page('<p>Saturn.</p>')],
  ])('says nothing of %s', (_, p) => {
    expect(watched().observe('forum.test', 'http://forum.test/t/3', p)).toBeNull();
  });

  it('says nothing before the host has shown two logged-in pages, nor of another host', () => {
    const w = new SessionWatch();
    w.observe('forum.test', 'http://forum.test/t/1', IN);
    expect(w.observe('forum.test', 'http://forum.test/t/3', OUT)).toBeNull();
    expect(watched().observe('shop.test', 'http://shop.test/', OUT)).toBeNull();
  });
});

describe('a crawl whose session the server ends without a word', { timeout: 60_000 }, () => {
  let site: QuietLogoutSite;
  afterEach(() => site.close());
  const store = () => new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const config = (perHost: number) => ({
    name: 'forum', seeds: ['http://forum.test/'], topic: { keywords: ['astronomy', 'telescopes', 'planets', 'galaxies'] },
    budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 4, perHost },
  });

  it.each([1, 2, 4])('pauses within two requests of the host, names the page after which it ended, and resumes once logged in (%i a host at once)', async (perHost) => {
    site = await startQuietLogoutSite({ endAfter: 6 });
    const s = store();
    const service = () => new CrawlService({ store: s, fetch: loopbackFetch(site.port, { host: 'forum.test', cookie: FORUM_COOKIE }), clock: realClock });
    const first = service();
    const { crawlId } = await first.handlers.start(config(perHost));
    await first.settled(crawlId);

    const paused = (await s.getCrawl(crawlId))!;
    expect(paused.state).toBe('paused');
    expect(paused.sessionLost).toMatchObject({ by: 'signs', what: 'a sign-in link' });
    const { url, after } = paused.sessionLost!;
    expect(paused.message).toBe(`paused: your session on forum.test has ended after ${after}, the last page that showed you logged in: ` +
      `${url} came back as a visitor who is not logged in sees it (no sign-out link, no menu of yours, a sign-in link). ` +
      'Log in to forum.test again in this browser, then resume');
    // The server's log: no more than two requests reached the host after it ended the session.
    const ended = site.endedAt()!;
    expect(ended).not.toBeNull();
    expect(site.requests.length - ended).toBeLessThanOrEqual(2);
    expect(site.requests.map((r) => r.path)).not.toContain('/session/end');

    // Logged in again, the crawl goes on and asks the page that came back logged out again.
    await fetch(`http://127.0.0.1:${site.port}/login?as=member`, { headers: { host: 'forum.test' } });
    const second = service();
    await second.handlers.resume({ crawlId });
    await second.settled(crawlId);
    const resumed = (await s.getCrawl(crawlId))!;
    expect(resumed.sessionLost?.url).not.toBe(url);
    expect(site.requests.filter((r) => `http://forum.test${r.path}` === url).length).toBeGreaterThanOrEqual(2);
  });
});
