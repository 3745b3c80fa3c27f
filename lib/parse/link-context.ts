// Link extraction with link context (design A.4), over any standard DOM: linkedom's in the service worker
// and in Node, the live page's in a content script. Both must give the same answer, so this file uses only
// childNodes, firstChild/nextSibling/parentNode, nodeType, nodeValue, localName, getAttribute(Names) and
// textContent, and walks the tree itself (no TreeWalker, no innerText: linkedom lacks the first and cannot
// lay out a page for the second).

import type { ExtractedLink, LinkMarkup } from '../records/types';
import { collapseSpaces } from './whitespace';
import { attr, MarkupReader, nonEmpty } from './link-markup';
import { pagerRoles, replyCount } from './listing';
import { MainText } from './main-text';

export type DomRoot = Document | Element | DocumentFragment;

export interface LinkContextOptions {
  /** Characters looked at before and after each anchor (design A.4 "window of fixed size"). */
  windowChars?: number;
  /** Also collect the page's main text (main-text.ts): what the crawl compares pages by; the labeler needs none. */
  mainText?: boolean;
}

/** Everything one walk over a page yields; parseHtml reuses it so the tree is walked once. */
export interface PageScan {
  /** Visible text in document order, whitespace collapsed (the stream the contexts are cut from). */
  text: string;
  links: ExtractedLink[];
  /** Text of the first `<title>`, collapsed, or null. */
  title: string | null;
  /** Text of the first `<h1>`, collapsed, or null. */
  firstHeading: string | null;
  /** Lowercased tokens of every `<meta name="robots" content>`. */
  robots: string[];
  /** The page has a password field: a sign-in form, most often. */
  passwordField: boolean;
  /** The page's main text in blocks, without navigation, header, footer and sidebars (main-text.ts), when asked for. */
  main: string[] | null;
  /** The text of the first `<h1>` outside them, or null. */
  mainHeading: string | null;
  /** The first `<link rel="canonical" href>`, resolved against the base, when it is an http(s) URL. */
  canonical: string | null;
}

export const DEFAULT_WINDOW_CHARS = 80;
/**
 * The longest anchor and context extracted: about 150 and 600 words. The worker refuses longer ones in a
 * label or a score request (lib/export/label-input.ts), so a link read here is never refused there, and a page
 * cannot hand the labeler a 5 MB anchor to store.
 */
export const MAX_ANCHOR_CHARS = 1_000;
export const MAX_CONTEXT_CHARS = 4_000;

/** Never rendered as text. `head` is not here on purpose: htmlparser2 (under linkedom) keeps body content
 * inside an unclosed `<head>`, so skipping it would lose the links of such pages; the text-bearing things a
 * real head holds (title, script, style) are skipped by name instead. */
const SKIPPED = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'title', 'iframe', 'object', 'canvas',
  'textarea', 'select', 'datalist', 'audio', 'video',
]);

/** Elements whose edges separate words ("a</p><p>b" reads "a b", "a<b>b</b>" reads "ab", as a browser shows). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'dd', 'details', 'dialog',
  'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'main', 'menu', 'nav', 'ol', 'option',
  'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'button',
]);

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
/** How far a cut may move to reach a word boundary; text without spaces (Chinese) keeps the plain cut. */
const MAX_WORD_SHIFT = 20;

/** An `<a href>` (or `<area href>`) as a span of the text stream. */
interface LinkSpan {
  el: Element;
  href: string;
  /** Stream offsets; start stays -1 until the link's first visible character. */
  start: number;
  end: number;
  imgAlt: string | null;
  imgTitle: string | null;
  anchor: string;
  /** What its markup says a click does (LINK_MARKUP_ATTRIBUTES, an icon inside it, a form around it); null: nothing. */
  markup: LinkMarkup | null;
}

/** Builds the collapsed text stream chunk by chunk, so offsets are final as they are handed out. */
class TextStream {
  private parts: string[] = [];
  length = 0;
  private pendingSpace = false;

  /** Appends a text node's text; returns the offset of its first visible character, or -1 if none. */
  append(raw: string): number {
    let s = collapseSpaces(raw);
    if (s.length === 0) return -1;
    if (s.charCodeAt(0) === 32) {
      this.pendingSpace = true;
      s = s.slice(1);
      if (s.length === 0) return -1;
    }
    const trailing = s.charCodeAt(s.length - 1) === 32;
    if (trailing) s = s.slice(0, -1);
    if (this.pendingSpace && this.length > 0) {
      this.parts.push(' ');
      this.length += 1;
    }
    this.pendingSpace = trailing;
    const start = this.length;
    this.parts.push(s);
    this.length += s.length;
    return start;
  }

