// `fetch.render: "auto"` learns by kind of page: what a kind is (the URL's shape and the look of its HTML), which
// parts of a whole page scripts build, and the decisions over a mixed site, where a few script-built pages lead to
// many articles the server sends whole. The rendering step runs for real (lib/run/render.ts) with a stand-in tab.
import { describe, expect, it } from 'vitest';
import type { FetchOutcome } from '../../lib/net/fetcher';
import type { RenderRequest, RenderResult } from '../../lib/net/render';
import { pageKind, urlShape } from '../../lib/parse/page-kind';
import { parseHtml } from '../../lib/parse/html';
import { scriptedPart, scriptShell } from '../../lib/parse/script-shell';
import { RenderBook, STATIC_AFTER } from '../../lib/policy/render-policy';
import type { RenderNote } from '../../lib/records/types';
import { RenderSlots, renderStep, type RenderRun } from '../../lib/run/render';

const ARTICLE = '<p>' + 'Nebulae are clouds of gas and dust where stars are born, lit by the young stars inside them. '.repeat(4) + '</p>';

describe('the shape of a URL', () => {
  it.each([
    ['http://s.test/', '/'],
    ['http://s.test/feed', '/feed'],
    ['http://s.test/app/', '/app/'],
    ['http://s.test/news/sirius-rises-early', '/news/{slug}'],
    ['http://s.test/topics/nebulae', '/topics/{slug}'],
    ['http://s.test/app/item/7', '/app/item/{n}'],
    ['http://s.test/news/2024/05/orion.html', '/news/{n}/{n}/{slug}.html'],
    ['http://s.test/p/3f2a9c1b77/comments', '/p/{id}/{slug}'],
    ['http://s.test/u/4b1e2c9a-8f3d-4c2b-9a1e-2b3c4d5e6f70', '/u/{id}'],
    ['http://s.test/search?q=vega&page=2', '/search?page&q'],
    ['http://s.test/A_Long_Wikipedia_Style_Title', '/{slug}'],
    ['http://s.test/about', '/about'],
  ])('%s is %s', (url, shape) => {
    expect(urlShape(url)).toBe(shape);
  });
});

describe('parts of a whole page that scripts build', () => {
  const PAGE = (body: string, script = '<script src="/app.js"></script>') => `<html><body><h1>Nebulae</h1>${ARTICLE}${body}${script}</body></html>`;
  it.each([
    ['a frame of the site', PAGE('<iframe src="/embed/orion"></iframe>', ''), 'a frame of the site (/embed/orion)'],
    ['a web component', PAGE('<star-chart region="orion"></star-chart>'), 'a web component (<star-chart>)'],
    ['a "Show more" button', PAGE('<ul><li><a href="/a">a</a></li></ul><button class="more">Show more</button>'), 'a "Show more" control'],
    ['a "Load more stars" link that goes nowhere', PAGE('<a href="#">Load more stars</a>'), 'a "Load more stars" control'],
    ['an empty list', PAGE('<ul id="stories"></ul>'), 'an empty list (<ul id="stories">)'],
  ])('%s', (_, html, sign) => {
    expect(scriptedPart(html, 'http://s.test/topics/nebulae')).toBe(sign);
  });

  it.each([
    ['a frame of another site', PAGE('<iframe src="https://video.example/embed/1"></iframe>', '')],
    ['a web component on a page that runs no script', PAGE('<star-chart></star-chart>', '')],
    ['a "Show more" link to another page', PAGE('<a href="/news?page=2">Show more</a>')],
    ['an SVG font-face', PAGE('<svg><font-face font-family="x"></font-face></svg>')],
    ['a list with items', PAGE('<ul id="stories"><li>Orion</li></ul>')],
    ['a plain article', PAGE('<a href="/news/orion">Orion</a>')],
  ])('not %s', (_, html) => {
    expect(scriptedPart(html, 'http://s.test/topics/nebulae')).toBeNull();
  });
});

