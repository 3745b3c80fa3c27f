// Whether a page's HTML, as the server sent it, is a shell that scripts fill in: what `fetch.render: "auto"` reads
// before it spends a tab on a page. Each sign is cheap (a few regular expressions over the HTML and the text and
// links the parse already found), so a static site pays next to nothing for `auto`. The signs are those a reader
// would notice on a page without its scripts: an empty application root (`<div id="root"></div>`, Angular's
// `<app-root>`), a `<noscript>` that asks for JavaScript, next to no text on a page that runs scripts, and a page
// whose only ways on are script handlers. A whole page may still have parts that scripts build (`scriptedPart`): a
// frame of the same site, a web component, a "load more" control, an empty list; `auto` renders such pages while it
// learns whether their kind changes when rendered (lib/policy/render-policy.ts).
import type { ParsedPage } from '../records/types';

/** Below this many characters of visible text, a page that runs scripts reads as a shell. */
export const LITTLE_TEXT_CHARS = 200;

/** Ids that script frameworks mount an application on (React, Vue, Next, Nuxt, Gatsby, Svelte, Quasar, Ember...). */
const APP_ROOT_IDS = ['root', 'app', 'application', 'main-app', 'app-root', '__next', '__nuxt', '___gatsby', 'svelte', 'q-app', 'ember-app'];
const ROOT_BY_ID = new RegExp(
  `<([a-z][a-z0-9-]*)\\b[^>]*\\sid\\s*=\\s*["']?(${APP_ROOT_IDS.join('|')})(?=["'\\s/>])[^>]*>((?:(?!<\\/\\1\\s*>)[\\s\\S]){0,200})<\\/\\1\\s*>`,
  'gi',
);
/** Custom elements frameworks mount on: Angular's `<app-root>`, and the like. */
const ROOT_ELEMENT = /<(app-root|app|my-app)\b[^>]*>((?:(?!<\/\1\s*>)[\s\S]){0,200})<\/\1\s*>/gi;
const NOSCRIPT = /<noscript\b[^>]*>([\s\S]*?)<\/noscript\s*>/gi;
/** A script that runs: not JSON or a template carried in a script tag. */
const RUNNING_SCRIPT = /<script\b(?![^>]*\btype\s*=\s*["']?(?:application\/(?:ld\+)?json|text\/template|text\/x-template|importmap))[^>]*>/i;
const SCRIPT_NAVIGATION = /\bonclick\s*=|\bhref\s*=\s*["']?(?:#["'\s>]|javascript:)/i;

/**
 * The whole text of a control that loads more of a list: "Load more", "Show more", "See more stars", "More results",
 * and the same in German, French, Spanish, Italian, Chinese and Japanese. The rendering tab presses only a control
 * whose text reads so (lib/platform/serialize-dom.ts), and a page that shows one has a part scripts build.
 */
export const LOAD_MORE_TEXT =
  /^(?:(?:load|show|see|view)\s+more(?:\s+\S+)?|more\s+(?:results|items|posts|stories|comments)|mehr\s+(?:laden|anzeigen)|(?:voir|afficher)\s+plus|(?:cargar|ver)\s+más|carica\s+altri|加载更多|もっと見る)$/i;

/** True when the HTML runs a script: without one, a tab shows what the HTML says (a frame aside). */
export function runsScripts(html: string): boolean {
  return RUNNING_SCRIPT.test(html);
}

const FRAME_SRC = /<i?frame\b[^>]*\ssrc\s*=\s*["']?([^"'\s>]+)/gi;
/** Custom elements: a tag with a hyphen, less the few SVG and MathML names that have one. */
const CUSTOM_ELEMENT = /<([a-z][a-z0-9]*-[a-z0-9-]*)(?=[\s/>])/gi;
const NOT_COMPONENTS = new Set(['font-face', 'font-face-src', 'font-face-uri', 'font-face-format', 'font-face-name', 'missing-glyph', 'color-profile', 'annotation-xml']);
const CONTROL = /<(button|a)\b([^>]*)>([\s\S]{1,80}?)<\/\1\s*>/gi;
/** The same words anywhere in the HTML: a page without them has no such control, and its controls are not read one by one. */
const LOAD_MORE_ANYWHERE = new RegExp(LOAD_MORE_TEXT.source.slice(1, -1), 'i');
/** A list with nothing in it, waiting for a script: `<ul id="stars"></ul>`, an empty table body. */
const EMPTY_LIST = /<(ul|ol|tbody)\b([^>]*)>\s*(?:<!--[\s\S]*?-->\s*)*<\/\1\s*>/gi;

/**
 * Why a page the server sent whole may show more once its scripts run, or null: a frame of its own site (a tab reads
 * what the frame's scripts built), a web component, a "load more" control, an empty list. Such a page is worth a tab
 * while `auto` has not learned its kind. `pageUrl`: the page's URL, to tell a frame of its site from another's.
 */
export function scriptedPart(html: string, pageUrl: string): string | null {
  const host = new URL(pageUrl).host;
  for (const m of html.matchAll(FRAME_SRC)) {
    let src: URL;
    try {
      src = new URL(m[1]!.replace(/&amp;/g, '&'), pageUrl);
    } catch {
      continue;
    }
    // A frame of another site is not read by the tab either (serialize-dom.ts): nothing to gain.
    if (/^https?:$/.test(src.protocol) && src.host === host) return `a frame of the site (${src.pathname})`;
  }
  if (!runsScripts(html)) return null;
  for (const m of html.matchAll(CUSTOM_ELEMENT)) {
    const tag = m[1]!.toLowerCase();
    if (!NOT_COMPONENTS.has(tag)) return `a web component (<${tag}>)`;
  }
  for (const m of LOAD_MORE_ANYWHERE.test(html) ? html.matchAll(CONTROL) : []) {
    const [, tag, attrs, inner] = m;
    const href = /\shref\s*=\s*["']?([^"'\s>]*)/i.exec(attrs!)?.[1];
    if (tag!.toLowerCase() === 'a' && href !== undefined && href !== '#' && !/^javascript:/i.test(href)) continue; // a link goes somewhere
    const text = inner!.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().replace(/[.…›»↓+]+$/, '').trim();
    if (LOAD_MORE_TEXT.test(text)) return `a "${text}" control`;
  }
  for (const m of html.matchAll(EMPTY_LIST)) {
    const id = /\sid\s*=\s*["']?([^"'\s>]+)/i.exec(m[2]!)?.[1];
    return `an empty list (<${m[1]!.toLowerCase()}${id ? ` id="${id}"` : ''}>)`;
  }
  return null;
}

/** The content of an app root, tags and comments aside: empty, or a word such as "Loading…" while it waits. */
function emptyRoot(inner: string): boolean {
  const text = inner.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return text === '' || /^(loading|please wait|chargement|cargando|laden|加载|読み込み)[\s\S]{0,20}$/i.test(text);
}

/**
 * Why the page's HTML reads as a shell that scripts build, or null when it reads as a whole page. `parsed` is that
 * HTML as the crawl parsed it.
 */
export function scriptShell(html: string, parsed: ParsedPage): string | null {
  const scripts = RUNNING_SCRIPT.test(html);
  if (!scripts) return null; // nothing would run in a tab: rendering would show the same page
  for (const m of html.matchAll(ROOT_BY_ID)) {
    if (emptyRoot(m[3] ?? '')) return `an empty application root (#${m[2]})`;
  }
  for (const m of html.matchAll(ROOT_ELEMENT)) {
    if (emptyRoot(m[2] ?? '')) return `an empty application root (<${m[1]!.toLowerCase()}>)`;
  }
  for (const m of html.matchAll(NOSCRIPT)) {
    if (/javascript|\bJS\b/i.test(m[1] ?? '')) return 'its <noscript> asks for JavaScript';
  }
  if (parsed.text.length < LITTLE_TEXT_CHARS) return `little text on a page that runs scripts (${parsed.text.length} characters)`;
  if (parsed.links.length === 0 && SCRIPT_NAVIGATION.test(html)) return 'no links but script handlers';
  return null;
}
