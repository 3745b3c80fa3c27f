// Which pages the crawl renders in the user's browser (`fetch.render`), and what a rendered page may ask for.
// `auto` learns by kind of page, not by site (design notes in docs/rendering.md, "How auto decides"): a site's
// articles, its lists filled by scripts and its app's routes are different kinds (lib/parse/page-kind.ts), and
// rendering changes some and not others. One change on a page of a kind keeps that kind rendered; a kind is left
// unrendered only after several of its pages rendered with no change, and even then one of its pages is rendered
// again now and then (after 6, 12, 24... left unrendered), so a decision is revisited as pages come. A page whose HTML
// reads as a script's shell is rendered whatever its kind's record, and no site is ever switched off as a whole.
import type { RenderMode } from '../records/config';
import type { PageRequest } from '../net/render';
import type { PageKind } from '../parse/page-kind';
import type { ParsedPage } from '../records/types';
import { describeBlock, type SafetyGuard } from './safety';

/** Rendered pages of a kind that changed nothing before `auto` leaves the kind unrendered. */
export const STATIC_AFTER = 3;

/** What rendering pages of one kind, on one host, showed so far. */
export interface KindRenders {
  label: string;
  rendered: number;
  changed: number;
  /** The first change rendering made on a page of the kind, in words, with the page's URL. */
  firstChange?: string;
  /** Pages of the kind left unrendered because its rendered pages changed nothing. */
  passed: number;
  /** Pages of such a kind rendered again to check. */
  rechecks: number;
}

/** What a page's own HTML says, as `auto` reads it (lib/parse/script-shell.ts, page-kind.ts). */
export interface PageSigns {
  /** It runs a script: without one (and without a frame of its site) a tab shows what the HTML says. */
  scripts: boolean;
  /** Why its HTML reads as a script's shell, or null. */
  shell: string | null;
  /** The part of it scripts build (a frame, a web component, a "load more", an empty list), or null. */
  part: string | null;
  kind: PageKind;
}

/** What rendering showed, kind by kind and host by host, in one run of a crawl (it learns afresh on a resume). */
export class RenderBook {
  /** Records by host, then by kind. */
  private readonly hosts = new Map<string, Map<string, KindRenders>>();

  /** The kind's record on the host, or undefined before any of its pages was rendered or left. */
  kind(host: string, kind: PageKind): KindRenders | undefined {
    return this.hosts.get(host)?.get(kind.key);
  }

  /** A page of the kind was rendered; `change`: what rendering added, or null. */
  rendered(host: string, kind: PageKind, url: string, change: string | null): void {
    const k = this.record(host, kind);
    k.rendered++;
    if (!change) return;
    k.changed++;
    k.firstChange ??= `${change} on ${url}`;
  }

  /** What was decided for a page of the kind: a page left, or rendered to check, is counted for the checks. */
  decided(host: string, kind: PageKind, d: RenderDecision): void {
    if (d.check) this.record(host, kind).rechecks++;
    else if (!d.render && d.learned) this.record(host, kind).passed++;
  }

  private record(host: string, kind: PageKind): KindRenders {
    let kinds = this.hosts.get(host);
    if (!kinds) this.hosts.set(host, (kinds = new Map()));
    let k = kinds.get(kind.key);
    if (!k) kinds.set(kind.key, (k = { label: kind.label, rendered: 0, changed: 0, passed: 0, rechecks: 0 }));
    return k;
  }
}

export interface RenderDecision {
  render: boolean;
  why: string;
  /** Decided from what rendering showed on pages of its kind (a page row says so even when not rendered). */
  learned?: boolean;
  /** A page of a kind left unrendered, rendered again to see whether its kind still changes nothing. */
  check?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Whether to render a page: `page` is what its HTML says, `book` what rendering showed on its host so far. Pure: the
 * rendering step records the decision it acts on (`RenderBook.decided`).
 */
export function decideRender(mode: RenderMode, page: PageSigns | null, book: RenderBook, host: string): RenderDecision {
  if (mode === 'never') return { render: false, why: 'rendering is off' };
  if (mode === 'always' || !page) return { render: true, why: 'every page is rendered' };
  if (!page.scripts && !page.part) return { render: false, why: 'its HTML runs no script' };
  if (page.shell) return { render: true, why: page.shell };
  const { label } = page.kind;
  const k = book.kind(host, page.kind);
  if (k && k.changed > 0) {
    return { render: true, learned: true, why: `${label}: ${k.changed} of ${k.rendered} rendered changed (the first: ${k.firstChange})` };
  }
  if (k && k.rendered >= STATIC_AFTER) {
    const unchanged = `${label}: ${k.rendered} rendered, none changed`;
    // Rechecks after 6, 12, 24... pages left: a kind that changes later is found again at a cost that shrinks.
    if (k.passed >= STATIC_AFTER * 2 ** (k.rechecks + 1)) {
      return { render: true, learned: true, check: true, why: `${unchanged}; ${plural(k.passed, 'page')} of them left unrendered since, this one rendered to check` };
    }
    return { render: false, learned: true, why: unchanged };
  }
  // A kind not learned yet: its first pages are rendered to learn it, whatever order the crawl comes to them in.
  const sofar = k?.rendered ? `${k.rendered} rendered so far, none changed` : 'none rendered yet';
  return { render: true, learned: true, why: `${page.part ? `${page.part}; ` : ''}${label}: ${sofar}` };
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
