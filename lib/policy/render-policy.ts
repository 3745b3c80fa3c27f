// Which pages the crawl renders in the user's browser (`fetch.render`), and what a rendered page may ask for.
// `auto` decides per page from its HTML (parse/script-shell.ts) and per site from what rendering changed on the
// site's first rendered pages: a site where rendering found more is rendered throughout, one where it changed
// nothing on its first pages is not rendered again, so a static site costs no tab at all.
import type { RenderMode } from '../records/config';
import type { PageRequest } from '../net/render';
import type { ParsedPage } from '../records/types';
import { describeBlock, type SafetyGuard } from './safety';

/** Rendered pages of a site that changed nothing before `auto` stops rendering there. */
export const STATIC_AFTER = 3;

/** What rendering a site's pages showed so far. */
export interface SiteRenders {
  rendered: number;
  changed: number;
  /** The first change rendering made on the site, in words, with the page's URL. */
  firstChange?: string;
}

export type SiteVerdict = 'scripts' | 'static' | 'unknown';

/** A site is built by scripts when rendering changed at least half its rendered pages; static when none of its first few. */
export function siteVerdict(s: SiteRenders | undefined): SiteVerdict {
  if (!s || s.rendered === 0) return 'unknown';
  if (s.changed > 0 && s.changed * 2 >= s.rendered) return 'scripts';
  return s.rendered >= STATIC_AFTER ? 'static' : 'unknown';
}

export interface RenderDecision {
  render: boolean;
  why: string;
}

/**
 * Whether to render a page. `shell`: why its HTML reads as a script's shell (null: it reads as a whole page);
 * `site`: what rendering did on the page's site so far.
 */
export function decideRender(mode: RenderMode, shell: string | null, site: SiteRenders | undefined): RenderDecision {
  if (mode === 'never') return { render: false, why: 'rendering is off' };
  if (mode === 'always') return { render: true, why: 'every page is rendered' };
  switch (siteVerdict(site)) {
    case 'scripts':
      return { render: true, why: `the site is built by scripts (${site!.firstChange ?? 'rendering found more'})` };
    case 'static':
      return { render: false, why: `rendering changed nothing on the site's first ${site!.rendered} rendered pages` };
    case 'unknown':
      return shell ? { render: true, why: shell } : { render: false, why: 'its HTML reads as a whole page' };
  }
}

/** Text growth that counts as a change: half as much again, and at least this many characters. */
const MORE_TEXT_CHARS = 100;

/** What rendering added to a page, in words, or null when the reader sees what the HTML already said. */
export function renderChange(fetched: ParsedPage, rendered: ParsedPage): string | null {
  const known = new Set(fetched.links.map((l) => l.url));
  const added = new Set(rendered.links.map((l) => l.url).filter((u) => !known.has(u))).size;
  if (added > 0) return `rendering found ${added} more link${added === 1 ? '' : 's'}`;
  const grew = rendered.text.length - fetched.text.length;
  if (grew >= MORE_TEXT_CHARS && rendered.text.length >= fetched.text.length * 1.5) {
    return `rendering showed ${grew} more characters of text`;
  }
  return null;
}

/** Methods a rendered page may use: it reads, as a reader's visit does; anything that writes is stopped. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The guard for a rendered page's own requests: the same session-safety guard as links, and for a navigation away
 * also the crawl's scope. Two differences, both because the page, not a link, asks: a script's GET to an `/api/`
 * path is how such pages read their lists, so the `api path` rule does not stop it (it still stops a navigation
 * there); and any request that is not a read (POST, PUT, DELETE, a beacon) is stopped whatever its URL.
 */
export function renderGuard(safety: SafetyGuard, outOfScope: (url: string) => string | null) {
  return (r: PageRequest): string | null => {
    if (!/^https?:/i.test(r.url)) return null; // data:, blob: and the like reach no server
    if (!READS.has(r.method.toUpperCase())) return `a ${r.method.toUpperCase()} request: a rendered page may only read`;
    const block = safety.check(r.url);
    if (block && !(block.rule === 'api path' && !r.navigation)) return describeBlock(block);
    if (r.navigation) {
      const outside = outOfScope(r.url);
      if (outside) return `a navigation out of the crawl: ${outside}`;
    }
    return null;
  };
}
