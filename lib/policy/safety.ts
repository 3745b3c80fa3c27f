// Session safety. The crawler fetches with the user's own cookies, so a GET on "log out", "delete account",
// "vote", "start build" or "add to cart" acts as the user. Links that look like such actions are recorded as
// skipped and never requested. Each default rule has a name and can be turned off alone
// (config.safety.disabledRules); the user's own words (config.safety.avoid) add to the rules and never replace them.
//
// A link is read three ways, and any one that says it acts keeps it from being requested:
// - its URL (safety-url.ts): where a route puts a verb, anti-forgery tokens, operation keys, a statement that writes;
// - its text, and the title and accessible name of the link and of an icon inside it: a short text that is an action
//   ("Log out", "Projekt löschen", "退出"), not a title ("How to remove rust", "DELETE /observations");
// - its markup: a script that sends it with another method (`data-method="delete"`), a write by htmx or Livewire,
//   a confirmation it asks for (`data-confirm`, `onclick="return confirm(...)"`).
// Some signs are too common alone and count only two together: a `hash` or `sid` key, an action's icon (a bin is
// also the Trash folder's), a script that takes the click over, a link inside a form, a text that is a verb which
// also names pages ("Watch", "Archive"). A URL that names a page of content (`/products/trash-bags`,
// `/recipes/roasted-squash-remove-seeds`) is read whatever its link is called.
//
// Words are folded and cut as safety-words.ts says, in the languages of safety-lexicon.ts; the other tables
// (tokens, operation keys, collections, markup) are in safety-signals.ts. tests/fixtures/safety/app-links.tsv
// measures the whole on links of 53 applications (docs/security.md).
//
// Limits, known and accepted, that err towards not requesting:
// - a short title that is itself an action word is skipped: `/wiki/Delete`, `/wiki/Like`, and so is a short how-to
//   slug outside any collection: `/flecken-entfernen`; a weak word of any language blocks as a whole component in
//   all of them (`/kasse`, `/sil`);
// - a weak verb before an id is skipped even when it is a noun there: `/block/000000abc` on a block explorer;
// - Vietnamese without its marks folds "đang" (being) into "đăng": `/dang-xuat-khau` (exporting) is skipped;
// - Latin-1 %-escapes (`%E9`, from pre-UTF-8 sites) do not decode as UTF-8 and are refused as undecodable;
// - rel=nofollow also drops the outside links of sites that mark all of them so (Wikipedia, most forums);
// - an `action`, `do` or `cmd` whose value names no view the guard knows is taken to act (`?Action=AgentTicketQueue`).
// And that err towards requesting:
// - an action spelled as a long slug without camelCase (`/delete-my-account-and-all-my-data`) passes the verb
//   rule: a token or action key in its query, its markup or its text usually still catches it;
// - an apostrophe reads as prose, so a French elision passes: `/s'abonner`, the text "J'aime";
// - a verb that also names pages, fused into one word (`startattempt.php`), or right after a collection
//   (`/docs/build`), is read as the page;
// - SAML's `slo` and OAuth's `revocation` block only in a path that names their protocol (`/saml2/.../slo`);
// - `api` paths are matched in lower case only, so documentation such as MDN's `/docs/Web/API/fetch` and
//   Wikipedia's `/wiki/API` stays crawlable; so does a page under `/api/` that ends in `.html` (Node.js docs);
// - a language or a spelling the lexicon does not have.
// Only GET requests are ever made and forms are never submitted; these rules are about links.
import type { CrawlConfig, SafetyAllowance } from '../records/config';
import { YOUR_LIST, type SafetyRule } from '../records/safety-rules';
import type { LinkMarkup } from '../records/types';
import { ACTION_ICON_WORDS, CONFIRM_ATTRIBUTES, CONFIRM_HANDLER, ENDPOINT_TITLE, METHOD_ATTRIBUTES, SCRIPTED_ATTRIBUTES, WRITING_ATTRIBUTES, WRITING_METHODS } from './safety-signals';
import { readUrl, urlFindings, type UrlFindings } from './safety-url';
import { componentOf, fold, leadingAction, MAX_ACTION_WORDS, nameAction, weakAction, wordsOf } from './safety-words';

export interface SafetyBlock {
  /** The rule that blocked the link: one of DEFAULT_SAFETY_RULES, or "your list". */
  rule: string;
  /** What matched: the verb, the key, the segment. */
  match: string;
}

/** What the guard reads of a link besides its URL. */
export interface LinkSigns {
  anchor?: string;
  rel?: string[];
  markup?: LinkMarkup;
}

export interface SafetyGuard {
  /**
   * Why this link must not be requested, or null when it is safe to request. `parsed`, when the caller has it, is
   * `new URL(url)` (url.ts linkTarget's `requested`), read instead of parsing `url` again.
   */
  check(url: string, link?: LinkSigns, parsed?: URL): SafetyBlock | null;
}

