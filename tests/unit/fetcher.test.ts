import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOnce, type FetchOutcome, type FetchPort, type HopOptions, realClock } from '../../lib/net/fetcher';

const GBK_PAGE = readFileSync(new URL('../fixtures/gbk-page.html', import.meta.url));
const HUGE_TOTAL = 8 * 1024 * 1024;

let server: Server;
let origin = '';
const hits = new Map<string, number>();
let hugeWritten = 0;
let hugeClosed: Promise<void> = Promise.resolve();

function route(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  const n = (hits.get(path) ?? 0) + 1;
  hits.set(path, n);
  const html = (type: string, body: string | Buffer) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };
  const redirect = (to: string) => {
    res.writeHead(302, { location: to });
    res.end();
  };
  switch (path) {
    case '/page':
      return html('text/html; charset=utf-8', '<!doctype html><title>Markets</title><p>Prices <a href="/x">up</a> 金融</p>');
    case '/gbk': // charset only in the <meta>
      return html('text/html', GBK_PAGE);
    case '/header-charset': // the header says GBK, the <meta> wrongly says UTF-8
      return html('text/html; charset=GBK', Buffer.concat([Buffer.from('<meta charset="utf-8"><p>'), Buffer.from([0xbd, 0xf0, 0xc8, 0xda]), Buffer.from('</p>')]));
    case '/xhtml':
      return html('application/xhtml+xml', '<html xmlns="http://www.w3.org/1999/xhtml"><body><a href="/y">y</a></body></html>');
    case '/no-type':
      res.writeHead(200);
      return void res.end('\n  <!DOCTYPE html><html><body>sniffed</body></html>');
    case '/no-type-binary':
      res.writeHead(200);
      return void res.end(Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 7)]));
    case '/pdf':
      return html('application/pdf', Buffer.alloc(1024 * 1024, 1));
    case '/huge':
      return streamHuge(res);
    case '/r1':
      return redirect('/r2');
    case '/r2':
      return redirect(`${origin}/r3`);
    case '/r3':
      return redirect('/page');
    case '/loop-a':
      return redirect('/loop-b');
    case '/loop-b':
      return redirect('/loop-a');
    case '/busy': // 503 with Retry-After: 1 the first time, then the page
      if (n === 1) {
        res.writeHead(503, { 'retry-after': '1' });
        return void res.end('busy');
      }
      return html('text/html', '<p>ready</p>');
    case '/always-503':
      res.writeHead(503);
      return void res.end();
    case '/limited':
      res.writeHead(429, { 'retry-after': '999' });
      return void res.end();
    case '/limited-date':
      res.writeHead(503, { 'retry-after': new Date(Date.now() + 2 * 3600_000).toUTCString() });
      return void res.end();
    case '/slow-body': // headers and a first chunk, then nothing
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.write('<p>first part');
    case '/slow-headers':
      return; // never answers
    default:
      res.writeHead(404, { 'content-type': 'text/html' });
      return void res.end('<h1>not found</h1>');
  }
}

