// fetch.render: how `auto` reads a page's HTML and a site's first rendered pages, what a rendered page may request,
// and whole crawls in Node with a stand-in RenderPort: a script site is rendered throughout, the demo site not once.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { decideRender, RenderBook, renderChange, renderGuard } from '../../lib/policy/render-policy';
import { CrawlService } from '../../lib/app/service';
import { makeSafetyGuard } from '../../lib/policy/safety';
import { realClock } from '../../lib/net/fetcher';
import { Politeness } from '../../lib/net/politeness';
import { RequestGate, type GatePolicy } from '../../lib/net/request-gate';
import { RobotsCache } from '../../lib/net/robots';
import type { RenderPort, RenderRequest } from '../../lib/net/render';
import { bodyHtml } from '../../lib/records/page-body';
import { parseHtml } from '../../lib/parse/html';
import { scriptShell } from '../../lib/parse/script-shell';
import { RenderSlots } from '../../lib/run/render';
import { configToForm, defaultFormValues, formToConfig } from '../../lib/ui/config-form';
import { formErrorOf, formProblems } from '../../lib/ui/form-problems';
import { renderTag } from '../../lib/ui/render-note';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { exportCrawl } from '../../lib/export/export-crawl';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';
import { httpPayload, parseWarc } from '../support/archive-readers';
import { listenOnLoopback } from '../fixtures/sites/loopback';

const ARTICLE = '<p>' + 'Stars are luminous spheres of plasma held together by their own gravity. '.repeat(6) + '</p>';
const shellOf = (html: string) => scriptShell(html, parseHtml(html, 'http://stars.test/'));
const NO_CAPTURE = { bytes: 0, skip: () => false };

describe("auto reads a page's HTML", () => {
  it.each([
    ['an empty #root', '<html><body><div id="root"></div><script src="/app.js"></script></body></html>', 'an empty application root (#root)'],
    ['a #__next that says it is loading', `<body><div id="__next"><div class="spin">Loading…</div></div>${ARTICLE}<script src="/a.js"></script></body>`, 'an empty application root (#__next)'],
    ["Angular's <app-root>", `<body><app-root></app-root>${ARTICLE}<script src="/main.js"></script></body>`, 'an empty application root (<app-root>)'],
    ['a noscript asking for JavaScript', `<body><noscript>You need to enable JavaScript to run this app.</noscript>${ARTICLE}<script>boot()</script></body>`, 'its <noscript> asks for JavaScript'],
    ['next to no text', '<body><h1>Tickets</h1><script src="/bundle.js"></script></body>', 'little text on a page that runs scripts (7 characters)'],
    ['only script handlers', `<body>${ARTICLE}<span onclick="go(2)">Next</span><script src="/x.js"></script></body>`, 'no links but script handlers'],
  ])('%s is a shell', (_, html, sign) => {
    expect(shellOf(html)).toBe(sign);
  });

  it.each([
    ['an article with an analytics script', `<body><h1>Sirius</h1>${ARTICLE}<a href="/vega">Vega</a><script src="/analytics.js"></script></body>`],
    ['a short page without scripts', '<body><h1>Tickets</h1><div id="root"></div></body>'],
    ['a root the server filled', `<body><div id="root"><h1>Sirius</h1>${ARTICLE}</div><script src="/hydrate.js"></script></body>`],
    ['a short page whose only script is data', '<body><p>Vega</p><script type="application/ld+json">{"@type":"Star"}</script></body>'],
    ['a noscript tracking pixel', `<body>${ARTICLE}<a href="/a">a</a><noscript><img src="/px.gif"></noscript><script src="/t.js"></script></body>`],
    ['an element whose data-id names root', `<body><div data-id="root"></div>${ARTICLE}<a href="/a">a</a><script src="/t.js"></script></body>`],
  ])('%s is a whole page', (_, html) => {
    expect(shellOf(html)).toBeNull();
  });
});

it('always and never do not read the page', () => {
  const book = new RenderBook();
  expect(decideRender('always', null, book, 's.test').render).toBe(true);
  expect(decideRender('never', null, book, 's.test').render).toBe(false);
});

it('counts a change as new links, or text grown by half and by 100 characters', () => {
  const page = (links: string[], text: string) => parseHtml(`<body><p>${text}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}</body>`, 'http://s.test/');
  expect(renderChange(page(['/a'], 'x'), page(['/a', '/b'], 'x'))).toBe('rendering found 1 more link');
  expect(renderChange(page(['/a'], 'short'), page(['/a'], 'short ' + 'y'.repeat(150)))).toBe('rendering showed 151 more characters of text');
  expect(renderChange(page(['/a', '/b'], ARTICLE), page(['/b', '/a'], ARTICLE + ' and a footer'))).toBeNull();
});

