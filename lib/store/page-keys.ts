// What the Pages table filters on, kept on each page row so an index can answer it (IndexedDB cannot index a
// boolean or null, nor compute a key): the page's kind (its verdict or why it has none), its site, and the words
// of its URL and title that a search finds it by.
import type { PageKind, PageRecord } from '../records/types';
import { siteOf } from '../records/url';

export const PAGE_KINDS: readonly PageKind[] = ['relevant', 'irrelevant', 'unjudged', 'duplicate', 'failed', 'skipped'];

export function pageKind(p: Pick<PageRecord, 'outcome' | 'error' | 'relevant' | 'duplicateOf'>): PageKind {
  if (p.outcome === 'skipped') return 'skipped';
  if (p.outcome === 'failed' || (!p.outcome && p.error)) return 'failed';
  if (p.duplicateOf !== undefined) return 'duplicate';
  return p.relevant === true ? 'relevant' : p.relevant === false ? 'irrelevant' : 'unjudged';
}

/** The registrable domain of the URL requested (the sites panel counts requests the same way). */
function siteOfPage(url: string): string {
  try {
    return siteOf(url);
  } catch {
    return '';
  }
}

/** The row with its list keys set (`site` given when the caller already knows it). */
export function withListKeys<T extends PageRecord>(p: T, site?: string): T {
  return { ...p, kind: pageKind(p), site: site ?? siteOfPage(p.url), terms: pageTerms(p) };
}

/** A word longer than this is indexed by its start; a search for it is checked against the whole row. */
export const TERM_LENGTH = 32;
/** Words kept per page: the title's first, then the URL's; a URL of hundreds of parameters is not indexed whole. */
const MAX_TERMS = 100;

// Scripts written without spaces between words: each character is a word of its own, so that a search for a word
// inside a title finds it (the row is then checked for the whole search).
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * The words of a text a search matches from their start: lower-cased runs of letters and digits (`utm_source`
 * is `utm` and `source`, `bbc.co.uk` is `bbc`, `co`, `uk`), each cut to TERM_LENGTH, without repeats.
 */
export function searchTerms(text: string): string[] {
  const lower = text.toLowerCase();
  // ASCII (most URLs, many titles) splits at non-alphanumerics alone, without the Unicode classes' cost.
  const words = (/^[\x00-\x7f]*$/.test(lower) ? lower.match(/[a-z0-9]+/g) : lower.replace(UNSPACED, ' $& ').match(WORD)) ?? [];
  return [...new Set(words.map((w) => w.slice(0, TERM_LENGTH)))];
}

/** A word as the *terms index keys it: after its crawl's id and a space, so a word's pages in one crawl are one key range. */
export const termKey = (crawlId: number, word: string): string => `${crawlId} ${word}`;

/**
 * A page's search terms, keyed by its crawl. Strings rather than [crawlId, word] pairs: every read of a page row
 * deserializes them, and twenty small arrays a row cost more to read than twenty strings.
 */
export function pageTerms(p: Pick<PageRecord, 'crawlId' | 'url' | 'finalUrl' | 'title'>): string[] {
  const words = searchTerms(`${p.title}\n${p.url}\n${p.finalUrl === p.url ? '' : p.finalUrl}`).slice(0, MAX_TERMS);
  return words.map((w) => termKey(p.crawlId, w));
}
