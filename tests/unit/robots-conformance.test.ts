// robots.txt as the crawl decides it: every case of robots-cases.ts through RobotsCache.check, and the reads of
// robots.txt through the request gate (RFC 9309 2.3.1.2: redirects, to other hosts too, never with cookies).
import { describe, expect, it } from 'vitest';
import { RequestGate, type GatePolicy } from '../../lib/net/request-gate';
import { Politeness } from '../../lib/net/politeness';
import { RobotsCache, type RobotsLoader } from '../../lib/net/robots';
import { isPrivateHost } from '../../lib/net/private-host';
import { ROBOTS_CASES, asGateGives, asUs, type RobotsCase } from './robots-cases';

const clock = { now: () => 0, sleep: async () => {} };
const serving = (text: string): RobotsLoader => async (url) => ({ status: 200, text, url, hops: [] });

describe('robots.txt decisions (Google robots_test.cc expectations, RFC 9309)', () => {
  const name = (c: RobotsCase) => `${c.from}: ${c.about}: ${c.url.length > 70 ? `${c.url.slice(0, 60)}...` : c.url} ${c.allowed ? 'allowed' : 'disallowed'}`;

  it.each(ROBOTS_CASES.map((c) => [name(c), c] as const))('%s', async (_, c) => {
    const verdict = await new RobotsCache(serving(asUs(c)), clock).check(asGateGives(c.url));
    expect(verdict.kind).toBe(c.allowed ? 'allowed' : 'disallowed');
  });

  it('covers the suite: 71 RFC checks (3 disputed by the RFC), 70 Google ones (3 where we differ)', () => {
    const count = (f: (c: RobotsCase) => boolean) => ROBOTS_CASES.filter(f).length;
    expect(count((c) => c.from === 'rfc')).toBe(71);
    expect(count((c) => c.from === 'rfc' && !c.disputed)).toBe(68);
    expect(count((c) => c.from === 'google')).toBe(70);
    expect(count((c) => c.from === 'google' && c.differs !== undefined)).toBe(3);
  });

  it("keeps our group's crawl-delay, capped at two minutes", async () => {
    const robots = 'User-agent: *\nCrawl-delay: 1\n\nUser-agent: FocusCrawler/2.0\nSitemap: https://a.test/s.xml\nCrawl-delay: 500\nDisallow: /private\n';
    const cache = new RobotsCache(serving(robots), clock);
    expect(await cache.check('https://a.test/page')).toEqual({ kind: 'allowed', crawlDelayMs: 120_000 });
    expect((await cache.check('https://a.test/private/x')).kind).toBe('disallowed');
  });
});

/** A fake network: `routes` answer by URL (a string is a redirect's Location, a number a bare status). */
function network(routes: Record<string, string | number | { body: string }>) {
  const seen: { url: string; credentials?: RequestCredentials }[] = [];
  const port = async (url: string, init: RequestInit) => {
    seen.push({ url, credentials: init.credentials });
    const r = routes[url];
    if (r === undefined) return new Response('not found', { status: 404 });
    if (typeof r === 'number') return new Response(null, { status: r });
    if (typeof r === 'string') return new Response(null, { status: 301, headers: { location: r } });
    return new Response(r.body, { status: 200, headers: { 'content-type': 'text/plain' } });
  };
  return { port, seen: () => seen.map((s) => s.url), credentials: () => seen.map((s) => s.credentials) };
}

/** The crawl's robots reads through a gate whose scope is the seeds' hosts, `seedHosts`. */
function robotsThroughGate(port: (url: string, init: RequestInit) => Promise<Response>, seedHosts: string[]) {
  const named = (url: string) => seedHosts.includes(new URL(url).hostname);
  const policy: GatePolicy = {
    unsafe: () => null,
    outOfScope: (url) => (named(url) ? null : "outside the crawl's scope"),
    privateTarget: (url) => (isPrivateHost(new URL(url).hostname) && !named(url) ? 'a private or loopback address that no seed names' : null),
    canonical: (url) => url,
    halted: () => false,
  };
  let cache!: RobotsCache;
  new RequestGate(port, clock, policy, new Politeness({ delayMs: 0, perHost: 1 }), (load) => (cache = new RobotsCache(load, clock)), {
    timeoutMs: 5000, maxBytes: 1 << 20, maxRedirects: 10,
  });
  return cache;
}

const DISALLOW_ALL = { body: 'User-agent: *\nDisallow: /\n' };

