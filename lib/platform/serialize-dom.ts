// The rendered DOM as HTML the crawl's parser reads: run inside the page by chrome.scripting.executeScript, so it
// is one self-contained function. What a reader sees is kept: open shadow roots are inlined where their host is,
// same-origin frames where the frame is (as a `<div data-focus-frame>`: a parser reads an `<iframe>`'s content as
// text), and every link's target is written absolute (a frame's or a shadow root's links resolve against their own
// document). Scripts, styles and templates are left out; so is `<noscript>`, which a reader with scripts never sees.
export function serializeDom(): string {
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
  const SKIP = new Set(['script', 'style', 'template', 'noscript']);
  const text = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const quoted = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const out: string[] = [];
  const children = (parent: Node) => {
    for (const child of Array.from(parent.childNodes)) walk(child);
  };
  const walk = (node: Node): void => {
    if (node.nodeType === 3) {
      out.push(text(node.nodeValue ?? ''));
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.localName;
    if (SKIP.has(tag)) return;
    if (tag === 'iframe' || tag === 'frame') {
      let doc: Document | null = null;
      try {
        doc = (el as HTMLIFrameElement).contentDocument; // null, or a throw, for a frame of another origin
      } catch {
        doc = null;
      }
      if (doc?.body) {
        out.push(`<div data-focus-frame="${quoted(doc.URL)}">`);
        children(doc.body);
        out.push('</div>');
      }
      return;
    }
    out.push(`<${tag}`);
    for (const a of Array.from(el.attributes)) {
      const resolved = a.name === 'href' && (tag === 'a' || tag === 'area') ? (el as HTMLAnchorElement).href : undefined;
      out.push(` ${a.name}="${quoted(typeof resolved === 'string' ? resolved : a.value)}"`);
    }
    out.push('>');
    if (VOID.has(tag)) return;
    if (el.shadowRoot) children(el.shadowRoot);
    children(el);
    out.push(`</${tag}>`);
  };
  out.push('<!doctype html>');
  walk(document.documentElement);
  return out.join('');
}

/**
 * Scrolls the page to its end as a reader would, and tells the page so: a `scroll` event is sent too, as a page in
 * a minimized window gets none until it is shown. Returns the page's height before the scroll, or -1 when the page
 * fits its window and there is nothing to scroll.
 */
export function scrollToEnd(): number {
  const root = document.scrollingElement ?? document.documentElement;
  const height = root.scrollHeight;
  if (window.innerHeight > 0 && height <= window.innerHeight + 1) return -1;
  window.scrollTo(0, height);
  window.dispatchEvent(new Event('scroll'));
  return height;
}

/**
 * The page's size, to tell whether a scroll or a press made it grow (its elements and its characters of text: a short
 * list grows without the page getting taller than its window), and the links it holds, for the cap on them.
 */
export function pageSize(): [size: number, links: number] {
  return [document.getElementsByTagName('*').length + (document.body?.textContent?.length ?? 0), document.links.length];
}

/**
 * How long the page's DOM has been quiet, in ms: the first call starts watching (a MutationObserver in the
 * extension's isolated world, which the page cannot see), later calls read it. Attribute changes do not count
 * (spinners and carousels change them for ever); added or removed nodes and changed text do.
 */
export function domQuietMs(): number {
  const g = globalThis as unknown as { focusDomQuiet?: { last: number } };
  if (!g.focusDomQuiet) {
    const watch = { last: performance.now() };
    g.focusDomQuiet = watch;
    new MutationObserver(() => {
      watch.last = performance.now();
    }).observe(document, { subtree: true, childList: true, characterData: true });
    return 0;
  }
  return performance.now() - g.focusDomQuiet.last;
}

/**
 * Presses the page's "load more" (or "show more") control, the one kind of control Focus ever presses: a button or
 * a link that goes nowhere, visible and enabled, whose whole text says so (`words`: the source of LOAD_MORE_TEXT,
 * lib/parse/script-shell.ts, read case-blind); never a form's submit button, and never anything else. Every request
 * the press makes is put to the gate like any other of the page. Returns 0 once pressed, or -1 when the page has no
 * such control.
 */
export function pressLoadMore(words: string): number {
  const MORE = new RegExp(words, 'i');
  const controls = document.querySelectorAll<HTMLElement>('button, [role="button"], a:not([href]), a[href="#"], input[type="button"]');
  for (const el of Array.from(controls)) {
    const text = (el instanceof HTMLInputElement ? el.value : el.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/[.…›»↓+]+$/, '').trim();
    if (!MORE.test(text)) continue;
    if (el instanceof HTMLButtonElement && (el.disabled || (el.form && el.type === 'submit'))) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue; // hidden: not what a reader would press
    el.click();
    return 0;
  }
  return -1;
}
