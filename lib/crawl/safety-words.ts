// The words of session safety: which verbs name a state-changing action, how a URL component is cut into
// words, and which components read as a title rather than an action. safety.ts applies them to links.

/**
 * Verbs that name an action on the user's session or data and are rarely the whole name of something else.
 * They block wherever they stand in a short (non-title) component.
 */
export const STRONG_VERBS: ReadonlySet<string> = new Set([
  'logout', 'logoff', 'signout', 'delete', 'remove', 'deactivate', 'unsubscribe', 'subscribe', 'unlike', 'unfollow',
  'upvote', 'downvote', 'unvote', 'checkout', 'revoke', 'disconnect', 'rollback', 'undo', 'undelete', 'unblock',
  'unmute', 'unwatch', 'unstar', 'confirm', 'approve', 'reject', 'unban', 'uninstall', 'erase',
]);

/**
 * Verbs that are also everyday nouns or title words ("Flag of France", "Block cipher", "/report/ar6/"). They
 * block only when they are the whole component: the last path segment (ids after it aside), a query key, the
 * value of a key that carries an operation, or the whole anchor text.
 */
export const WEAK_VERBS: ReadonlySet<string> = new Set([
  'like', 'follow', 'vote', 'flag', 'report', 'block', 'mute', 'ban', 'kick', 'cart', 'basket', 'buy', 'purchase',
  'pay', 'accept', 'decline', 'invite', 'edit', 'submit', 'cancel', 'reset', 'empty', 'clear', 'add', 'hide', 'fave',
  'favorite', 'favourite', 'bookmark', 'join', 'leave', 'restore', 'publish', 'unpublish', 'lock', 'unlock',
  'dismiss', 'retweet', 'repost', 'destroy', 'purge', 'trash', 'save', 'unsave',
]);

/** Multi-word actions, matched as consecutive words (so `add-to-cart`, `addToCart` and `add_to_cart` alike). */
export const PHRASES: readonly (readonly string[])[] = [
  'log out', 'log off', 'sign out', 'sign off', 'add to cart', 'add to basket', 'add to bag', 'add to wishlist',
  'remove from cart', 'empty trash', 'empty cart', 'empty bin', 'mark read', 'mark all read', 'mark as read',
  'mark all as read', 'mark unread', 'mark as unread', 'mark spam', 'mark as spam', 'reset password',
  'password reset', 'cancel subscription', 'cancel order', 'place order', 'buy now', 'order now', 'report abuse',
  'report spam', 'report post', 'report comment', 'report user', 'block user', 'clear history', 'clear cart',
  'delete account', 'close account', 'leave group', 'accept invite', 'accept invitation', 'decline invitation',
].map((p) => p.split(' '));

/** Actions written as one lowercase word (`markread`, `logouthash`, `dologout`): matched inside any word. */
export const FUSED = ['logout', 'logoff', 'signout', 'unsubscribe', 'markread', 'markallread', 'markasread', 'addtocart', 'emptytrash', 'resetpassword', 'deleteaccount'];

/** Query keys whose value names an operation (`?op=vote`, `?mode=logout`, `?route=account/logout`). */
export const OPERATION_KEYS: ReadonlySet<string> = new Set(['action', 'do', 'cmd', 'command', 'op', 'mode', 'task', 'act', 'method', 'route', 'func']);

/** Query keys whose value is text the user typed into a search box: never an action, however it reads. */
export const SEARCH_KEYS: ReadonlySet<string> = new Set(['q', 'query', 'search', 's', 'term', 'keyword', 'keywords', 'text']);

/** A component longer than this many words reads as a title or a slug, not as the name of an action. */
export const MAX_ACTION_WORDS = 4;

/**
 * Punctuation of prose and titles (`Delete_(SQL)`, `Rock'n'roll`) that no route or action name contains.
 * Parentheses count only around words: "Like (42)" is a button with a count.
 */