describe('reading robots.txt through the request gate (RFC 9309 2.3.1.2)', () => {
  it('follows a redirect on the same host', async () => {
    const net = network({ 'https://a.test/robots.txt': 'https://a.test/robots-live.txt', 'https://a.test/robots-live.txt': DISALLOW_ALL });
    const cache = robotsThroughGate(net.port, ['a.test']);
    expect(await cache.check('https://a.test/page')).toEqual({ kind: 'disallowed', reason: 'blocked by robots.txt (read at https://a.test/robots-live.txt after 1 redirect)' });
    expect(cache.source('https://a.test/page')).toEqual({ url: 'https://a.test/robots-live.txt', hops: ['https://a.test/robots.txt'] });
  });

  it('follows a redirect to another host, whose rules then apply', async () => {
    const net = network({
      'https://shop.example/robots.txt': 'https://www.example/robots.txt',
      'https://www.example/robots.txt': { body: 'User-agent: FocusCrawler\nDisallow: /cart\n' },
    });
    const cache = robotsThroughGate(net.port, ['shop.example']);
    expect(await cache.check('https://shop.example/cart?id=1')).toEqual({
      kind: 'disallowed', reason: 'blocked by robots.txt (read at https://www.example/robots.txt after 1 redirect)',
    });
    expect((await cache.check('https://shop.example/shoes')).kind).toBe('allowed');
    expect(net.seen()).toEqual(['https://shop.example/robots.txt', 'https://www.example/robots.txt']);
  });

  const chain = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`https://a.test/r${i}`, `https://a.test/r${i + 1}`]));

  it('follows five redirects', async () => {
    const net = network({ 'https://a.test/robots.txt': 'https://a.test/r0', ...chain(4), 'https://a.test/r4': DISALLOW_ALL });
    const cache = robotsThroughGate(net.port, ['a.test']);
    expect(await cache.check('https://a.test/page')).toEqual({ kind: 'disallowed', reason: 'blocked by robots.txt (read at https://a.test/r4 after 5 redirects)' });
  });

  it('takes a sixth redirect as no robots.txt: no rules, and the sixth target is not asked', async () => {
    const net = network({ 'https://a.test/robots.txt': 'https://a.test/r0', ...chain(5), 'https://a.test/r5': DISALLOW_ALL });
    const cache = robotsThroughGate(net.port, ['a.test']);
    expect(await cache.check('https://a.test/page')).toEqual({ kind: 'allowed' });
    expect(net.seen()).not.toContain('https://a.test/r5');
    expect(cache.source('https://a.test/page')?.hops).toHaveLength(5);
  });

  it('never asks a private or loopback address that no seed names, and waits as for an unreachable file', async () => {
    const net = network({ 'https://a.test/robots.txt': 'http://127.0.0.1:8080/robots.txt', 'http://127.0.0.1:8080/robots.txt': { body: '' } });
    const verdict = await robotsThroughGate(net.port, ['a.test']).check('https://a.test/page');
    expect(verdict).toMatchObject({ kind: 'wait', reason: expect.stringContaining('http://127.0.0.1:8080/robots.txt, a private or loopback address') });
    expect(net.seen()).toEqual(['https://a.test/robots.txt']);
  });

  it('asks a private address that a seed names', async () => {
    const net = network({ 'https://a.test/robots.txt': 'http://10.0.0.3/robots.txt', 'http://10.0.0.3/robots.txt': DISALLOW_ALL });
    const cache = robotsThroughGate(net.port, ['a.test', '10.0.0.3']);
    expect((await cache.check('https://a.test/page')).kind).toBe('disallowed');
  });

  it('never sends cookies, on any hop', async () => {
    const net = network({ 'https://shop.example/robots.txt': 'https://www.example/robots.txt', 'https://www.example/robots.txt': DISALLOW_ALL });
    await robotsThroughGate(net.port, ['shop.example']).check('https://shop.example/');
    expect(net.credentials()).toEqual(['omit', 'omit']);
  });

  it('reads a 404 as no rules, and a 500 as a reason to wait', async () => {
    expect(await robotsThroughGate(network({}).port, ['a.test']).check('https://a.test/x')).toEqual({ kind: 'allowed' });
    expect((await robotsThroughGate(network({ 'https://a.test/robots.txt': 500 }).port, ['a.test']).check('https://a.test/x')).kind).toBe('wait');
  });
});
