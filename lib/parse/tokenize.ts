// Word tokenizer shared by the link classifier and the page judge.
//
// Design A.4 (open): Chinese text must be word-segmented; the platform's `Intl.Segmenter` with word
// granularity does that by dictionary for Chinese and Japanese and by spaces/punctuation elsewhere, so
// one code path serves every language and nothing has to ship a dictionary. It exists in Node (full ICU)
// and in the service workers of Chromium and Firefox (125+).
import { isSpaceCode } from './whitespace';

/**
 * Function words that carry no topic. Short on purpose: a long list starts removing words that do matter
 * in some domain (e.g. "us" in "US stocks"). The Chinese entries are the commonest particles, which the
 * segmenter emits as one-character words and which would otherwise appear on every page and in every link.
 */
const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  'a', 'an', 'the', 'of', 'and', 'or', 'in', 'on', 'at', 'to', 'for', 'from', 'by', 'with', 'as',
  'is', 'are', 'was', 'were', 'be', 'been', 'it', 'its', 'this', 'that', 'these', 'those',
  'not', 'no', 'but', 'if', 'so', 'than', 'then', 'there', 'their', 'they', 'he', 'she', 'we',
  'you', 'your', 'i', 'my', 'our', 'his', 'her', 'has', 'have', 'had', 'do', 'does', 'did',
  'will', 'would', 'can', 'could', 'should', 'may', 'about', 'into', 'over', 'more', 'all',
  'any', 'which', 'who', 'what', 'when', 'where', 'how', 'also', 'just', 'only',
  // Chinese particles
  '的', '了', '是', '在', '和', '与', '及', '或', '也', '都', '就', '而', '之', '着', '这', '那',
]);

/** Longer "words" are hashes, base64, glued URLs: noise that would only grow the vocabulary. */
const MAX_TOKEN_LENGTH = 40;

/**
 * One-character words worth keeping: a single Han ideograph or Hangul syllable is often a whole word
 * (股 "stock", 金 "gold"); a single Latin letter, digit or kana almost never is.
 */
const MEANINGFUL_SINGLE_CHAR = /^[\p{Script=Han}\p{Script=Hangul}]$/u;

// Constructing a Segmenter loads ICU break-iterator data and costs far more than segmenting a short
// anchor, and the crawler tokenizes every link of every page: build it once, on first use (not at module
// load, so importing this file stays free).
let segmenter: Intl.Segmenter | undefined;

function wordSegmenter(): Intl.Segmenter {
  // Locale only tunes a few edge cases; Han/kana dictionary segmentation is the same for all locales.
  segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
  return segmenter;
}

/**
 * UAX #29 word boundaries restricted to ASCII (what `Intl.Segmenter` does on ASCII text): letters, digits
 * and "_" join; "." "'" ":" join two letters (u.s, don't, a:b); "." "," ";" "'" join two digits (3.5,
 * 1,000). Matching this is ~40x faster than iterating Segmenter segments (about 1.5 us per word), and most
 * anchors and contexts on the Web are ASCII. A fuzz test checks it against the Segmenter. As a regex:
 *   /[a-z0-9_]+(?:(?:(?<=[a-z])[.':](?=[a-z])|(?<=[0-9])[.,;'](?=[0-9]))[a-z0-9_]+)*\/g
 * which asciiWords scans for by hand.
 */
const NON_ASCII = /[^\x00-\x7f]/;

function keepToken(token: string): boolean {
  if (token.length > MAX_TOKEN_LENGTH) return false;
  // A run of underscores is not a word (the Segmenter calls "__" word-like; the ASCII path must agree).
  if (token.charCodeAt(0) === 95 && /^_+$/.test(token)) return false;
  // A single code point may be one or two UTF-16 units (CJK extension B ideographs are two).
  if (token.length <= 2 && (token.length === 1 || token.codePointAt(0)! > 0xffff)) {
    if (!MEANINGFUL_SINGLE_CHAR.test(token)) return false;
  }
  return !STOP_WORDS.has(token);
}