const TITLE_PUNCTUATION = /\([^)]*\p{L}[^)]*\)|[,'"!?\u2018\u2019\u201c\u201d]/u;

/**
 * Extensions of files to read: documents, media, archives, source code (`remove-before-flight.pdf`,
 * `src/remove.ts`). A component ending in one is a file name, and no verb in it is an action. Any other
 * extension (`.php`, `.aspx`, `.jsp`, `.do`, `.action`, `.cgi`, `.pl`, `.srf`, `.nsf`, `.dll`, and the ones
 * no list knows) is read as a server script's and left off, so `logout.srf` is the action `logout`: a wrong
 * guess there skips a file, the other wrong guess would act as the user. `.py`, `.pl` and `.rb` are both
 * scripts and source files; they are read as scripts.
 */
const FILE_EXTENSION = new RegExp(
  `\\.(${[
    'pdf', 'txt', 'csv', 'tsv', 'rtf', 'docx?', 'xlsx?', 'pptx?', 'od[tsp]', 'epub', 'mobi', 'md', 'rst', 'tex', 'bib', 'ris',
    'jpe?g', 'png', 'gif', 'webp', 'avif', 'svg', 'bmp', 'tiff?', 'ico', 'heic', 'mp[34]', 'm4[av]', 'og[gav]', 'webm',
    'wav', 'flac', 'mov', 'avi', 'mkv', 'zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar', 'iso', 'dmg', 'exe', 'msi',
    'deb', 'rpm', 'apk', 'ts', 'tsx', 'jsx?', 'mjs', 'cjs', 'css', 'scss', 'c', 'h', 'cc', 'cpp', 'hpp', 'rs', 'go',
    'java', 'kt', 'swift', 'cs', 'ipynb', 'ya?ml', 'toml', 'ini', 'cfg', 'log', 'sql', 'woff2?', 'ttf', 'otf', 'kml',
    'gpx', 'geojson', 'nc', 'h5', 'parquet', 'bin', 'dat',
  ].join('|')})$`,
  'i',
);

/** Any other extension: a server script's, left off before the component is read. */
const SCRIPT_EXTENSION = /\.[a-z][a-z0-9]{0,5}$/i;

/**
 * Words of a text: cut on anything that is not a letter or a digit, on camelCase humps (`deleteAccount`,
 * `XMLHttp`) and between letters and digits; lowercased.
 */
export function wordsOf(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** One path segment, query key or query value, decoded, as the action rules see it. */
export interface Component {
  /** Its words, numbers and a script extension left out. */
  words: string[];
  /** Written in camelCase (`deleteAccount`, `LogOff`): an identifier in code, never prose. */
  camel: boolean;
  /** Reads as a title, a slug or a file name: too many words, title punctuation, or a file's extension. */
  title: boolean;
}

export function componentOf(text: string): Component {
  const file = FILE_EXTENSION.test(text);
  const bare = file ? text : text.replace(SCRIPT_EXTENSION, '');
  const words = wordsOf(bare).filter((w) => /\p{L}/u.test(w));
  return {
    words,
    camel: /\p{Ll}\p{Lu}/u.test(bare),
    title: file || words.length > MAX_ACTION_WORDS || TITLE_PUNCTUATION.test(bare),
  };
}

/** The phrase, or else the verb (weak ones only when `weak`), that `words` start with. */
export function leadingAction(words: readonly string[], weak: boolean): string | null {
  const phrase = PHRASES.find((p) => p.every((w, i) => words[i] === w));
  if (phrase) return phrase.join(' ');
  const first = words[0];
  if (first === undefined) return null;
  const fused = FUSED.find((f) => first.startsWith(f));
  if (fused) return fused;
  return STRONG_VERBS.has(first) || (weak && WEAK_VERBS.has(first)) ? first : null;
}

/**
 * The action a component names, or null. A camelCase identifier led by a verb is an action at any length; a
 * title names none; otherwise any phrase, fused action or strong verb in it counts, and a weak verb only
 * when it is the whole component and `weakAlone` says the component's place allows it.
 */
export function actionIn(c: Component, opts: { camelWeak: boolean; weakAlone: boolean }): string | null {
  if (c.camel) {
    const led = leadingAction(c.words, opts.camelWeak);
    if (led) return led;
  }
  if (c.title) return null;
  for (let i = 0; i < c.words.length; i++) {
    const phrase = PHRASES.find((p) => p.every((w, j) => c.words[i + j] === w));
    if (phrase) return phrase.join(' ');
  }
  for (const w of c.words) {
    const fused = FUSED.find((f) => w.includes(f));
    if (fused) return fused;
    if (STRONG_VERBS.has(w)) return w;
  }
  const [only] = c.words;
  return opts.weakAlone && c.words.length === 1 && WEAK_VERBS.has(only) ? only : null;
}
