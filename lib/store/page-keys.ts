// What the Pages table filters on, kept on each page row so an index can answer it (IndexedDB cannot index a
// boolean or null, nor compute a key): the page's kind (its verdict or why it has none) and its site.
import type { PageKind, PageRecord } from '../types';
import { siteOf } from '../url';

export const PAGE_KINDS: readonly PageKind[] = ['relevant', 'irrelevant', 'unjudged', 'failed', 'skipped'];

export function pageKind(p: Pick<PageRecord, 'outcome' | 'error' | 'relevant'>): PageKind {
  if (p.outcome === 'skipped') return 'skipped';
  if (p.outcome === 'failed' || (!p.outcome && p.error)) return 'failed';
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
  return { ...p, kind: pageKind(p), site: site ?? siteOfPage(p.url) };
}
