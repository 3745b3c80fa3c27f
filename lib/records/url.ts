// The canonical URL (one spelling per page: the dedup key, and what robots, politeness and scope see) and
// sites (registrable domains) for scope and per-site counters.
import { getDomain } from 'tldts';

export interface CanonicalOptions {
  /**
   * Sort query parameters by name (stable: repeated names keep their order). Wrong for the few sites whose
   * server reads parameters by position or whose app treats the query as an ordered list of operations
   * (`?sort=date&sort=title` is kept as is, but `?filter=a&op=and&filter=b` would have `op` moved).
   */
  sortQuery: boolean;
}

export const DEFAULT_CANONICAL: CanonicalOptions = { sortQuery: true };

/**
 * Query parameters that tag a visit (campaign, click id, referrer) and never select content, after Firefox's
 * and Brave's query-stripping lists. `utm_*` is matched as a prefix. Names are compared lowercased.
 */
const TRACKING_PARAMS = new Set([
  'fbclid', 'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'igshid',
  'li_fat_id', 'mc_cid', 'mc_eid', '_ga', '_gl', 'ref_src', 'ref_url', '_hsenc', '_hsmi', '__hssc', '__hstc',
  '__hsfp', 'hsctatracking', 'mkt_tok', 'oly_anon_id', 'oly_enc_id', 'vero_id', 'wickedid', '_openstat',
]);

/**
 * Query keys that carry a server session for cookieless clients. The crawler sends the user's cookies, so the
 * session travels there and the key only makes every page look new. `sid` is left alone: phpBB uses it for
 * the session, but Slashdot-style sites name their stories with it, and a wrong guess loses pages.
 */
const SESSION_PARAMS = new Set(['phpsessid', 'jsessionid', 'sessionid']);

/** Java servlet path parameters (`/page;jsessionid=ABC`): a session id spelled into the path. */
const PATH_SESSION = /;jsessionid=[^/;]*/gi;

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * RFC 3986 6.2.2: decode escapes of unreserved characters (`%7E` -> `~`, `%41` -> `A`), uppercase the hex
 * of every other escape. Reserved ones (`%2F`, `%3F`, `%26`, `%3D`) stay escaped: decoding them changes
 * what the server reads.
 */
function normalizeEscapes(s: string): string {
  if (!s.includes('%')) return s;
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** One `name=value` pair of a query: its name as written and decoded (as written where a stray `%` starts no escape). */
export function queryPair(pair: string): { pair: string; key: string; decoded: string; value: string } {
  const eq = pair.indexOf('=');
  const key = eq < 0 ? pair : pair.slice(0, eq);
  let decoded = key;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    // a stray `%` that starts no escape: the name as written
  }
  return { pair, key, decoded, value: eq < 0 ? '' : pair.slice(eq + 1) };
}

/** A query parameter's name as written (for sorting) and decoded, lowercased (for matching the lists). */
function paramOf(pair: string): { pair: string; key: string; name: string } {
  const { key, decoded } = queryPair(pair);
  return { pair, key, name: decoded.toLowerCase() };
}

const isTracking = (name: string): boolean => name.startsWith('utm_') || TRACKING_PARAMS.has(name);
const isNoise = (name: string): boolean => isTracking(name) || SESSION_PARAMS.has(name);

/** The query with tracking and session parameters removed, optionally sorted by name; '' when nothing is left. */
function canonicalQuery(search: string, sortQuery: boolean): string {
  if (search.length <= 1) return '';
  // Split by hand: URLSearchParams would re-serialize as form data (`%20` -> `+`, `/` -> `%2F`).
  const kept = search.slice(1).split('&').filter(Boolean)
    .map((pair) => paramOf(normalizeEscapes(pair)))
    .filter((p) => !isNoise(p.name));
  // Array.prototype.sort is stable: repeated names keep their order, which can mean something (a list).
  if (sortQuery) kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return kept.length ? `?${kept.map((p) => p.pair).join('&')}` : '';
}