const WHY: Record<string, string> = {
  'action verb': 'it could change or end your session',
  'state query key': 'a link carrying an action or a one-time token acts as you',
  'api path': 'an API endpoint could act on your account',
  nofollow: 'the page asks for it not to be followed',
  'anchor text': 'its text names an action that could change your account',
  'link markup': 'the page marks it as an action (a script sends it, or asks you to confirm it)',
  'undecodable URL': 'it cannot be decoded to check that it is safe',
  [YOUR_LIST]: 'it matches a word on your list',
};

/** The sentence stored as the reason on a skipped frontier entry. Starts with "unsafe link". */
export function describeBlock(b: SafetyBlock): string {
  return `unsafe link (${b.rule} "${b.match}"): never requested, ${WHY[b.rule] ?? 'it could act as you'}`;
}

/** The block a skipped entry's reason describes, or null when the reason is not a safety one. */
export function blockOfReason(reason: string | undefined): SafetyBlock | null {
  if (!reason?.startsWith('unsafe link')) return null;
  const named = /^unsafe link \(([^"]+?) "(.*)"\):/.exec(reason);
  if (named) return { rule: named[1], match: named[2] };
  // Reasons written before the rules had names: `unsafe link ("logout"): ...`, from the one word list.
  const old = /^unsafe link \("(.*)"\)/.exec(reason);
  return { rule: 'word list', match: old?.[1] ?? '' };
}

/** What a link's text says: the action it names, or a verb that also names pages (one sign), or nothing. */
interface TextFindings {
  action: string | null;
  /** A verb that is also a page's name, the whole text: "Watch", "Archive", "Start". */
  sign: string | null;
  /** The text names an API endpoint ("DELETE /observations"): the link is its reference page. */
  endpoint: boolean;
}

/**
 * A short text that is an action: led by one ("Log out", "Delete this post now"), ended by one in the languages that
 * put the verb last ("Projekt löschen", "Arbeitsbereich löschen"), or only a weak one ("Report", "Like (42)").
 * "How to remove rust" is an article, "DELETE /observations" the title of an API reference.
 */
function textFindings(text: string): TextFindings {
  if (ENDPOINT_TITLE.test(text.trim())) return { action: null, sign: null, endpoint: true };
  const c = componentOf(text);
  if (c.title || c.words.length === 0) return { action: null, sign: null, endpoint: false };
  const last = c.words.length > 1 ? leadingAction(c.words.slice(-1), false) : null;
  const action = leadingAction(c.words, false) ?? weakAction(c.words) ?? last;
  return { action, sign: action ? null : nameAction(c.words), endpoint: false };
}

/** What a link's markup says: an action by itself, or signs that need another. */
interface MarkupFindings {
  action: string | null;
  /** Signs of how the page handles the click: a script takes it over, the link sits in a form. */
  signs: string[];
  /** An action's icon inside the link: a sign of what the link says it is, as its text is. */
  icon: string | null;
  /** The titles and accessible names of the link and of its icon: read as its text is. */
  labels: string[];
}

function markupFindings(m: LinkMarkup | undefined): MarkupFindings {
  const out: MarkupFindings = { action: null, signs: [], icon: null, labels: [] };
  if (!m) return out;
  const attrs = m.attrs ?? {};
  for (const name of METHOD_ATTRIBUTES) {
    const method = attrs[name]?.trim().toLowerCase();
    if (method && WRITING_METHODS.has(method)) out.action ??= `${name}=${method}`;
  }
  for (const name of WRITING_ATTRIBUTES) if (attrs[name] !== undefined) out.action ??= name;
  for (const name of CONFIRM_ATTRIBUTES) if (attrs[name] !== undefined) out.action ??= name;
  if (attrs.onclick && CONFIRM_HANDLER.test(attrs.onclick)) out.action ??= 'onclick confirm';
  for (const name of SCRIPTED_ATTRIBUTES) if (attrs[name] !== undefined) out.signs.push(name);
  if (m.inForm) out.signs.push('in a form');
  const icon = m.icon ? wordsOf(fold(m.icon)).find((w) => ACTION_ICON_WORDS.has(w)) : undefined;
  if (icon) out.icon = `icon ${icon}`;
  for (const label of [attrs.title, attrs['aria-label'], m.iconLabel]) if (label?.trim()) out.labels.push(label.trim());
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The user's own words, matched as the first guard matched its list: on word boundaries (anything that is not
 * a letter or digit), case-insensitive, in the decoded path and query.
 */
function wordPattern(avoid: readonly string[]): RegExp | null {
  const words = avoid.map((w) => w.trim().toLowerCase()).filter(Boolean);
  return words.length ? new RegExp(`(^|[^\\p{L}\\p{N}])(${words.map(escape).join('|')})($|[^\\p{L}\\p{N}])`, 'iu') : null;
}

/** What the URL alone says under one guard's rules, with the user's words. */
interface UrlRead extends UrlFindings {
  yours: string | null;
}

/**
 * Findings by URL and by text, each a pure function of its key under one guard's rules: a crawl meets the same
 * links (a site's navigation, its articles linked from page after page) and the same texts many times, and reading
 * them again was most of the guard's time. Bounded: forgotten whole when full.
 */
const MAX_REMEMBERED = 20_000;

function remembered<T>(): (key: string, read: () => T) => T {
  const seen = new Map<string, T>();
  return (key, read) => {
    let v = seen.get(key);
    if (v === undefined && !seen.has(key)) {
      v = read();
      if (seen.size >= MAX_REMEMBERED) seen.clear();
      seen.set(key, v);
    }
    return v as T;
  };
}

/** The guard of a crawl's safety settings, less what the user allowed after it was kept (`allowed`: its rules' matches). */
export function makeSafetyGuard(safety: CrawlConfig['safety'], allowances: readonly SafetyAllowance[] = []): SafetyGuard {
  // Crawls stored before disabledRules existed have none: every default rule is on for them.
  const off = new Set<string>(safety.disabledRules ?? []);
  const on = (rule: SafetyRule) => !off.has(rule);
  const yours = wordPattern(safety.avoid ?? []);
  const readLink = (u: URL): UrlRead => {
    const read = readUrl(u);
    let mine: string | null = null;
    if (yours) {
      const text = read.segments.map((s) => `/${s.text}`).join('') + (read.query.length ? `?${read.query.map((p) => `${p.key.text}=${p.value.text}`).join('&')}` : '');
      mine = yours.exec(text)?.[2].toLowerCase() ?? null;
    }
    const found = urlFindings(read, { action: on('action verb'), state: on('state query key'), api: on('api path') });
    return { ...found, yours: mine, broken: on('undecodable URL') ? found.broken : null };
  };
  // Rules the user allowed for this crawl, each by the match it caught ("action verb" "watch"): a link they catch is
  // read by the rules after them.
  const allowed = new Set(allowances.flatMap((a) => ('rule' in a ? [`${a.rule}\u0000${a.match}`] : [])));
  const kept = (b: SafetyBlock | null) => (b && !allowed.has(`${b.rule}\u0000${b.match}`) ? b : null);
  const yoursIn = (text: string) => (yours && wordsOf(text).length <= MAX_ACTION_WORDS ? (yours.exec(text)?.[2].toLowerCase() ?? null) : null);
  const byUrl = remembered<UrlRead | null>();
  const byText = remembered<TextFindings>();
  const readText = (text: string) => byText(text, () => textFindings(text));
  return {
    check(url, link = {}, parsed) {
      const found = byUrl(url, () => {
        try {
          return readLink(parsed ?? new URL(url));
        } catch {
          return null; // not a URL
        }
      });
      if (!found) return on('undecodable URL') ? { rule: 'undecodable URL', match: url } : null;
      const anchor = link.anchor?.trim() ?? '';
      const text = anchor ? readText(anchor) : null;
      const markup = on('link markup') ? markupFindings(link.markup) : { action: null, signs: [], icon: null, labels: [] };
      const labels = markup.labels.map(readText);
      // A link titled as an API endpoint is its reference page: the endpoint's words in the URL are the page's name.
      const reference = text?.endpoint === true;
      const block: SafetyBlock | null =
        kept(found.action && !reference ? { rule: 'action verb', match: found.action } : null) ??
        kept(found.state ? { rule: 'state query key', match: found.state } : null) ??
        kept(found.api && !reference ? { rule: 'api path', match: found.api } : null) ??
        kept(on('nofollow') && link.rel?.includes('nofollow') ? { rule: 'nofollow', match: 'nofollow' } : null) ??
        kept(markup.action ? { rule: 'link markup', match: markup.action } : null) ??
        kept(textBlock(found, on('anchor text') ? [text, ...labels] : [], markup));
      if (block) return block;
      const mine = found.yours ?? (anchor ? yoursIn(anchor) : null);
      if (mine) return kept({ rule: YOUR_LIST, match: mine });
      // Last: a link every other rule let through but that could not be read whole is still refused.
      return found.broken ? kept({ rule: 'undecodable URL', match: found.broken }) : null;
    },
  };
}

/**
 * What the link's text, its labels and the signs that need company say, for a URL that does not act by itself. A
 * URL that names a page of content is read, whatever the link is called. Two signs from two sources block: what the
 * link says it is (a verb that also names pages as its text, an action's icon: "Trash" with a bin is one sign, the
 * Trash folder), how the page handles the click (a script, a form), and a `hash` or `sid` beside it in the URL.
 */
function textBlock(found: UrlFindings, texts: (TextFindings | null)[], markup: MarkupFindings): SafetyBlock | null {
  if (found.named) return null;
  for (const t of texts) if (t?.action) return { rule: 'anchor text', match: t.action };
  const said = texts.find((t) => t?.sign)?.sign;
  const signs = [said ? `"${said}"` : markup.icon, markup.signs[0], found.beside].filter((x): x is string => !!x);
  if (signs.length < 2) return null;
  return { rule: markup.signs.length || (markup.icon && !said) ? 'link markup' : 'anchor text', match: signs.join(' + ') };
}
