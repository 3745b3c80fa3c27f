// URL patterns of the training inputs: an exact URL, a URL with `*` wildcards, or `site:host`.
import { normalizeUrl, siteOf, siteOfHostOrUrl, type CanonicalOptions } from './url';

export interface UrlMatcher {
  matches(url: string): boolean;
  readonly size: number;
}

/** What the crawl makes of one pattern: what it matches, or why it matches nothing. */
export type PatternReading =
  | { kind: 'exact'; url: string }
  | { kind: 'site'; site: string }
  | { kind: 'wildcard'; re: RegExp }
  | { kind: 'refused'; problem: string };

const SHAPES = 'write a URL such as https://example.org/page, a URL with * wildcards such as https://example.org/wiki/*, or site:example.org';

/**
 * One pattern as the crawl reads it (`compilePatterns` and the New-crawl form both go through here, so the form
 * refuses exactly what the crawl would ignore). A wildcard is matched against whole canonical URLs, so one that
 * could never begin one (`example.org/*`) or holds a space matches nothing and is refused too.
 */
export function readPattern(raw: string, canonical?: CanonicalOptions): PatternReading {
  const p = raw.trim();
  if (p.startsWith('site:')) {
    try {
      return { kind: 'site', site: siteOfHostOrUrl(p.slice(5)) };
    } catch {
      return { kind: 'refused', problem: `"${p}" names no site: after site: write a host, e.g. site:example.org` };
    }
  }
  if (p.includes('*')) {
    if (/\s/.test(p)) return { kind: 'refused', problem: `"${p}" has a space, which no URL has: ${SHAPES}` };
    const head = p.slice(0, p.indexOf('*')).toLowerCase();
    const startsUrl = ['http://', 'https://'].some((s) => s.startsWith(head) || head.startsWith(s));
    if (!startsUrl) return { kind: 'refused', problem: `"${p}" can match no URL: a wildcard pattern is matched against whole URLs, so begin it with http://, https:// or *` };
    return { kind: 'wildcard', re: wildcardToRegExp(p) };
  }
  const url = normalizeUrl(p, undefined, canonical);
  return url ? { kind: 'exact', url } : { kind: 'refused', problem: `"${p}" is not a pattern: ${SHAPES}` };
}

/** Each pattern the crawl would ignore, with its line (from 0) among `patterns` and why. */
export function patternProblems(patterns: readonly string[]): { line: number; problem: string }[] {
  return patterns.flatMap((p, line) => {
    if (!p.trim()) return [];
    const r = readPattern(p);
    return r.kind === 'refused' ? [{ line, problem: r.problem }] : [];
  });
}

/**
 * Compiles patterns once; exact URLs go into a Set so that thousands of them cost one lookup. An exact pattern
 * is normalized with `canonical`, the crawl's rules, so it matches the URLs the crawl keys pages by; a URL asked
 * about must be normalized the same way. A pattern `readPattern` refuses matches nothing.
 */
export function compilePatterns(patterns: string[], canonical?: CanonicalOptions): UrlMatcher {
  const exact = new Set<string>();
  const sites = new Set<string>();
  const wildcards: RegExp[] = [];
  for (const raw of patterns) {
    if (!raw.trim()) continue;
    const r = readPattern(raw, canonical);
    if (r.kind === 'site') sites.add(r.site);
    else if (r.kind === 'wildcard') wildcards.push(r.re);
    else if (r.kind === 'exact') exact.add(r.url);
  }
  return {
    size: exact.size + sites.size + wildcards.length,
    matches(url: string): boolean {
      if (exact.has(url)) return true;
      if (sites.size > 0 && sites.has(siteOf(url))) return true;
      return wildcards.some((re) => re.test(url));
    },
  };
}

function wildcardToRegExp(p: string): RegExp {
  const body = p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`, 'i');
}
