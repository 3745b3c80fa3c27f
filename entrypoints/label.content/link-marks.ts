// The links of the live page as the crawler sees them: the same extractor (lib/parse/link-context) on
// `document`, so a label carries exactly the anchor and context a crawl would read for that link.
import { extractLinkElements, type LinkElement } from '@/lib/parse/link-context';
import type { LinkToScore } from '@/lib/app/protocol.ts';
import type { ExtractedLink, LabelValue } from '@/lib/records/types.ts';
import type { Box } from './badge-place';

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

export { placeBadges, type BadgeSpot, type Box } from './badge-place';

/**
 * The boxes of a link's text, one per line it takes (Range.getClientRects of its contents: a block-level link
 * is as wide as its container, its text is not), or its own boxes when it has no text (an image link).
 * Reads layout only.
 */
export function textBoxes(el: Element): Box[] {
  let rects = rangeRects(el);
  if (rects.length === 0) rects = [...el.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
  return rects.map(boxOf);
}

/** A paragraph with more child nodes than this is not read for the text around its links (cost per frame). */
const AROUND_MAX_NODES = 40;

/**
 * The text boxes of the elements the links sit in (their paragraphs or list items), each element read once:
 * a badge avoids these where it can. Reads layout only.
 */
export function textAround(links: readonly Element[]): Box[] {
  const seen = new Set<Element>();
  const out: Box[] = [];
  for (const el of links) {
    const parent = el.parentElement;
    if (!parent || seen.has(parent) || parent === el.ownerDocument.body || parent.childNodes.length > AROUND_MAX_NODES) continue;
    seen.add(parent);
    for (const r of rangeRects(parent)) out.push(boxOf(r));
  }
  return out;
}

function rangeRects(el: Element): DOMRect[] {
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  return [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
}

const boxOf = (r: DOMRect): Box => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });

/** The link element an event target is in (`<a href>` or `<area href>`), if any. */
export function linkElementOf(target: EventTarget | null): Element | null {
  return target instanceof Element ? target.closest('a[href], area[href]') : null;
}