describe("a rendered page's own requests", () => {
  const guard = renderGuard(makeSafetyGuard({ avoid: [], disabledRules: [] }), (url) => (new URL(url).host === 's.test' ? null : 'another site'));
  const ask = (url: string, more: Partial<{ method: string; type: string; navigation: boolean }> = {}) =>
    guard({ url, method: 'GET', type: 'fetch', navigation: false, ...more });

  it('pass the same guard as links', () => {
    expect(ask('http://s.test/logout')).toMatch(/^unsafe link \(action verb "logout"\)/);
    expect(ask('http://s.test/account/delete', { type: 'image' })).toMatch(/^unsafe link/);
    expect(ask('http://s.test/items?csrf=abc')).toMatch(/state query key/);
  });

  it('may read, never write', () => {
    expect(ask('http://s.test/stats', { method: 'POST' })).toBe('a POST request: a rendered page may only read');
    expect(ask('http://s.test/items', { method: 'put' })).toBe('a PUT request: a rendered page may only read');
    expect(ask('http://s.test/items')).toBeNull();
  });

  it("may read its lists from /api/, but not navigate there, nor out of the crawl's scope", () => {
    expect(ask('http://s.test/api/items')).toBeNull();
    expect(ask('http://s.test/api/items', { navigation: true, type: 'document' })).toMatch(/api path/);
    expect(ask('http://cdn.test/app.js', { type: 'script' })).toBeNull();
    expect(ask('http://other.test/', { navigation: true, type: 'document' })).toBe('a navigation out of the crawl: another site');
    expect(ask('data:text/plain,hi')).toBeNull();
  });
});

it('fetch.render is validated', () => {
  const base = { name: 'x', seeds: ['http://s.test/'], topic: { keywords: ['star'] } };
  expect(parseConfig(base).fetch).toMatchObject({ render: 'auto', renderTabs: 2, renderTimeoutMs: 15_000, renderScrolls: 20 });
  expect(parseConfig({ ...base, fetch: { render: 'never', renderTabs: 1 } }).fetch).toMatchObject({ render: 'never', renderTabs: 1 });
  expect(() => parseConfig({ ...base, fetch: { render: 'sometimes' } })).toThrow(ConfigError);
  expect(() => parseConfig({ ...base, fetch: { render: 'sometimes' } })).toThrow('fetch.render must be one of "never", "auto", "always" (got "sometimes")');
  expect(() => parseConfig({ ...base, fetch: { renderTabs: 0 } })).toThrow(/fetch.renderTabs/);
});

it('a growing page has caps on steps, time and links, and what a rendered page loaded is kept within a byte cap', () => {
  const base = { name: 'x', seeds: ['http://s.test/'], topic: { keywords: ['star'] } };
  expect(parseConfig(base).fetch).toMatchObject({
    renderScrolls: 20, renderClicks: 20, renderGrowMs: 30_000, renderGrowLinks: 1000, renderCaptureBytes: 2 * 1024 * 1024,
  });
  expect(parseConfig({ ...base, fetch: { renderGrowMs: 0, renderGrowLinks: 50 } }).fetch).toMatchObject({ renderGrowMs: 0, renderGrowLinks: 50 });
  expect(() => parseConfig({ ...base, fetch: { renderGrowMs: 700_000 } })).toThrow('fetch.renderGrowMs must be a whole number between 0 and 600000 (got 700000)');
  expect(() => parseConfig({ ...base, fetch: { renderGrowLinks: -5 } })).toThrow('fetch.renderGrowLinks must be a whole number between 0 and 100000 (got -5)');
  expect(parseConfig({ ...base, fetch: { renderClicks: 0, renderCaptureBytes: 0 } }).fetch).toMatchObject({ renderClicks: 0, renderCaptureBytes: 0 });
  expect(() => parseConfig({ ...base, fetch: { renderClicks: 2.5 } })).toThrow('fetch.renderClicks must be a whole number between 0 and 100 (got 2.5)');
  expect(() => parseConfig({ ...base, fetch: { renderClicks: 'all' } })).toThrow('fetch.renderClicks must be a whole number between 0 and 100 (got "all")');
  expect(() => parseConfig({ ...base, fetch: { renderCaptureBytes: -1 } })).toThrow(/^fetch.renderCaptureBytes must be a whole number between 0 and 536870912 \(got -1\)$/);
});

