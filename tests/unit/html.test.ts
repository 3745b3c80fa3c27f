import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS, parseHtml } from '../../lib/parse/html';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

describe('parseHtml on broken markup (tests/fixtures/broken-markup.html)', () => {
  const page = parseHtml(fixture('broken-markup.html'), 'http://portal.example.com/news/today.html');

  it('still yields every crawlable link, resolved against <BASE HREF>', () => {
    expect(page.links.map((l) => l.url)).toEqual([
      'http://portal.example.com/index.html',
      'http://portal.example.com/news/markets.html',
      'http://portal.example.com/news/stocks/today.html',
      'http://portal.example.com/news/bonds/1.html',
      'http://portal.example.com/news/bonds/2.html',
      'http://portal.example.com/analysis/inflation.html',
      'https://other.example.org/partner',
      'http://portal.example.com/photos/',
      'http://portal.example.com/about',
    ]);
  });

  it('reads anchors of unclosed links, image links and aria-labels, and REL in capitals', () => {
    const byUrl = new Map(page.links.map((l) => [l.url, l]));
    expect(byUrl.get('http://portal.example.com/news/bonds/1.html')!.anchor).toBe('Treasury yields climb again');
    expect(byUrl.get('http://portal.example.com/photos/')!.anchor).toBe('Photo gallery');
    expect(byUrl.get('http://portal.example.com/about')!.anchor).toBe('About the portal');
    expect(byUrl.get('http://portal.example.com/news/stocks/today.html')!.rel).toEqual(['nofollow']);
  });

  it('gives the isolated paragraph link its surrounding text and the menu links their neighbours', () => {
    const byUrl = new Map(page.links.map((l) => [l.url, l]));
    const analysis = byUrl.get('http://portal.example.com/analysis/inflation.html')!;
    expect(analysis.context).toMatch(/economists had expected\. for the details behind the numbers/);
    expect(byUrl.get('http://portal.example.com/news/markets.html')!.context).toBe('Home Stocks today');
  });

  it('keeps the title and the visible text, not script, style, noscript or comments', () => {
    expect(page.title).toBe('Old Finance Portal');
    expect(page.text).toContain('The stock market rallied on Tuesday');
    expect(page.text).toContain('Bonds and rates');
    for (const hidden of ['script link', 'document.write', 'from-style', 'Enable JavaScript', 'old link']) {
      expect(page.text).not.toContain(hidden);
    }
    expect(page.text).not.toMatch(/\s{2}/);
    expect(page.nofollow).toBe(false);
  });
});

describe('parseHtml: document shapes linkedom builds oddly', () => {
  it('reads a fragment with no <html>, <head> or <body>', () => {
    const page = parseHtml('<p>Rates rose. <a href="/a">A</a></p><div><a href="/b">B</a></div>tail text', 'https://e.org/x/');
    expect(page.links.map((l) => l.url)).toEqual(['https://e.org/a', 'https://e.org/b']);
    expect(page.text).toBe('Rates rose. A B tail text');
  });

  it('finds a <title> that is the first element (linkedom then reports document.title as "")', () => {
    const page = parseHtml('<title>Quotes</title><a href="/q">Q</a>', 'https://e.org/');
    expect(page.title).toBe('Quotes');
    expect(page.links).toHaveLength(1);
  });

  it('reads the body out of an unclosed <head>, where htmlparser2 leaves it', () => {
    const page = parseHtml('<html><head><title>T</title><p>Body text <a href="/inside">inside</a>', 'https://e.org/');
    expect(page.title).toBe('T');
    expect(page.text).toBe('Body text inside');
    expect(page.links.map((l) => l.anchor)).toEqual(['inside']);
  });

  it('copes with an empty document and with plain text', () => {
    expect(parseHtml('', 'https://e.org/')).toEqual({ title: '', text: '', links: [], nofollow: false });
    expect(parseHtml('', 'https://e.org/', { mainText: true })).toEqual({ title: '', text: '', links: [], nofollow: false, main: [] });
    expect(parseHtml('just words', 'https://e.org/').text).toBe('just words');
  });
});

describe('parseHtml: title, robots, text cap', () => {
  it('falls back to the first <h1> for the title, else ""', () => {
    expect(parseHtml('<h1> Market <em>update</em> </h1><h1>Second</h1>', 'https://e.org/').title).toBe('Market update');
    expect(parseHtml('<p>no title</p>', 'https://e.org/').title).toBe('');
  });

  it('sets nofollow from <meta name="robots"> (nofollow or none), in any case', () => {
    const nofollow = (meta: string) => parseHtml(`<head>${meta}</head><a href="/x">x</a>`, 'https://e.org/').nofollow;
    expect(nofollow('<meta name="robots" content="noindex, nofollow">')).toBe(true);
    expect(nofollow('<META NAME="Robots" CONTENT="NOFOLLOW">')).toBe(true);
    expect(nofollow('<meta name="robots" content="none">')).toBe(true);
    expect(nofollow('<meta name="robots" content="noindex">')).toBe(false);
    expect(nofollow('<meta name="description" content="nofollow">')).toBe(false);
  });

  it('caps the text at MAX_TEXT_CHARS, on a word boundary, but still returns every link', () => {
    const para = '<p>' + 'interest rates '.repeat(2000) + '</p>'; // 30,000 characters
    const html = Array.from({ length: 10 }, (_, i) => `${para}<a href="/p${i}">page ${i}</a>`).join('');
    const page = parseHtml(html, 'https://e.org/');
    expect(page.text.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    expect(page.text.length).toBeGreaterThan(MAX_TEXT_CHARS - 100);
    expect(page.text).toMatch(/(interest|rates)$/);
    expect(page.links).toHaveLength(10);
  });
});

describe('parseHtml on a Chinese UTF-8 page (tests/fixtures/chinese-utf8.html)', () => {
  const page = parseHtml(fixture('chinese-utf8.html'), 'https://caijing.example.cn/');

  it('keeps the Chinese title, text and anchors', () => {
    expect(page.title).toBe('财经频道 - 股市行情与理财资讯');
    expect(page.text).toContain('沪深两市成交额连续第五个交易日突破万亿元');
    expect(page.links.map((l) => l.anchor)).toEqual(['首页', '股票', '基金', '外汇', '银行', '机构研报解读', '关于我们', '联系方式', '合作伙伴']);
  });

  it('gives the navigation links their neighbours and the in-text link nearby text', () => {
    expect(page.links[1]!.context).toBe('首页 基金');
    const inText = page.links[5]!;
    expect(inText.url).toBe('https://caijing.example.cn/news/2024/analysis.html');
    expect(inText.context).toContain('近期政策面持续释放积极信号');
    expect(inText.context).toContain('随着宏观经济企稳回升');
    expect(inText.context).not.toContain('机构研报解读');
  });
});

describe('parseHtml on a page with 5,000 links', () => {
  it('returns all of them in document order', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `<tr><td><a href="/q/${i}">Quote ${i}</a><td>${(i * 1.7).toFixed(2)}`);
    const page = parseHtml(`<table>${rows.join('\n')}</table>`, 'https://quotes.example.com/');
    expect(page.links).toHaveLength(5000);
    expect(page.links[4999]).toMatchObject({ url: 'https://quotes.example.com/q/4999', anchor: 'Quote 4999' });
    expect(page.links[10]!.context).toBe('Quote 9 Quote 11');
  });
});
