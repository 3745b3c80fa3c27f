// The links of the live page as the crawler sees them: the same extractor (lib/parse/link-context) on
// `document`, so a label carries exactly the anchor and context a crawl would read for that link.
import { extractLinkElements, type LinkElement } from '@/lib/parse/link-context';
import type { LinkToScore } from '@/lib/protocol';
import type { ExtractedLink, LabelValue } from '@/lib/types';

/** One link on the page, its badge's state. */
export interface LinkMark {
  element: Element;
  link: ExtractedLink;
  /** URL, anchor and context: two marks with the same key score the same. */
  key: string;
  /** P(on topic | link) under the active topic's model; null until scored. */
  score: number | null;
  /** The user's label for the link's URL under the active topic. */
  label: LabelValue | null;
  /** A label request is on its way to the worker. */
  pending: boolean;
}

export const featureKey = (l: ExtractedLink): string => `${l.url}\n${l.anchor}\n${l.context}`;

export const toScore = (m: LinkMark): LinkToScore => ({ url: m.link.url, anchor: m.link.anchor, context: m.link.context });

/** The page's links now, read from the live DOM the way the crawler reads a fetched page. */
export function readPageLinks(doc: Document = document): LinkElement[] {
  return extractLinkElements(doc, doc.URL);
}

/**
 * Marks for the links found, keeping the mark (and so its score and badge) of every element whose link
 * reads the same as before. Returns the marks in document order and those that are new or gone.
 */
export function reconcileMarks(previous: readonly LinkMark[], found: readonly LinkElement[]): { marks: LinkMark[]; added: LinkMark[]; removed: LinkMark[] } {
  const byElement = new Map(previous.map((m) => [m.element, m]));
  const marks: LinkMark[] = [];
  const added: LinkMark[] = [];
  for (const { element, link } of found) {
    const key = featureKey(link);
    const old = byElement.get(element);
    if (old && old.key === key) {
      byElement.delete(element);
      marks.push(old);
      continue;
    }
    const mark: LinkMark = { element, link, key, score: null, label: null, pending: false };
    marks.push(mark);
    added.push(mark);
  }
  return { marks, added, removed: [...byElement.values()] };
}

export interface BadgeSpot {
  x: number;
  y: number;
}

/**
 * Where a link's badge goes in viewport coordinates: over the top-right corner of the link's first line
 * box, or null when the link takes no space or is out of view. Reads layout only.
 */
export function badgeSpot(el: Element, viewW: number, viewH: number, badgeW = 40, badgeH = 14): BadgeSpot | null {
  const rects = el.getClientRects();
  let r: DOMRect | undefined;
  for (let i = 0; i < rects.length; i++) {
    const c = rects[i]!;
    if (c.width > 0 && c.height > 0) {
      r = c;
      break;
    }
  }
  if (!r || r.bottom < 0 || r.top > viewH || r.right < 0 || r.left > viewW) return null;
  const x = Math.min(Math.max(0, r.right - 6), viewW - badgeW);
  const y = Math.min(Math.max(0, r.top - badgeH + 5), viewH - badgeH);
  return { x: Math.round(x), y: Math.round(y) };
}

/** The link element an event target is in (`<a href>` or `<area href>`), if any. */
export function linkElementOf(target: EventTarget | null): Element | null {
  return target instanceof Element ? target.closest('a[href], area[href]') : null;
}
