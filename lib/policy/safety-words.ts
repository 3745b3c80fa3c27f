// The words of session safety: how a URL component is folded and cut into words, which components read as a
// title rather than an action, and the action lexicon (safety-lexicon.ts) compiled once, at load, into sets,
// a phrase index and one regex, so that checking a link costs a few lookups per word whatever the languages.
import { type ActionWords, LEXICON } from './safety-lexicon';
import { READ_WORDS, VERB_OBJECTS } from './safety-signals';

/** Query keys whose value names an operation (`?op=vote`, `?mode=logout`, `?route=account/logout`). */
export const OPERATION_KEYS: ReadonlySet<string> = new Set(['action', 'do', 'cmd', 'command', 'op', 'mode', 'task', 'act', 'method', 'route', 'func']);

/** Query keys whose value is text the user typed into a search box: never an action, however it reads. */
export const SEARCH_KEYS: ReadonlySet<string> = new Set(['q', 'query', 'search', 's', 'term', 'keyword', 'keywords', 'text']);

/** A component longer than this many words reads as a title or a slug, not as the name of an action. */
export const MAX_ACTION_WORDS = 4;

/**
 * Punctuation of prose and titles (`Delete_(SQL)`, `Rock'n'roll`, `¿Cómo salir?`, `「退出」とは`) that no route or
 * action name contains. Parentheses count only around words: "Like (42)" is a button with a count. Full-width
 * commas, quotes and question marks fold to these ASCII ones first.
 */
const TITLE_PUNCTUATION = /\([^)]*\p{L}[^)]*\)|[,'"!?\u2018\u2019\u201c\u201d¿¡\u060c\u061f\u3001\u300c-\u300f\u300a\u300b]/u;

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

/** Letters Unicode does not split into a base letter and a mark; and one spelling for Arabic and Persian. */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'SS', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ı: 'i', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE',
  þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ħ: 'h', ς: 'σ', 'ي': 'ی', 'ى': 'ی', 'ك': 'ک',
};
const LETTER_FOLD = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'gu');
/** Latin, Greek and Cyrillic accents; Arabic harakat, hamza and tatweel. Kana voicing and Hangul stay. */
const FOLDED_MARKS = /[\u0300-\u036f\u0640\u064b-\u065f\u0670]/g;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * One spelling for the ways a word is written: compatibility forms (full width, ligatures) and accents gone
 * (`Déconnexion` -> `Deconnexion`, `çıkış` -> `cikis`, `đăng xuất` -> `dang xuat`, `أ` -> `ا`). Case is kept.
 */
export function fold(text: string): string {
  if (ASCII.test(text)) return text;
  return text.normalize('NFKD').replace(FOLDED_MARKS, '').replace(LETTER_FOLD, (c) => LETTER_FOLDS[c]).normalize('NFC');
}

/**
 * Words of a text: cut on anything that is not a letter, a mark or a digit, on camelCase humps
 * (`deleteAccount`, `XMLHttp`) and between letters and digits; lowercased.
 */
export function wordsOf(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);
}

/** Scripts written without spaces between words: a word there is a run of text, counted by its length. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
const HANGUL = /\p{sc=Hangul}/u;
/** Characters of unspaced text per word, about: Chinese words have one to two, Japanese and Thai more. */
const UNSPACED_CHARS_PER_WORD = 3;

/** One path segment, query key or query value, decoded, as the action rules see it. */
export interface Component {
  /** Its words, folded; numbers and a script extension left out. */
  words: string[];
  /** Written in camelCase (`deleteAccount`, `LogOff`): an identifier in code, never prose. */
  camel: boolean;
  /** Written in snake_case (`toggle_subscription`, `destroy_all`): an identifier too, unless it is a title. */
  snake: boolean;
  /** Its length in words, unspaced text counted a word per three characters. */
  size: number;
  /** Reads as a title, a slug or a file name: too many words, title punctuation, or a file's extension. */
  title: boolean;
}

/**
 * Words that open a question or a how-to ("how to remove rust", "comment se déconnecter", "如何退出登录"): a text or
 * a slug they lead is prose, whatever verb follows.
 */
