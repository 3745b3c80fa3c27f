// Scope decides which sites receive the user's cookies: it must mean what the form says.
import { describe, expect, it } from 'vitest';
import { ConfigError, type CrawlConfig } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { planChildren } from '../../lib/learning/children';
import { makeScope, scopeReason } from '../../lib/policy/scope';
import { isPrivateHost } from '../../lib/net/private-host';
import type { LinkClassifier } from '../../lib/learning/link-classifier';
import type { FrontierEntry, ParsedPage } from '../../lib/records/types';

const topic = { keywords: ['orbit'] };
const config = (seeds: string[], scope?: Record<string, unknown>): CrawlConfig =>
  parseConfig({ seeds, topic, ...(scope ? { scope } : {}) });

// Private and loopback hosts in the spellings a page may use; WHATWG URL turns them into the ones checked.
const PRIVATE = [
  'http://127.0.0.1/', 'http://127.8.9.10:8080/', 'http://10.0.0.5/', 'http://172.16.0.1/', 'http://172.31.255.1/',
  'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://0.0.0.0/',
  'http://[::1]/', 'http://[::]/', 'http://[fd12:3456::1]/', 'http://[fc00::1]/', 'http://[fe80::1]/',
  'http://[::ffff:127.0.0.1]/', 'http://[::ffff:192.168.0.1]/', 'http://[0:0:0:0:0:0:0:1]/',
  'http://localhost/', 'http://LOCALHOST:3000/', 'http://admin.localhost/', 'http://localhost./',
  'http://2130706433/', 'http://0x7f.1/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://127.1/',
  'http://3232235777/', 'http://0xa.0.0.1/',
];
const PUBLIC = ['http://8.8.8.8/', 'http://172.32.0.1/', 'http://100.128.0.1/', 'http://[2001:db8::1]/', 'http://[::ffff:8.8.8.8]/', 'http://example.org/', 'http://localhost.example.org/'];

describe('private and loopback hosts', () => {
  it.each(PRIVATE)('%s is private', (url) => expect(isPrivateHost(new URL(url).hostname)).toBe(true));
  it.each(PUBLIC)('%s is not', (url) => expect(isPrivateHost(new URL(url).hostname)).toBe(false));
});

describe("scope 'seed-hosts' (the default)", () => {
  const c = config(['https://docs.google.com/document/x']);
  const inScope = makeScope(c);
  it('is the default and keeps a docs.google.com crawl off mail.google.com', () => {
    expect(c.scope.mode).toBe('seed-hosts');
    expect(inScope('https://docs.google.com/other')).toBe(true);
    expect(inScope('https://mail.google.com/mail/u/0/')).toBe(false);
    expect(inScope('https://google.com/')).toBe(false);
    expect(scopeReason(c)('https://mail.google.com/')).toBe("outside the crawl's scope (the seeds' hosts: docs.google.com)");
  });
  it('counts www.x and x as one host, on any port and scheme', () => {
    const s = makeScope(config(['https://club.test/', 'http://www.news.test/']));
    expect(s('https://www.club.test/a')).toBe(true);
    expect(s('http://news.test:8080/a')).toBe(true);
    expect(s('https://sub.club.test/a')).toBe(false);
  });
  it('names every seed host in its reason', () => {
    expect(scopeReason(config(['http://a.test/', 'http://b.test/x']))('http://c.test/')).toBe(
      "outside the crawl's scope (the seeds' hosts: a.test, b.test)",
    );
  });
});

describe("scope 'seed-sites' (chosen explicitly)", () => {
  const c = config(['https://docs.google.com/document/x'], { mode: 'seed-sites' });
  it("reaches the seeds' whole registrable domains, as before", () => {
    expect(makeScope(c)('https://mail.google.com/mail/')).toBe(true);
    expect(makeScope(c)('https://google.co.uk/')).toBe(false);
    expect(scopeReason(c)('https://example.org/')).toBe("outside the crawl's scope (the seeds' sites: google.com)");
  });
});

describe("scope 'listed-sites'", () => {
  const c = config(['http://a.test/'], { mode: 'listed-sites', sites: ['news.example.org', 'https://blog.example.net/x', '192.168.1.20'] });
  const reason = scopeReason(c);
  it('reaches the listed sites with their subdomains, and nothing else', () => {
    expect(reason('http://www.example.org/a')).toBeNull();
    expect(reason('https://other.example.net/')).toBeNull();
    expect(reason('http://a.test/')).toMatch(/^outside the crawl's scope \(the listed sites: example\.org, example\.net/);
  });
  it('allows a private host a listed site names, and no other', () => {
    expect(reason('http://192.168.1.20/wiki')).toBeNull();
    expect(reason('http://192.168.1.21/')).toBe('a private or loopback address that no seed or listed site names');
  });
  it('needs at least one site', () => {
    expect(() => config(['http://a.test/'], { mode: 'listed-sites' })).toThrow(ConfigError);
  });
});

describe("scope 'anywhere'", () => {
  const c = config(['https://club.test/'], { mode: 'anywhere' });
  const reason = scopeReason(c);
  it('reaches any public site', () => {
    for (const url of PUBLIC) expect(reason(url), url).toBeNull();
  });
  it.each(PRIVATE)('refuses %s, which no seed names', (url) => {
    expect(reason(url)).toBe('a private or loopback address that no seed names');
  });
  it('allows the private host a seed names (a crawl of a site on this machine), and only that one', () => {
    const local = scopeReason(config(['http://127.0.0.1:8080/'], { mode: 'anywhere' }));
    expect(local('http://127.0.0.1:8080/a')).toBeNull();
    expect(local('http://2130706433:8080/b')).toBeNull(); // the same host, spelled as a number
    expect(local('http://192.168.1.1/')).not.toBeNull();
    expect(local('http://localhost:8080/')).not.toBeNull();
  });
});

describe('every mode', () => {
  it('keeps private hosts out even when they are on a seed site', () => {
    const c = config(['http://localhost:3000/'], { mode: 'seed-sites' });
    expect(makeScope(c)('http://localhost:3000/docs')).toBe(true);
    expect(makeScope(config(['http://club.test/']))('http://127.0.0.1/')).toBe(false);
  });
  it("rejects an unknown mode, and keeps old configs' 'seed-sites'", () => {
    expect(() => config(['http://a.test/'], { mode: 'seed-site' })).toThrow(/scope.mode must be one of "seed-hosts"/);
    expect(config(['http://a.test/'], { mode: 'seed-sites' }).scope.mode).toBe('seed-sites');
  });
});

describe('links planned from a page', () => {
  it('leave out other hosts and private addresses, so they are never queued', () => {
    const c = config(['http://127.0.0.1:4000/']);
    const page = {
      links: ['/a', 'http://127.0.0.1:4000/b', 'http://192.168.0.1/router', 'http://localhost:4000/c', 'http://elsewhere.test/d']
        .map((url) => ({ url: new URL(url, 'http://127.0.0.1:4000/').href, anchor: 'x', context: '' })),
      nofollow: false,
    } as unknown as ParsedPage;
    const parent = { url: 'http://127.0.0.1:4000/', depth: 0 } as FrontierEntry;
    const classifier = { rank: () => ({ logOdds: 0, score: 0.5 }) } as unknown as LinkClassifier;
    const planned = planChildren(page, parent, parent.url, c, classifier, true).map((k) => k.url);
    expect(planned).toEqual(['http://127.0.0.1:4000/a', 'http://127.0.0.1:4000/b']);
  });
});
