// What a crawl knows of the content it holds, for the run: the pages held by their sketch (content-index.ts) and what
// their URLs taught of each host's variants (variant-learner.ts). Rebuilt when a run opens from the sketches the store
// kept and the crawl row's variants; grown as pages are examined, before their commits (so two near-duplicates in
// flight at once are told apart too).
import { headingKey, wordsOf, type ContentSketch } from '../parse/content-sketch';
import { hostOf } from '../records/url';
import type { RunStorePort } from '../ports';
import type { CrawlRecord } from '../records/rows';
import { ContentIndex, sameContent, type ContentMatch, type HeldContent } from './content-index';
import { candidates, ruleWords, type VariantBook, type VariantRule } from './url-variants';
import { VariantLearner, type SameAs } from './variant-learner';

/** A page's sketch as the store keeps it (the sketches table). */
export interface StoredSketch {
  url: string;
  sketch: ContentSketch;
  relevant: boolean | null;
  canonical?: string;
  /** Set for a duplicate: it is not held itself, only remembered for its URL's variants. */
  duplicateOf?: string;
}

/**
 * Subtracted from the priority of a link presumed another spelling of a page the crawl knows: it waits behind every
 * other link (in its own order among the presumed), and is taken when nothing that looks new is left. Large enough for
 * any strategy whose priority follows the link classifier (log-odds, HITS scores).
 */
export const PRESUMED_PENALTY = 1e6;

/** Why a link may be another spelling of a page the crawl knows, and the rule (of its host) that would make it one. */
export interface Presumption {
  why: string;
  host: string;
  rule: VariantRule;
}

/** Anchors of fewer words say too little to name one page ("Home", "Next"). */
const MIN_NAME_WORDS = 2;

/** The URLs of one page (its own and its links'): which of its links is another spelling of another. */
export class PageVariants {
  private readonly urls: Set<string>;

  constructor(urls: readonly string[]) {
    this.urls = new Set(urls);
  }

  /**
   * A URL of the page that `url` is one rule from (what the rule makes of it: `?variant=default` beside the product),
   * or null. Siblings by one rule (`?id=1` beside `?id=2`) say nothing: they are as often pages of their own.
   */
  near(url: string, skip: (rule: VariantRule) => boolean): { rule: VariantRule; other: string } | null {
    for (const c of candidates(url)) if (!skip(c.rule) && this.urls.has(c.reduced) && c.reduced !== url) return { rule: c.rule, other: c.reduced };
    return null;
  }
}

export class Duplicates {
  readonly index = new ContentIndex();
  readonly variants: VariantLearner;
  /** Per host, the headings of the pages held, by their key: a link named like one may lead to it. */
  private readonly headings = new Map<string, Map<number, string>>();

  constructor(book: VariantBook | undefined, stored: readonly StoredSketch[] = []) {
    this.variants = new VariantLearner(book, (a, b) => sameContent(a, b, this.index.threshold));
    for (const s of stored) {
      if (s.duplicateOf === undefined) this.hold({ url: s.url, sketch: s.sketch, relevant: s.relevant, ...(s.canonical ? { canonical: s.canonical } : {}) });
      this.variants.restore(s.url, s.sketch);
    }
  }

  /** The held page a sketch duplicates, or null. */
  match(sketch: ContentSketch): ContentMatch | null {
    return this.index.match(sketch);
  }

  hold(page: HeldContent): void {
    this.index.add(page);
    if (page.sketch.heading === 0) return;
    const host = hostOf(page.url);
    let byKey = this.headings.get(host);
    if (!byKey) this.headings.set(host, (byKey = new Map()));
    if (!byKey.has(page.sketch.heading)) byKey.set(page.sketch.heading, page.url);
  }

  /** The held page a link is named like (its anchor or a slug of its path is that page's heading), or undefined. */
  named(url: string, anchor: string): string | undefined {
    const headings = this.headings.get(hostOf(url));
    if (!headings) return undefined;
    const lookup = (text: string) => {
      if (wordsOf(text).length < MIN_NAME_WORDS) return undefined;
      const held = headings.get(headingKey(text));
      return held !== url ? held : undefined;
    };
    // A slug: /products/baader-comet-7-eyepiece/print for "Baader Comet 7 eyepiece".
    return lookup(anchor) ?? new URL(url).pathname.split('/').filter((s) => /[-_]/.test(s)).map(lookup).find((u) => u !== undefined);
  }

  /**
   * Why a link may be another spelling of a page the crawl knows, or null: its URL is one rule from a page held or
   * seen, or from another URL of the page it is on (`?sort=price` beside the page itself, `?variant=default` beside the
   * product), by a rule not seen to change content on its host; or its anchor, or a slug of its path, is the heading
   * of a page held on its host, of two words or more (a product linked by its name under another URL), and links so
   * named were not seen to lead elsewhere. A pager's link is never presumed.
   */
  presume(link: { url: string; anchor: string; pagination?: string }, page: PageVariants): Presumption | null {
    if (link.pagination) return null;
    const host = hostOf(link.url);
    const changes = (rule: VariantRule) => this.variants.changes(host, rule);
    const near = this.variants.near(link.url) ?? page.near(link.url, changes);
    if (near) return { why: `may be ${near.other} spelled another way (${ruleWords(near.rule)})`, host, rule: near.rule };
    const named = changes('named') ? undefined : this.named(link.url, link.anchor);
    return named ? { why: `named like ${named}, which the crawl holds`, host, rule: 'named' } : null;
  }

  /** The held page a URL (found by a link named `anchor`) is by what its host's learned rules say, or null. */
  sameAs(url: string, anchor = ''): SameAs | null {
    const same = this.variants.sameAs(url);
    if (same) return same;
    const host = hostOf(url);
    if (!this.variants.learned(host, 'named')) return null;
    const named = this.named(url, anchor);
    return named ? { url: named, host, rules: ['named'] } : null;
  }
}

/** The run's duplicates, from the sketches the store kept and the crawl row's variants. */
export async function loadDuplicates(store: RunStorePort, crawl: CrawlRecord): Promise<Duplicates> {
  const rows = (await store.sketches?.(crawl.id!)) ?? [];
  const stored: StoredSketch[] = rows.map((r) => ({
    url: r.url, sketch: { bins: r.bins, shingles: r.shingles, exact: r.exact, heading: r.heading }, relevant: r.relevant,
    ...(r.canonical ? { canonical: r.canonical } : {}), ...(r.duplicateOf ? { duplicateOf: r.duplicateOf } : {}),
  }));
  return new Duplicates(crawl.variants, stored);
}