const QUESTION_WORDS = new Set([
  'how', 'why', 'when', 'what', 'which', 'wie', 'warum', 'wann', 'was', 'comment', 'pourquoi', 'quand', 'como', 'por',
  'porque', 'que', 'come', 'perche', 'jak', 'dlaczego', 'hoe', 'waarom', 'wat', 'nasil', 'neden', 'как', 'почему',
  'зачем', 'як', 'чому', 'proc', 'hur', 'varfor', 'bagaimana', 'mengapa', 'cach', 'lam', 'sao',
]);
const QUESTION_OPENINGS = /^(如何|怎么|怎样|为什么|為什麼|どうやって|どうすれば|なぜ|어떻게|왜)/;

export function componentOf(text: string): Component {
  const file = FILE_EXTENSION.test(text);
  const bare = fold(file ? text : text.replace(SCRIPT_EXTENSION, ''));
  const words = wordsOf(bare).filter((w) => /\p{L}/u.test(w));
  let length = 0;
  for (const w of words) length += UNSPACED.test(w) ? Math.ceil(w.length / UNSPACED_CHARS_PER_WORD) : 1;
  return {
    words,
    camel: /\p{Ll}\p{Lu}/u.test(bare),
    snake: /\p{L}_\p{L}/u.test(bare),
    size: length,
    title: file || length > MAX_ACTION_WORDS || TITLE_PUNCTUATION.test(bare) ||
      (length >= 2 && (QUESTION_WORDS.has(words[0]!.toLowerCase()) || QUESTION_OPENINGS.test(words[0]!))),
  };
}

// The lexicon, compiled. Every entry is folded and cut into words as a component is, so they meet.

interface Phrase {
  words: readonly string[];
  /** As the lexicon writes it: what a block reports. */
  shown: string;
}

/** Single strong words, and weak ones (or weak phrases, their words joined by a space). */
const strong = new Map<string, string>();
const weak = new Map<string, string>();
/** Phrases of several words, by their first word: the strong ones and the account pairs. */
const phrases = new Map<string, Phrase[]>();
/** The account pairs alone, by their first word: read across two path segments too (`/account/close`). */
const pairs = new Map<string, Phrase[]>();
/** Found inside a word: compounds, fused spellings and the strong entries of unspaced scripts. */
const fused = new Map<string, string>();
/** Verbs that are also the names of pages (safety-lexicon.ts), their words joined by a space. */
const names = new Map<string, string>();
/** Single-word verbs of every kind, by their first three letters: what a route fused into one word starts with. */
const verbStarts = new Map<string, { verb: string; shown: string; name: boolean }[]>();

/** A German umlaut written out (`loeschen`) as well as folded (`loschen`). */
const spellings = (entry: string) => {
  const written = entry.replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue');
  return written === entry ? [entry] : [entry, written];
};
const noSpaces = (s: string) => UNSPACED.test(s) || HANGUL.test(s);

function index(into: Map<string, Phrase[]>, words: string[], shown: string) {
  const list = into.get(words[0]) ?? [];
  if (list.some((p) => p.words.join(' ') === words.join(' '))) return;
  list.push({ words, shown });
  // Longest first: `حذف حساب کاربری` rather than the `حذف حساب` it starts with.
  into.set(words[0], list.sort((a, b) => b.words.length - a.words.length));
}

