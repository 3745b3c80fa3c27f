import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseHtml } from '../../lib/parse/html';
import { tokenize, uniqueTokens } from '../../lib/parse/tokenize';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'tests', 'fixtures');

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

  it('finds on ASCII text exactly the words of the ASCII word rule, joiners and stop words included', () => {
    // The rule as the regex it was written as; the scan must give the same words on any ASCII text.
    const rule = /[a-z0-9_]+(?:(?:(?<=[a-z])[.':](?=[a-z])|(?<=[0-9])[.,;'](?=[0-9]))[a-z0-9_]+)*/g;
    const reference = (text: string) =>
      [...text.toLowerCase().matchAll(rule)].map((m) => m[0]).filter((w) => w.length > 1 && w.length <= 40 && !/^_+$/.test(w) && tokenize(w).length === 1);
    const alphabet = "abzAZ0919_ .,;:'-/\n";
    let seed = 777;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 5000; i++) {
      let text = '';
      const length = 1 + Math.floor(random() * 60);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(tokenize(text), JSON.stringify(text)).toEqual(reference(text));
    }
    expect(tokenize("a.b.c 1.2,3;4'5 x:y 9.a a.9 the__ __ ab'")).toEqual(['a.b.c', "1.2,3;4'5", 'x:y', 'the__', 'ab']);
  });

  it('gives exactly the words Intl.Segmenter gives on the whole text, for ASCII and mixed text alike', () => {
    // Reference: one Segmenter pass over the whole text, keeping the words tokenize keeps on their own.
    const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
    const reference = (text: string) =>
      [...segmenter.segment(text.normalize('NFKC').toLowerCase())]
        .filter((s) => s.isWordLike)
        .map((s) => s.segment)
        .filter((w) => tokenize(w).length === 1 && tokenize(w)[0] === w);
    const alphabet = "abZ19 ._':,;-/!?\"\n_(&é中文—\u00a0ßö金融";
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 5000; i++) {
      let text = '';
      const length = 1 + Math.floor(random() * 20);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(tokenize(text), JSON.stringify(text)).toEqual(reference(text));
    }
    expect(tokenize("U.S. stocks don't fall 3.5% on 1,000 e-mails")).toEqual(['u.s', 'stocks', "don't", 'fall', '3.5', '1,000', 'mails']);
    expect(tokenize('Café Müller sold 金融市场 shares')).toEqual(['café', 'müller', 'sold', '金融', '市场', 'shares']);
  });

  it('cuts text into runs at every whitespace the regex \\s knows, as splitting on it did', () => {
    // Reference: the text split on \s (after NFKC and lowercasing), each run tokenized alone.
    const reference = (text: string) => text.normalize('NFKC').toLowerCase().split(/\s+/).flatMap((run) => tokenize(run));
    const spaces = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
    const alphabet = [...spaces, ...spaces, 'a', 'b', 'Q', '1', '9', '.', "'", ',', '_', 'é', '中', '文', 'ß', '\u200b', '\u180e', '-'];
    let seed = 4242;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 5000; i++) {
      let text = '';
      const length = 1 + Math.floor(random() * 30);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(tokenize(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('drops the same stop words on the ASCII scan as on the Segmenter path, and keeps their near misses', () => {
    // A run with a non-ASCII character goes to the Segmenter, whose words keepToken checks against the stop list as
    // strings; the same word alone takes the ASCII scan, which checks it by char codes before slicing.
    const words = ['the', 'thee', 'th', 'them', 'then', 'there', 'their', 'they', 'should', 'shoulder', 'shoul', 'which', 'whic',
      'a', 'an', 'and', 'ands', 'of', 'off', 'i', 'it', 'its', 'it_s', 'is', 'us', 'we', 'wee', 'about', 'abouts', 'would', 'could', 'those',
      'do', 'does', 'did', 'didn', 'no', 'not', 'nota', 'so', 'to', 'too', 'two', 'or', 'on', 'one', 'z', 'zz', 'zzzzzz', 'zzzzzzz',
      'th3', 'the1', '_the', 'the_', '__', '___', 'a1', '12', 'x'.repeat(40), 'x'.repeat(41), 'science', 'bank'];
    for (const w of words) expect(tokenize(w), w).toEqual(tokenize(`${w}·`));
    // And in running text, cased, with every separator the scan knows.
    let seed = 99;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 2000; i++) {
      const picked: string[] = [];
      for (let k = 0, n = 1 + Math.floor(random() * 12); k < n; k++) {
        const w = words[Math.floor(random() * words.length)];
        picked.push(random() < 0.3 ? w.toUpperCase() : w);
      }
      const text = picked.join([' ', ', ', '-', '\n', '/'][Math.floor(random() * 5)]);
      const bySegmenter = picked.flatMap((w) => tokenize(`${w}·`));
      expect(tokenize(text), text).toEqual(bySegmenter);
    }
  });

  it('on real pages, gives the words of each whitespace run tokenized alone', () => {
    // The fixtures (Chinese, GBK, broken markup) and, where this checkout has it beside it, every 15th Wikispeedia page:
    // their text, anchors and contexts, mixed scripts and symbols as the Web has them.
    const fixtures = ['chinese-utf8.html', 'gbk-page.html', 'broken-markup.html'].map((f) =>
      new TextDecoder(f.startsWith('gbk') ? 'gbk' : 'utf-8').decode(readFileSync(join(FIXTURES, f))));
    const corpus = join(ROOT, '..', 'shared', 'corpora', 'wikispeedia', 'pages.jsonl.gz');
    const pages = existsSync(corpus)
      ? gunzipSync(readFileSync(corpus)).toString('utf8').split('\n').filter((l, i) => l && i % 15 === 0).map((l) => (JSON.parse(l) as { html: string }).html)
      : [];
    // Reference: each run alone, an ASCII one by the ASCII scan (held to its regex above), any other by the Segmenter,
    // keeping the words tokenize keeps on their own.
    const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
    const kept = (w: string) => {
      const t = tokenize(w);
      return t.length === 1 && t[0] === w;
    };
    const byRun = (text: string) => text.normalize('NFKC').toLowerCase().split(/\s+/).flatMap((run) =>
      /[^\x00-\x7f]/.test(run) ? [...segmenter.segment(run)].filter((s) => s.isWordLike && kept(s.segment)).map((s) => s.segment) : tokenize(run));
    let words = 0;
    for (const html of [...fixtures, ...pages]) {
      const page = parseHtml(html, 'http://corpus.test/page');
      for (const text of [page.title, page.text, ...page.links.flatMap((l) => [l.anchor, l.context])]) {
        const got = tokenize(text);
        expect(got).toEqual(byRun(text));
        words += got.length;
      }
    }
    expect(words).toBeGreaterThan(pages.length ? 100_000 : 100);
    // About 300 corpus pages parsed and tokenized twice: 3.5 s on an idle machine, more beside other suites.
  });
});
