// A link's URL is read once while its page's links are planned (url.ts linkTarget, the safety guard's findings by
// URL and by anchor): every decision must be the one the separate readings made, on URLs at their oddest.
import { getDomain } from 'tldts';
import { describe, expect, it } from 'vitest';
import type { CrawlConfig } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { makeSafetyGuard } from '../../lib/policy/safety';
import { scopeReason } from '../../lib/policy/scope';
import { hostOf, linkTarget, normalizeUrl, requestUrl, siteOf } from '../../lib/records/url';
import { mulberry32 } from '../../lib/records/random';

const BASE = 'http://Wiki.Example.org:80/dir/sub/page.html?x=1#top';

/** Hand-picked: IDN, escapes, ports, dot segments, fragments, credentials, IPs, sessions, trackers, actions. */
const ODD = [
  'http://bücher.example/katalog', 'https://xn--bcher-kva.example/katalog', 'http://ÉXAMPLE.org/Ä', 'http://例え.テスト/パス',
  'http://münchen.de./a', 'https://sub.bbc.co.uk:8443/news', 'http://foo.github.io/x', 'http://a.b.c.d.blogspot.com/y',
  'http://example.org:80/', 'https://example.org:443/a', 'https://example.org:80/a', 'http://example.org:8080/a', 'http://example.org:/a',
  'http://example.org/a/./b/../c', 'http://example.org/%2e%2e/x', 'http://example.org/a/%2E/b', 'http://example.org/../../x',
  'http://example.org/page#', 'http://example.org/page?', 'http://example.org/page?#', 'http://example.org/p#frag?x=1', 'http://example.org/p?a=1#',
  'http://user:pass@example.org/p', 'http://user@example.org/p', 'http://:@example.org/p',
  'http://example.org/%7Euser/%41%2F%3f', 'http://example.org/a%zzb', 'http://example.org/%', 'http://example.org/caf%C3%A9', 'http://example.org/%E9t%E9',
  'http://example.org/p;jsessionid=ABC123/q', 'http://example.org/p?PHPSESSID=1&b=2&a=1', 'http://example.org/p?utm_source=x&id=3&fbclid=y',
  'http://example.org/p?utm_source=x', 'http://example.org/p?&&a=1&', 'http://example.org/p?a=1&a=0&b', 'http://example.org/s?q=how+to+delete+files',
  'http://127.0.0.1:9/x', 'http://2130706433/', 'http://0x7f.1/', 'http://[::1]:8080/a', 'http://[2001:db8::1]/', 'http://localhost./a', 'http://192.168.1.1/',
  'http://example.org/logout', 'http://example.org/Special:UserLogout', 'http://example.org/account/delete', 'http://example.org/%6cogout',
  'http://example.org/wiki/Delete_(SQL)', 'http://example.org/vote/123', 'http://example.org/p?token=abc', 'http://example.org/p?action=edit',
  'http://example.org/p?action=history', 'http://example.org/api/v1/x', 'http://example.org/docs/Web/API/fetch', 'http://example.org/cart?add=1',
  'http://example.org/idp/profile/SAML2/Redirect/SLO', 'http://example.org/deleteAllMessagesForUser', 'http://example.org/konto/kuendigen',
  'HTTP://EXAMPLE.ORG/UPPER/Path', 'http://example.org\\back\\slash', 'http://example.org/tab\there', 'http://example.org/ space /x',
  'mailto:a@b.c', 'javascript:void(0)', 'ftp://example.org/x', 'data:text/html,x', 'not a url', '', 'http://', 'http://exa mple.org/',
];

/** As a page writes them: resolved against the page as the parse resolves each href. */
const RELATIVE = ['x', './x', '../x', '../../../../x', '/abs', '//other.example.net/p', '?q=2', '#only', '', '.', '..', 'a/b/../c?z=1&a=2#f',
  '%2e%2e/y', 'sub/%7e', 'page.html#', '?', '//user:pw@host.example/x', 'logout', '/wiki/Sign_out?returnto=x', 'https:x', 'http:/y'];

const PATHS = ['', '/', '/a', '/a/b/../c', '/./x', '/%41%7e%2F', '/%zz', '/logout', '/delete-account', '/wiki/Remove_rust', '/x;jsessionid=1', '/API/x', '/ajax', '/vote/77', '/café'];
const QUERIES = ['', '?', '?b=2&a=1', '?utm_medium=m&k=v', '?sid=4&jsessionid=5', '?do=delete', '?csrf_token=z', '?next=/logout', '?q=logout', '?%=1', '?a=%C3'];
const HOSTS = ['example.org', 'WWW.Example.org', 'a.example.co.uk', 'bücher.example', '127.0.0.1', 'localhost', '[::1]', 'example.org:8080', 'other.test:80', 'u:p@example.org'];
const FRAGMENTS = ['', '#', '#x', '#a?b'];
const ANCHORS = ['', 'Log out', 'Next page', 'How to remove rust from tools', 'Delete', '  Abmelden  ', 'Sign out of everything you own here', 'Mars'];