it('pages of one template are one kind; another script, a shell or a scripted part makes another', () => {
  const article = (name: string, script = '/js/article.4f3a2c9e.js') =>
    pageKind(`http://s.test/news/${name}`, `<body>${ARTICLE}<script src="${script}"></script><script>track()</script></body>`, false, null);
  expect(article('orion-rises').key).toBe(article('vega-sets').key);
  expect(article('orion-rises', '/js/article.77aa01bc.js').key).toBe(article('vega-sets').key); // a new build, the same template
  expect(article('orion-rises').label).toBe('pages like /news/{slug} running /js/article.{h}.js, inline scripts');
  expect(article('orion-rises', '/js/live.js').key).not.toBe(article('vega-sets').key);
  const shell = pageKind('http://s.test/news/orion-rises', '<body><div id="root"></div><script src="/js/article.4f3a2c9e.js"></script><script>track()</script></body>', true, null);
  expect(shell.key).not.toBe(article('orion-rises').key);
  expect(shell.label).toMatch(/^shells like \/news\/\{slug\}/);
  const withWidget = pageKind('http://s.test/news/orion-rises', '', false, 'a web component (<star-chart>)');
  expect(withWidget.label).toBe('pages like /news/{slug} with a web component');
});

// A mixed site: script-built pages of seven kinds, each leading to a few articles the server sends whole (they run an
// analytics script, and rendering changes nothing on them). `render` is what a tab would show.
interface SitePage {
  url: string;
  html: string;
  /** The page as a tab shows it. */
  rendered: string;
  /** Its kind is built by scripts: `always` would find more on it. */
  scripted: boolean;
}

const ORIGIN = 'http://mixed.test';
const whole = (body: string, script = '<script src="/site.js"></script>') =>
  `<!doctype html><html><head><title>Night sky</title></head><body><h1>Night sky</h1>${ARTICLE}${body}${script}</body></html>`;
const links = (paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join(' ');

function articlePage(slug: string): SitePage {
  const html = whole(links(['/']), '<script src="/analytics.js"></script>');
  return { url: `${ORIGIN}/news/${slug}`, html, rendered: html, scripted: false };
}

/** The script-built page number `i` of each kind, and what a tab shows of it. */
function scriptedPages(i: number): SitePage[] {
  const more = (n: number) => links(Array.from({ length: n }, (_, k) => `/news/found-${i}-${k}`));
  const shell = '<!doctype html><html><body><div id="root"></div><script src="/app.js"></script></body></html>';
  const page = (url: string, html: string, rendered: string) => ({ url: `${ORIGIN}${url}`, html, rendered, scripted: true });
  return [
    page(`/topics/topic${i}`, whole('<ul id="stories"></ul>'), whole(`<ul id="stories">${more(3)}</ul>`)), // a JSON-filled list
    page(`/reading/list${i}`, whole(links(['/'])), whole(links(['/']) + more(2))), // links added late: no sign in the HTML
    page(`/app/item/${i}`, shell, `<body><h1>Chart ${i}</h1>${ARTICLE}${more(1)}</body>`), // a client-routed app
    page(`/feed/${i}`, shell, `<body>${more(10)}</body>`), // an infinite feed
    page(`/sky/region${i}`, whole('<star-chart></star-chart>'), whole(`<star-chart>${more(2)}</star-chart>`)), // a web component
    page(`/more/list${i}`, whole('<button>Show more</button>'), whole(more(4))), // a "Show more" list
    page(`/gallery/set${i}`, whole('<iframe src="/embed/set"></iframe>', ''), whole(`<div data-focus-frame>${more(4)}</div>`, '')), // a scripted frame
  ];
}

/** Each script-built page, then a few articles, as a crawl would come to them: `rounds` of the seven kinds. */
function mixedSite(rounds: number, articlesEach: number): SitePage[] {
  const pages: SitePage[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const p of scriptedPages(i)) {
      pages.push(p);
      for (let a = 0; a < articlesEach; a++) pages.push(articlePage(`story-${i}-${pages.length}-${a}`));
    }
  }
  return pages;
}

