// Whitespace as the regex `\s` knows it, read by char code: what the page's text and its words are cut at.

/**
 * What the regex `\s` matches (WhiteSpace and LineTerminator: ASCII tab to carriage return and space, no-break
 * space, ogham space, en quad to hair space, line and paragraph separators, narrow no-break, medium mathematical
 * and ideographic spaces, the BOM): where a run ends.
 */
export function isSpaceCode(c: number): boolean {
  if (c < 0x80) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

const WHITESPACE = /\s+/g;

/**
 * `s.replace(/\s+/g, ' ')`: every run of whitespace as one space. Most text nodes of a page need no change, and
 * a scan finds that without the regex's new string.
 */
export function collapseSpaces(s: string): string {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 ? i + 1 < n && isSpaceCode(s.charCodeAt(i + 1)) : isSpaceCode(c)) return s.replace(WHITESPACE, ' ');
  }
  return s;
}