it('the New crawl form carries fetch.render both ways, and names its field in a refusal', () => {
  const v = defaultFormValues();
  expect(v.render).toBe('auto');
  const fromFile = configToForm({ fetch: { render: 'never', renderTabs: 1 } }, v);
  expect(fromFile.render).toBe('never');
  expect(configToForm({ fetch: { render: 'sometimes' } }, v).render).toBe('auto');
  // Settings the form has no field for come from the imported file.
  expect(formToConfig({ ...fromFile, seeds: 'http://s.test/', keywords: 'star' }, { fetch: { renderTabs: 1 } }).fetch).toEqual({
    renderTabs: 1, render: 'never', renderScrolls: 20, renderClicks: 20, renderGrowMs: 30_000, renderGrowLinks: 1000,
  });
  // The scroll and "load more" caps have fields of their own, each refused beside its field.
  const caps = configToForm({ fetch: { renderScrolls: 0, renderClicks: 12 } }, v);
  expect([caps.renderScrolls, caps.renderClicks]).toEqual(['0', '12']);
  expect(formToConfig({ ...caps, seeds: 'http://s.test/', keywords: 'star' }, {}).fetch).toMatchObject({ renderScrolls: 0, renderClicks: 12 });
  expect(formErrorOf('fetch.renderClicks must be a whole number between 0 and 100 (got 200)').field).toBe('renderClicks');
  // So do the caps on a growing page's time and links.
  const grow = configToForm({ fetch: { renderGrowMs: 5000, renderGrowLinks: 200 } }, v);
  expect([grow.renderGrowMs, grow.renderGrowLinks]).toEqual(['5000', '200']);
  expect(formToConfig({ ...grow, seeds: 'http://s.test/', keywords: 'star' }, {}).fetch).toMatchObject({ renderGrowMs: 5000, renderGrowLinks: 200 });
  expect(formProblems({ ...grow, seeds: 'http://s.test/', keywords: 'star', renderGrowMs: '900000', renderGrowLinks: '-1' })).toEqual([
    { field: 'renderGrowMs', message: 'Time to grow (ms) must be a whole number from 0 to 600,000 (you wrote 900000)' },
    { field: 'renderGrowLinks', message: 'Links to grow to must be a whole number from 0 to 100,000 (you wrote -1)' },
  ]);
  expect(formErrorOf('fetch.render must be one of "never", "auto", "always" (got "x")')).toEqual({
    field: 'render', message: 'Pages built by scripts must be one of "never", "auto", "always" (you wrote x)',
  });
});

it('the Pages table tags what rendering did and says why in the title', () => {
  expect(renderTag(undefined)).toBeNull();
  expect(renderTag({ rendered: true, why: 'an empty application root (#root)', settled: true, changed: 'rendering found 3 more links', blocked: 1, ms: 1234 })).toEqual({
    text: 'rendered',
    title: 'Rendered in a background tab: an empty application root (#root). Rendering found 3 more links. ' +
      '1 request of the page stopped by the guard (listed as kept from requesting). 1.2 s.',
  });
  expect(renderTag({ rendered: true, why: 'every page is rendered', settled: false })!.text).toBe('rendered, unsettled');
  expect(renderTag({ rendered: true, why: 'every page is rendered', settled: true, ms: 2100, phases: { load: 600, settle: 1200, grow: 0, read: 300 } })!.title).toBe(
    'Rendered in a background tab: every page is rendered. Rendering changed nothing. 2.1 s (loading 0.6 s, settling 1.2 s, reading 0.3 s).',
  );
  expect(renderTag({ rendered: true, why: 'pages like /feed: none rendered yet', settled: true, scrolled: 3, stopped: 'end' })!.title).toBe(
    'Rendered in a background tab: pages like /feed: none rendered yet. Rendering changed nothing. It grew when scrolled to its end, 3 times. ' +
      'It was read to its end: a last step added nothing.',
  );
  expect(renderTag({ rendered: true, why: 'every page is rendered', settled: true, changed: 'rendering found 9 more links', scrolled: 1, pressed: 2 })!.title).toBe(
    'Rendered in a background tab: every page is rendered. Rendering found 9 more links. It grew when scrolled to its end, once. ' +
      'It grew when its "load more" was pressed, 2 times.',
  );
  expect(renderTag({ rendered: false, why: 'an empty application root (#root)', error: 'the tab crashed' })).toEqual({
    text: 'render failed', title: 'Read from its HTML: rendering failed (the tab crashed); rendered because an empty application root (#root).',
  });
});

