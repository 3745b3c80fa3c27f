// What "Crawl this site" reads of the page in the tab to suggest its keywords (page-keywords.ts): its language, title,
// headings, and its links with the text around them, from the page's own content (its header, navigation, footer and
// asides are the site's, not the page's).

export interface PageOutline {
  /** The page's declared language (`<html lang>`), or '' when it declares none. */
  lang: string;
  title: string;
  /** h1 first, then h2 and h3, in that order. */
  headings: string[];
  /** Links of the page's content: the anchor's text, and the text of the block it is in (its paragraph, list item, cell). */
  links: { text: string; context: string }[];
}

/**
 * Reads the outline of `doc`. The popup runs it in the tab (scripting.executeScript serialises it, so it uses nothing
 * from outside its own body, and `doc` is the tab's document); tests run it on a parsed page.
 */
export function pageOutline(doc: Document = document): PageOutline {
  const MAX_TEXT = 300;
  const text = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  const furniture = 'header, nav, footer, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary]';
  const root = doc.querySelector('main, article, [role=main]') ?? doc.body ?? doc.documentElement;
  const own = (el: Element) => !el.closest(furniture) || root.closest(furniture) !== null;
  const headings = ['h1', 'h2', 'h3'].flatMap((tag) => [...doc.querySelectorAll(tag)].filter(own).map(text)).filter(Boolean).slice(0, 12);
  const links = [...root.querySelectorAll('a[href]')].filter(own).slice(0, 120).map((a) => ({
    text: text(a),
    context: text(a.closest('p, li, dd, dt, td, th, blockquote, figcaption, h1, h2, h3, h4, h5, h6') ?? a.parentElement),
  })).filter((l) => l.text || l.context);
  return { lang: doc.documentElement?.getAttribute('lang') ?? '', title: (doc.title || text(doc.querySelector('title'))).trim(), headings, links };
}
