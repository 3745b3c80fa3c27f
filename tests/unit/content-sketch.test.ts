// A page's main text and its sketch (lib/parse/main-text.ts, content-sketch.ts, lib/learning/content-index.ts): what
// two pages are compared by. Different pages built from one template are never one content; the same page with another
// sidebar, timestamp or "recently viewed" box is. Measured on the test shop's pages, as docs/duplicates.md reports.
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../lib/parse/html';
import { contentSketch, resemblance, SKETCH_BINS, type ContentSketch } from '../../lib/parse/content-sketch';
import { ContentIndex, MIN_SHINGLES, sameContent } from '../../lib/learning/content-index';
import { shopPage, uniquePages } from '../fixtures/sites/catalog-shop';
import { CATEGORY_NAMES } from '../fixtures/sites/catalog-shop-data';

const sketchOf = (html: string, url = 'http://s.test/') => {
  const p = parseHtml(html, url, { mainText: true });
  return contentSketch(p.main!, p.heading ?? p.title);
};
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${(i * 7919) % 1000}`).join(' ');

describe('main text', () => {
  it('leaves out navigation, header, footer, sidebars and blocks of links alone, and keeps a page heading that is no logo', () => {
    const p = parseHtml(`<body><header><h1>Stargazer Optics</h1><nav><a href="/a">Telescopes</a></nav></header>
      <div class="left-sidebar">Sale on binoculars this week</div><div id="breadcrumbs"><a href="/">Home</a> / Telescopes</div>
      <main><h1>Orion XT8</h1><p>An eight-inch <a href="/d">Dobsonian</a> reflector.</p>
      <ul><li><a href="/p/1">Related: Orion XT10</a></li><li><a href="/p/2">Related: Skywatcher 200P</a></li></ul>
      <aside>Recently viewed: Orion XT6</aside><p class="card-header">Price: 499 pounds</p></main>
      <footer>Copyright</footer></body>`, 'http://s.test/', { mainText: true });
    expect(p.main).toEqual(['Orion XT8', 'An eight-inch Dobsonian reflector.', 'Price: 499 pounds']);
    expect(p.heading).toBe('Orion XT8');
    // Without a <main>: every block outside the furniture.
    const bare = parseHtml('<div class="menu"><a href="/">Home</a></div><h2>Notes</h2><p>Saturn rings tonight</p><div class="footer">c</div>', 'http://s.test/', { mainText: true });
    expect(bare.main).toEqual(['Notes', 'Saturn rings tonight']);
    // Not collected unless asked for (the labeler and the exports need none).
    expect(parseHtml('<p>x</p>', 'http://s.test/').main).toBeUndefined();
  });

  it('reads the canonical link, resolved against the base', () => {
    const p = parseHtml('<head><base href="http://s.test/shop/"><link rel="Canonical" href="p/1"></head><p>x</p>', 'http://s.test/x?ref=1');
    expect(p.canonical).toBe('http://s.test/shop/p/1');
    expect(parseHtml('<link rel="canonical" href="javascript:void(0)">', 'http://s.test/').canonical).toBeUndefined();
  });
});

describe('content sketch', () => {
  it('is the same for the same words, whatever the markup, case or punctuation, and for blocks in another order', () => {
    const a = contentSketch(['Orion XT8 Dobsonian', 'Eight inch aperture, great for planets and galaxies.', 'Price 499']);
    const b = contentSketch(['orion xt8 dobsonian', 'Eight inch aperture great for planets and galaxies', 'Price: 499']);
    expect(b.exact).toBe(a.exact);
    const reordered = contentSketch(['Price 499', 'Orion XT8 Dobsonian', 'Eight inch aperture, great for planets and galaxies.']);
    expect(resemblance(reordered.bins, a.bins)).toBe(1);
    expect(reordered.exact).not.toBe(a.exact);
    expect(a.bins).toHaveLength(SKETCH_BINS);
  });

  it('estimates the resemblance of shingle sets: near 1 for a small change, near 0 for other text', () => {
    const base = [words(200, 'w')];
    const changed = contentSketch([words(200, 'w'), 'Page generated at 10:31:02']);
    expect(resemblance(contentSketch(base).bins, changed.bins)).toBeGreaterThan(0.85);
    expect(resemblance(contentSketch(base).bins, contentSketch([words(200, 'v')]).bins)).toBeLessThan(0.1);
  });

  it('needs text enough to tell pages apart: short pages are never one content by it', () => {
    const a = contentSketch(['Sale', 'Shoes and socks']);
    expect(a.shingles).toBeLessThan(MIN_SHINGLES);
    expect(sameContent(a, contentSketch(['Sale', 'Shoes and socks']))).toBeNull();
  });
});

/** Every unique page of the shop, and what the shop serves under other URLs of the same page. */
function shopSketches() {
  let n = 1;
  const get = (url: string): { content: string; sketch: ContentSketch } => {
    const u = new URL(url);
    const page = shopPage(u.pathname, u.searchParams, n++)!;
    return { content: page.content, sketch: sketchOf(page.html, url) };
  };
  const unique = uniquePages().map((p) => ({ url: p.url, ...get(p.url) }));
  // Listings of other content under one heading: brand filters (a small listing filtered to half its items too),
  // second pages, a sort of a two-page listing.
  const brands = ['orion', 'celestron', 'sky-watcher', 'baader', 'nikon', 'cosmic-wear', 'stellar-threads', 'firefly'];
  const listingUrls = CATEGORY_NAMES
    .flatMap((c) => [...brands.map((b) => `?brand=${b}`), '?page=2', '?sort=price', '?sort=price&page=2'].map((q) => `http://shop.test/c/${c}/${q}`))
    .map((url) => ({ url, ...get(url) }))
    .filter((x, i, all) => !unique.some((u) => u.content === x.content) && all.findIndex((y) => y.content === x.content) === i)
    .map((x) => x.url);
  // Each different page drawn three times (another sidebar, box and time each): a false duplicate by the noise of one
  // draw counts.
  const different = [...unique.map((u) => u.url), ...listingUrls].flatMap((url) => [0, 1, 2].map(() => ({ url, ...get(url) })));
  const variants = (url: string): string[] => {
    const p = new URL(url).pathname;
    if (p.startsWith('/products/')) return [url, `${url}/print`, `${url}/amp`, `${url}/`, `${url}?ref=home`, `${url}?variant=default`, url.replace('/products/', '/Products/')];
    if (p.startsWith('/blog/') && p !== '/blog/') return [url, `${url}index.html`, `${url}?replytocom=1`];
    if (p.startsWith('/c/')) return [url, url.replace(/\/(\?|$)/, '$1'), `${url}${url.includes('?') ? '&' : '?'}view=grid`];
    return [url];
  };
  // Each page fetched again three times: another "recently viewed" box, promotion and time each time.
  const near = unique.flatMap((u) => variants(u.url).flatMap((v) => [0, 1, 2].map(() => ({ of: u, again: get(v) }))));
  return { different, near };
}

