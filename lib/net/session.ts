// Noticing that a request ended the user's session. The safety guard keeps known actions from being requested;
// whatever it misses, the answer usually says so: the server clears the session cookie the request carried, or
// sends a page that was reached logged in to its login form. Either way the crawl must stop at once rather than
// go on logged out (and every next page a login form), and never make that request again.

/** What a request sent of the user's session and what its answer did to it, where the platform can see both. */
export interface CookieTrace {
  /** Names of the cookies the request carried. */
  sent: string[];
  /** Names the answer's Set-Cookie lines cleared: Max-Age of 0 or less, an Expires in the past, or an emptied value. */
  cleared: string[];
}

/** Why a request is taken to have ended the session, for the user: the cookie cleared, or the login page it was sent to. */
export interface SessionLoss {
  /**
   * `cookie` when the answer cleared a cookie the request sent; `login` when it sent a logged-in request to log in;
   * `signs` when the page came back as a visitor who is not logged in sees it (lib/policy/session-signs.ts).
   */
  by: 'cookie' | 'login' | 'signs';
  /** The cookie's name, the login page's URL, or what the page shows instead of the user's menu. */
  what: string;
  /** For `signs`: the last page of the host that showed the user logged in, after which the session ended. */
  after?: string;
}

/**
 * The names a response's Set-Cookie lines clear, at time `now`. A value of "deleted" counts too (PHP's and many
 * frameworks' way of removing a cookie, always with a past Expires, which old clients may not read).
 */
export function clearedCookies(setCookie: readonly string[], now: number): string[] {
  const cleared: string[] = [];
  for (const line of setCookie) {
    const [pair = '', ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    let gone = value === '' || value.toLowerCase() === 'deleted';
    let maxAge: number | undefined;
    for (const attr of attrs) {
      const at = attr.indexOf('=');
      const key = (at < 0 ? attr : attr.slice(0, at)).trim().toLowerCase();
      const val = at < 0 ? '' : attr.slice(at + 1).trim();
      if (key === 'max-age' && /^-?\d+$/.test(val)) maxAge = Number(val);
      if (key === 'expires') {
        const t = Date.parse(val);
        if (Number.isFinite(t) && t <= now) gone = true;
      }
    }
    // RFC 6265 5.3: Max-Age wins over Expires.
    if (maxAge !== undefined) gone = maxAge <= 0 || value === '' || value.toLowerCase() === 'deleted';
    if (gone && name && !cleared.includes(name)) cleared.push(name);
  }
  return cleared;
}

/** The names in a Cookie request header. */
export function cookieNames(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(';').map((p) => p.slice(0, Math.max(0, p.indexOf('='))).trim()).filter(Boolean);
}

/**
 * Path words of login pages in the web's larger languages (folded: lowercase, no diacritics). A logged-in request
 * sent there has lost its session, or never had the right one.
 */
const LOGIN_WORDS = new Set([
  'login', 'logon', 'signin', 'servicelogin', 'anmelden', 'anmeldung', 'einloggen', 'connexion', 'identification', 'connecter',
  'iniciar', 'acceder', 'ingresar', 'entrar', 'accedi', 'accesso', 'inloggen', 'aanmelden', 'logga', 'zaloguj', 'logowanie', 'prihlaseni',
  'prihlasit', 'giris', 'oturum', 'masuk', 'vhod', 'voiti', 'вход', 'войти', 'увійти', 'вхід', 'ورود', 'دخول', 'nhap',
]);
/** Word pairs that name a login page only together (`sign in`, `log in`, `iniciar sesion`, `dang nhap`). */
const LOGIN_PAIRS = [['sign', 'in'], ['log', 'in'], ['iniciar', 'sesion'], ['dang', 'nhap'], ['se', 'connecter'], ['logga', 'in']];
/** Scripts written without spaces: matched inside a segment. */
const LOGIN_INFIXES = ['登录', '登入', '登錄', 'ログイン', '로그인', 'تسجيل الدخول', 'تسجيل-الدخول'];

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').replace(/ł/g, 'l').toLowerCase();

function wordsOf(segment: string): string[] {
  return fold(segment.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Whether a URL's path names a login page (`/login`, `/accounts/ServiceLogin`, `/users/sign_in`, `/anmelden`, `/ログイン`). */
export function isLoginUrl(url: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return false;
  }
  for (const segment of path.split('/').filter(Boolean)) {
    const bare = segment.replace(/\.(php\d?|aspx?|jspa?|do|action|cgi|html?|srf)$/i, '');
    if (LOGIN_INFIXES.some((w) => bare.includes(w))) return true;
    const words = wordsOf(bare);
    if (words.length > 4) continue; // a title, not a route
    if (words.some((w) => LOGIN_WORDS.has(w))) return true;
    if (LOGIN_PAIRS.some(([a, b]) => words.some((w, i) => w === a && words[i + 1] === b))) return true;
  }
  return false;
}

/**
 * Whether an answer to a request that carried the user's cookies ended the session: it cleared one of them, or,
 * for a page that is expected to open with the session (`expected`: a seed, or a page the crawl was given before),
 * it redirected to a login page. A link that leads a logged-in visitor to log in is common and innocent (a forum's
 * "Reply" for guests, a members' area): only a page that opened before and now asks to log in says the session
 * is gone. Null when the request carried no cookie (a site without a session is never lost).
 */
export function sessionLoss(trace: CookieTrace | undefined, redirectTo: string | null, expected: boolean): SessionLoss | null {
  if (!trace || trace.sent.length === 0) return null;
  const cookie = trace.cleared.find((name) => trace.sent.includes(name));
  if (cookie !== undefined) return { by: 'cookie', what: cookie };
  if (expected && redirectTo !== null && isLoginUrl(redirectTo)) return { by: 'login', what: redirectTo };
  return null;
}
