// A search engine and a score of small company sites on one loopback server, told apart by the Host header
// (Chromium reaches them through --host-resolver-rules, Node tests through tests/support/loopback-fetch.ts).
// What a template crawl meets in the wild, in miniature: an engine with navigation, ads and paging by offset;
// contact pages one or two links deep under varied link texts (Chinese among them); contact details in
// tables, definition lists and running text; a GBK site that declares its charset only in <meta>; a branch
// list split over pages. The sites can change, vanish and appear between crawls (a recrawl's world).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback';

export type Layout = 'table' | 'dl' | 'text' | 'gbk' | 'branches';

export interface Company {
  /** Its host is `<name>.test`. */
  name: string;
  title: string;
  email: string;
  phone: string;
  layout: Layout;
  /** The home page's link text to the contact page (depth 1) or to the page that links to it (depth 2). */
  linkText: string;
  depth: 1 | 2;
  /** Depth 2: the link text from the middle page to the contact page. */
  innerText?: string;
  /** `branches`: the second branch's details, on the list's second page. */
  branch2?: { email: string; phone: string };
}

const LINK_TEXTS_1 = ['Contact us', '联系我们', 'Get in touch', 'Contact', 'CONTACT-US', '联系 我们'];
const LINK_TEXTS_2: [string, string][] = [['About us', 'Contact'], ['关于我们', '联系方式'], ['About us', 'Contact us']];
const LAYOUTS: Layout[] = ['table', 'dl', 'text'];

/** The score of companies the tests start from: the same every time. */
export function companies(count = 20): Company[] {
  return Array.from({ length: count }, (_, i) => companyAt(i));
}

export function companyAt(i: number): Company {
  const name = `shop${String(i + 1).padStart(2, '0')}`;
  const depth: 1 | 2 = i % 4 === 3 ? 2 : 1;
  const layout: Layout = i === 5 ? 'gbk' : i === 9 ? 'branches' : LAYOUTS[i % 3]!;
  const [outer, inner] = LINK_TEXTS_2[i % LINK_TEXTS_2.length]!;
  return {
    name, title: `Telescope Shop ${i + 1}`, email: `sales@${name}.test`, phone: `+44 20 7946 ${String(1000 + i)}`, layout, depth,
    linkText: depth === 2 ? outer : LINK_TEXTS_1[i % LINK_TEXTS_1.length]!,
    ...(depth === 2 ? { innerText: inner } : {}),
    ...(layout === 'branches' ? { branch2: { email: `north@${name}.test`, phone: `+44 161 496 ${String(2000 + i)}` } } : {}),
  };
}

/** The records a crawl should end with: contact page URL -> fields. */
export function expectedRecords(list: Company[]): Map<string, { email: string; phone: string }> {
  const out = new Map<string, { email: string; phone: string }>();
  for (const c of list) {
    out.set(contactUrl(c), { email: c.email, phone: c.phone });
    if (c.branch2) out.set(`${contactUrl(c)}?page=2`, c.branch2);
  }
  return out;
}

export const contactUrl = (c: Company): string => `http://${c.name}.test/contact`;

const page = (title: string, body: string, charset = 'utf-8') =>
  `<!DOCTYPE html><html><head><meta charset="${charset}"><title>${title}</title></head><body>${body}</body></html>`;

function nav(c: Company): string {
  // Every site links its products and news (never followed), a social page elsewhere whose text matches a
  // filter keyword (it leaves the site: never followed) and, on depth-1 sites, an About page as well.
  const about = c.depth === 1 ? '<a href="/about">About us</a>' : '';
  return `<nav><a href="/">Home</a> <a href="/products">Products</a> <a href="/news">News</a> ${about}` +
    ` <a href="http://social.test/${c.name}">Contact us on Social</a></nav>`;
}

function details(layout: Layout, d: { email: string; phone: string }): string {
  switch (layout) {
    case 'table':
      return `<table><tr><th>Telephone</th><td>${d.phone}</td></tr><tr><th>E-mail</th><td>${d.email}</td></tr><tr><th>Hours</th><td>9-17</td></tr></table>`;
    case 'dl':
      return `<dl><dt>Tel.</dt><dd>${d.phone}</dd><dt>Mail</dt><dd><a href="mailto:${d.email}">${d.email}</a></dd></dl>`;
    case 'text':
      return `<p>Visit the shop any weekday; call me maybe if you are lost. Our hotline: ${d.phone}. Write to us, e-mail: ${d.email}, and we answer within a day.</p>`;
    case 'gbk':
      return `<p>联系电话：${d.phone}</p><p>邮箱：${d.email}</p>`;
    case 'branches':
      return `<table><tr><th>Phone</th><th>Email</th></tr><tr><td>${d.phone}</td><td>${d.email}</td></tr></table>`;
  }
}

/** A site's pages by path, or undefined for a 404. */
function sitePage(c: Company, path: string, query: string): string | undefined {
  const charset = c.layout === 'gbk' ? 'gbk' : 'utf-8';
  const home = c.depth === 1 ? '/contact' : '/company';
  switch (path) {
    case '/':
      return page(c.title, `${nav(c)}<h1>${c.title}</h1><p>Refractors, reflectors and mounts since 1990.</p>` +
        `<p><a href="${home}">${c.linkText}</a></p><footer><a href="/privacy">Privacy</a></footer>`, charset);
    case '/about':
      return page(`About ${c.title}`, `${nav(c)}<p>A family business. <a href="/contact">${c.depth === 1 ? c.linkText : 'Contact'}</a></p>`, charset);
    case '/company':
      return c.depth === 2 ? page(`${c.title}: company`, `${nav(c)}<p>Our story.</p><p><a href="/contact">${c.innerText}</a></p>`, charset) : undefined;
    case '/products':
      return page('Products', `${nav(c)}<p>Telescopes. Phone orders welcome.</p>`, charset);
    case '/news':
    case '/privacy':
      return page('News', `${nav(c)}<p>Nothing new.</p>`, charset);
    case '/contact': {
      if (c.layout === 'branches') {
        const second = query.includes('page=2');
        const d = second ? c.branch2! : c;
        const next = second ? '' : '<p><a href="/contact?page=2">Next page</a></p>';
        return page(`${c.title}: branches`, `${nav(c)}<h1>Branches</h1>${details('branches', d)}${next}`, charset);
      }
      return page(`${c.title}: contact`, `${nav(c)}<h1>${c.title}</h1>${details(c.layout, c)}`, charset);
    }
  }
  return undefined;
}

