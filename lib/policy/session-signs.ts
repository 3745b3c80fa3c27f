// Noticing from the pages themselves that the user's session has ended. Some sites end a session on the server and
// go on answering with the pages a visitor who is not logged in sees, without clearing a cookie or redirecting
// (lib/net/session.ts sees those two). A logged-in page says so: a sign-out link, the user's menu around it (their
// name, their settings), no sign-in link or form. Each host's signs are learned from its own pages requested with the
// session; once a page of that host, in the same frame as the others (the links all its logged-in pages share),
// shows no sign-out link and no user menu but a sign-in link or form, the session has ended.
//
// Limits: a site whose pages build the user's menu with scripts shows no signs in the HTML the crawl reads, and is
// not watched; one whose logged-out pages show no sign-in link or form is not noticed; a page of another application
// on the same host (another frame) says nothing.
import type { ExtractedLink, ParsedPage } from '../records/types';
import { fold, wordsOf } from './safety-words';

/** What a sign-out link says, in the web's languages (folded alike: `Déconnexion` is `deconnexion`). */
export const SIGN_OUT_TEXTS: readonly string[] = [
  'log out', 'logout', 'log off', 'logoff', 'sign out', 'signout', 'sign off', 'end session', 'abmelden', 'ausloggen',
  'déconnexion', 'se déconnecter', 'cerrar sesión', 'salir', 'sair', 'terminar sessão', 'encerrar sessão', 'esci',
  'disconnetti', 'uitloggen', 'afmelden', 'wyloguj', 'wylogowanie', 'çıkış', 'çıkış yap', 'oturumu kapat', 'выйти',
  'выход', 'вийти', 'вихід', 'odhlásit', 'odhlásiť', 'odhlášení', 'logga ut', 'logg ut', 'log ud', 'keluar',
  'log keluar', 'đăng xuất', 'thoát', '退出', '登出', '退出登录', '注销', 'ログアウト', 'サインアウト', '로그아웃',
  'تسجيل الخروج', 'خروج', 'ออกจากระบบ', 'लॉग आउट', 'αποσύνδεση', 'התנתק', 'kirjaudu ulos',
];
/** What a sign-in link says. "Anmelden" signs in, "Abmelden" out; "connexion" in, "déconnexion" out. */
export const SIGN_IN_TEXTS: readonly string[] = [
  'log in', 'login', 'sign in', 'signin', 'log on', 'logon', 'anmelden', 'einloggen', 'anmeldung', 'connexion',
  'se connecter', 'iniciar sesión', 'entrar', 'acceder', 'ingresar', 'accedi', 'inloggen', 'aanmelden', 'zaloguj',
  'logowanie', 'giriş', 'giriş yap', 'oturum aç', 'войти', 'вход', 'увійти', 'вхід', 'přihlásit', 'logga in',
  'logg inn', 'log ind', 'masuk', 'đăng nhập', '登录', '登入', '登錄', 'ログイン', 'サインイン', '로그인',
  'تسجيل الدخول', 'ورود', 'เข้าสู่ระบบ', 'लॉग इन', 'σύνδεση', 'התחבר', 'kirjaudu sisään',
];

/** A sign-out or sign-in link's text is a button's: a few words. */
const MAX_BUTTON_WORDS = 3;
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}]/u;

function matcher(texts: readonly string[]): (text: string) => boolean {
  const phrases = texts.filter((t) => !UNSPACED.test(t)).map((t) => wordsOf(fold(t)).join(' '));
  const inside = texts.filter((t) => UNSPACED.test(t)).map((t) => fold(t));
  return (text) => {
    const folded = fold(text);
    const words = wordsOf(folded);
    if (words.length === 0 || words.length > MAX_BUTTON_WORDS) return false;
    const joined = ` ${words.join(' ')} `;
    return phrases.some((p) => joined.includes(` ${p} `)) || inside.some((p) => folded.includes(p));
  };
}
const saysSignOut = matcher(SIGN_OUT_TEXTS);
const saysSignIn = matcher(SIGN_IN_TEXTS);

/** The names a link goes by: its text, its title and accessible name, its icon's. */
function namesOf(link: ExtractedLink): string[] {
  const m = link.markup;
  return [link.anchor, m?.attrs?.title, m?.attrs?.['aria-label'], m?.iconLabel].filter((t): t is string => !!t?.trim());
}

/** A link's URL without its fragment: the same link on every page of a site. */
const linkKey = (url: string) => url.split('#')[0]!;

/** The last path segment of a URL, as words: `/users/sign_out` -> sign out, `/logout.php` -> logout. */
function routeWords(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '';
    return decodeURIComponent(last).replace(/\.[a-z0-9]{1,5}$/i, '');
  } catch {
    return '';
  }
}