/**
 * Splits text into lowercase words, in order, repeats kept (the page judge counts them).
 *
 * NFKC runs before segmentation so full-width Latin (Ｆｉｎａｎｃｅ, common on Chinese pages) and
 * compatibility forms (ﬁ ligatures) become the plain words they look like, and segment as such.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  if (text.length === 0) return tokens;
  const normalized = text.normalize('NFKC').toLowerCase();
  if (!NON_ASCII.test(normalized)) {
    asciiWords(normalized, tokens);
    return tokens;
  }
  // UAX #29 always breaks at whitespace, so each whitespace-separated run can be segmented on its own with
  // the same result; only runs that hold a non-ASCII character need the Segmenter. An English page with one
  // accented name would otherwise send its whole text down the slow path (measured: 30x slower per page).
  // The scan looks for the next character that is neither ASCII nor whitespace, hands the ASCII stretch before
  // its run to asciiWords in one call (no word or joiner crosses whitespace, so a stretch of runs gives the words
  // its runs give one by one), and slices only that run for the Segmenter.
  const n = normalized.length;
  let done = 0;
  for (let i = 0; i < n; i++) {
    const c = normalized.charCodeAt(i);
    if (c <= 0x7f || isSpaceCode(c)) continue;
    let start = i;
    while (start > done && !isSpaceCode(normalized.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && !isSpaceCode(normalized.charCodeAt(end))) end++;
    if (start > done) asciiWords(normalized, tokens, done, start);
    for (const segment of wordSegmenter().segment(normalized.slice(start, end))) {
      if (segment.isWordLike && keepToken(segment.segment)) tokens.push(segment.segment);
    }
    done = end;
    i = end;
  }
  if (done < n) asciiWords(normalized, tokens, done, n);
  return tokens;
}


/**
 * The ASCII words above, found by a scan of char codes: the regex's match objects were a large share of the garbage
 * a page's judging made. The scan reads each word once and slices it only when kept.
 */
function asciiWords(text: string, into: string[], from = 0, to = text.length): void {
  const n = to;
  let i = from;
  while (i < n) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    for (;;) {
      while (i < n && isWordChar(text.charCodeAt(i))) i++;
      // A joiner continues the word between two letters (. ' :) or two digits (. , ; ').
      if (i + 1 >= n) break;
      const joiner = text.charCodeAt(i), before = text.charCodeAt(i - 1), after = text.charCodeAt(i + 1);
      const betweenLetters = isLetter(before) && isLetter(after) && (joiner === 46 || joiner === 39 || joiner === 58);
      const betweenDigits = isDigit(before) && isDigit(after) && (joiner === 46 || joiner === 44 || joiner === 59 || joiner === 39);
      if (!betweenLetters && !betweenDigits) break;
      i++;
    }
    // keepToken's rule, read from the char codes so that a word dropped is never sliced (stop words are some 40% of
    // an English page's words): one ASCII character is never a word here (MEANINGFUL_SINGLE_CHAR holds no ASCII).
    const length = i - start;
    if (length < 2 || length > MAX_TOKEN_LENGTH) continue;
    if (length <= MAX_ASCII_STOP_LENGTH && ASCII_STOP_KEYS.has(letterKey(text, start, i))) continue;
    if (text.charCodeAt(start) === 95 && onlyUnderscores(text, start, i)) continue;
    into.push(text.slice(start, i));
  }
}

/**
 * A word of at most six lowercase ASCII letters as a number, five bits a letter (a = 1): distinct words, distinct
 * numbers, all small integers; -1 for anything else (no stop word has a digit or a joiner).
 */
function letterKey(text: string, from: number, to: number): number {
  let key = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!isLetter(c)) return -1;
    key = key * 32 + (c - 96);
  }
  return key;
}

function onlyUnderscores(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) !== 95) return false;
  return true;
}


const isLetter = (c: number): boolean => c >= 97 && c <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isWordChar = (c: number): boolean => isLetter(c) || isDigit(c) || c === 95;

// The stop words asciiWords can meet, as letterKey numbers (after isLetter, which letterKey reads).
const ASCII_STOP_WORDS = [...STOP_WORDS].filter((w) => /^[a-z]+$/.test(w));
const MAX_ASCII_STOP_LENGTH = Math.max(...ASCII_STOP_WORDS.map((w) => w.length));
const ASCII_STOP_KEYS: ReadonlySet<number> = new Set(ASCII_STOP_WORDS.map((w) => letterKey(w, 0, w.length)));

/** The distinct words of `text`, in order of first appearance (binary features, design A.2). */
export function uniqueTokens(text: string): string[] {
  return [...new Set(tokenize(text))];
}