export interface CompanyWorld {
  origin: string;
  port: number;
  /** Every request, in order: host + path + query. */
  seen: string[];
  sites: Map<string, Company>;
  /** The order the engine lists the sites in. */
  order: string[];
  close(): Promise<void>;
}

const RESULTS_PER_PAGE = 5;

function searchPage(world: CompanyWorld, q: string, offset: number): string {
  const hits = q.toLowerCase().includes('telescope') ? world.order.slice(offset, offset + RESULTS_PER_PAGE) : [];
  const results = hits.map((n) => {
    const c = world.sites.get(n)!;
    // A result also links the engine's own cached copy: not a result.
    return `<li class="b_algo"><h2><a href="http://${c.name}.test/">${c.title}</a></h2><p>${c.title}: telescopes and more.</p>` +
      `<a href="/cache?u=${c.name}">Cached</a></li>`;
  });
  return page(`${q} - Search`, `<header><a href="/">Engine</a> <a href="/images?q=${encodeURIComponent(q)}">Images</a>` +
    ` <a href="http://account.test/login">Sign in</a></header>` +
    `<div class="b_ad"><a href="http://sponsor.test/">Telescopes 50% off</a></div>` +
    `<ol id="results">${results.join('')}</ol>` +
    `<nav><a href="/search?q=${encodeURIComponent(q)}&first=${offset + RESULTS_PER_PAGE}">Next</a></nav>` +
    `<footer><a href="http://help.enginecorp.test/">Help</a> <a href="http://legal.enginecorp.test/privacy">Privacy</a></footer>`);
}

/** GBK bytes of a text, by inverting the platform's GBK decoder for the characters the text holds. */
function gbkEncode(text: string): Buffer {
  const want = new Set([...text].filter((ch) => ch.charCodeAt(0) > 0x7f));
  const codes = new Map<string, number[]>();
  const decoder = new TextDecoder('gbk');
  for (let hi = 0x81; hi <= 0xfe && codes.size < want.size; hi++) {
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      const ch = decoder.decode(new Uint8Array([hi, lo]));
      if (want.has(ch) && !codes.has(ch)) codes.set(ch, [hi, lo]);
    }
  }
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code <= 0x7f) bytes.push(code);
    else bytes.push(...(codes.get(ch) ?? [0x3f]));
  }
  return Buffer.from(bytes);
}

export async function startCompanyWorld(list: Company[] = companies(), port = 0): Promise<CompanyWorld> {
  const world = { seen: [] as string[], sites: new Map(list.map((c) => [c.name, c])), order: list.map((c) => c.name) } as CompanyWorld;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').split(':')[0]!.toLowerCase();
    const url = new URL(req.url ?? '/', `http://${host}`);
    world.seen.push(host + url.pathname + url.search);
    const send = (status: number, body: string | Buffer, type = 'text/html; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (url.pathname === '/robots.txt') return send(404, 'no rules', 'text/plain');
    if (host === 'engine.test') {
      if (url.pathname !== '/search') return send(200, page('Engine', '<p>Search the web.</p>'));
      return send(200, searchPage(world, url.searchParams.get('q') ?? '', Number(url.searchParams.get('first') ?? 0)));
    }
    const company = world.sites.get(host.replace(/\.test$/, ''));
    const html = company ? sitePage(company, url.pathname, url.search) : undefined;
    if (!company || html === undefined) return send(404, page('Not found', '<p>Not found.</p>'));
    // The GBK site names its charset only in <meta>, as many older Chinese sites do.
    if (company.layout === 'gbk') return send(200, gbkEncode(html), 'text/html');
    send(200, html);
  };
  const listening = await listenOnLoopback(createServer(handle), port);
  world.origin = listening.origin;
  world.port = Number(new URL(listening.origin).port);
  world.close = listening.close;
  return world;
}

/** The template the tests crawl the world with (sampling off: every result is crawled). */
export function companyTemplate(overrides: Record<string, unknown> = {}) {
  return {
    search: { url: 'http://engine.test/search?q={query}&first={offset}', keywords: ['telescope shop'], pages: 6, perPage: RESULTS_PER_PAGE },
    filters: [
      ['contact us', 'contact', 'get in touch', '联系我们', 'about us', '关于我们'],
      ['contact', 'contact us', '联系方式', '联系我们'],
    ],
    fields: { email: ['e-mail', 'mail', '邮箱'], phone: ['telephone', 'tel', 'hotline', '联系电话'] },
    sampling: false,
    recrawl: { every: '1d' },
    ...overrides,
  };
}

export function companyConfig(name = 'telescope shops', template: Record<string, unknown> = {}) {
  return {
    name, template: companyTemplate(template),
    politeness: { delayMs: 0, concurrency: 4, perHost: 1, robots: true },
    budget: { maxPages: 1000, maxDepth: 5 },
  };
}
