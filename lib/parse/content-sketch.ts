// A page's content in 64 numbers, to tell the same content under another URL: a MinHash of the word shingles of its
// main text (main-text.ts), by one-permutation hashing (Li, Owen and Zhang, NIPS 2012): each shingle is hashed once
// and falls in one of 64 bins by its hash's top bits, and each bin keeps its least hash. Two pages' sketches agree in a
// share of their bins that estimates the Jaccard resemblance of their shingle sets. Shingles are three words within
// a block of text (never across two), so a listing sorted another way, whose blocks come in another order, keeps its
// shingles. Pure, and cheap: one hash and one compare a word.

/** Bins of a sketch. 64: a resemblance is estimated within about +-0.06 at 0.8, in 256 bytes a page. */
export const SKETCH_BINS = 64;
/** Words a shingle: three tell two product pages of one template apart, yet a changed word touches only three. */
export const SHINGLE_WORDS = 3;
/** A bin no shingle fell in. */
const EMPTY = 0xffffffff;

export interface ContentSketch {
  /** Each bin's least shingle hash (EMPTY when none fell in it). */
  bins: Uint32Array;
  /** Distinct shingles hashed: a page with very few is not compared (there is too little to tell it by). */
  shingles: number;
  /** The same words in the same order give the same key (a 64-bit hash, in hex): an exact duplicate. */
  exact: string;
  /**
   * A hash of the page's heading (its first `<h1>`, else its title), 0 when it has none. Two products of one
   * template share most of their wording but never their name: pages with different headings are never near
   * duplicates, however alike the rest (an exact duplicate is one whatever its heading).
   */
  heading: number;
}

// Scripts written without spaces between words: each character is a word of its own (as the page search reads them).
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const WORDS = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII_WORDS = /[a-z0-9]+/g;

/** A block's words, lowercased. */
export function wordsOf(block: string): string[] {
  const lower = block.toLowerCase();
  // ASCII (most text of most sites) without the Unicode classes' cost.
  if (/^[\x00-\x7f]*$/.test(lower)) return lower.match(ASCII_WORDS) ?? [];
  const words = lower.match(WORDS) ?? [];
  return UNSPACED.test(lower) ? words.flatMap((w) => (UNSPACED.test(w) ? [...w] : [w])) : words;
}

/** FNV-1a over a string's UTF-16 code units, from `h`. */
function fnv(s: string, h: number): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** MurmurHash3's finalizer: every bit of the input moves every bit of the output (FNV's low bits alone do not). */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const FNV_BASIS = 0x811c9dc5;
const SEPARATOR = 0x1f;

/** The sketch of a page's main text (its blocks) and heading. */
export function contentSketch(blocks: readonly string[], heading = ''): ContentSketch {
  const bins = new Uint32Array(SKETCH_BINS).fill(EMPTY);
  const seen = new Set<number>();
  let exactA = FNV_BASIS, exactB = 0x9e3779b9;
  for (const block of blocks) {
    const words = wordsOf(block);
    for (const w of words) {
      exactA = Math.imul(fnv(w, exactA) ^ SEPARATOR, 0x01000193);
      exactB = Math.imul(fnv(w, exactB) ^ SEPARATOR, 0x01000193);
    }
    // A block shorter than a shingle is one shingle of its words (a heading, a price, a label).
    const n = Math.max(1, words.length - SHINGLE_WORDS + 1);
    for (let i = 0; i < n && words.length > 0; i++) {
      let h = FNV_BASIS;
      for (let j = i; j < Math.min(words.length, i + SHINGLE_WORDS); j++) h = Math.imul(fnv(words[j]!, h) ^ SEPARATOR, 0x01000193);
      const x = mix(h >>> 0);
      if (seen.has(x)) continue;
      seen.add(x);
      const bin = x >>> 26; // the top 6 bits: one of 64 bins
      if (x < bins[bin]!) bins[bin] = x;
    }
  }
  const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  return { bins, shingles: seen.size, exact: hex(mix(exactA >>> 0)) + hex(mix(exactB >>> 0)), heading: headingKey(heading) };
}

/** A heading (or an anchor) as a number: its words, case and punctuation aside; 0 for none. */
export function headingKey(text: string): number {
  let head = FNV_BASIS;
  const words = wordsOf(text);
  for (const w of words) head = Math.imul(fnv(w, head) ^ SEPARATOR, 0x01000193);
  return words.length === 0 ? 0 : mix(head >>> 0) || 1;
}

/** Whether two headings may be one page's: the same, or one page has none. */
export const sameHeading = (a: ContentSketch, b: ContentSketch): boolean => a.heading === b.heading || a.heading === 0 || b.heading === 0;

/**
 * The estimated Jaccard resemblance of two pages' shingle sets: the bins where both hold the same least hash, over
 * the bins that are not empty in both (one-permutation hashing's estimator, with no densification needed for it).
 */
export function resemblance(a: Uint32Array, b: Uint32Array): number {
  let same = 0, bothEmpty = 0;
  for (let i = 0; i < SKETCH_BINS; i++) {
    const x = a[i]!, y = b[i]!;
    if (x === y) {
      if (x === EMPTY) bothEmpty++;
      else same++;
    }
  }
  const used = SKETCH_BINS - bothEmpty;
  return used === 0 ? 0 : same / used;
}