  wordBreak(): void {
    this.pendingSpace = true;
  }

  toString(): string {
    return this.parts.join('');
  }
}

/** Runs of whitespace (including no-break and ideographic spaces) as one space, trimmed. */
export function collapseWhitespace(s: string): string {
  return collapseSpaces(s).trim();
}

/** Called with each extracted link and the `<a>`/`<area>` element it was read from, in document order. */
export type OnLink = (element: Element, link: ExtractedLink) => void;

/**
 * Walks the tree once in document order: builds the text stream, the link spans and the page facts.
 * `onLink` sees each link with its element (the labeler marks links on the live page with it).
 */
export function scanPage(root: DomRoot, baseUrl: string, opts: LinkContextOptions = {}, onLink?: OnLink): PageScan {
  const walker = new PageWalker(opts.mainText ? new MainText() : null);
  // The top level is read through childNodes because linkedom's doctype node reports no nextSibling;
  // below it, firstChild/nextSibling/parentNode walk without allocating a NodeList per element.
  const top = root.childNodes;
  for (let i = 0; i < top.length; i++) walkSubtree(top[i]!, walker);
  walker.closeLink();

  const text = walker.stream.toString();
  const spans = walker.spans;
  for (const span of spans) span.anchor = headOf(anchorOf(span, text), MAX_ANCHOR_CHARS);
  const base = resolveBase(walker.baseHref, baseUrl);
  const links = buildLinks(spans, text, base, opts.windowChars ?? DEFAULT_WINDOW_CHARS, onLink);
  const h = walker.heading;
  const firstHeading = h && h.end > h.start && h.start >= 0 ? nonEmpty(text.slice(h.start, h.end)) : null;
  const canonical = walker.canonicalHref === null ? null : resolveHref(walker.canonicalHref, base);
  return { text, links, title: walker.title, firstHeading, robots: walker.robots, passwordField: walker.passwordField,
    main: walker.main?.blocks() ?? null, mainHeading: walker.main?.heading ?? null, canonical };
}

/** Depth-first without recursion: broken pages can nest thousands of unclosed tags. */
function walkSubtree(start: Node, walker: PageWalker): void {
  let node: Node = start;
  for (;;) {
    const child = walker.enter(node) ? node.firstChild : null;
    if (child) {
      node = child;
      continue;
    }
    for (;;) {
      walker.leave(node);
      if (node === start) return;
      const sibling: Node | null = node.nextSibling;
      if (sibling) {
        node = sibling;
        break;
      }
      node = node.parentNode!; // never null: the walk returns at `start`, before climbing above it
    }
  }
}

/** The state of one walk; enter() says whether to descend, leave() runs after an element's children. */
class PageWalker {
  readonly stream = new TextStream();
  readonly spans: LinkSpan[] = [];
  readonly robots: string[] = [];
  baseHref: string | null = null;
  canonicalHref: string | null = null;
  title: string | null = null;
  passwordField = false;
  heading: { el: Element; start: number; end: number } | null = null;
  private open: LinkSpan | null = null;
  private headingOpen = false;
  /** The forms and action bars around the current node, and what a link's markup says. */
  private readonly markup = new MarkupReader();

  constructor(readonly main: MainText | null) {}

  closeLink(): void {
    const open = this.open;
    if (!open) return;
    open.end = this.stream.length;
    if (open.start < 0) open.start = open.end;
    this.open = null;
    this.stream.wordBreak();
  }

