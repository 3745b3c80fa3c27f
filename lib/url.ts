// URL normalization (the dedup key) and sites (registrable domains) for scope and per-site counters.
import { getDomain } from 'tldts';

/**
 * The normalized form of an absolute http(s) URL, or null when it is not one.
 * WHATWG URL parsing already lowercases the host, drops default ports, resolves `.`/`..` segments and
 * percent-encodes; we also drop the fragment (same document) and an empty query.
 */
export function normalizeUrl(input: string, base?: string): string | null {
  let u: URL;
  try {
    u = new URL(input, base);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  u.hash = '';
  if (u.search === '') u.search = ''; // setting it drops a bare trailing "?"
  u.username = '';
  u.password = '';
  return u.href;
}

export const hostOf = (url: string): string => new URL(url).host;

/** The site a URL belongs to: its registrable domain (example.co.uk), or the hostname for IPs and local names. */
export function siteOf(url: string): string {
  const hostname = new URL(url).hostname;
  return getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
}

/** Site of a bare host or URL as a user writes it in a list ("news.example.org", "https://x.org/"). */
export function siteOfHostOrUrl(s: string): string {
  const t = s.trim();
  return siteOf(/^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `http://${t}/`);
}
