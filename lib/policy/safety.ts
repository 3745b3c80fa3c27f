// Session safety. The crawler fetches with the user's own cookies, so a GET on "log out", "delete account",
// "vote" or "add to cart" acts as the user. Links that look like such actions are recorded as skipped and
// never requested. Each default rule has a name and can be turned off alone (config.safety.disabledRules);
// the user's own words (config.safety.avoid) add to the rules and never replace them.
//
// How a link is read. The path is cut into segments and the query into keys and values; each is decoded on
// its own (a broken %-escape spoils one component, not the whole URL), folded (accents, ß, ł, ı, Arabic letter
// forms: `löschen` = `loschen`, `çıkış` = `cikis`) and cut into words on punctuation, camelCase humps and
// letter/digit boundaries: `deleteAccount` -> delete, account; `Special:UserLogout` -> special, user, logout.
// The words are those of the twenty languages with the most web pages and a few more (safety-lexicon.ts).
// Chinese, Japanese and Thai have no spaces: their actions are found inside a word (`用户退出登录`), as are
// German and Korean compounds (`kontoloeschen`, `회원탈퇴`).
//
// Action or title? The same word is an action in `/account/delete` and a topic in `/wiki/Delete_(SQL)` or
// `/how-to-remove-rust-from-tools`. Routes and action names are short identifiers; titles and slugs are
// prose. So a component with more than 4 words (unspaced text counts a word per 3 characters), with the
// punctuation of prose (parentheses around words, commas, quotes, ! ? ¿ 「」), or with a document's extension
// (`remove-before-flight.pdf`; a server script's, known or not, such as `.php` or `.srf`, is left off) is read as
// a title and no verb inside it blocks; in any shorter component an action phrase ("log out", "cerrar sesión",
// "add to cart") or a strong verb (delete, abmelden, supprimer, ログアウト, ...) blocks wherever it stands. A
// camelCase identifier led by a verb (`deleteAllMessagesForUser`) is code, not prose, and blocks at any length.
// Weak verbs, which are also everyday words (like, follow, report, cart, salir, 退出, خروج, ...: "Flag of
// France", "/report/ar6/", 退出欧盟 for Brexit), block only as a whole component: the last path segment (ids
// after it aside: `/vote/123`), a query key (`?like=5`), or the value of an operation key (`?op=vote`). An
// account next to a verb that ends it blocks in either order, in one component or across two segments
// (`close-account`, `/account/close`, `/konto/kuendigen`, `/账户/注销`). The value of a search key
// (`?q=how+to+delete+files`) is what someone typed into a search box and is never read as an action.
//
// Limits, known and accepted, that err towards not requesting:
// - a short title that is itself an action word is skipped: `/wiki/Delete`, `/wiki/Remove_rust`, `/wiki/Like`,
//   and so is a short how-to slug: `/flecken-entfernen`; a weak word of any language blocks as a whole
//   component in all of them (`/kasse`, `/sil`);
// - a weak verb before an id is skipped even when it is a noun there: `/block/000000abc` on a block explorer;
// - Vietnamese without its marks folds "đang" (being) into "đăng": `/dang-xuat-khau` (exporting) is skipped;
// - Latin-1 %-escapes (`%E9`, from pre-UTF-8 sites) do not decode as UTF-8 and are refused as undecodable;
// - rel=nofollow also drops the outside links of sites that mark all of them so (Wikipedia, most forums).
// And that err towards requesting:
// - an action spelled as a long slug without camelCase (`/delete-my-account-and-all-my-data`) passes the
//   verb rule: a token or action key in its query, or its anchor text, usually still catches it;
// - an apostrophe reads as prose, so a French elision passes: `/s'abonner`, the anchor "J'aime";
// - SAML's `slo` and OAuth's `revocation` block only in a path that names their protocol (`/saml2/.../slo`);
// - `api` paths are matched in lower case only, so documentation such as MDN's `/docs/Web/API/fetch` and
//   Wikipedia's `/wiki/API` stays crawlable; so does a page under `/api/` that ends in `.html` (Node.js docs);
// - a language or a spelling the lexicon does not have.
// Only GET requests are ever made and forms are never submitted; these rules are about links.
import type { CrawlConfig } from '../records/config';
import { YOUR_LIST, type SafetyRule } from '../records/safety-rules';
import { actionIn, type Component, componentOf, leadingAction, MAX_ACTION_WORDS, OPERATION_KEYS, pairAcross, SEARCH_KEYS, weakAction, wordsOf } from './safety-words';

export interface SafetyBlock {
  /** The rule that blocked the link: one of DEFAULT_SAFETY_RULES, or "your list". */
  rule: string;
  /** What matched: the verb, the key, the segment. */
  match: string;
}

export interface SafetyGuard {
  /**
   * Why this link must not be requested, or null when it is safe to request. `parsed`, when the caller has it, is
   * `new URL(url)` (url.ts linkTarget's `requested`), read instead of parsing `url` again.
   */
  check(url: string, link?: { anchor?: string; rel?: string[] }, parsed?: URL): SafetyBlock | null;
}