  enter(node: Node): boolean {
    if (node.nodeType === TEXT_NODE) {
      const raw = node.nodeValue ?? '';
      const start = this.stream.append(raw);
      if (start >= 0) {
        this.main?.text(raw, this.open !== null);
        if (this.open && this.open.start < 0) this.open.start = start;
        if (this.headingOpen && this.heading && this.heading.start < 0) this.heading.start = start;
      }
      return false;
    }
    if (node.nodeType !== ELEMENT_NODE) return false;
    const el = node as Element;
    const tag = el.localName.toLowerCase();
    this.markup.enter(el, tag);
    if (this.open && this.open.el !== el && tag !== 'img') this.open.markup = this.markup.inside(this.open.markup, el, tag);
    if (SKIPPED.has(tag)) {
      if (tag === 'title' && this.title === null) this.title = nonEmpty(el.textContent);
      return false;
    }
    switch (tag) {
      case 'a':
      case 'area': {
        const href = attr(el, 'href');
        if (href === null) break;
        // A browser closes an open <a> when another starts; htmlparser2 nests them instead.
        this.closeLink();
        // Adjacent links ("<a>Home</a><a>News</a>") are separate words even when the page relies on CSS
        // margins to show it; the break also keeps an anchor from sharing a word with its neighbour text.
        this.stream.wordBreak();
        this.open = { el, href, start: -1, end: -1, imgAlt: null, imgTitle: null, anchor: '', markup: this.markup.of(el) };
        this.spans.push(this.open);
        break;
      }
      case 'img':
        if (this.open && this.open.imgAlt === null) this.open.imgAlt = nonEmpty(attr(el, 'alt'));
        if (this.open && this.open.imgTitle === null) this.open.imgTitle = nonEmpty(attr(el, 'title'));
        break;
      case 'base':
        // The first <base href> wins, as in browsers.
        if (this.baseHref === null) this.baseHref = attr(el, 'href');
        break;
      case 'link':
        if (this.canonicalHref === null && (attr(el, 'rel') ?? '').toLowerCase().split(/\s+/).includes('canonical')) this.canonicalHref = attr(el, 'href');
        break;
      case 'meta':
        if (attr(el, 'name')?.trim().toLowerCase() === 'robots') {
          for (const t of (attr(el, 'content') ?? '').toLowerCase().split(/[\s,]+/)) if (t) this.robots.push(t);
        }
        break;
      case 'input':
        if (!this.passwordField && attr(el, 'type')?.trim().toLowerCase() === 'password') this.passwordField = true;
        break;
      case 'h1':
        if (this.heading === null) {
          this.heading = { el, start: -1, end: -1 };
          this.headingOpen = true;
        }
        break;
    }
    if (BLOCKS.has(tag)) {
      this.stream.wordBreak();
      if (this.main) {
        this.main.edge();
        this.main.enter(el, tag, attr);
      }
    }
    return true;
  }

  leave(node: Node): void {
    if (node.nodeType !== ELEMENT_NODE) return;
    if (node === this.open?.el) this.closeLink();
    this.markup.leave(node as Element);
    if (this.headingOpen && this.heading && node === this.heading.el) {
      this.heading.end = this.stream.length;
      this.headingOpen = false;
    }
    if (BLOCKS.has((node as Element).localName.toLowerCase())) {
      this.stream.wordBreak();
      if (this.main) {
        this.main.edge();
        this.main.leave(node as Element);
      }
    }
  }
}

/** The links of a page with anchor text and design A.4 context, in document order. */
export function extractLinks(root: DomRoot, baseUrl: string, opts: LinkContextOptions = {}): ExtractedLink[] {
  return scanPage(root, baseUrl, opts).links;
}

/** An extracted link with the element it was read from. */
export interface LinkElement {
  element: Element;
  link: ExtractedLink;
}

/** The same links as extractLinks, each with its `<a>`/`<area>` element (for marking them on a live page). */
export function extractLinkElements(root: DomRoot, baseUrl: string, opts: LinkContextOptions = {}): LinkElement[] {
  const found: LinkElement[] = [];
  scanPage(root, baseUrl, opts, (element, link) => found.push({ element, link }));
  return found;
}

/** Anchor text: the link's visible text, else its image's alt/title, else its own title/aria-label. */
function anchorOf(span: LinkSpan, text: string): string {
  const own = span.end > span.start ? text.slice(span.start, span.end).trim() : '';
  if (own) return own;
  const alt = span.el.localName.toLowerCase() === 'area' ? nonEmpty(attr(span.el, 'alt')) : null;
  return (
    alt ?? span.imgAlt ?? span.imgTitle ?? nonEmpty(attr(span.el, 'title')) ?? nonEmpty(attr(span.el, 'aria-label')) ?? ''
  );
}

function resolveBase(baseHref: string | null, pageUrl: string): string | null {
  if (baseHref !== null && baseHref.trim() !== '') {
    try {
      return new URL(baseHref.trim(), pageUrl).href;
    } catch {
      // An unparsable <base href> is ignored, as browsers ignore it.
    }
  }
  try {
    return new URL(pageUrl).href;
  } catch {
    return null;
  }
}

const NOT_CRAWLABLE = /^(?:javascript|mailto|tel|data):/i;

