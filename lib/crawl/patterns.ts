// URL patterns of the training inputs: an exact URL, a URL with `*` wildcards, or `site:host`.
import { normalizeUrl, siteOf, siteOfHostOrUrl, type CanonicalOptions } from '../url';

export interface UrlMatcher {
  matches(url: string): boolean;
  readonly size: number;
}

/**
 * Compiles patterns once; exact URLs go into a Set so that thousands of them cost one lookup. An exact pattern
 * is normalized with `canonical`, the crawl's rules, so it matches the URLs the crawl keys pages by; a URL asked
 * about must be normalized the same way.
 */
export function compilePatterns(patterns: string[], canonical?: CanonicalOptions): UrlMatcher {
  const exact = new Set<string>();
  const sites = new Set<string>();
  const wildcards: RegExp[] = [];
  for (const raw of patterns) {
    const p = raw.trim();
    if (!p) continue;
    if (p.startsWith('site:')) sites.add(siteOfHostOrUrl(p.slice(5)));
    else if (p.includes('*')) wildcards.push(wildcardToRegExp(p));
    else {
      const n = normalizeUrl(p, undefined, canonical);
      if (n) exact.add(n);
    }
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
