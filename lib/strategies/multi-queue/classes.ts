// Design D.1-D.2: the class of a URL on a targeted site and the priority it is queued with. Pure functions of the
// link (what the parser saw of it), the page it was found on, and the user's list and content patterns.
import type { UrlMatcher } from '../../records/patterns';
import type { FrontierEntry } from '../../records/types';
import type { PlannedLink } from '../types';
import type { UrlClass } from '../../records/types';

export interface ClassPatterns {
  listPages: UrlMatcher;
  contentPages: UrlMatcher;
}

/**
 * What a fetched page is: a list page's next page or a content page's own page as it was queued (they are
 * list and content pages, known more precisely), else its URL's pattern, else the class of its link.
 */
export function pageClass(url: string, entry: Pick<FrontierEntry, 'strategy'>, p: ClassPatterns): UrlClass {
  const queued = entry.strategy?.urlClass;
  if (queued === 'pagination' || queued === 'content-return') return queued;
  if (p.listPages.matches(url)) return 'list';
  if (p.contentPages.matches(url)) return 'content';
  return entry.strategy?.urlClass ?? 'other';
}

/** A list page, or a page of one's pagination: mined for links, never content. */
export const isListing = (c: UrlClass): boolean => c === 'list' || c === 'pagination';
const isContent = (c: UrlClass): boolean => c === 'content' || c === 'content-return';

/** Files a content page links as its own (attachments): they belong to the page (design D.1 content-return). */
const ATTACHMENT = /\.(?:pdf|docx?|xlsx?|pptx?|odt|zip|rar|7z|gz|txt|csv|jpe?g|png|gif|webp)$|\/attachments?\/|[?&](?:attach(?:ment)?id|aid)=/i;

/**
 * Design D.1: a link's class on a page of class `parent`. A content page's next pages and attachments are its
 * content-return links, a list page's pager its pagination; other links, a pager of a page of neither kind
 * included, are classed by the patterns.
 */
export function linkClass(link: Pick<PlannedLink, 'url' | 'pagination'>, parent: UrlClass, p: ClassPatterns): UrlClass {
  if (isContent(parent) && (link.pagination || ATTACHMENT.test(link.url))) return 'content-return';
  if (link.pagination && isListing(parent)) return 'pagination';
  if (p.listPages.matches(link.url)) return 'list';
  if (p.contentPages.matches(link.url)) return 'content';
  return 'other';
}

/**
 * Design D.2: content-return links get the maximum (a multi-page article is finished fast), a pager keeps its
 * page's priority, everything else one less; never below 1.
 */
export function linkPriority(cls: UrlClass, parentPriority: number, maxPriority: number): number {
  if (cls === 'content-return') return maxPriority;
  const cur = Math.min(maxPriority, Math.max(1, Math.round(parentPriority)));
  return cls === 'pagination' ? cur : Math.max(1, cur - 1);
}
