// A page's main text: its blocks of text less the site's furniture (navigation, header, footer, sidebars), what a
// page is compared with other pages by (content-sketch.ts). Collected during the one walk over the page
// (link-context.ts), so it costs no walk of its own.
import { collapseSpaces } from './whitespace';

/** Elements that hold a site's furniture, not a page's content (HTML's sectioning of a page). */
const FURNITURE_TAGS = new Set(['nav', 'header', 'footer', 'aside']);
/** ARIA landmarks of the same (role="navigation" on a div is the same as a nav). */
const FURNITURE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/**
 * A class or id that names furniture on pages built of divs, as Readability's "unlikely candidates" do, but read as
 * whole words of the attribute: `sidebar`, `left-sidebar`, `breadcrumbs`, `main-menu`, `site-footer`. Never a part of
 * one (`card-header` is a card's title, `menuitem-price` a price).
 */
const FURNITURE_WORD = /^(?:[a-z]+-)?(?:sidebar|breadcrumbs?|navbar|nav|navigation|menu|masthead)(?:-[a-z]+)?$|^(?:site-|page-|global-)?(?:header|footer)$/;
/** How an element's attribute is read (link-context.ts reads names case-insensitively). */
export type ReadAttr = (el: Element, name: string) => string | null;

/**
 * Collects text in blocks (the text between two block edges), twice: the blocks inside the page's `<main>` (or
 * role="main"), and every block outside furniture. The first, when the page has one, is its main text; else the
 * second. Furniture inside `<main>` is left out too.
 */
export class MainText {
  private readonly inMain: string[] = [];
  private readonly outside: string[] = [];
  private main: string[] = [];
  private rest: string[] = [];
  /** Whether the block being read has text outside links. */
  private prose = false;
  /** The first `<h1>` outside furniture (a logo in the header is no page's heading), once read. */
  heading: string | null = null;
  private headingOpen = false;
  /** The open elements that started furniture and main content, innermost last. */
  private readonly furniture: Element[] = [];
  private readonly mains: Element[] = [];

  /** An element opens: furniture or main content starts when it is one. `tag` is its lowercased name. */
  enter(el: Element, tag: string, attr: ReadAttr): void {
    const role = attr(el, 'role')?.trim().toLowerCase();
    if (tag === 'h1' && this.heading === null && this.furniture.length === 0) this.headingOpen = true;
    if (tag === 'main' || role === 'main') this.mains.push(el);
    else if (FURNITURE_TAGS.has(tag) || (role !== undefined && FURNITURE_ROLES.has(role)) || namesFurniture(el, attr)) this.furniture.push(el);
  }

  leave(el: Element): void {
    if (this.furniture.at(-1) === el) this.furniture.pop();
    else if (this.mains.at(-1) === el) this.mains.pop();
  }

  /** A text node's text, in the block being read; `inLink` when it is a link's. */
  text(raw: string, inLink: boolean): void {
    if (this.furniture.length > 0) return;
    if (!inLink) this.prose = true;
    this.rest.push(raw);
    if (this.mains.length > 0) this.main.push(raw);
  }

  /**
   * A block edge: the text since the last one is a block. A block of links alone (a list of related products, of
   * pages recently viewed, a breadcrumb) points at other pages: it is left out, so what a page shows of others, which
   * changes from one answer to the next, does not make it another page, and pages of one template that share such
   * lists are not made alike by them.
   */
  edge(): void {
    if (this.headingOpen && this.rest.length > 0) {
      this.heading = collapseSpaces(this.rest.join(' ')).trim() || null;
      this.headingOpen = this.heading === null;
    }
    if (this.prose) {
      if (this.rest.length > 0) push(this.outside, this.rest);
      if (this.main.length > 0) push(this.inMain, this.main);
    }
    this.rest = [];
    this.main = [];
    this.prose = false;
  }

  /** The page's main text as blocks, whitespace collapsed, empty ones left out. */
  blocks(): string[] {
    this.edge();
    return this.inMain.length > 0 ? this.inMain : this.outside;
  }
}

function push(into: string[], parts: string[]): void {
  // Text nodes joined with a space: adjacent links and cells ("<a>Home</a><a>News</a>") are words apart; a word
  // split by markup ("a<b>b</b>") is rare, and costs a comparison one word.
  const block = collapseSpaces(parts.join(' ')).trim();
  if (block) into.push(block);
}

function namesFurniture(el: Element, attr: ReadAttr): boolean {
  return someWord(attr(el, 'class')) || someWord(attr(el, 'id'));
}

function someWord(value: string | null): boolean {
  if (!value) return false;
  for (const word of value.toLowerCase().split(/\s+/)) if (word && FURNITURE_WORD.test(word)) return true;
  return false;
}