/** The signs one page shows of a reader who is logged in, or not. */
export interface PageSigns {
  /** The index of its sign-out link, or -1. */
  signOut: number;
  /** It shows a sign-in link or a password field. */
  signIn: boolean;
  /** The texts of the links next to the sign-out link: the user's menu, their name. */
  menu: string[];
  /** Its links' URLs, and texts. */
  links: Set<string>;
  texts: Set<string>;
}

export function readSigns(page: ParsedPage, signOutUrls: ReadonlySet<string> = new Set()): PageSigns {
  const links = new Set<string>();
  const texts = new Set<string>();
  let signOut = -1;
  let signIn = page.passwordField === true;
  page.links.forEach((link, i) => {
    const key = linkKey(link.url);
    links.add(key);
    if (link.anchor.trim()) texts.add(link.anchor.trim());
    const names = namesOf(link);
    if (signOut < 0 && (signOutUrls.has(key) || names.some(saysSignOut) || saysSignOut(routeWords(link.url)))) signOut = i;
    else if (!signIn && (names.some(saysSignIn) || saysSignIn(routeWords(link.url)))) signIn = true;
  });
  const menu = signOut < 0 ? [] : [page.links[signOut - 1], page.links[signOut + 1]].flatMap((l) => (l?.anchor.trim() ? [l.anchor.trim()] : []));
  return { signOut, signIn, menu, links, texts };
}

/** How a page of a host showed that the session had ended: what vanished, and the last page that still showed it. */
export interface SignsLost {
  /** What the page shows instead: "a sign-in form", "a sign-in link". */
  shows: string;
  /** The last page of the host that showed the user logged in. */
  after: string;
}

/** What one host's logged-in pages have shown so far. */
interface HostSigns {
  pages: number;
  last: string;
  signOutUrls: Set<string>;
  /** Texts next to the sign-out link on every such page. */
  menu: Set<string>;
  /** Links on every such page but the sign-out link and the menu: the site's frame. */
  frame: Set<string>;
}

/** Logged-in pages a host must have shown, and links its frame must hold, before a page of it can say the session ended. */
const MIN_PAGES = 2;
const MIN_FRAME = 3;
/** Of the frame's links, the share a page must show to be a page of the same site. */
const SAME_FRAME = 0.5;
/** Links a frame starts with, at most: the first page's, before others narrow them to what all share. */
const MAX_FRAME = 300;

const intersect = (a: Set<string>, b: ReadonlySet<string>) => {
  for (const x of a) if (!b.has(x)) a.delete(x);
};

/** The logged-in signs of each host of a run, learned page by page. */
export class SessionWatch {
  private readonly hosts = new Map<string, HostSigns>();

  /**
   * A page of `host` requested with the session: learns its signs when it shows the user logged in; when it shows
   * them gone (no sign-out link, no user menu, a sign-in link or form, in the frame of the others), says so.
   */
  observe(host: string, url: string, page: ParsedPage): SignsLost | null {
    const h = this.hosts.get(host);
    const signs = readSigns(page, h?.signOutUrls);
    if (signs.signOut >= 0) {
      this.learn(host, url, page, signs);
      return null;
    }
    if (!h || h.pages < MIN_PAGES || h.frame.size < MIN_FRAME || !signs.signIn) return null;
    let shared = 0;
    for (const link of h.frame) if (signs.links.has(link)) shared++;
    if (shared / h.frame.size < SAME_FRAME) return null;
    if ([...h.menu].some((text) => signs.texts.has(text))) return null;
    return { shows: page.passwordField ? 'a sign-in form' : 'a sign-in link', after: h.last };
  }

  /** Whether a host has shown the user logged in. */
  watches(host: string): boolean {
    return this.hosts.has(host);
  }

  private learn(host: string, url: string, page: ParsedPage, signs: PageSigns): void {
    const signOutUrl = linkKey(page.links[signs.signOut]!.url);
    const ownLinks = new Set([...signs.links].filter((l) => l !== signOutUrl));
    const h = this.hosts.get(host);
    if (!h) {
      this.hosts.set(host, {
        pages: 1, last: url, signOutUrls: new Set([signOutUrl]), menu: new Set(signs.menu), frame: new Set([...ownLinks].slice(0, MAX_FRAME)),
      });
      return;
    }
    h.pages++;
    h.last = url;
    h.signOutUrls.add(signOutUrl);
    intersect(h.menu, new Set(signs.menu));
    intersect(h.frame, ownLinks);
    for (const text of h.menu) for (const link of page.links) if (link.anchor.trim() === text) h.frame.delete(linkKey(link.url));
  }
}