const WHY: Record<string, string> = {
  'action verb': 'it could change or end your session',
  'state query key': 'a link carrying an action or a one-time token acts as you',
  'api path': 'an API endpoint could act on your account',
  nofollow: 'the page asks for it not to be followed',
  'anchor text': 'its text names an action that could change your account',
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

/** Query keys that carry a one-time token or a signature: a link with one is an action prepared for this user. */
const TOKEN_WORDS = new Set(['token', 'csrf', 'xsrf', 'nonce', 'sig', 'signature', 'auth', 'hash', 'sesskey']);
const TOKEN_SUFFIXES = ['token', 'nonce', 'csrf', 'hash', 'sesskey'];
/** Keys that name what the server should do. */
const ACTION_KEYS = new Set(['action', 'do', 'cmd', 'command']);
/**
 * Values of those keys that only show something. MediaWiki documents view, history, info, raw, render and
 * credits as read actions; DokuWiki's show, revisions, diff, backlink, index and recent only display. Letting
 * them through keeps a wiki's history and diff pages crawlable; a token beside them still blocks.
 */
const READ_ACTIONS = new Set(['view', 'show', 'history', 'info', 'raw', 'render', 'credits', 'print', 'diff', 'revisions', 'backlink', 'index', 'recent']);
/** Endpoints for programs, not pages; matched in lower case (see the limits above). */
const API_SEGMENT = /^(api|ajax|rpc|graphql|xmlrpc|jsonrpc|json-rpc|wp-json|admin-ajax)(\.(php|aspx?|jsp|cgi|json|do))?$/;
/**
 * A segment after an action that only says which thing it acts on: `/vote/123`, `/invite/x7Kq2`, a uuid.
 * Short names with a digit (`/report/ar6/wg1/`) are names, not ids.
 */
const ID_SEGMENT = /^(\d+|(?=[\w-]*\d)[\w-]{5,})$/;

interface Decoded {
  raw: string;
  text: string;
  broken: boolean;
}

/**
 * Decodes one URL component, leniently: valid %-escapes are decoded even when another one in the same
 * component is broken, so `/%6cogout` still reads "logout" beside a bad escape; `broken` says whether any
 * escape could not be decoded (a stray `%`, or bytes that are not UTF-8).
 */
function decode(raw: string, plusIsSpace = false): Decoded {
  let broken = false;
  const text = (plusIsSpace ? raw.replace(/\+/g, ' ') : raw).replace(/(?:%[0-9a-f]{2})+|%/gi, (run) => {
    if (run === '%') {
      broken = true;
      return run;
    }
    try {
      return decodeURIComponent(run);
    } catch {
      broken = true;
      // The ASCII escapes of the run still decode: they are what an action word would hide in.
      return run.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
  return { raw, text, broken };
}

interface ReadUrl {
  segments: Decoded[];
  query: { key: Decoded; value: Decoded }[];
}

function readUrl(u: URL): ReadUrl {
  return {
    segments: u.pathname.split('/').filter(Boolean).map((s) => decode(s)),
    query: u.search
      .slice(1)
      .split('&')
      .filter(Boolean)
      .map((pair) => {
        const eq = pair.indexOf('=');
        return { key: decode(eq < 0 ? pair : pair.slice(0, eq), true), value: decode(eq < 0 ? '' : pair.slice(eq + 1), true) };
      }),
  };
}

const keyName = (key: Decoded) => key.text.trim().toLowerCase().replace(/\[\]$/, '');

/**
 * Protocol endpoints named by a word that is something else alone, with the path segment that says which
 * protocol it is: SAML Single Logout (`/idp/profile/SAML2/Redirect/SLO`, Okta's `/app/x/y/slo/saml`; "slo" is
 * also a Slovak language prefix and a Wikipedia title) and OAuth token revocation (RFC 7009) at
 * IdentityServer's `/connect/revocation`. The endpoints named by their action (`end_session`, `endsession`,
 * `logout.srf`, `/oauth2/revoke`, `/cas/logout`) are in the lexicon.
 */
const PROTOCOL_ENDPOINTS: readonly { endpoint: RegExp; protocol: RegExp }[] = [
  { endpoint: /^(slo|sls)$/i, protocol: /^saml/i },
  { endpoint: /^revocation$/i, protocol: /^(connect|oauth2?|oidc|openid)$/i },
];

/** The action in a run of path segments (or the parts of a path-like query value), one after another. */
function actionInPath(parts: Component[], opts: { camelWeak: boolean; weakAlone: (i: number) => boolean }): string | null {
  for (let i = 0; i < parts.length; i++) {
    const hit = actionIn(parts[i], { camelWeak: opts.camelWeak, weakAlone: opts.weakAlone(i) }) ?? (i > 0 ? pairAcross(parts[i - 1], parts[i]) : null);
    if (hit) return hit;
  }
  return null;
}

function actionVerb({ segments, query }: ReadUrl): string | null {
  const path = segments.map((s) => componentOf(s.text));
  const hit = actionInPath(path, { camelWeak: true, weakAlone: (i) => segments.slice(i + 1).every((s) => ID_SEGMENT.test(s.text)) });
  if (hit) return hit;
  for (const { endpoint, protocol } of PROTOCOL_ENDPOINTS) {
    const named = segments.find((s) => endpoint.test(s.text));
    if (named && segments.some((s) => protocol.test(s.text))) return named.text.toLowerCase();
  }
  for (const { key, value } of query) {
    const hit = actionIn(componentOf(key.text), { camelWeak: false, weakAlone: true });
    if (hit) return hit;
    const name = keyName(key);
    if (SEARCH_KEYS.has(name)) continue;
    // A value may be a path itself (`?route=account/logout`, `?next=/logout`).
    const operation = OPERATION_KEYS.has(name);
    const parts = value.text.split('/').filter(Boolean).map(componentOf);
    const v = actionInPath(parts, { camelWeak: operation, weakAlone: (j) => operation && j === parts.length - 1 });
    if (v) return v;
  }
  return null;
}

function stateQueryKey({ query }: ReadUrl): string | null {
  for (const { key, value } of query) {
    const name = keyName(key);
    const fused = name.replace(/[^\p{L}\p{N}]/gu, '');
    if (wordsOf(key.text).some((w) => TOKEN_WORDS.has(w)) || TOKEN_SUFFIXES.some((s) => fused.endsWith(s))) return key.text;
    if (ACTION_KEYS.has(name) && !READ_ACTIONS.has(value.text.trim().toLowerCase())) return `${key.text}=${value.text}`;
  }
  return null;
}

function apiPath({ segments }: ReadUrl): string | null {
  if (/\.html?$/i.test(segments.at(-1)?.text ?? '')) return null;
  return segments.find((s) => API_SEGMENT.test(s.text))?.text ?? null;
}

/** Anchor text blocks only when short: "Log out" is a button, "How to remove rust" is an article. */
function anchorText(anchor: string): string | null {
  const c = componentOf(anchor);
  if (c.title) return null;
  return leadingAction(c.words, false) ?? weakAction(c.words);
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

/** What the rules find in a URL alone, the first match of each (null: none, or the rule is off). */
interface UrlFindings {
  action: string | null;
  state: string | null;
  api: string | null;
  yours: string | null;
  broken: string | null;
}

/** What the rules find in an anchor alone. */
interface AnchorFindings {
  action: string | null;
  yours: string | null;
}

/**
 * Findings by URL and by anchor, each a pure function of its key under one guard's rules: a crawl meets the same
 * links (a site's navigation, its articles linked from page after page) and the same anchors many times, and
 * reading them again was most of the guard's time. Bounded: forgotten whole when full.
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

export function makeSafetyGuard(safety: CrawlConfig['safety']): SafetyGuard {
  // Crawls stored before disabledRules existed have none: every default rule is on for them.
  const off = new Set<string>(safety.disabledRules ?? []);
  const on = (rule: SafetyRule) => !off.has(rule);
  const yours = wordPattern(safety.avoid ?? []);
  const readLink = (u: URL): UrlFindings => {
    const read = readUrl(u);
    let mine: string | null = null;
    if (yours) {
      const text = read.segments.map((s) => `/${s.text}`).join('') + (read.query.length ? `?${read.query.map((p) => `${p.key.text}=${p.value.text}`).join('&')}` : '');
      mine = yours.exec(text)?.[2].toLowerCase() ?? null;
    }
    const broken = [...read.segments, ...read.query.flatMap((p) => [p.key, p.value])].find((d) => d.broken);
    return {
      action: on('action verb') ? actionVerb(read) : null,
      state: on('state query key') ? stateQueryKey(read) : null,
      api: on('api path') ? apiPath(read) : null,
      yours: mine,
      broken: broken && on('undecodable URL') ? broken.raw : null,
    };
  };
  const readAnchor = (anchor: string): AnchorFindings => ({
    action: on('anchor text') && anchor ? anchorText(anchor) : null,
    yours: yours && wordsOf(anchor).length <= MAX_ACTION_WORDS ? (yours.exec(anchor)?.[2].toLowerCase() ?? null) : null,
  });
  const byUrl = remembered<UrlFindings | null>();
  const byAnchor = remembered<AnchorFindings>();
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
      const trimmed = link.anchor?.trim() ?? '';
      const anchor = byAnchor(trimmed, () => readAnchor(trimmed));
      const block: SafetyBlock | null =
        (found.action ? { rule: 'action verb', match: found.action } : null) ??
        (found.state ? { rule: 'state query key', match: found.state } : null) ??
        (found.api ? { rule: 'api path', match: found.api } : null) ??
        (on('nofollow') && link.rel?.includes('nofollow') ? { rule: 'nofollow', match: 'nofollow' } : null) ??
        (anchor.action ? { rule: 'anchor text', match: anchor.action } : null);
      if (block) return block;
      const mine = found.yours ?? anchor.yours;
      if (mine) return { rule: YOUR_LIST, match: mine };
      // Last: a link every other rule let through but that could not be read whole is still refused.
      return found.broken ? { rule: 'undecodable URL', match: found.broken } : null;
    },
  };
}