/** Streams 8 MB with backpressure and records how much was sent before the client hung up. */
function streamHuge(res: ServerResponse): void {
  hugeWritten = 0;
  hugeClosed = new Promise((resolve) => res.on('close', resolve));
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const chunk = Buffer.from('<p>' + 'x'.repeat(64 * 1024 - 7) + '</p>\n');
  const pump = (): void => {
    while (hugeWritten < HUGE_TOTAL && !res.destroyed) {
      hugeWritten += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const nodeFetch: FetchPort = (url, init) => fetch(url, init);

// A minute: a request to this loopback server ends at once, however busy the machine; the timeout tests set their own.
function opts(extra: Partial<HopOptions> = {}): HopOptions {
  return { fetch: nodeFetch, clock: realClock, timeoutMs: 60_000, maxBytes: 1024 * 1024, credentials: 'include', ...extra };
}

/** One request's outcome, whatever kind it was. */
const fetchPage = async (url: string, o: HopOptions = opts()): Promise<FetchOutcome> => (await fetchOnce(url, o)).out;

describe('fetchOnce against a real HTTP server', () => {
  it('fetches and decodes an HTML page, keeping the bytes as received', async () => {
    const out = await fetchPage(`${origin}/page`, opts());
    expect(out).toMatchObject({
      url: `${origin}/page`,
      finalUrl: `${origin}/page`,
      status: 200,
      contentType: 'text/html',
      charset: 'utf-8',
      truncated: false,
    });
    expect(out.error).toBeUndefined();
    expect(out.html).toContain('金融');
    expect(out.bytes).toBe(Buffer.byteLength(out.html!));
    expect(Buffer.from(out.payload!).toString('utf8')).toBe(out.html);
    expect(out.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('decodes a GBK page whose charset is only in its <meta>, and keeps its GBK bytes', async () => {
    const out = await fetchPage(`${origin}/gbk`, opts());
    expect(out.charset).toBe('gb18030');
    expect(out.html).toContain('<title>金融新闻 - 财经首页</title>');
    expect(out.bytes).toBe(GBK_PAGE.length);
    expect(Buffer.from(out.payload!).equals(GBK_PAGE)).toBe(true);
  });

  it('takes the charset from the header over the <meta>', async () => {
    const out = await fetchPage(`${origin}/header-charset`, opts());
    expect(out.charset).toBe('gb18030');
    expect(out.html).toBe('<meta charset="utf-8"><p>金融</p>');
  });

  it('reads XHTML, and sniffs HTML sent without a content type', async () => {
    expect((await fetchPage(`${origin}/xhtml`, opts())).html).toContain('<a href="/y">');
    const sniffed = await fetchPage(`${origin}/no-type`, opts());
    expect(sniffed.contentType).toBe('text/html');
    expect(sniffed.error).toBeUndefined();
    expect(sniffed.html).toContain('sniffed');
    const binary = await fetchPage(`${origin}/no-type-binary`, opts());
    expect(binary.html).toBeNull();
    expect(binary.error).toMatch(/^not HTML/);
  });

  it('does not read a PDF', async () => {
    const out = await fetchPage(`${origin}/pdf`, opts());
    expect(out).toMatchObject({ status: 200, contentType: 'application/pdf', html: null, bytes: 0, error: 'not HTML (application/pdf)' });
  });

  it('keeps the first maxBytes of a huge page, stops downloading, and marks it truncated', async () => {
    const out = await fetchPage(`${origin}/huge`, opts({ maxBytes: 100_000 }));
    expect(out).toMatchObject({ status: 200, bytes: 100_000, truncated: true });
    expect(out.error).toBeUndefined();
    expect(out.html!.length).toBe(100_000);
    await hugeClosed; // the client hung up: the server did not get to send all 8 MB
    expect(hugeWritten).toBeLessThan(HUGE_TOTAL);
  });

  it('never follows a redirect: it reports the absolute target and requests nothing else', async () => {
    hits.clear();
    const hop = await fetchOnce(`${origin}/r1`, opts());
    expect(hop).toMatchObject({ kind: 'redirect', location: `${origin}/r2`, out: { status: 302, html: null } });
    expect([...hits.keys()]).toEqual(['/r1']);
  });

  it('reads robots-style text bodies when asked, whatever their type', async () => {
    const hop = await fetchOnce(`${origin}/pdf`, opts({ body: 'text', maxBytes: 10 }));
    expect(hop.kind).toBe('response');
    expect(hop.out.text).toHaveLength(10);
  });

  it('calls 429 and 503 passing faults, with the Retry-After they name', async () => {
    const busy = await fetchOnce(`${origin}/limited`, opts());
    expect(busy).toMatchObject({ kind: 'retry', afterMs: 999_000, out: { status: 429, error: 'HTTP 429' } });
    const dated = await fetchOnce(`${origin}/limited-date`, opts());
    expect(dated.kind).toBe('retry');
    expect((dated as { afterMs: number }).afterMs).toBeGreaterThan(7000_000);
    const plain = await fetchOnce(`${origin}/always-503`, opts());
    expect(plain).toMatchObject({ kind: 'retry', out: { status: 503 } });
    expect((plain as { afterMs?: number }).afterMs).toBeUndefined();
  });

  it('reports a final error status without throwing', async () => {
    const out = await fetchPage(`${origin}/missing`, opts());
    expect(out).toMatchObject({ status: 404, error: 'HTTP 404', html: null });
  });

  it('times out while waiting for headers and while reading the body, as passing faults', async () => {
    const started = Date.now();
    const headers = await fetchOnce(`${origin}/slow-headers`, opts({ timeoutMs: 300 }));
    expect(headers).toMatchObject({ kind: 'retry', out: { status: 0, error: 'timed out after 0.3 s' } });
    const body = await fetchPage(`${origin}/slow-body`, opts({ timeoutMs: 300 }));
    expect(body).toMatchObject({ status: 200, html: null, error: 'timed out after 0.3 s' });
    // The servers never answer: the two 0.3 s timers ended both requests, not the default 30 s one, on a machine
    // however busy (a margin of 30 times).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('says which network error happened (connection refused), as a passing fault', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const hop = await fetchOnce(`http://127.0.0.1:${port}/`, opts());
    expect(hop).toMatchObject({ kind: 'retry', out: { status: 0, html: null, error: `network error: connect ECONNREFUSED 127.0.0.1:${port}` } });
  });

  it('does not follow an opaque redirect it cannot read', async () => {
    const opaque: FetchPort = async () => Object.assign(new Response(null, { status: 200 }), {}) as Response;
    const fake: FetchPort = async (u, i) => {
      const r = await opaque(u, i);
      Object.defineProperty(r, 'type', { value: 'opaqueredirect' });
      return r;
    };
    const hop = await fetchOnce(`${origin}/page`, opts({ fetch: fake }));
    expect(hop).toMatchObject({ kind: 'response', out: { error: 'redirect whose target could not be read: not followed' } });
  });

  it('stops when the crawl is stopped', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const out = await fetchPage(`${origin}/slow-headers`, opts({ signal: controller.signal, timeoutMs: 5000 }));
    expect(out.error).toBe('aborted');
  });
});
