import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { charsetFromContentType, decodeHtml, sniffMetaCharset } from '../../lib/net/decode';
import { parseHtml } from '../../lib/parse/html';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const concat = (...parts: (Uint8Array | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));

// GBK bytes, checked below against the platform's own GBK decoder.
const JINRONG = [0xbd, 0xf0, 0xc8, 0xda]; // 金融
const RONG = [0xe9, 0x46]; // 镕: in GBK, not in GB2312 (its trail byte is below 0xA1)

describe('charsetFromContentType', () => {
  it('reads the charset parameter in its usual spellings', () => {
    expect(charsetFromContentType('text/html; charset=UTF-8')).toBe('utf-8');
    expect(charsetFromContentType('text/html;charset="gbk"')).toBe('gbk');
    expect(charsetFromContentType("text/html; Charset='GB2312'; foo=bar")).toBe('gb2312');
    expect(charsetFromContentType('text/html')).toBeNull();
    expect(charsetFromContentType('text/html; charset=')).toBeNull();
    expect(charsetFromContentType(null)).toBeNull();
  });
});

describe('sniffMetaCharset', () => {
  it('finds <meta charset> and the http-equiv form', () => {
    expect(sniffMetaCharset(utf8('<html><head><meta charset="GBK"><title>x</title>'))).toBe('gbk');
    expect(sniffMetaCharset(utf8("<meta charset=utf-8 />"))).toBe('utf-8');
    expect(
      sniffMetaCharset(utf8('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=gb2312">')),
    ).toBe('gb2312');
    expect(sniffMetaCharset(utf8('<meta content="text/html;charset=big5" http-equiv="content-type">'))).toBe('big5');
  });

  it('ignores a commented-out meta, a meta past 2048 bytes, and pages without one', () => {
    expect(sniffMetaCharset(utf8('<!-- <meta charset="gbk"> --><meta charset="utf-8">'))).toBe('utf-8');
    expect(sniffMetaCharset(utf8(' '.repeat(2100) + '<meta charset="gbk">'))).toBeNull();
    expect(sniffMetaCharset(utf8('<html><head><title>plain</title></head></html>'))).toBeNull();
  });
});

describe('decodeHtml', () => {
  it('decodes the GBK fixture from its <meta charset="gbk"> alone', () => {
    const bytes = new Uint8Array(readFileSync(new URL('../fixtures/gbk-page.html', import.meta.url)));
    // The fixture really is GBK: 金融 appears as BD F0 C8 DA, which GBK decodes and UTF-8 does not.
    expect(new TextDecoder('gbk', { fatal: true }).decode(new Uint8Array(JINRONG))).toBe('金融');
    expect(Buffer.from(bytes).includes(Buffer.from(JINRONG))).toBe(true);
    expect(new TextDecoder('utf-8').decode(bytes)).not.toContain('金融');

    const { text, charset } = decodeHtml(bytes, 'text/html');
    expect(charset).toBe('gb18030');
    expect(text).not.toContain('\uFFFD');
    const page = parseHtml(text, 'http://gbk.example.cn/');
    expect(page.title).toBe('金融新闻 - 财经首页');
    expect(page.links.map((l) => l.anchor)).toEqual(['首页', '金融', '股票', '基金', '银行', '详细报道']);
    expect(page.links[5]!.context).toContain('存款准备金率');
  });

  it('decodes GBK-only characters on pages that claim gb2312', () => {
    const bytes = concat(utf8('<meta charset="gb2312"><p>'), JINRONG, RONG, utf8('</p>'));
    expect(decodeHtml(bytes, null).text).toContain('金融镕');
    expect(decodeHtml(concat(JINRONG, RONG), 'text/html; charset=GB2312').text).toBe('金融镕');
  });

  it('prefers the header charset to the <meta>', () => {
    const bytes = utf8('<meta charset="gbk"><p>金融</p>');
    const { text, charset } = decodeHtml(bytes, 'text/html; charset=utf-8');
    expect(charset).toBe('utf-8');
    expect(text).toContain('金融');
  });

  it('lets a byte order mark win over the header, as browsers do', () => {
    const bytes = concat([0xef, 0xbb, 0xbf], utf8('<p>café</p>'));
    const { text, charset } = decodeHtml(bytes, 'text/html; charset=iso-8859-1');
    expect(charset).toBe('utf-8');
    expect(text).toBe('<p>café</p>');
  });

  it('defaults to UTF-8, and falls back to it on unknown labels without throwing', () => {
    expect(decodeHtml(utf8('<p>€ 金融</p>'), null)).toEqual({ text: '<p>€ 金融</p>', charset: 'utf-8' });
    expect(decodeHtml(utf8('<p>€</p>'), 'text/html; charset=no-such-charset').charset).toBe('utf-8');
    expect(decodeHtml(utf8('<meta charset="klingon"><p>€</p>'), null).text).toContain('€');
  });

  it('reads windows-1252 for latin1 labels, and never UTF-16 from a <meta>', () => {
    const latin = concat(utf8('<p>caf'), [0xe9], utf8('</p>'));
    expect(decodeHtml(latin, 'text/html; charset=ISO-8859-1')).toEqual({ text: '<p>café</p>', charset: 'windows-1252' });
    expect(decodeHtml(utf8('<meta charset="utf-16"><p>x</p>'), null).charset).toBe('utf-8');
  });
});
