// Design E.1: each template keyword becomes a tolerant pattern. "contact us" also finds "Contact-Us" and
// "contact  us", "e-mail" finds "Email" and "E mail", "联系我们" finds "联系 我们"; case and width are ignored.
// The source's example is `mail.{0,50}box`: words may stand a little apart. Here the gap between two words of a
// keyword is at most a few characters of punctuation or space, or one short word ("contact the us" is not meant,
// "contact us" and "contact · us" are).

/** Characters that may stand between the parts of a keyword: space, dash, dot, slash, colon, middle dot. */
const GAP = '[\\s\\-_./:·|]{0,3}';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A keyword's parts: its words, and each CJK character on its own (Chinese is written without spaces). */
function parts(keyword: string): string[] {
  const out: string[] = [];
  for (const word of keyword.normalize('NFKC').toLowerCase().split(/[\s\-_./:·|]+/)) {
    if (!word) continue;
    // Split CJK runs into characters, keep Latin runs whole: "qq号" -> ["qq", "号"].
    for (const m of word.matchAll(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu)) out.push(m[0]);
  }
  return out;
}

/** The tolerant pattern of one keyword, as source for a RegExp (no flags). */
export function keywordSource(keyword: string): string | null {
  const p = parts(keyword);
  return p.length ? p.map(escape).join(GAP) : null;
}

/** A matcher for a list of synonyms: does a text contain any of them, and where. */
export interface KeywordMatcher {
  readonly keywords: string[];
  test(text: string): boolean;
  /** The first match: its start and end in `text`. */
  find(text: string): { index: number; end: number } | null;
}

export function keywordMatcher(keywords: string[]): KeywordMatcher {
  const sources = keywords.map(keywordSource).filter((s): s is string => s !== null);
  // Latin keywords match whole words only ("tel" is not in "hotel"); CJK ones anywhere.
  const bounded = sources.map((s, i) => (/^[\p{Script=Latin}\d]/u.test(parts(keywords[i]!)[0] ?? '') ? `(?<![\\p{L}\\d])${s}(?![\\p{L}\\d])` : s));
  const re = bounded.length ? new RegExp(bounded.join('|'), 'iu') : null;
  const norm = (t: string) => t.normalize('NFKC');
  return {
    keywords,
    test: (text) => re !== null && re.test(norm(text)),
    find(text) {
      if (!re) return null;
      const m = re.exec(norm(text));
      return m ? { index: m.index, end: m.index + m[0].length } : null;
    },
  };
}
