// A page's text is collapsed node by node (lib/parse/link-context.ts): the scan must give what the regex gave.
import { describe, expect, it } from 'vitest';
import { collapseSpaces, isSpaceCode } from '../../lib/parse/whitespace';

describe('collapseSpaces', () => {
  it('is /\\s+/g replaced by one space, on text with every kind of whitespace', () => {
    const spaces = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
    const alphabet = [...spaces, ' ', ' ', 'a', 'Z', '1', '.', 'é', '中', '\u200b', '\u180e', '\u0085'];
    let seed = 99;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 20000; i++) {
      let text = '';
      const length = Math.floor(random() * 12);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(collapseSpaces(text), JSON.stringify(text)).toBe(text.replace(/\s+/g, ' '));
    }
  });

  it('knows a space exactly where \\s does, over the whole Basic Multilingual Plane', () => {
    for (let c = 0; c <= 0xffff; c++) expect(isSpaceCode(c), c.toString(16)).toBe(/\s/.test(String.fromCharCode(c)));
  });
});
