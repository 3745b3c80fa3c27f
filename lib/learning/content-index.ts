// The content a crawl holds, by its sketch (lib/parse/content-sketch.ts): which page a new one duplicates, exactly (the
// same main text) or nearly (the same text with another sidebar, timestamp or "recently viewed" box). Near matches are
// found by banding (locality-sensitive hashing): sketches that agree in both bins of one of 32 bands are compared
// in full, so a page is compared with a few candidates, not with every page held.
import { resemblance, sameHeading, SKETCH_BINS, type ContentSketch } from '../parse/content-sketch';

/**
 * Resemblance at which two pages under one heading are one content. Measured (docs/duplicates.md): pages of the test
 * shop's one template under another heading are never compared; under one heading (a listing's pages, its filters)
 * different content stayed under 0.3, and near-duplicates (another sidebar, timestamp, "recently viewed" box, reply
 * link, grid view) were 0.6 and over.
 */
export const NEAR_DUPLICATE = 0.65;
/**
 * A shorter version of a page (print, AMP: the text without its boxes) is the page's content when nearly all of its
 * shingles are the longer one's, and it holds at least half as many: a listing filtered to a few of its items is not.
 */
export const CONTAINED = 0.9;
export const CONTAINED_SIZE = 0.7;
/**
 * Two pages alike by resemblance hold about as many shingles: the shorter three quarters of the longer at least. A
 * Jaccard resemblance is never above that ratio, so an estimate over NEAR_DUPLICATE for pages further apart in size is
 * the sketch's noise (a listing filtered to half its items measured 0.6 to 0.65 against the whole).
 */
export const NEAR_SIZE = 0.75;
/** Distinct shingles a page needs to be compared at all: below it there is too little text to tell pages apart by. */
export const MIN_SHINGLES = 8;

const BAND_BINS = 2;
const BANDS = SKETCH_BINS / BAND_BINS;
const EMPTY = 0xffffffff;

/** A page the crawl holds, as the index knows it. */
export interface HeldContent {
  url: string;
  sketch: ContentSketch;
  /** The page's verdict (null: none, a list page): its links are planned with it when a duplicate is met. */
  relevant: boolean | null;
  /** The canonical URL the page named, when it named another. */
  canonical?: string;
}

export interface ContentMatch {
  held: HeldContent;
  /** 1 for an exact duplicate. */
  resemblance: number;
  exact: boolean;
}

export class ContentIndex {
  private readonly byUrl = new Map<string, HeldContent>();
  private readonly byExact = new Map<string, HeldContent>();
  private readonly bands = new Map<string, HeldContent[]>();

  constructor(readonly threshold = NEAR_DUPLICATE) {}

  get size(): number {
    return this.byUrl.size;
  }

  /** The held page fetched as `url`, if any. */
  atUrl(url: string): HeldContent | undefined {
    return this.byUrl.get(url);
  }

  /** Holds a page; one with too little text is held by its URL only (it is never matched). */
  add(page: HeldContent): void {
    this.byUrl.set(page.url, page);
    if (!comparable(page.sketch)) return;
    if (!this.byExact.has(page.sketch.exact)) this.byExact.set(page.sketch.exact, page);
    for (const key of bandKeys(page.sketch.bins)) {
      const list = this.bands.get(key);
      if (list) list.push(page);
      else this.bands.set(key, [page]);
    }
  }

  /** The held page `sketch` duplicates (the most alike; on a tie, the first met), or null. */
  match(sketch: ContentSketch): ContentMatch | null {
    if (!comparable(sketch)) return null;
    const exact = this.byExact.get(sketch.exact);
    if (exact) return { held: exact, resemblance: 1, exact: true };
    let best: ContentMatch | null = null;
    const seen = new Set<HeldContent>();
    for (const key of bandKeys(sketch.bins)) {
      for (const held of this.bands.get(key) ?? []) {
        if (seen.has(held)) continue;
        seen.add(held);
        if (!sameHeading(sketch, held.sketch)) continue;
        const r = resemblance(sketch.bins, held.sketch.bins);
        if (alike(sketch, held.sketch, r, this.threshold) && (!best || r > best.resemblance)) best = { held, resemblance: r, exact: false };
      }
    }
    return best;
  }
}

/** Whether a page has text enough to be told apart by. */
export const comparable = (s: ContentSketch): boolean => s.shingles >= MIN_SHINGLES;

/**
 * Two sketches of one heading with resemblance `r` are one content: alike enough, or the shorter nearly all in the longer
 * (its shingles in common estimated from `r` and both sizes: |A n B| = r (|A| + |B|) / (1 + r)).
 */
function alike(a: ContentSketch, b: ContentSketch, r: number, threshold: number): boolean {
  const small = Math.min(a.shingles, b.shingles), large = Math.max(a.shingles, b.shingles);
  if (r >= threshold && small >= NEAR_SIZE * large) return true;
  return small >= CONTAINED_SIZE * large && (r * (small + large)) / (1 + r) >= CONTAINED * small;
}

/** Whether two pages are one content: the same words, or alike enough under one heading; null when either is too short to tell. */
export function sameContent(a: ContentSketch, b: ContentSketch, threshold = NEAR_DUPLICATE): boolean | null {
  if (!comparable(a) || !comparable(b)) return null;
  return a.exact === b.exact || (sameHeading(a, b) && alike(a, b, resemblance(a.bins, b.bins), threshold));
}

/** The bands of a sketch, as keys; a band of empty bins says nothing and is left out. */
function bandKeys(bins: Uint32Array): string[] {
  const keys: string[] = [];
  for (let b = 0; b < BANDS; b++) {
    const at = b * BAND_BINS;
    let empty = true;
    let key = `${b}`;
    for (let i = at; i < at + BAND_BINS; i++) {
      if (bins[i] !== EMPTY) empty = false;
      key += `:${bins[i]!.toString(36)}`;
    }
    if (!empty) keys.push(key);
  }
  return keys;
}