function compile(lang: ActionWords, english: ActionWords) {
  for (const entry of lang.strong) {
    for (const words of spellings(entry).map((s) => wordsOf(fold(s)))) {
      if (words.length > 1) index(phrases, words, entry);
      else if (UNSPACED.test(words[0])) fused.set(words[0], entry);
      else strong.set(words[0], entry);
    }
  }
  for (const entry of lang.weak) for (const s of spellings(entry)) weak.set(wordsOf(fold(s)).join(' '), entry);
  for (const entry of lang.fused ?? []) for (const s of spellings(entry)) fused.set(wordsOf(fold(s)).join(''), entry);
  for (const entry of lang.names ?? []) for (const s of spellings(entry)) names.set(wordsOf(fold(s)).join(' '), entry);
  for (const entry of [...lang.strong, ...lang.weak, ...(lang.names ?? [])]) {
    const words = wordsOf(fold(entry));
    if (words.length !== 1 || !/^[a-z]{3,}$/.test(words[0])) continue;
    const list = verbStarts.get(words[0].slice(0, 3)) ?? [];
    if (!list.some((v) => v.verb === words[0])) list.push({ verb: words[0], shown: entry, name: (lang.names ?? []).includes(entry) });
    verbStarts.set(words[0].slice(0, 3), list.sort((a, b) => b.verb.length - a.verb.length));
  }
  const accounts = new Set([...(lang.accounts ?? []), ...(english.accounts ?? [])]);
  for (const closer of lang.closers ?? []) {
    for (const account of accounts) {
      for (const [first, second] of [[closer, account], [account, closer]]) {
        for (const [a, b] of spellings(first).flatMap((x) => spellings(second).map((y) => [x, y]))) {
          const words = [...wordsOf(fold(a)), ...wordsOf(fold(b))];
          index(phrases, words, `${first} ${second}`);
          index(pairs, words, `${first} ${second}`);
          // Korean, Chinese and Japanese write the two as one word as often as two (`계정삭제`, `注销账户`).
          if (noSpaces(first) && noSpaces(second)) fused.set(words.join(''), `${first}${second}`);
        }
      }
    }
  }
}

for (const lang of Object.values(LEXICON)) compile(lang, LEXICON.en);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Longest first, so that a block reports `退出登录` rather than a shorter entry inside it. */
const FUSED = new RegExp([...fused.keys()].sort((a, b) => b.length - a.length).map(escape).join('|'));

/** The verbs that are also the names of pages: a component or anchor that is only one of them. */
export function nameAction(words: readonly string[]): string | null {
  return names.get(words.join(' ')) ?? null;
}

/** Endings that make a verb another word (`deleted`, `removal`, `confirmation`), not a route that names an object. */
const SUFFIX = /^(e?[ds]|e?rs?|ing|ings|ion|ions|ation|ations|al|als|able|ible|ment|ments|ive|ives|ee|ees|ory|ance|ence|ly)$/;

/**
 * The verb a single lowercase word starts, fused with what it acts on. In a path (`strict`) only a verb that is
 * no page name, followed by an object it acts on (`removepage`, `deletemsg`, `addsubscription`); in an operation's
 * value, where any verb is an action, a verb of four letters or more followed by anything that is no mere ending
 * (`markpatrolled`, `stopservice`).
 */
export function verbPrefix(word: string, strict: boolean): string | null {
  if (word.length < 6) return null;
  for (const v of verbStarts.get(word.slice(0, 3)) ?? []) {
    if (!word.startsWith(v.verb) || (strict && v.name)) continue;
    const rest = word.slice(v.verb.length);
    if (rest.length < 2) continue;
    if (VERB_OBJECTS.some((o) => rest.startsWith(o))) return v.shown;
    if (!strict && v.verb.length >= 4 && rest.length >= 3 && !SUFFIX.test(rest)) return v.shown;
  }
  return null;
}

/**
 * What the words of an operation's value say (`task=articles.publish`, `Action=AgentTicketLock`,
 * `action=dashboard.view`, `mode=restartservice`): the action they name, `read` when they name only a view, or null
 * when they name neither.
 */
export function operationOf(words: readonly string[]): string | 'read' | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const hit = phraseAt(words, i, phrases) ?? strong.get(w) ?? weak.get(w) ?? names.get(w) ?? fusedIn(w, false) ?? verbPrefix(w, false);
    if (hit) return hit;
  }
  return words.some((w) => READ_WORDS.has(w)) ? 'read' : null;
}

/** The weak verbs and phrases, as the lexicon writes them: an anchor or component that is only one of them. */
export function weakAction(words: readonly string[]): string | null {
  return weak.get(words.join(' ')) ?? null;
}

function phraseAt(words: readonly string[], i: number, from: Map<string, Phrase[]>, endsAfter = 0): string | null {
  const list = from.get(words[i]);
  if (!list) return null;
  for (const p of list) if (i + p.words.length > endsAfter && p.words.every((w, j) => words[i + j] === w)) return p.shown;
  return null;
}

