// robots.txt read as RFC 9309 says, on top of the robots-parser library, which keeps the groups and matches the
// rules (wildcards, "$", longest match, allow on a tie). The library gets three things wrong, so every line is
// read here first and handed to it in a form where it cannot:
// - 2.2.4: other records (sitemap, host, unknown lines) must not interfere with the groups; the library ends a
//   run of user-agent lines at any line that is not one. They are dropped before it sees them.
// - 2.2.1: a user-agent value is a product token; "FocusCrawler/1.0 (+https://...)" or "FOO BAR" name the
//   crawler by their first word, as Google and most parsers read them. The library compares the whole value.
// - 2.2.2: rules and URLs are compared in one percent-encoded form (see `matchForm`); the library leaves
//   encoded unreserved characters (%62%61%7A for "baz") encoded on one side only.
// Like Google, a line that misses its colon ("disallow /") is read as if it had one: it only ever makes the
// crawl obey more.
import robotsParser from 'robots-parser';

export interface RobotsRules {
  /** Whether `agent` may request `pathAndQuery` (as sent: "/a/b?c=d"). */
  isAllowed(pathAndQuery: string, agent: string): boolean;
  /** The crawl-delay of `agent`'s group, in seconds, if it has one. */
  crawlDelay(agent: string): number | undefined;
  /** The sitemaps its `Sitemap:` lines name (absolute http(s) URLs, RFC 9309 2.2.4's other records), in order. */
  sitemaps: string[];
}

/** The library checks that a URL belongs to the robots.txt it read; rules here are the same for any origin. */
const ORIGIN = 'http://robots.invalid';

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** RFC 3986's unreserved and reserved characters but "[" and "]" (the library encodes those in rules): as written. */
const AS_WRITTEN = /[A-Za-z0-9\-._~:/?#@!$&'()*+,;=]/;
const utf8 = new TextEncoder();
const escape = (ch: string) => [...utf8.encode(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * RFC 9309 2.2.2: the form a rule's path and a URL's path are compared in. Characters outside ASCII (and ASCII
 * ones a URL cannot carry as they are, such as a space) are percent-encoded as UTF-8, escapes of unreserved
 * characters are decoded, and other escapes are kept with uppercase hex: "/café", "/caf%c3%a9" and
 * "/caf%C3%A9" are one path, "/%62az" is "/baz", and "/a%2Fb" stays apart from "/a/b".
 */
export function matchForm(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const ch = path[i]!;
    const hex = path.slice(i + 1, i + 3);
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      const decoded = String.fromCharCode(parseInt(hex, 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
      i += 2;
    } else if (AS_WRITTEN.test(ch)) {
      out += ch;
    } else {
      const cp = path.codePointAt(i)!;
      const whole = String.fromCodePoint(cp);
      out += escape(whole);
      i += whole.length - 1;
    }
  }
  return out;
}

/** RFC 9309 2.2.1: the product token a user-agent value names ("*", or its leading letters, "-" and "_"). */
function productToken(value: string): string {
  if (/^\*(\s|$)/.test(value)) return '*';
  return /^[A-Za-z_-]*/.exec(value)![0];
}

const KEYS = new Set(['user-agent', 'allow', 'disallow', 'crawl-delay']);

/** The lines the library needs, in the form it reads right. */
function groupLines(text: string): string {
  const out: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line) ?? /^([A-Za-z-]+)\s+(\S+)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase(), value = m[2]!;
    if (!KEYS.has(key)) continue;
    out.push(`${key}: ${key === 'user-agent' ? productToken(value) : key === 'crawl-delay' ? value : matchForm(value)}`);
  }
  return out.join('\n');
}

/** The URLs of the `Sitemap:` lines, wherever they stand; a value that is no absolute http(s) URL is left out. */
function sitemapLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(raw.replace(/\s#.*$/, ''));
    if (!m) continue;
    try {
      const u = new URL(m[1]!);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && !out.includes(u.href)) out.push(u.href);
    } catch {
      // not a URL: ignored, as RFC 9309 lets a parser ignore what it cannot read
    }
  }
  return out;
}

/** Parses a robots.txt body. */
export function parseRobotsTxt(text: string): RobotsRules {
  const rules = robotsParser(`${ORIGIN}/robots.txt`, groupLines(text));
  return {
    isAllowed: (pathAndQuery, agent) => rules.isAllowed(ORIGIN + matchForm(pathAndQuery), agent) !== false,
    crawlDelay: (agent) => rules.getCrawlDelay(agent),
    sitemaps: sitemapLines(text),
  };
}
