// What a link's markup says a click on it does, read as the page walker passes (link-context.ts): the attributes of
// LINK_MARKUP_ATTRIBUTES, an icon inside the link and its accessible name, and whether the link sits in a form's
// action bar. The session-safety guard judges it (lib/policy/safety.ts); the parser only reads.
import { LINK_MARKUP_ATTRIBUTES, type LinkMarkup } from '../records/types';
import { collapseSpaces } from './whitespace';

const ELEMENT_NODE = 1;
const MARKUP_NAMES: ReadonlySet<string> = new Set(LINK_MARKUP_ATTRIBUTES);
const MAX_MARKUP_VALUE = 200;
/** The class of an icon: Font Awesome, Bootstrap Icons, Glyphicons, Material, GitLab's, Octicons, Feather. */
const ICON_CLASS = /(^|[\s-])(icon|fa|fas|far|bi|glyphicon|material-icons|gl-icon|octicon|feather|ti)([\s-]|$)/i;
/**
 * An action bar: a toolbar, a group of buttons, a list's row actions. A link inside one inside a form is one of the
 * form's actions; a form around a whole page (ASP.NET wraps every page in one) makes no link an action by itself.
 */
const BAR_CLASS = /(^|[\s_-])(actions|row-actions|toolbar|btn-group|button-group|buttons|action-bar|actionbar|bulkactions)([\s_-]|$)/i;
const BUTTON_CLASS = /(^|\s)(btn|button)(\s|$|-)/i;

/**
 * Reads an attribute case-insensitively. Browsers lowercase attribute names when parsing HTML; linkedom
 * does not (it runs htmlparser2 with lowerCaseAttributeNames: false), so `<A HREF=...>`, common on older
 * sites, would otherwise lose its link. The scan runs only when the lowercase lookup misses.
 */
export function attr(el: Element, name: string): string | null {
  const v = el.getAttribute(name);
  if (v !== null || !el.hasAttributes()) return v;
  // getAttributeNames, not attributes: linkedom builds a Proxy per `attributes` read, a plain array here.
  const names = el.getAttributeNames();
  for (let i = 0; i < names.length; i++) {
    const n = names[i]!;
    if (n.length === name.length && n !== name && n.toLowerCase() === name) return el.getAttribute(n);
  }
  return null;
}

export function nonEmpty(v: string | null): string | null {
  if (v === null) return null;
  const c = collapseSpaces(v).trim();
  return c.length > 0 ? c : null;
}

/** Follows the forms and action bars open around the walk, and reads the markup of the links in them. */
export class MarkupReader {
  private forms = 0;
  private readonly bars: Element[] = [];

  enter(el: Element, tag: string): void {
    if (tag === 'form') this.forms++;
    else if (this.forms > 0 && el.hasAttributes() && (BAR_CLASS.test(attr(el, 'class') ?? '') || attr(el, 'role') === 'toolbar')) this.bars.push(el);
  }

  leave(el: Element): void {
    if (el.localName.toLowerCase() === 'form' && this.forms > 0) this.forms--;
    if (this.bars.at(-1) === el) this.bars.pop();
  }

  /** An `<a>`'s own markup, or null when it says nothing. */
  of(el: Element): LinkMarkup | null {
    // One read of the names: most links have only an href, and a lookup per attribute was a parse's cost on pages of
    // thousands of links.
    let attrs: Record<string, string> | undefined;
    const names = el.getAttributeNames();
    for (let i = 0; i < names.length; i++) {
      const lower = names[i]!.toLowerCase();
      if (MARKUP_NAMES.has(lower)) (attrs ??= {})[lower] = (el.getAttribute(names[i]!) ?? '').slice(0, MAX_MARKUP_VALUE);
    }
    const inForm = this.forms > 0 && (this.bars.length > 0 || attr(el, 'role') === 'button' || BUTTON_CLASS.test(attr(el, 'class') ?? ''));
    return attrs || inForm ? { ...(attrs ? { attrs } : {}), ...(inForm ? { inForm } : {}) } : null;
  }

  /** The markup of an open link, with what an element inside it adds: an icon's class and accessible name. */
  inside(markup: LinkMarkup | null, el: Element, tag: string): LinkMarkup | null {
    const cls = attr(el, 'class');
    const label = nonEmpty(attr(el, 'aria-label')) ?? nonEmpty(attr(el, 'title')) ?? (tag === 'svg' ? svgTitle(el) : null);
    const icon = cls !== null && ICON_CLASS.test(cls) ? cls.slice(0, MAX_MARKUP_VALUE) : null;
    if (icon === null && label === null) return markup;
    const m = markup ?? {};
    if (icon !== null) m.icon ??= icon;
    if (label !== null) m.iconLabel ??= label;
    return m;
  }
}

function svgTitle(svg: Element): string | null {
  for (let c = svg.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === ELEMENT_NODE && (c as Element).localName.toLowerCase() === 'title') return nonEmpty(c.textContent);
  }
  return null;
}