function fusedIn(text: string, atStart: boolean): string | null {
  const m = FUSED.exec(text);
  return m && (!atStart || m.index === 0 || !ASCII.test(text)) ? fused.get(m[0])! : null;
}

/**
 * The phrase, fused action or verb (weak ones only when `weak`) that `words` start with. A fused Latin action
 * must start the first word (`logoutUser`, not `catalogOutlet`); in other scripts it may stand anywhere in it.
 */
export function leadingAction(words: readonly string[], weak: boolean): string | null {
  const first = words[0];
  if (first === undefined) return null;
  return phraseAt(words, 0, phrases) ?? fusedIn(first, true) ?? strong.get(first) ?? (weak ? weakAction([first]) : null);
}

/**
 * The action a component names, or null. A camelCase identifier led by a verb is an action at any length; a
 * title names none; otherwise any phrase, fused action or strong verb in it counts, and a weak one only
 * when it is the whole component and `weakAlone` says the component's place allows it.
 */
export function actionIn(c: Component, opts: { camelWeak: boolean; weakAlone: boolean }): string | null {
  if (c.camel) {
    const led = leadingAction(c.words, opts.camelWeak);
    if (led) return led;
  }
  if (c.title || c.words.length === 0) return null;
  for (let i = 0; i < c.words.length; i++) {
    const phrase = phraseAt(c.words, i, phrases);
    if (phrase) return phrase;
  }
  const inside = fusedIn(c.words.join(' '), false);
  if (inside) return inside;
  for (const w of c.words) {
    const verb = strong.get(w);
    if (verb) return verb;
  }
  return opts.weakAlone ? weakAction(c.words) : null;
}

/**
 * An account and what ends it, one at the end of a segment and the other at the start of the next:
 * `/account/close`, `/konto/kuendigen`, `/cuenta/cerrar`, `/账户/注销`. `/account/settings` names no action.
 */
export function pairAcross(a: Component, b: Component): string | null {
  if (a.title || b.title || !a.words.length || !b.words.length) return null;
  const words = [...a.words, ...b.words];
  for (let i = 0; i < a.words.length; i++) {
    const pair = phraseAt(words, i, pairs, a.words.length);
    if (pair) return pair;
  }
  return null;
}

/** Words that only say how much of it an action takes: "delete all", "mark everything read". */
const QUANTIFIERS = new Set(['all', 'everything', 'selected', 'now', 'it', 'this', 'them', 'me', 'my', 'alle', 'tout', 'todo', 'todos', 'tutto']);

/**
 * Whether a component's words are one action and nothing more, quantifiers aside: `delete-all`, `mark-all-read`,
 * `log-out` are; `sign-out-sheet`, `trash-bags`, `remove-seeds-first` name a thing.
 */
export function wholeAction(c: Component): boolean {
  const words = c.words.filter((w) => !QUANTIFIERS.has(w));
  if (words.length === 0) return false;
  const list = phrases.get(words[0]);
  if (list?.some((p) => p.words.length === words.length && p.words.every((w, j) => words[j] === w))) return true;
  const one = words.join(' ');
  return words.length === 1 ? strong.has(one) || weak.has(one) || names.has(one) || fused.has(one) : weak.has(one) || names.has(one);
}

/**
 * An identifier of code (camelCase or snake_case) of at most three words that an action starts or ends:
 * `toggle_subscription`, `destroy_all`, `iface_reconnect`, `toggleOffline`. Read where a route ends. A verb that also
 * names pages does not count: `buildTimeTrend` and `testReport` are pages.
 */
export function identifierAction(c: Component): string | null {
  if (!(c.camel || c.snake) || c.title || c.words.length > 3 || c.words.length === 0) return null;
  // A weak verb only leads (`block_user`): at the end it is mostly a noun (`testReport`, `sales_cart`).
  return strong.get(c.words[0]) ?? weak.get(c.words[0]) ?? strong.get(c.words[c.words.length - 1]) ?? null;
}

