// Serves a page corpus in the Wikispeedia format on loopback: `pages.jsonl.gz` holds one
// `{"path": "/wiki/<name>.html", "html": "..."}` a line; each html is served at its path. Also loads the
// corpus's ground truth (`labels.tsv`, `pages.tsv`) for benchmarks. See shared/corpora/wikispeedia/README.md.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { listenOnLoopback } from '../../tests/fixtures/sites/loopback';

export interface CorpusServer {
  origin: string;
  server: Server;
  /** Requests per path (every request, also 404s and robots.txt). */
  hits: Map<string, number>;
  /** Number of pages served. */
  size: number;
  /** Every request as the server saw it: when it arrived and when its answer was sent (wall-clock ms). */
  spans: [number, number][];
  close(): Promise<void>;
}

/** How many requests the server had open at once between `from` and `to` (wall-clock ms), averaged over that time. */
export function meanOpen(spans: readonly [number, number][], from: number, to: number): number {
  if (!(to > from)) return NaN;
  return openShares(spans, from, to).reduce((mean, share, open) => mean + open * share, 0);
}

/** The share of the time between `from` and `to` in which the server had 0, 1, 2... requests open (index: how many). */
export function openShares(spans: readonly [number, number][], from: number, to: number): number[] {
  // Each span adds one from its arrival and takes it away once answered: walk the changes in time order. An answer
  // never sent (the client went away) counts as open until `to`.
  const changes: [number, number][] = [];
  for (const [a, b] of spans) {
    const end = Math.min(Number.isNaN(b) ? to : b, to), start = Math.max(a, from);
    if (end > start) changes.push([start, 1], [end, -1]);
  }
  changes.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const time: number[] = [];
  let open = 0, at = from;
  for (const [t, d] of changes) {
    time[open] = (time[open] ?? 0) + (t - at);
    open += d;
    at = t;
  }
  time[open] = (time[open] ?? 0) + (to - at);
  return Array.from(time, (x) => (x ?? 0) / (to - from));
}

/** Reads `pages.jsonl.gz` into path -> html. */
export function loadCorpusPages(dir: string): Map<string, string> {
  const text = gunzipSync(readFileSync(join(dir, 'pages.jsonl.gz'))).toString('utf8');
  const pages = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const { path, html } = JSON.parse(line) as { path: string; html: string };
    pages.set(path, html);
  }
  return pages;
}

/** A lookup key insensitive to how a client percent-encodes the path ("%C3%A9" vs "é", "%2C" vs ","). */
function pathKey(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** `sites.tsv`: article (as decoded from its URL encoding) -> its host in the web of sites. */
export function loadSites(dir: string): Map<string, string> {
  return new Map(tsvRows(join(dir, 'sites.tsv')).filter(([a, h]) => a && h).map(([article, host]) => [pathKey(article!), host!]));
}

/** The URL of an article: on the one site at `origin`, or on its own host in the web of sites. */
export function articleUrl(origin: string, path: string, sites?: Map<string, string>): string {
  if (!sites) return origin + path;
  const article = /^\/wiki\/(.+)\.html$/.exec(path)?.[1] ?? '';
  return `http://${sites.get(pathKey(article))}${path}`;
}

/** Rewrites every relative link of the pages (in place) to the absolute URL on its target's host. */
export function linkAcrossSites(pages: Map<string, string>, sites: Map<string, string>): void {
  for (const [path, html] of pages) {
    pages.set(path, html.replace(/href="([^"#:/]+)\.html"/g, (all, target: string) => {
      const host = sites.get(pathKey(target));
      return host ? `href="http://${host}/wiki/${target}.html"` : all;
    }));
  }
}

/** Whether a URL's host is the one an article lives on in the web of sites. */
export function onItsHost(url: URL, sites: Map<string, string>): boolean {
  const article = /^\/wiki\/(.+)\.html$/.exec(url.pathname)?.[1];
  return article !== undefined && sites.get(pathKey(article)) === url.hostname.toLowerCase();
}