function runOf(site: SitePage[], tabs = 2, delayMs = 0): RenderRun & { tabsOpened: number } {
  const byUrl = new Map(site.map((p) => [p.url, p]));
  const run = {
    tabsOpened: 0,
    mode: 'auto' as const, timeoutMs: 15_000, identify: true, scrolls: 20, clicks: 20, growMs: 30_000, growLinks: 1000, captureBytes: 0,
    captured: new Set<string>(), book: new RenderBook(), slots: new RenderSlots(tabs),
    render: async (req: Omit<RenderRequest, 'guard'>): Promise<RenderResult> => {
      run.tabsOpened++;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return { kind: 'rendered', html: byUrl.get(req.url)!.rendered, url: req.url, settled: true, scrolled: 0, blocked: [], durationMs: 1 };
    },
  };
  return run;
}

const outcome = (p: SitePage): FetchOutcome => ({
  url: p.url, finalUrl: p.url, status: 200, contentType: 'text/html', headers: {}, html: p.html, payload: null, charset: 'utf-8',
  bytes: p.html.length, truncated: false, durationMs: 1,
});

interface Row {
  page: SitePage;
  note?: RenderNote;
}

/** The site's pages through the rendering step, `concurrency` at a time, in order; the rows in the order decided. */
async function crawlSite(site: SitePage[], run: RenderRun, concurrency = 1): Promise<Row[]> {
  const rows: Row[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < site.length) {
      const page = site[next++]!;
      const step = await renderStep(run, outcome(page), parseHtml(page.html, page.url));
      rows.push({ page, ...(step.note ? { note: step.note } : {}) });
    }
  }));
  return rows;
}

const isArticle = (r: Row) => r.page.url.includes('/news/');