/** `input` parsed (against `base`), or null when it is no http(s) URL. */
function httpUrl(input: string, base?: string): URL | null {
  try {
    const u = new URL(input, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/**
 * The canonical form of an absolute http(s) URL, or null when it is not one. WHATWG URL parsing lowercases
 * scheme and host, converts IDNs to punycode, drops default ports, rewrites IPv4 in any notation
 * (`0x7f.1`, `2130706433`) as dotted decimal and resolves `.`/`..` segments. On top of that: no fragment
 * (same document), no credentials, no `;jsessionid=` path parameter, RFC 3986 percent-encoding
 * normalization in path and query, no tracking or session query parameters, and the query sorted by name
 * unless `opts.sortQuery` is false. Path case, trailing slashes, `index.html` and `www.` are kept: servers
 * differ on each. It is the key a page is known by; what gets requested is `requestUrl`, the site's own spelling.
 */
export function normalizeUrl(input: string, base?: string, opts: CanonicalOptions = DEFAULT_CANONICAL): string | null {
  const u = httpUrl(input, base);
  return u && canonicalOf(u, opts);
}

function canonicalOf(u: URL, opts: CanonicalOptions): string {
  const path = normalizeEscapes(u.pathname.replace(PATH_SESSION, ''));
  return `${u.protocol}//${u.host}${path}${canonicalQuery(u.search, opts.sortQuery)}`;
}

/**
 * The URL as the site spelled it, as it is requested and as robots.txt is checked: its path and query in the site's
 * own order and escapes (a server may read parameters by position, and a robots.txt rule is written against the
 * site's spelling), less what never reaches a server or selects content: the fragment, credentials, tracking
 * parameters (a crawl is no campaign click) and session ids (`;jsessionid=`, `PHPSESSID`, `sessionid`: the crawl
 * sends the user's cookies, which carry the session; an id copied into a link is someone's session, often not
 * theirs). Null when it is not an http(s) URL. `normalizeUrl` gives the same page's canonical form, which is only for
 * knowing a page twice; the two drop the same session ids, so the key a page is known by and the request agree.
 * `keepSession`: the session ids are kept (a redirect that names the page it came from with a session id in the
 * path, for a server that keeps its session in the URL alone: request-gate.ts).
 */
export function requestUrl(input: string, base?: string, keepSession = false): string | null {
  const u = httpUrl(input, base);
  return u && asRequested(u, keepSession).href;
}

/** The query without tracking parameters (and session ids unless `keepSession`), or null when it has none to remove. */
function unsent(search: string, keepSession: boolean): string | null {
  if (search.length <= 1) return null;
  const pairs = search.slice(1).split('&');
  const drop = keepSession ? isTracking : isNoise;
  const kept = pairs.filter((pair) => pair === '' || !drop(paramOf(pair).name));
  return kept.length === pairs.length ? null : kept.some(Boolean) ? `?${kept.join('&')}` : '';
}

/** `u` made what requestUrl makes of it, in place; each setter re-serializes the URL, so only what is there is removed. */
function asRequested(u: URL, keepSession = false): URL {
  // An empty fragment (`/page#`) reads as '' too, but is still spelled in href.
  if (u.hash !== '' || u.href.endsWith('#')) u.hash = '';
  if (u.username !== '') u.username = '';
  if (u.password !== '') u.password = '';
  if (!keepSession && u.pathname.includes(';')) {
    const path = u.pathname.replace(PATH_SESSION, '');
    if (path !== u.pathname) u.pathname = path;
  }
  const search = unsent(u.search, keepSession);
  if (search !== null) u.search = search;
  return u;
}

/**
 * A link's URL read once, in every form the planning of a link asks for: `url` is `normalizeUrl(input)`, `href` is
 * `requestUrl(input)`, `host` is `hostOf(url)`, `hostname` and `site` are the canonical URL's, and `requested` is
 * `href` parsed (what the safety guard reads). The same values the separate calls give, from one parse of the input
 * instead of seven (tests/unit/link-target.test.ts holds them equal on odd URLs). Null when it is no http(s) URL.
 */
export interface LinkTarget {
  url: string;
  href: string;
  host: string;
  hostname: string;
  site: string;
  requested: URL;
}

export function linkTarget(input: string, opts: CanonicalOptions = DEFAULT_CANONICAL): LinkTarget | null {
  const u = httpUrl(input);
  if (!u) return null;
  const url = canonicalOf(u, opts);
  const { host, hostname } = u;
  const requested = asRequested(u);
  return { url, href: requested.href, host, hostname, site: siteOfHostname(hostname), requested };
}

export const hostOf = (url: string): string => new URL(url).host;

/** The site a URL belongs to: its registrable domain (example.co.uk), or the hostname for IPs and local names. */
export function siteOf(url: string): string {
  return siteOfHostname(new URL(url).hostname);
}

/**
 * Registrable domains by hostname, as tldts finds them: a crawl meets the same few hosts on every page, and reading
 * the suffix list for each of a page's links was a share of planning them. Bounded: forgotten whole when full.
 */
const SITES = new Map<string, string>();
const MAX_SITES = 10_000;

function siteOfHostname(hostname: string): string {
  let site = SITES.get(hostname);
  if (site === undefined) {
    site = getDomain(hostname, { allowPrivateDomains: true }) ?? hostname;
    if (SITES.size >= MAX_SITES) SITES.clear();
    SITES.set(hostname, site);
  }
  return site;
}

/** A bare host or URL as a user writes it in a list ("news.example.org", "https://x.org/") as a URL. */
export const urlOfHostOrUrl = (s: string): string => {
  const t = s.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(t) ? t : `http://${t}/`;
};

/** Site of a bare host or URL as a user writes it in a list ("news.example.org", "https://x.org/"). */
export const siteOfHostOrUrl = (s: string): string => siteOf(urlOfHostOrUrl(s));
