// What kind of page a page is, for `fetch.render: "auto"` to learn by kind rather than by site: a site's articles,
// its lists filled by scripts and its app's routes are different kinds, and rendering changes some and not others.
// A kind is the URL's shape (its path with ids, numbers and slugs replaced, its query's names without their values)
// and the look of the HTML the server sent (which scripts it runs, whether it reads as a shell). Pages built from one
// template share both; a page of the same URL shape built by another script is another kind.

/** A page's kind: `key` tells kinds apart, `label` names it in a page row's reason. */
export interface PageKind {
  key: string;
  label: string;
}

const NUMBER = /^\d+(?:[-_.,]\d+)*$/;
/** A segment with letters and digits mixed (at least two of each kind of character, six characters or more), hex or a UUID. */
const ID = /^(?=(?:.*\d){2})(?=.*[a-z])[a-z0-9]{6,}$|^[0-9a-f]{8,}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SLUG = /[-_+~ ]|%20/;
/** A segment this long is a name even without a separator (a CamelCase title, a long word). */
const LONG_SEGMENT = 24;

/** One path segment as a shape: `{n}` for a number or a date, `{id}` for an id, `{slug}` for a name; a word stays. */
function segmentShape(segment: string, isName: boolean): string {
  const dot = segment.lastIndexOf('.');
  // An extension is kept: /news/sirius.html and /news/sirius.json are pages of different kinds.
  const [stem, ext] = dot > 0 && segment.length - dot <= 6 && /^\.[a-z0-9]+$/i.test(segment.slice(dot)) ? [segment.slice(0, dot), segment.slice(dot)] : [segment, ''];
  if (NUMBER.test(stem)) return `{n}${ext}`;
  if (ID.test(stem)) return `{id}${ext}`;
  if (isName || SLUG.test(stem) || stem.length > LONG_SEGMENT) return `{slug}${ext}`;
  return segment;
}

/**
 * The shape of a URL's path and query: `/news/2024/05/sirius-rises?page=2` is `/news/{n}/{n}/{slug}?page`. The last
 * segment of a path two or more segments deep is the page's name within its section (`/topics/nebulae` is
 * `/topics/{slug}`); a first-level word (`/feed`, `/about`) is a page of its own.
 */
export function urlShape(url: string): string {
  const u = new URL(url);
  const segments = u.pathname.split('/').slice(1);
  const named = segments.filter((s) => s !== '').length;
  const last = segments.length - 1 - [...segments].reverse().findIndex((s) => s !== '');
  const path = segments.map((s, i) => (s === '' ? s : segmentShape(s, named >= 2 && i === last)));
  const names = [...new Set([...u.searchParams.keys()])].sort();
  return `/${path.join('/')}${names.length ? `?${names.join('&')}` : ''}`;
}

const SCRIPT_SRC = /<script\b(?![^>]*\btype\s*=\s*["']?(?:application\/(?:ld\+)?json|text\/template|text\/x-template|importmap))[^>]*\bsrc\s*=\s*["']?([^"'\s>]+)/gi;
const INLINE_SCRIPT = /<script\b(?![^>]*\b(?:src|type\s*=\s*["']?(?:application\/(?:ld\+)?json|text\/template|text\/x-template|importmap))\b)[^>]*>\s*\S/i;
/** A file name's build hash or version: `main.3f2a9c1b.js`, `app-20240501.js`. */
const BUILD_HASH = /(?<=[.\-_])(?:[0-9a-f]{6,}|\d{3,})(?=[.\-_])/gi;
/** At most this many scripts are named in a label; the key has them all. */
const NAMED_SCRIPTS = 2;

/** The scripts a page loads, as their paths with build hashes replaced, sorted: pages of one template load the same. */
export function scriptsOf(html: string, pageUrl: string): string[] {
  const seen = new Set<string>();
  for (const m of html.matchAll(SCRIPT_SRC)) {
    let src: URL;
    try {
      src = new URL(m[1]!.replace(/&amp;/g, '&'), pageUrl);
    } catch {
      continue;
    }
    const page = new URL(pageUrl);
    const where = src.host === page.host ? '' : src.host;
    seen.add(`${where}${src.pathname.replace(BUILD_HASH, '{h}')}`);
  }
  if (INLINE_SCRIPT.test(html)) seen.add('inline');
  return [...seen].sort();
}

/**
 * The kind of a page: its URL's shape and its HTML's look. `shell`: its HTML reads as a script's shell (a shell and
 * a whole page of one URL shape are different kinds); `part`: the sign of a part built by scripts it shows, if any.
 */
export function pageKind(url: string, html: string, shell: boolean, part: string | null): PageKind {
  const shape = urlShape(url);
  const scripts = scriptsOf(html, url);
  // The sign without its example: "a web component (<star-chart>)" is "a web component" on every page of the kind.
  const partName = part?.split(' (')[0] ?? '';
  const look = [shell ? 'shell' : 'page', partName && `with ${partName}`, ...scripts].filter(Boolean).join(' | ');
  const named = scripts.map((s) => (s === 'inline' ? 'inline scripts' : s));
  const running = named.length === 0 ? '' : ` running ${named.slice(0, NAMED_SCRIPTS).join(', ')}${named.length > NAMED_SCRIPTS ? ` and ${named.length - NAMED_SCRIPTS} more` : ''}`;
  return { key: `${shape} | ${look}`, label: `${shell ? 'shells' : 'pages'} like ${shape}${partName ? ` with ${partName}` : ''}${running}` };
}
