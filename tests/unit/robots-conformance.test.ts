// robots.txt as the crawl decides it: every case of robots-cases.ts through RobotsCache.check.
import { describe, expect, it } from 'vitest';
import { RobotsCache, type RobotsLoader } from '../../lib/crawl/robots';
import { ROBOTS_CASES, asGateGives, asUs, type RobotsCase } from './robots-cases';

const clock = { now: () => 0, sleep: async () => {} };
const serving = (text: string): RobotsLoader => async () => ({ status: 200, text });

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
