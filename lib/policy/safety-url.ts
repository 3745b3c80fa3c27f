// How the session-safety guard reads a URL: its path cut into segments and its query into keys and values, each
// decoded on its own, and what each part says about whether requesting the URL acts. safety.ts puts these findings
// together with what the link's text and markup say.
//
// A path acts where a route puts its verb: anywhere in a short segment for a verb that is rarely anything else
// (`/logout`, `/user/delete`), as the whole last segment for one that is also a word (`/posts/9/like`,
// `/cart`), after the thing it acts on for one that also names pages (`/jobs/12/retry`, not `/blog/archive`), at
// either end of a code identifier (`toggle_subscription`, `toggleOffline`), and fused with its object into one word
// (`removepage.action`, `deletemsg`). A segment of several words after a collection of content (`/products/`,
// `/docs/`, `/blog/`, a year) is the name of a page, whatever verb it holds (`/products/sign-out-sheet`), and a path
// after a code browser's `blob`/`tree`/`src` names a file. A query acts with an anti-forgery token, an operation key
// whose value names an action (or, for `action`/`do`/`cmd`, anything that is no view), a key that is a verb
// (`?watch=topic`, `?delete=42`), or a statement that writes; the value of a search box says nothing.
import { CONTENT_COLLECTIONS, LOOSE_OPERATION_KEYS, OPERATION_ENDPOINTS, READ_TOKEN_KEYS, SEARCH_KEYS, STRICT_OPERATION_KEYS, TOKEN_BESIDE_ACTION, TOKEN_KEYS, TOKEN_SEGMENTS, TOKEN_SUFFIXES, WRITING_SQL, YEAR_SEGMENT } from './safety-signals';
import { actionIn, type Component, componentOf, fold, identifierAction, nameAction, operationOf, pairAcross, verbPrefix, wholeAction, wordsOf } from './safety-words';