describe('auto over a mixed site', () => {
  it('keeps every script-built kind rendered to the end, and leaves the articles after their first few', async () => {
    const site = mixedSite(6, 4); // 42 script-built pages, 168 articles
    const run = runOf(site);
    const rows = await crawlSite(site, run);
    // Every script-built page was rendered, the last of each kind too: no kind was switched off with the site.
    const scripted = rows.filter((r) => r.page.scripted);
    expect(scripted.filter((r) => !r.note?.rendered).map((r) => r.page.url)).toEqual([]);
    // The articles: their first three rendered (none changed), then left, but for a check at 6, 12, 24... left.
    const articles = rows.filter(isArticle);
    const rendered = articles.filter((r) => r.note?.rendered);
    expect(rendered.every((r) => r.note!.changed === undefined)).toBe(true);
    expect(articles.slice(0, STATIC_AFTER).every((r) => r.note?.rendered)).toBe(true);
    expect(articles[STATIC_AFTER]!.note).toEqual({
      rendered: false, why: 'pages like /news/{slug} running /analytics.js: 3 rendered, none changed', kind: 'pages like /news/{slug} running /analytics.js',
    });
    const checks = Math.floor(Math.log2((articles.length - STATIC_AFTER) / STATIC_AFTER));
    expect(rendered.length).toBe(STATIC_AFTER + checks);
    expect(rendered.filter((r) => /rendered to check$/.test(r.note!.why))).toHaveLength(checks);
    // 42 + 3 + 5 tabs for 210 pages; `always` would open 210.
    expect(run.tabsOpened).toBe(scripted.length + STATIC_AFTER + checks);
  });

  it('says in each row what the rows before it showed', async () => {
    const site = mixedSite(4, 5);
    const rows = await crawlSite(site, runOf(site));
    const counted = rows.filter((r) => r.note?.kind && /: (\d+) rendered, none changed|: (\d+) of (\d+) rendered changed/.test(r.note.why));
    expect(counted.length).toBeGreaterThan(20);
    for (const row of counted) {
      const before = rows.slice(0, rows.indexOf(row)).filter((r) => r.note?.kind === row.note!.kind && r.note?.rendered);
      const changed = before.filter((r) => r.note!.changed).length;
      const unchanged = /: (\d+) rendered, none changed/.exec(row.note!.why);
      if (unchanged) expect([before.length, changed], row.note!.why).toEqual([Number(unchanged[1]), 0]);
      else {
        const [, c, r] = /: (\d+) of (\d+) rendered changed/.exec(row.note!.why)!;
        expect([before.length, changed], row.note!.why).toEqual([Number(r), Number(c)]);
      }
    }
  });

  it('renders a shell whatever its kind showed, and finds a kind that starts changing later at a check', async () => {
    // A broken app: its shells render to nothing more, page after page. The site's articles gain a widget from the 20th on.
    const broken = '<!doctype html><html><body><div id="root"></div><script src="/broken.js"></script></body></html>';
    const site: SitePage[] = [];
    for (let i = 0; i < 40; i++) {
      site.push({ url: `${ORIGIN}/app/item/${i}`, html: broken, rendered: broken, scripted: false });
      const a = articlePage(`late-${i}`);
      site.push(i < 20 ? a : { ...a, rendered: whole(links(['/', `/news/widget-${i}`]), '') });
    }
    const rows = await crawlSite(site, runOf(site));
    expect(rows.filter((r) => r.page.url.includes('/app/')).every((r) => r.note?.rendered && r.note.why === 'an empty application root (#root)')).toBe(true);
    const articles = rows.filter(isArticle);
    const firstChange = articles.findIndex((r) => r.note?.changed);
    // Left after three, checked after 6 and 12 left (articles 9 and 16), and after 24 (article 29): it changed.
    expect(firstChange).toBe(29);
    expect(articles[firstChange]!.note!.why).toMatch(/: 5 rendered, none changed; 24 pages of them left unrendered since, this one rendered to check$/);
    expect(articles.slice(firstChange).every((r) => r.note?.rendered)).toBe(true);
    expect(articles[firstChange + 1]!.note!.why).toMatch(/^pages like \/news\/\{slug\} running \/analytics\.js: 1 of 6 rendered changed \(the first: rendering found 1 more link on /);
  });

  it('opens no tab for pages that run no script, and leaves their rows as they were', async () => {
    const plain = Array.from({ length: 60 }, (_, i) => ({ ...articlePage(`plain-${i}`), html: whole(links(['/']), '') }));
    const run = runOf(plain);
    const rows = await crawlSite(plain, run);
    expect(run.tabsOpened).toBe(0);
    expect(rows.every((r) => r.note === undefined)).toBe(true);
  });

  it('without a browser to render in, says so only on shells', async () => {
    const site = scriptedPages(0);
    const run = { ...runOf(site), render: null };
    const rows = await crawlSite([...site, articlePage('alone')], run);
    const noted = rows.filter((r) => r.note).map((r) => [new URL(r.page.url).pathname, r.note!.error]);
    expect(noted).toEqual([['/app/item/0', 'this browser cannot render pages'], ['/feed/0', 'this browser cannot render pages']]);
  });

  it('renders at most a tab more than it needs of a kind it is learning, with pages waiting for two tabs', async () => {
    const site = mixedSite(3, 6);
    const run = runOf(site, 2, 5);
    const rows = await crawlSite(site, run, 6);
    expect(rows.filter((r) => r.page.scripted && !r.note?.rendered).map((r) => r.page.url)).toEqual([]);
    const articles = rows.filter(isArticle);
    const rendered = articles.filter((r) => r.note?.rendered);
    // Three to learn the kind, at most one more that had taken the other tab meanwhile, and the checks.
    const checks = Math.floor(Math.log2((articles.length - STATIC_AFTER) / STATIC_AFTER));
    expect(rendered.length).toBeGreaterThanOrEqual(STATIC_AFTER + checks);
    expect(rendered.length).toBeLessThanOrEqual(STATIC_AFTER + 1 + checks);
  });
});
