import { describe, expect, it } from 'vitest';
import { tokenize, uniqueTokens } from '../../lib/text/tokenize';

describe('tokenize', () => {
  it('segments Chinese into dictionary words (full ICU)', () => {
    const words = tokenize('金融市场的股票价格');
    expect(words).toEqual(expect.arrayContaining(['金融', '市场', '股票', '价格']));
    // 的 is a particle on the stop list
    expect(words).not.toContain('的');
  });

  it('lowercases, applies NFKC and drops stop words, 1-char Latin tokens and overlong tokens', () => {
    const long = 'x'.repeat(41);
    expect(tokenize(`The Price of a STOCK in Ｆｉｎａｎｃｅ, x 7 ${long} ok`)).toEqual([
      'price',
      'stock',
      'finance',
      'ok',
    ]);
  });

  it('keeps single Han characters and drops punctuation', () => {
    expect(tokenize('金 —— !!')).toEqual(['金']);
  });

  it('uniqueTokens keeps the first occurrence of each word', () => {
    expect(uniqueTokens('Bank bank BANK rates bank')).toEqual(['bank', 'rates']);
    expect(tokenize('')).toEqual([]);
  });

  it('ASCII fast path splits words exactly as Intl.Segmenter does', () => {
    // Appending " é" forces the Segmenter path (non-ASCII) and adds only a 1-char Latin token, which is
    // dropped: so both paths must give the same tokens for every string.
    const alphabet = "abZ19 ._':,;-/!?\"\n_(&";
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 5000; i++) {
      let text = '';
      const length = 1 + Math.floor(random() * 16);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(tokenize(text), JSON.stringify(text)).toEqual(tokenize(`${text} é`));
    }
    expect(tokenize("U.S. stocks don't fall 3.5% on 1,000 e-mails")).toEqual(['u.s', 'stocks', "don't", 'fall', '3.5', '1,000', 'mails']);
  });
});