function corpus(): string[] {
  const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const r = mulberry32(36);
  const generated = Array.from({ length: 1000 }, () => `${pick(r, ['http', 'https', 'HTTP'])}://${pick(r, HOSTS)}${pick(r, PATHS)}${pick(r, QUERIES)}${pick(r, FRAGMENTS)}`);
  const resolved = RELATIVE.map((rel) => {
    try {
      return new URL(rel, BASE).href;
    } catch {
      return rel;
    }
  });
  return [...ODD, ...resolved, ...generated];
}

/** How planChildren read a link before: each form by its own call, the guard asked about the URL string, cold. */
function separately(input: string, config: CrawlConfig) {
  const url = normalizeUrl(input, undefined, config.canonical);
  if (url === null) return null;
  const href = requestUrl(input) ?? url;
  const hostname = new URL(url).hostname;
  return { url, href, host: hostOf(url), hostname, site: getDomain(hostname, { allowPrivateDomains: true }) ?? hostname };
}

const CONFIGS: [string, CrawlConfig][] = [
  ['seed hosts', parseConfig({ seeds: ['http://example.org/', 'http://127.0.0.1:9/'], topic: { keywords: ['k'] } })],
  ['seed sites, unsorted query', parseConfig({ seeds: ['http://www.example.co.uk/'], topic: { keywords: ['k'] }, scope: { mode: 'seed-sites' }, canonical: { sortQuery: false } })],
  ['listed sites', parseConfig({ seeds: ['http://example.org/'], topic: { keywords: ['k'] }, scope: { mode: 'listed-sites', sites: ['bücher.example', 'localhost'] } })],
  ['anywhere, own words, a rule off', parseConfig({
    seeds: ['http://example.org/'], topic: { keywords: ['k'] }, scope: { mode: 'anywhere' }, safety: { avoid: ['rust', 'café'], disabledRules: ['anchor text'] },
  })],
];

describe('a link read once decides as the separate readings did', () => {
  it.each(CONFIGS)('%s: canonical URL, request URL, host, site, scope and safety', (_, config) => {
    const urls = corpus();
    const scope = scopeReason(config);
    const guard = makeSafetyGuard(config.safety); // one guard for the whole corpus: its findings are remembered
    const r = mulberry32(7);
    // Twice over in a shuffled order, with anchors and rel drawn at random: remembered findings meet other anchors.
    const order = [...urls, ...urls].map((u) => ({ u, k: r() })).sort((a, b) => a.k - b.k).map(({ u }) => u);
    let compared = 0;
    for (const input of order) {
      const anchor = ANCHORS[Math.floor(r() * ANCHORS.length)]!;
      const rel = r() < 0.1 ? ['nofollow'] : [];
      const once = linkTarget(input, config.canonical);
      const before = separately(input, config);
      if (before === null) {
        expect(once, input).toBeNull();
        continue;
      }
      expect(once, input).not.toBeNull();
      const { requested, ...forms } = once!;
      expect(forms, input).toEqual(before);
      expect(requested.href, input).toBe(before.href);
      expect(siteOf(before.url), input).toBe(before.site);
      expect(scope(before.url, once!), input).toBe(scope(before.url));
      const cold = makeSafetyGuard(config.safety).check(before.href, { anchor, rel });
      expect(guard.check(once!.href, { anchor, rel }, requested), `${input} "${anchor}"`).toEqual(cold);
      compared++;
    }
    expect(compared).toBeGreaterThan(1500);
  });

  it('the guard remembers a URL by its own reading, not by the anchor it came with', () => {
    const guard = makeSafetyGuard({ avoid: [], disabledRules: [] });
    const url = 'http://example.org/wiki/Mars';
    expect(guard.check(url, { anchor: 'Mars' })).toBeNull();
    expect(guard.check(url, { anchor: 'Log out' })).toMatchObject({ rule: 'anchor text' });
    expect(guard.check(url, { anchor: 'Mars', rel: ['nofollow'] })).toMatchObject({ rule: 'nofollow' });
    expect(guard.check('http://example.org/logout', { anchor: 'Mars' })).toMatchObject({ rule: 'action verb', match: 'logout' });
    expect(guard.check('not a url', { anchor: 'Mars' })).toMatchObject({ rule: 'undecodable URL' });
  });
});