/** The absolute http(s) URL an href points to, or null for what a crawler must not request. */
function resolveHref(href: string, base: string | null): string | null {
  const h = href.trim();
  if (h === '' || h.startsWith('#') || NOT_CRAWLABLE.test(h)) return null;
  let u: URL;
  try {
    u = base === null ? new URL(h) : new URL(h, base);
  } catch {
    return null;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
}

/**
 * Design A.4. Spans are disjoint and in document order, so the nearest preceding and following links are
 * the neighbours in the array: one look each, O(1) per link. Every `<a href>` counts as a neighbour, also
 * the ones not crawled (mailto:, javascript:): on the page they are links among links all the same.
 */
function buildLinks(spans: LinkSpan[], text: string, base: string | null, w: number, onLink?: OnLink): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const roles = pagerRoles(spans.map((s) => ({ anchor: s.anchor, rel: relOf(s.el), start: s.start, end: s.end })));
  const rows = new Map<Node, number | undefined>();
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const url = resolveHref(span.href, base);
    if (url === null) continue;
    const prev = i > 0 ? spans[i - 1]! : null;
    const next = i + 1 < spans.length ? spans[i + 1]! : null;
    const prevNear = prev !== null && prev.end >= span.start - w;
    const nextNear = next !== null && next.start <= span.end + w;
    let context: string;
    if (prevNear || nextNear) {
      const parts: string[] = [];
      if (prevNear && prev.anchor) parts.push(headOf(prev.anchor, w));
      if (nextNear && next.anchor) parts.push(headOf(next.anchor, w));
      context = parts.join(' ');
    } else {
      context = `${textBefore(text, span.start, w)} ${textAfter(text, span.end, w)}`.trim();
    }
    const replies = replyCount(span.el, rows);
    const link: ExtractedLink = {
      url,
      anchor: span.anchor,
      context: headOf(context, MAX_CONTEXT_CHARS), // reached only with a window of thousands of characters
      rel: relOf(span.el),
      ...(span.markup ? { markup: span.markup } : {}),
      ...(roles[i] ? { pagination: roles[i] } : {}),
      ...(replies !== undefined ? { replies } : {}),
    };
    links.push(link);
    onLink?.(span.el, link);
  }
  return links;
}

function relOf(el: Element): string[] {
  const rel = attr(el, 'rel');
  return rel ? rel.toLowerCase().split(/\s+/).filter(Boolean) : [];
}

const isSpace = (text: string, i: number): boolean => text.charCodeAt(i) === 32;

/** Letters and digits of scripts written with spaces between words; Chinese, Japanese, Thai... have none. */
const SPACED_WORD_CHAR = /[\p{L}\p{N}]/u;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

const isSpacedWordChar = (c: string | undefined): boolean =>
  c !== undefined && SPACED_WORD_CHAR.test(c) && !UNSPACED_SCRIPT.test(c);

/** True when a cut at i would split a word ("infl|ation"); a cut inside Chinese text splits nothing we can see. */
function splitsWord(text: string, i: number): boolean {
  return i > 0 && i < text.length && isSpacedWordChar(text[i - 1]) && isSpacedWordChar(text[i]);
}

const isLowSurrogate = (text: string, i: number): boolean => (text.charCodeAt(i) & 0xfc00) === 0xdc00;

/** Up to w characters before `end` (not counting the space that separates them from the anchor). */
function textBefore(text: string, end: number, w: number): string {
  if (end > 0 && isSpace(text, end - 1)) end--;
  let from = Math.max(0, end - w);
  if (splitsWord(text, from)) {
    const limit = Math.min(end, from + MAX_WORD_SHIFT);
    for (let j = from; j < limit; j++) {
      if (isSpace(text, j)) {
        from = j + 1;
        break;
      }
    }
  }
  if (isLowSurrogate(text, from)) from++; // never half an emoji or a rare CJK character
  return text.slice(from, end).trim();
}

/** Up to w characters after `start` (not counting the space that separates them from the anchor). */
function textAfter(text: string, start: number, w: number): string {
  if (isSpace(text, start)) start++;
  let to = Math.min(text.length, start + w);
  if (splitsWord(text, to)) {
    const limit = Math.max(start, to - MAX_WORD_SHIFT);
    for (let j = to - 1; j > limit; j--) {
      if (isSpace(text, j)) {
        to = j;
        break;
      }
    }
  }
  if (to < text.length && isLowSurrogate(text, to)) to--;
  return text.slice(start, to).trim();
}

/** A neighbour's anchor, capped at the window so one huge card-link cannot bloat every context around it. */
function headOf(anchor: string, w: number): string {
  return anchor.length <= w ? anchor : textAfter(anchor, 0, w);
}
