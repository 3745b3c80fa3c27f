import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { compilePatterns } from '../../lib/records/patterns';
import { normalizeUrl, siteOf } from '../../lib/records/url';

describe('normalizeUrl', () => {
  it('drops fragments and default ports, lowercases hosts, resolves dot segments', () => {
    expect(normalizeUrl('HTTP://Example.ORG:80/a/./b/../c?x=1#frag')).toBe('http://example.org/a/c?x=1');
    expect(normalizeUrl('https://example.org:443/?')).toBe('https://example.org/');
    expect(normalizeUrl('../up', 'http://h.test/a/b/c')).toBe('http://h.test/a/up');
  });
  it('refuses what is not http(s)', () => {
    expect(normalizeUrl('mailto:x@y.z')).toBeNull();
    expect(normalizeUrl('javascript:void(0)')).toBeNull();
    expect(normalizeUrl('not a url')).toBeNull();
  });
  it('groups hosts into sites by registrable domain', () => {
    expect(siteOf('https://news.bbc.co.uk/x')).toBe('bbc.co.uk');
    expect(siteOf('http://127.0.0.1:8080/')).toBe('127.0.0.1');
  });
});

describe('training patterns', () => {
  it('match exact URLs, wildcards and site:host', () => {
    const m = compilePatterns(['http://a.test/exact', 'http://b.test/wiki/*.html', 'site:finance.example.com']);
    expect(m.matches('http://a.test/exact')).toBe(true);
    expect(m.matches('http://a.test/exact2')).toBe(false);
    expect(m.matches('http://b.test/wiki/Star.html')).toBe(true);
    expect(m.matches('http://b.test/other/Star.html')).toBe(false);
    expect(m.matches('https://www.example.com/x')).toBe(true); // same registrable domain
    expect(m.matches('https://example.org/x')).toBe(false);
  });
});

describe('config', () => {
  it('fills defaults', () => {
    const c = parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['k'] } });
    expect(c.politeness).toEqual({ delayMs: 1000, concurrency: 2, perHost: 1, robots: true, identify: true });
    expect(c.strategy.name).toBe('best-first');
  });
  it('says what is wrong in one sentence', () => {
    expect(() => parseConfig({ seeds: ['example.org'], topic: { keywords: ['k'] } })).toThrow(/seeds\[0\].*not a URL/);
    expect(() => parseConfig({ seeds: [] })).toThrow(ConfigError);
    expect(() => parseConfig({ seeds: ['ftp://x.test/'], topic: { keywords: ['k'] } })).toThrow(/not an http/);
    expect(() => parseConfig({ seeds: ['http://x.test/'], topic: { keywords: ['k'] }, budget: { maxPages: -1 } })).toThrow(/budget.maxPages/);
    expect(() => parseConfig({ seeds: ['http://x.test/'] })).toThrow(/keywords/);
  });
  it('refuses a URL pattern the crawl would ignore, as the form does (a runner config or an imported file)', () => {
    const seeds = ['http://x.test/'];
    expect(() => parseConfig({ seeds, training: { positive: ['http://x.test/a', '[[[not a pattern'] } })).toThrow(/training\.positive\[1\]: "\[\[\[not a pattern" is not a pattern/);
    expect(() => parseConfig({ seeds, topic: { keywords: ['k'] }, training: { negative: ['x.test/wiki/*'] } })).toThrow(/training\.negative\[0\].*can match no URL/);
    expect(parseConfig({ seeds, training: { positive: ['site:x.test', 'https://x.test/wiki/*'] } }).training.positive).toEqual(['site:x.test', 'https://x.test/wiki/*']);
  });
});