export interface Decoded {
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

export interface ReadUrl {
  segments: Decoded[];
  query: { key: Decoded; value: Decoded }[];
}

/** Query pairs are split on `&` and on `;`, which OTRS, SMF and other Perl and PHP applications use alike. */
export function readUrl(u: URL): ReadUrl {
  return {
    segments: u.pathname.split('/').filter(Boolean).map((s) => decode(s)),
    query: u.search
      .slice(1)
      .split(/[&;]/)
      .filter(Boolean)
      .map((pair) => {
        const eq = pair.indexOf('=');
        return { key: decode(eq < 0 ? pair : pair.slice(0, eq), true), value: decode(eq < 0 ? '' : pair.slice(eq + 1), true) };
      }),
  };
}

/** A query key as the tables write it: lowercase, without `[]`, leading `_` or `-`, or the `_`/`-` inside it. */
export const keyName = (key: Decoded) => key.text.trim().toLowerCase().replace(/\[\]$/, '').replace(/[-_.]/g, '');

/**
 * A segment after an action that only says which thing it acts on: `/vote/123`, `/invite/x7Kq2`, a uuid.
 * Short names with a digit (`/report/ar6/wg1/`) are names, not ids.
 */
const ID_SEGMENT = /^(\d+|(?=[\w-]*\d)[\w-]{5,})$/;
/** Code browsers: after one, a path is a file's (`/-/blob/main/app/destroy_service.rb`, `/src/branch/main/cmd/delete.go`). */
const FILE_TREES = new Set(['blob', 'tree', 'raw', 'blame', 'src', 'source', 'commits']);
/** Language prefixes: a verb after one has nothing to act on (`/de/start`). */
const LANGUAGES = new Set(('en de fr es pt it nl pl tr ru uk cs sk sv no nb da fi ja zh ko ar fa vi id ms th hi el he hu ro bg hr sr sl ' +
  'et lv lt ca eu gl').split(' '));
/** A namespace or a parameter in a path: MediaWiki's `Special:UserLogout`, Grav's and Kirby's `task:delete`. */
const PARAMETER = /^([\p{L}][\p{L}\p{N}_-]*):(.+)$/u;
/** A server script's file name: `edit.php`, `index.cgi`, `view.jsp`. */
const SCRIPT = /\.(php\d?|aspx?|jspa?|cgi|pl|do|action|cfm|asp|py|rb|nsf)$/i;
/** A document named by a word that is also a verb (`archive.xml`, `watch.html`, `move.pdf`): a file to read. */
const DOCUMENT = /\.(xml|html?|txt|json|rss|atom|pdf|csv)(\.gz)?$/i;
/** A value that only counts or dates: `?start=20`, `?start=2024-05-01`, `?refresh=30s`. */
const QUANTITY = /^[\d\s.:,+-]*[a-z]{0,2}$/i;

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

/** Endpoints for programs, not pages; matched in lower case (see the guard's limits). */
const API_SEGMENT = /^(api|ajax|rpc|graphql|xmlrpc|jsonrpc|json-rpc|wp-json|admin-ajax)(\.(php|aspx?|jsp|cgi|json|do))?$/;

/** What one URL says, rule by rule: the first match of each, or null. */
export interface UrlFindings {
  action: string | null;
  state: string | null;
  api: string | null;
  /** Keys that are a token only beside an action (`hash`, `sid`): one sign, which needs another. */
  beside: string | null;
  /** The URL names a page of content (`/products/trash-bags`): what its link is called does not make it an action. */
  named: boolean;
  broken: string | null;
}

/** How the path's segments read: where names begin (after a collection or a year), and where a file tree begins. */
function pathShape(segments: Decoded[]): { namesFrom: number; filesFrom: number } {
  let namesFrom = Infinity;
  let filesFrom = Infinity;
  segments.forEach((s, i) => {
    const lower = fold(s.text).toLowerCase();
    if (namesFrom === Infinity && (CONTENT_COLLECTIONS.has(lower) || YEAR_SEGMENT.test(lower))) namesFrom = i + 1;
    if (filesFrom === Infinity && FILE_TREES.has(lower) && i > 0) filesFrom = i + 1;
  });
  return { namesFrom, filesFrom };
}

/** Whether a segment is a collection, a year or a language: nothing a verb after it could act on. */
function namesNoObject(s: Decoded | undefined): boolean {
  if (!s) return true;
  const lower = fold(s.text).toLowerCase();
  return lower === '-' || CONTENT_COLLECTIONS.has(lower) || YEAR_SEGMENT.test(lower) || LANGUAGES.has(lower.replace(/[-_].*$/, ''));
}

function pathAction(segments: Decoded[], findings: UrlFindings): string | null {
  const { namesFrom, filesFrom } = pathShape(segments);
  const parts: (Component | null)[] = segments.map((s, i) => {
    if (i >= filesFrom) return null;
    const c = componentOf(s.text);
    // A page's name: several words of prose after a collection, unless they are an action and nothing else. Code
    // (`deleteAllPosts`) and a namespace or parameter (`Special:UserLogout`, Grav's `task:delete`) are no name.
    if (i >= namesFrom && c.size >= 2 && !c.camel && !PARAMETER.test(s.text) && !wholeAction(c)) {
      findings.named = true;
      return null;
    }
    return c;
  });
  for (let i = 0; i < parts.length; i++) {
    const c = parts[i];
    if (!c) continue;
    const last = segments.slice(i + 1).every((s) => ID_SEGMENT.test(s.text));
    const hit = actionIn(c, { camelWeak: true, weakAlone: last }) ?? (i > 0 && parts[i - 1] ? pairAcross(parts[i - 1]!, c) : null);
    if (hit) return hit;
    if (!last || c.title) continue;
    // A script named by such a verb (`edit.php`, `archive.php`) is a page: its query says what it does; a document
    // so named (`/sitemaps/archive.xml`) is a file.
    const named = SCRIPT.test(segments[i].text) || DOCUMENT.test(segments[i].text) ? null : nameAction(c.words);
    if (named && !namesNoObject(segments[i - 1])) return named;
    const coded = identifierAction(c);
    if (coded) return coded;
    const fusedRoute = c.words.length === 1 && /^[a-z]+$/.test(c.words[0]) ? verbPrefix(c.words[0], true) : null;
    if (fusedRoute) return fusedRoute;
  }
  return null;
}

function protocolEndpoint(segments: Decoded[]): string | null {
  for (const { endpoint, protocol } of PROTOCOL_ENDPOINTS) {
    const named = segments.find((s) => endpoint.test(s.text));
    if (named && segments.some((s) => protocol.test(s.text))) return named.text.toLowerCase();
  }
  return null;
}

/** A query key that is a verb (`?delete=42`, `?watch=topic`, `?add-to-cart=5`); a page name's verb only with a value that is no count. */
function keyAction(key: Decoded, value: Decoded): string | null {
  const c = componentOf(key.text);
  const hit = actionIn(c, { camelWeak: false, weakAlone: true });
  if (hit) return hit;
  if (c.title) return null;
  const named = nameAction(c.words);
  if (named && !QUANTITY.test(value.text)) return named;
  return c.words.length === 1 ? verbPrefix(c.words[0], true) : null;
}

/** Whether a key (as keyName writes it) names an anti-forgery token. */
const isToken = (name: string) =>
  !READ_TOKEN_KEYS.has(name) && (TOKEN_KEYS.has(name) || TOKEN_SUFFIXES.some((s) => name.length > s.length && name.endsWith(s)));

function queryFindings({ query }: ReadUrl, findings: UrlFindings): void {
  for (const { key, value } of query) {
    const name = keyName(key);
    findings.action ??= keyAction(key, value);
    if (SEARCH_KEYS.has(name)) continue;
    const token = isToken(name);
    // Joomla names its token by the token itself, a 32-digit hex key with the value 1.
    if (token || (/^[0-9a-f]{32}$/.test(name) && value.text === '1')) findings.state ??= key.text;
    if (TOKEN_BESIDE_ACTION.has(name)) findings.beside ??= key.text;
    if (WRITING_SQL.test(value.text)) findings.state ??= `${key.text}=${value.text.trim().split(/\s+/).slice(0, 2).join(' ')}`;
    if (STRICT_OPERATION_KEYS.has(name) || LOOSE_OPERATION_KEYS.has(name)) {
      const said = operationOf(value.text.split(/[/.]/).flatMap((p) => wordsOf(fold(p))));
      if (said && said !== 'read') findings.action ??= said;
      else if (said === null && STRICT_OPERATION_KEYS.has(name) && value.text.trim()) findings.state ??= `${key.text}=${value.text}`;
      continue;
    }
    // Another value may be a path itself (`?next=/logout`, `?title=Special:UserLogout`).
    if (findings.action) continue;
    const parts = value.text.split('/').filter(Boolean).map(componentOf);
    for (const p of parts) findings.action ??= actionIn(p, { camelWeak: false, weakAlone: false });
  }
}

/** Segments that carry a token in the next one (Magento's `/form_key/Xk3pQ9/`) or run commands (`cmd.cgi?...`). */
function pathSigns(segments: Decoded[], hasQuery: boolean, findings: UrlFindings): void {
  segments.forEach((s, i) => {
    const name = s.text.toLowerCase().replace(/[-_]/g, '').replace(/\.[a-z]+$/, '');
    if (TOKEN_SEGMENTS.has(name) && i + 1 < segments.length) findings.state ??= s.text;
    const param = PARAMETER.exec(s.text);
    if (param && isToken(param[1].toLowerCase().replace(/[-_.]/g, ''))) findings.state ??= param[1];
    if (OPERATION_ENDPOINTS.has(name) && hasQuery && i === segments.length - 1) findings.action ??= name;
  });
}

function apiPath(segments: Decoded[]): string | null {
  if (/\.html?$/i.test(segments.at(-1)?.text ?? '')) return null;
  const { namesFrom } = pathShape(segments);
  return segments.find((s, i) => i < namesFrom && API_SEGMENT.test(s.text))?.text ?? null;
}

/** Everything the rules find in a URL, each rule read only when it is on. */
export function urlFindings(read: ReadUrl, on: { action: boolean; state: boolean; api: boolean }): UrlFindings {
  const findings: UrlFindings = { action: null, state: null, api: null, beside: null, named: false, broken: null };
  findings.action = pathAction(read.segments, findings) ?? protocolEndpoint(read.segments);
  queryFindings(read, findings);
  pathSigns(read.segments, read.query.length > 0, findings);
  if (!on.action) findings.action = null;
  if (!on.state) findings.state = null;
  findings.api = on.api ? apiPath(read.segments) : null;
  findings.broken = [...read.segments, ...read.query.flatMap((p) => [p.key, p.value])].find((d) => d.broken)?.raw ?? null;
  return findings;
}
