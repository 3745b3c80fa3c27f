// Whether a page's HTML, as the server sent it, is a shell that scripts fill in: what `fetch.render: "auto"` reads
// before it spends a tab on a page. Each sign is cheap (a few regular expressions over the HTML and the text and
// links the parse already found), so a static site pays next to nothing for `auto`. The signs are those a reader
// would notice on a page without its scripts: an empty application root (`<div id="root"></div>`, Angular's
// `<app-root>`), a `<noscript>` that asks for JavaScript, next to no text on a page that runs scripts, and a page
// whose only ways on are script handlers.
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