describe('the request gate renders', () => {
  const policy: GatePolicy = {
    unsafe: () => null, outOfScope: () => null, privateTarget: () => null, canonical: (url) => url, halted: () => false,
    pageRequest: renderGuard(makeSafetyGuard({ avoid: [], disabledRules: [] }), () => null),
  };
  const robotsTxt = async (url: string) =>
    url.endsWith('/robots.txt') ? new Response('User-agent: *\nDisallow: /private', { status: 200, headers: { 'content-type': 'text/plain' } }) : new Response('', { status: 404 });
  const gateWith = (port: RenderPort, p: Partial<GatePolicy> = {}, politeness = new Politeness({ delayMs: 0, perHost: 1 })) =>
    new RequestGate(robotsTxt, realClock, { ...policy, ...p }, politeness, (load) => new RobotsCache(load, realClock), { timeoutMs: 2000, maxBytes: 1 << 16, maxRedirects: 3 }, port);
  const asks = (req: RenderRequest) => Promise.all([
    req.guard({ url: 'http://s.test/private/page', method: 'GET', type: 'document', navigation: true }),
    req.guard({ url: 'http://s.test/private/app.js', method: 'GET', type: 'script', navigation: false }),
    req.guard({ url: 'http://s.test/logout', method: 'GET', type: 'fetch', navigation: false }),
  ]);

  it("in the host's politeness slot, putting the page's requests to the guard and its navigations to robots.txt", async () => {
    const politeness = new Politeness({ delayMs: 0, perHost: 1 });
    let slot = 0;
    let answers: (string | null)[] = [];
    const gate = gateWith({
      async render(req) {
        slot = politeness.waitFor('s.test', Date.now());
        answers = await asks(req);
        return { kind: 'rendered', html: '', url: req.url, settled: true, scrolled: 0, blocked: [], durationMs: 1 };
      },
    }, {}, politeness);
    expect(await gate.render({ url: 'http://s.test/', timeoutMs: 1000, quietMs: 10, identify: true, scrolls: 0, clicks: 0, growMs: 0, growLinks: 0, capture: NO_CAPTURE })).toMatchObject({ kind: 'rendered' });
    expect(slot).toBe(Infinity); // the host's one slot was the tab's
    expect(politeness.waitFor('s.test', Date.now())).toBe(0);
    expect(answers[0]).toMatch(/^blocked by robots\.txt/);
    expect(answers[1]).toBeNull(); // a page's own script is not a page the crawl requests
    expect(answers[2]).toMatch(/^unsafe link \(action verb "logout"\)/);
  });

  it('lets a rendered page make no request when its policy has no guard for them, and renders nothing once halted', async () => {
    let answers: (string | null)[] = [];
    const port: RenderPort = {
      async render(req) {
        answers = await asks(req);
        return { kind: 'rendered', html: '', url: req.url, settled: true, scrolled: 0, blocked: [], durationMs: 1 };
      },
    };
    await gateWith(port, { pageRequest: undefined }).render({ url: 'http://s.test/', timeoutMs: 1000, quietMs: 10, identify: true, scrolls: 0, clicks: 0, growMs: 0, growLinks: 0, capture: NO_CAPTURE });
    expect(answers.every((a) => a === 'no guard for the requests of a rendered page')).toBe(true);
    expect(await gateWith(port, { halted: () => true }).render({ url: 'http://s.test/', timeoutMs: 1000, quietMs: 10, identify: true, scrolls: 0, clicks: 0, growMs: 0, growLinks: 0, capture: NO_CAPTURE })).toBeNull();
  });
});

it('render slots let at most their size through at once', async () => {
  const slots = new RenderSlots(2);
  let busy = 0;
  let most = 0;
  await Promise.all(Array.from({ length: 6 }, async () => {
    const release = await slots.take();
    most = Math.max(most, ++busy);
    await new Promise((r) => setTimeout(r, 5));
    busy--;
    release();
    release(); // a second release gives nothing back
  }));
  expect(most).toBe(2);
});