describe('duplicates on the test shop (pages of one template)', () => {
  const { different, near } = shopSketches();

  it('never calls two different pages one content: no false duplicate among all their pairs', () => {
    let pairs = 0;
    const falsePairs: string[] = [];
    for (let i = 0; i < different.length; i++) {
      for (let k = i + 1; k < different.length; k++) {
        if (different[i]!.content === different[k]!.content) continue;
        pairs++;
        if (sameContent(different[i]!.sketch, different[k]!.sketch)) falsePairs.push(`${different[i]!.url} ${different[k]!.url}`);
      }
    }
    expect(pairs).toBeGreaterThan(75_000);
    expect(falsePairs).toEqual([]);
  });

  it('catches nearly every near-duplicate: another sidebar, timestamp, recently viewed box, print or AMP version, reply link', () => {
    const caught = near.filter(({ of, again }) => sameContent(of.sketch, again.sketch)).length;
    expect(near.length).toBeGreaterThan(1500);
    expect(caught / near.length).toBeGreaterThanOrEqual(0.98);
  });

  it('finds the page held that a new one duplicates, and none for a different one', () => {
    const index = new ContentIndex();
    for (const d of different) index.add({ url: d.url, sketch: d.sketch, relevant: null });
    let found = 0;
    for (const { of, again } of near) if (index.match(again.sketch)?.held.url === of.url) found++;
    expect(found / near.length).toBeGreaterThanOrEqual(0.98);
    // A page's own sketch matches it (exactly); a page never held matches nothing held.
    const other = new ContentIndex();
    for (const d of different.filter((x) => x.url !== different[0]!.url)) other.add({ url: d.url, sketch: d.sketch, relevant: null });
    expect(other.match(different[0]!.sketch)).toBeNull();
    expect(index.match(different[5]!.sketch)).toMatchObject({ exact: true, held: { url: different[5]!.url } });
  });
});
