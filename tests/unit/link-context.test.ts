import { describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { extractLinks, scanPage } from '../../lib/parse/link-context';

const PAGE = 'https://news.example.com/section/today.html';

function links(html: string, baseUrl = PAGE, windowChars?: number) {
  const { document } = parseHTML(html);
  return extractLinks(document, baseUrl, windowChars === undefined ? {} : { windowChars });
}

const LOREM_BEFORE =
  'Central banks around the world kept interest rates unchanged this week while inflation slowed in most large economies and bond markets rallied';
const LOREM_AFTER =
  'which also covers currency moves, commodity prices and the outlook for corporate earnings over the coming quarters across Europe and Asia';

describe('link context (design A.4)', () => {
  it('gives a link among close links the anchors of its nearest neighbours', () => {
    const out = links('<ul><li><a href="/a">Stocks</a></li><li><a href="/b">Bonds</a></li><li><a href="/c">Funds</a></li></ul>');
    expect(out.map((l) => [l.anchor, l.context])).toEqual([
      ['Stocks', 'Bonds'],
      ['Bonds', 'Stocks Funds'],
      ['Funds', 'Bonds'],
    ]);
  });

  it('gives an isolated link in a paragraph its surrounding words, whole words only, without its own anchor', () => {
    const out = links(`<p>${LOREM_BEFORE}. <a href="/report">the full report</a> ${LOREM_AFTER}.</p>`);
    expect(out).toHaveLength(1);
    const { anchor, context } = out[0]!;
    expect(anchor).toBe('the full report');
    expect(context).not.toContain('full report');
    expect(context).toContain('bond markets rallied.');
    expect(context).toContain('which also covers currency moves');
    // About windowChars on each side, not the whole paragraph.
    expect(context.length).toBeLessThanOrEqual(161);
    expect(context.length).toBeGreaterThan(120);
    expect(context).not.toContain('Central banks');
    expect(context).not.toContain('Asia');
    // Cut at word boundaries: every word of the context is a whole word of the paragraph.
    const paragraphWords = new Set(`${LOREM_BEFORE}. ${LOREM_AFTER}.`.split(' '));
    for (const w of context.split(' ')) expect(paragraphWords.has(w), `"${w}" is a cut word`).toBe(true);
  });

  it('uses only the neighbours that fall inside the window', () => {
    const far = 'x '.repeat(100); // 200 characters: beyond an 80-character window
    const out = links(`<p><a href="/a">Alpha</a> near <a href="/b">Beta</a> ${far} <a href="/c">Gamma</a></p>`);
    expect(out.map((l) => l.context)).toEqual(['Beta', 'Alpha', expect.stringMatching(/^x x x/)]);
  });

  it('honours windowChars', () => {
    const html = '<p><a href="/a">Alpha</a> one two three four five six seven <a href="/b">Beta</a></p>';
    expect(links(html, PAGE, 80)[0]!.context).toBe('Beta');
    expect(links(html, PAGE, 10)[0]!.context).toBe('one two');
  });

  it('reads Chinese text around a link (no spaces to cut at)', () => {
    const before = '中国人民银行今天宣布下调金融机构存款准备金率零点五个百分点';
    const after = '显示多家商业银行随后表示将加大对小微企业的信贷支持力度';
    const out = links(`<p>${before}<a href="/rrr.html">详细报道</a>${after}</p>`, PAGE, 10);
    expect(out[0]!.anchor).toBe('详细报道');
    expect(out[0]!.context).toBe(`${before.slice(-10)} ${after.slice(0, 10)}`);
  });
});

describe('extractLinks: URLs', () => {
  it('resolves against <base href>, itself resolved against the page URL; the first base wins', () => {
    const out = links('<head><base href="/archive/2024/"><base href="https://elsewhere.example/"></head><a href="jan.html">Jan</a><a href="/top">Top</a>');
    expect(out.map((l) => l.url)).toEqual(['https://news.example.com/archive/2024/jan.html', 'https://news.example.com/top']);
  });

  it('resolves against the page URL without a base, and ignores an unparsable base', () => {
    expect(links('<a href="../other/page.html">x</a>')[0]!.url).toBe('https://news.example.com/other/page.html');
    expect(links('<base href="http://[bad"><a href="a.html">x</a>')[0]!.url).toBe('https://news.example.com/section/a.html');
  });

  it('skips javascript:, mailto:, tel:, data:, empty, fragment-only and non-http(s) hrefs', () => {
    const out = links(`
      <a href="javascript:void(0)">js</a><a href=" JavaScript:alert(1)">js2</a><a href="mailto:a@b.c">mail</a>
      <a href="tel:+123">tel</a><a href="data:text/html,x">data</a><a href="">empty</a><a href="   ">blank</a>
      <a href="#comments">frag</a><a href="ftp://f.example/x">ftp</a><a>no href</a>
      <a href="page.html#comments">kept with fragment</a><a href="  //cdn.example.org/x  ">protocol-relative</a>`);
    expect(out.map((l) => l.url)).toEqual(['https://news.example.com/section/page.html#comments', 'https://cdn.example.org/x']);
  });

  it('reads rel, lowercased, and upper-case attribute names (linkedom keeps their case)', () => {
    const out = links('<A HREF="/x" REL="NoFollow  UGC">X</A><a href="/y">Y</a>');
    expect(out.map((l) => [l.url, l.rel])).toEqual([
      ['https://news.example.com/x', ['nofollow', 'ugc']],
      ['https://news.example.com/y', []],
    ]);
  });
});

describe('extractLinks: anchors and what is read', () => {
  it('falls back to img alt, img title, then the link title or aria-label', () => {
    const out = links(`<div>
      <a href="/1"><img src="a.png" alt=" Photo  gallery "></a>
      <a href="/2"><img src="b.png" title="Charts"></a>
      <a href="/3" title="Market data"><img src="c.png"></a>
      <a href="/4" aria-label="Close menu"></a>
      <a href="/5"><img src="d.png"></a></div>`);
    expect(out.map((l) => l.anchor)).toEqual(['Photo gallery', 'Charts', 'Market data', 'Close menu', '']);
  });

  it('collapses whitespace and decodes entities in anchors', () => {
    const out = links('<a href="/q?a=1&amp;b=2">  Rates&nbsp;&amp;\n\n  <b>bonds</b> </a>');
    expect(out[0]).toMatchObject({ url: 'https://news.example.com/q?a=1&b=2', anchor: 'Rates & bonds' });
  });

  it('ignores links in script, style, noscript, template, svg and comments', () => {
    const out = links(`<script>var s = '<a href="/s">s</a>';</script><style>/* <a href="/st"> */</style>
      <noscript><a href="/n">n</a></noscript><template><a href="/t">t</a></template>
      <svg><a href="/svg"><text>s</text></a></svg><!-- <a href="/c">c</a> --><a href="/real">real</a>`);
    expect(out.map((l) => l.url)).toEqual(['https://news.example.com/real']);
  });

  it('ends an unclosed <a> where the next one starts, as a browser does', () => {
    const out = links('<p><a href="/one">one <a href="/two">two</a> after</p>');
    expect(out.map((l) => [l.url, l.anchor])).toEqual([
      ['https://news.example.com/one', 'one'],
      ['https://news.example.com/two', 'two'],
    ]);
  });

  it('separates words at block boundaries and between adjacent links, not inside inline markup', () => {
    const { document } = parseHTML('<div>Bank<b>ing</b></div><p>news</p><a href="/a">Home</a><a href="/b">World</a>');
    const scan = scanPage(document, PAGE);
    expect(scan.text).toBe('Banking news Home World');
    expect(scan.links.map((l) => l.anchor)).toEqual(['Home', 'World']);
  });

  it('works on an element root, not only a document', () => {
    const { document } = parseHTML('<html><body><nav><a href="/nav">Nav</a></nav><main><p>Text <a href="/in">In</a></p></main></body></html>');
    const main = document.querySelector('main')!;
    expect(extractLinks(main, PAGE).map((l) => l.url)).toEqual(['https://news.example.com/in']);
  });

  it('survives 20,000 unclosed nested tags without overflowing the stack', () => {
    const html = '<div>'.repeat(20_000) + '<a href="/deep">deep</a>';
    expect(links(html).map((l) => l.anchor)).toEqual(['deep']);
  });
});

describe('extractLinks on a page with 5,000 links', () => {
  const N = 5000;
  const rows = Array.from(
    { length: N },
    (_, i) => `<li><a href="/item/${i}.html">Item ${i}</a> <span>${i % 7} comments</span></li>`,
  );
  const html = `<!doctype html><html><head><title>Directory</title></head><body><ul>${rows.join('\n')}</ul></body></html>`;

  it('extracts every link with its neighbours as context, in linear time', () => {
    const { document } = parseHTML(html);
    const started = process.cpuUsage();
    const out = extractLinks(document, 'https://dir.example.com/');
    const { user, system } = process.cpuUsage(started);
    expect(out).toHaveLength(N);
    expect(out[2500]).toEqual({
      url: 'https://dir.example.com/item/2500.html',
      anchor: 'Item 2500',
      context: 'Item 2499 Item 2501',
      rel: [],
      // The row's "N comments" is the count a refresh compares (design D.5).
      replies: 2500 % 7,
    });
    // A per-link rescan of the ~150,000-character stream would take seconds; the linear walk takes tens of ms. Counted
    // in CPU time, which a busy machine does not stretch as it does the clock's.
    expect((user + system) / 1000).toBeLessThan(1000);
  });
});

describe('what a link\'s markup says', () => {
  it('keeps the attributes that say what a click does, an icon and its name, and nothing else', () => {
    const out = links(`<a href="/x" data-method="delete" data-confirm="Sure?" class="nav" id="k">Destroy</a>
      <a HREF="/w" Data-Method="post">Sign out</a>
      <a href="/y" title="Stop"><i class="fa fa-stop" aria-hidden="true"></i></a>
      <a href="/z"><svg class="gl-icon"><title>Delete branch</title><use href="#remove"/></svg></a>
      <a href="/plain">Plain</a>`);
    expect(out.map((l) => l.markup)).toEqual([
      { attrs: { 'data-method': 'delete', 'data-confirm': 'Sure?' } },
      { attrs: { 'data-method': 'post' } },
      { attrs: { title: 'Stop' }, icon: 'fa fa-stop' },
      { icon: 'gl-icon', iconLabel: 'Delete branch' },
      undefined,
    ]);
  });

  it('marks a link in a form\'s action bar, not every link of a page wrapped in a form', () => {
    const out = links(`<form id="aspnetForm"><nav><a href="/start">Start</a></nav>
      <table><tr><td><a href="/p/1">Post</a><div class="row-actions"><a href="/p/1?action=trash">Trash</a></div>
      <a href="/p/2" class="btn btn-danger">Remove</a></td></tr></table></form><a href="/after" class="btn">After</a>`);
    expect(out.map((l) => [l.anchor, l.markup?.inForm ?? false])).toEqual([['Start', false], ['Post', false], ['Trash', true], ['Remove', true], ['After', false]]);
  });
});