// Whole crawls in Node: the RenderPort is a stand-in that answers with the page the script would have drawn.
const freshStore = () => new CrawlStore(new CrawlerDB(`r${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
const SHELL = '<html><head><title>Stars</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>';
const DRAWN: Record<string, string> = {
  '/': '<h1>Stars</h1><a href="/star/1">Sirius star</a> <a href="/star/2">Vega star</a>',
  '/star/1': `<h1>Sirius</h1>${ARTICLE}<a href="/star/2">Vega star</a>`,
  '/star/2': `<h1>Vega</h1>${ARTICLE}<a href="/">All stars</a>`,
};

function standIn(): RenderPort & { asked: RenderRequest[] } {
  const asked: RenderRequest[] = [];
  return {
    asked,
    async render(req) {
      asked.push(req);
      const path = new URL(req.url).pathname;
      // The page's script asks for its list and, on the home page, for /logout: the guard says which may go.
      const requests = ['/api/stars', ...(path === '/' ? ['/logout'] : [])].map((p) => new URL(p, req.url).href);
      // ... and posts its statistics to /stats, which is stopped for its method only.
      const asks = [...requests.map((url) => ({ url, method: 'GET' })), { url: new URL('/stats', req.url).href, method: 'POST' }];
      const answers = await Promise.all(asks.map(async ({ url, method }) => ({ url, method, reason: await req.guard({ url, method, type: 'fetch', navigation: false }) })));
      const blocked = answers.filter((b): b is { url: string; method: string; reason: string } => b.reason !== null);
      return { kind: 'rendered', html: `<html><body>${DRAWN[path] ?? ''}</body></html>`, url: req.url, settled: true, scrolled: 0, blocked, durationMs: 3 };
    },
  };
}

async function crawlWith(render: RenderPort | undefined, config: Record<string, unknown>) {
  const store = freshStore();
  const service = new CrawlService({ store, fetch: (u, i) => fetch(u, i), clock: realClock, ...(render ? { render } : {}) });
  const { crawlId } = await service.handlers.start(config);
  await service.settled(crawlId);
  return { store, crawlId, pages: await store.pages.pagesAfter(crawlId, 0, 1000) };
}

describe('a crawl with a renderer', () => {
  let stars: { origin: string; close(): Promise<void> };
  let demo: DemoServer;
  beforeAll(async () => {
    stars = await listenOnLoopback(createServer((req, res) => {
      res.writeHead(req.url === '/robots.txt' ? 404 : 200, { 'content-type': 'text/html' }).end(SHELL);
    }));
    demo = await startDemoServer();
  });
  afterAll(async () => {
    await stars.close();
    await demo.close();
  });

  it('renders a script site throughout, follows what rendering found and keeps the guarded request from the crawl', async () => {
    const port = standIn();
    const config = { name: 'stars', seeds: [`${stars.origin}/`], topic: { keywords: ['star'] }, politeness: { delayMs: 0 } };
    const { store, crawlId, pages } = await crawlWith(port, config);
    const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
    expect([...byPath.keys()].sort()).toEqual(['/', '/star/1', '/star/2']);
    expect(byPath.get('/')!.render).toEqual({
      rendered: true, why: 'an empty application root (#root)', kind: 'shells like / running /app.js', settled: true,
      changed: 'rendering found 2 more links', blocked: 2, ms: 3,
    });
    expect(byPath.get('/star/1')!.render?.rendered).toBe(true);
    // The page's /logout is listed as kept from requesting, under the page, with the guard's reason.
    const logout = await store.frontier.getEntry(crawlId, `${stars.origin}/logout`);
    expect(logout).toMatchObject({ state: 'skipped', parentUrl: `${stars.origin}/` });
    expect(logout!.reason).toMatch(/^unsafe link \(action verb "logout"\)/);
    expect(await store.frontier.getEntry(crawlId, `${stars.origin}/stats`)).toBeUndefined();
    // The body keeps what the server sent, and the DOM beside it.
    const [body] = await store.pages.bodies([{ crawlId, seq: byPath.get('/')!.seq }]);
    expect(bodyHtml(body!)).toBe(SHELL);
    expect(body!.rendered).toContain('/star/1');
    expect(port.asked.every((r) => r.quietMs > 0 && r.timeoutMs === 15_000 && r.identify)).toBe(true);
  });

  it("archives what the server sent as the response and the rendered DOM as a conversion of it; JSON Lines carry the rendered text", async () => {
    const config = { name: 'stars', seeds: [`${stars.origin}/`], topic: { keywords: ['star'] }, politeness: { delayMs: 0 } };
    const { store, crawlId } = await crawlWith(standIn(), config);
    const exported = async (format: 'warc' | 'jsonl') => {
      const out = await exportCrawl(store.db, (await store.getCrawl(crawlId))!, { format }, { now: Date.now() });
      const parts: Uint8Array[] = [];
      for await (const c of out.chunks) parts.push(c);
      return Buffer.concat(parts);
    };
    const records = await parseWarc(await exported('warc'));
    const home = `${stars.origin}/`;
    const response = records.find((r) => r.headers['WARC-Type'] === 'response' && r.headers['WARC-Target-URI'] === home)!;
    expect(httpPayload(response.content).toString()).toBe(SHELL);
    const conversion = records.find((r) => r.headers['WARC-Type'] === 'conversion' && r.headers['WARC-Target-URI'] === home)!;
    expect(conversion.headers['WARC-Refers-To']).toBe(response.headers['WARC-Record-ID']);
    expect(conversion.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(conversion.content.toString()).toContain('Sirius star');
    expect(records.filter((r) => r.headers['WARC-Type'] === 'conversion')).toHaveLength(3);
    const lines = (await exported('jsonl')).toString().trim().split('\n').map((l) => JSON.parse(l) as { url: string; text: string });
    expect(lines.find((l) => l.url === home)!.text).toContain('Sirius star');
  });

  it("archives what each rendered page's tab loaded, a resource every page loads once", async () => {
    const port = standIn();
    const APP_JS = 'document.title = "stars";';
    const withResources: RenderPort = {
      async render(req) {
        const result = await port.render(req);
        if (result.kind !== 'rendered') return result;
        const json = new URL(`/api/stars?for=${encodeURIComponent(new URL(req.url).pathname)}`, req.url).href;
        const sent = (url: string, type: string, text: string) => ({ url, status: 200, headers: { 'Content-Type': type }, payload: new TextEncoder().encode(text) });
        return { ...result, resources: [sent(new URL('/app.js', req.url).href, 'text/javascript', APP_JS), sent(json, 'application/json', `["${req.url}"]`)] };
      },
    };
    const config = { name: 'stars', seeds: [`${stars.origin}/`], topic: { keywords: ['star'] }, politeness: { delayMs: 0 } };
    const { store, crawlId, pages } = await crawlWith(withResources, config);
    expect(pages).toHaveLength(3);
    expect(port.asked.every((r) => r.capture.bytes === 2 * 1024 * 1024)).toBe(true);
    // The tab is told what the crawl kept already, so it need not read it again.
    expect(port.asked.slice(1).some((r) => r.capture.skip(`${stars.origin}/app.js`))).toBe(true);
    const out = await exportCrawl(store.db, (await store.getCrawl(crawlId))!, { format: 'warc' }, { now: Date.now() });
    const parts: Uint8Array[] = [];
    for await (const c of out.chunks) parts.push(c);
    const records = await parseWarc(Buffer.concat(parts));
    const responses = (url: string) => records.filter((r) => r.headers['WARC-Type'] === 'response' && r.headers['WARC-Target-URI'] === url);
    const script = responses(`${stars.origin}/app.js`);
    expect(script).toHaveLength(1);
    expect(httpPayload(script[0]!.content).toString()).toBe(APP_JS);
    expect(script[0]!.content.toString()).toMatch(/^HTTP\/1\.1 200 OK\r\nContent-Type: text\/javascript\r\n/);
    for (const p of pages) {
      const [json] = responses(`${stars.origin}/api/stars?for=${encodeURIComponent(new URL(p.url).pathname)}`);
      expect(httpPayload(json!.content).toString(), p.url).toBe(`["${p.finalUrl}"]`);
      expect(json!.headers['WARC-Date']).toBe(responses(p.finalUrl)[0]!.headers['WARC-Date']);
    }
  });

  it('with render: never, reads the shell and finds nothing', async () => {
    const port = standIn();
    const config = { name: 'stars', seeds: [`${stars.origin}/`], topic: { keywords: ['star'] }, politeness: { delayMs: 0 }, fetch: { render: 'never' } };
    const { pages } = await crawlWith(port, config);
    expect(pages.map((p) => new URL(p.url).pathname)).toEqual(['/']);
    expect(pages[0]!.render).toBeUndefined();
    expect(port.asked).toEqual([]);
  });

  it('renders no page of the static demo site with auto, and its rows say nothing of rendering', async () => {
    const port = standIn();
    const { pages } = await crawlWith(port, { ...demoConfig(demo.origin), politeness: { delayMs: 0, concurrency: 2 } });
    expect(pages.length).toBeGreaterThan(10);
    expect(port.asked).toEqual([]);
    expect(pages.every((p) => p.render === undefined)).toBe(true);
  });
});