/**
 * Serves the corpus on loopback. With `sites` (docs/benchmarks.md, "Strategies on the web of sites"), each article only at
 * `http://<its host>/wiki/<article>.html`, dispatched on the Host header (Chromium maps *.test here), every
 * relative link rewritten to the absolute URL on its target's host, and robots.txt allowing everything.
 */
export async function startCorpusServer(dir: string, port = 0, opts: { sites?: Map<string, string>; latencyMs?: number } = {}): Promise<CorpusServer> {
  const pages = loadCorpusPages(dir);
  const { sites } = opts;
  if (sites) linkAcrossSites(pages, sites);
  const byKey = new Map<string, string>();
  for (const [path, html] of pages) byKey.set(pathKey(path), html);
  const hits = new Map<string, number>();
  const latency = opts.latencyMs ?? 0;
  const spans: [number, number][] = [];
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://corpus').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (sites && path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('User-agent: *\nAllow: /\n');
    }
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const article = /^\/wiki\/(.+)\.html$/.exec(path)?.[1];
    const onItsHost = !sites || (article !== undefined && sites.get(pathKey(article)) === host);
    const html = onItsHost && (req.method === 'GET' || req.method === 'HEAD') ? pages.get(path) ?? byKey.get(pathKey(path)) : undefined;
    if (html === undefined) {
      // robots.txt included: a 404 there means "no rules".
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('not found\n');
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : html);
  };
  // `latencyMs`: every answer waits this long before its first byte, as a server across the web does (loopback answers
  // at once, so only CPU sets a crawl's pace there).
  const server = createServer((req, res) => {
    const span: [number, number] = [Date.now(), NaN];
    spans.push(span);
    res.once('finish', () => (span[1] = Date.now()));
    if (latency > 0) setTimeout(answer, latency, req, res);
    else answer(req, res);
  });
  const { origin, close } = await listenOnLoopback(server, port);
  return { origin, server, hits, size: pages.size, spans, close };
}

/** Non-comment, non-empty rows of a TSV file, split on tabs. */
function tsvRows(file: string): string[][] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split('\t'));
}

/** `labels.tsv`: article (URL-encoded) -> set of its top-level topics. */
export function loadLabels(dir: string): Map<string, Set<string>> {
  const labels = new Map<string, Set<string>>();
  for (const [article, top] of tsvRows(join(dir, 'labels.tsv'))) {
    if (!article || !top) continue;
    let set = labels.get(article);
    if (!set) labels.set(article, (set = new Set()));
    set.add(top);
  }
  return labels;
}

export interface CorpusArticle {
  article: string;
  path: string;
  topLevels: string[];
  outDegree: number;
  inDegree: number;
}

/** `pages.tsv`: every article with its URL path, top-level topics and degrees, in file order. */
export function loadArticles(dir: string): CorpusArticle[] {
  return tsvRows(join(dir, 'pages.tsv')).map(([article, path, tops, out, inn]) => ({
    article, path, topLevels: tops ? tops.split(',').filter(Boolean) : [], outDegree: Number(out), inDegree: Number(inn),
  }));
}

/** `links.tsv`: article -> articles it links to. */
export function loadLinks(dir: string): Map<string, string[]> {
  const links = new Map<string, string[]>();
  for (const [src, dst] of tsvRows(join(dir, 'links.tsv'))) {
    if (!src || !dst) continue;
    let list = links.get(src);
    if (!list) links.set(src, (list = []));
    list.push(dst);
  }
  return links;
}

/** The article a corpus URL names ("http://h/wiki/Foo.html" -> "Foo"), in the encoding of the TSV files. */
export function articleOfUrl(url: string): string | null {
  const m = /\/wiki\/([^/?#]+)\.html$/.exec(new URL(url).pathname);
  return m ? m[1] : null;
}
