// A tiny element builder for the extension's pages. Text children become Text nodes, never markup:
// crawled titles, URLs and error sentences must not be parsed as HTML.

export type Child = Node | string | number | null | undefined | false;

/** Attributes: strings and numbers are set as attributes, booleans toggle them, functions under `on*` become listeners. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((ev: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') {
      el.addEventListener(key.replace(/^on/, '').toLowerCase(), value);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends children, turning strings and numbers into Text nodes. */
export function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/** Replaces all children of `parent`. */
export function fill(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

/** The element with this id; throws when the page's markup lacks it (a build mistake, not a runtime state). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
}

/** The `?crawl=ID` of the page's URL, if it is a positive integer. */
export function crawlIdFromUrl(search = location.search): number | undefined {
  const id = Number(new URLSearchParams(search).get('crawl'));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/** Error text of a rejected message or anything thrown. */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
