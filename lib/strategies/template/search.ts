// Design E.2: seeds from a search engine. The template's keywords go into the engine's query URL, the result
// pages are read by offset, and the result links are taken in order: links that leave the engine's own site,
// minus its ads and navigation (or, for engines where that is not enough, the links a CSS selector picks).
// Deduped, order kept. The pages themselves are requested by the caller, through the crawl's request gate.
import { parseHTML } from 'linkedom';
import { normalizeUrl, siteOf } from '../../records/url';
import { searchUrl, type TemplateSearch } from '../../records/template-config';

/** Containers whose links are the engine's own furniture, not results. */
const FURNITURE = new Set(['NAV', 'HEADER', 'FOOTER', 'ASIDE', 'FORM']);
/** Class, id or data attribute words that mark an ad block ("ad", "ads", "b_ad", "sponsored", "promo"). */
const AD_WORD = /(?:^|[\s_-])(?:ads?|advert\w*|sponsor\w*|promo\w*|commercial)(?:$|[\s_-])/i;

function isFurniture(el: Element | null): boolean {
  for (let e = el; e; e = e.parentElement) {
    if (FURNITURE.has(e.tagName)) return true;
    const marks = `${e.getAttribute('class') ?? ''} ${e.getAttribute('id') ?? ''} ${e.getAttribute('data-type') ?? ''}`;
    if (AD_WORD.test(marks) || e.getAttribute('role') === 'navigation') return true;
  }
  return false;
}

/** The result links of one result page, in page order (canonical URLs, deduped). */
export function resultLinks(html: string, pageUrl: string, selector?: string): string[] {
  const { document } = parseHTML(html);
  const engineSite = siteOf(pageUrl);
  const anchors = [...(document.querySelectorAll(selector ?? 'a[href]') as unknown as Iterable<Element>)];
  const out: string[] = [];
  for (const a of anchors) {
    const link = a.tagName === 'A' ? a : a.querySelector('a[href]');
    const href = link?.getAttribute('href');
    if (!link || !href) continue;
    if (!selector && ((link.getAttribute('rel') ?? '').split(/\s+/).includes('sponsored') || isFurniture(link))) continue;
    const url = normalizeUrl(href, pageUrl);
    if (!url || siteOf(url) === engineSite || out.includes(url)) continue;
    out.push(url);
  }
  return out;
}

/** Reads one result page through the crawl's gate: its HTML and final URL, or why it could not be had. */
export type ReadPage = (url: string) => Promise<{ html: string; url: string } | { error: string }>;

export interface SearchReport {
  /** The ordered, deduped result list N (design E.2). */
  seeds: string[];
  /** Result pages read, and those that failed, with why. */
  pages: number;
  errors: string[];
}

/**
 * Pages through the engine for each keyword, in order; a keyword's paging stops early at a page with no new
 * results (the engine ran out).
 */
export async function searchSeeds(search: TemplateSearch, read: ReadPage, halted: () => boolean = () => false): Promise<SearchReport> {
  const seeds: string[] = [];
  const errors: string[] = [];
  let pages = 0;
  for (const keyword of search.keywords) {
    for (let page = 0; page < search.pages && !halted(); page++) {
      const url = searchUrl(search, keyword, page);
      const got = await read(url);
      pages++;
      if ('error' in got) {
        errors.push(`${url}: ${got.error}`);
        break;
      }
      const fresh = resultLinks(got.html, got.url, search.selector).filter((u) => !seeds.includes(u));
      seeds.push(...fresh);
      if (fresh.length === 0) break;
    }
  }
  return { seeds, pages, errors };
}
