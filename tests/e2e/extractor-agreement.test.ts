// The link extractor runs on linkedom's DOM in the service worker and will run on the live page's DOM in the
// labeling content script: on the same HTML both must give the same links, anchors and contexts.
// @module-tag chromium
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseHtml } from '../../lib/parse/html';
import type { ExtractedLink } from '../../lib/records/types';
import { chromePath } from '../../scripts/lib/browser';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import { demoHandler } from '../fixtures/sites/demo-site';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
let browser: Browser;
let bundle: string;
beforeAll(async () => {
  const out = await build({
    stdin: { contents: "import { extractLinks } from './lib/parse/link-context'; (globalThis as any).extractLinks = extractLinks;", resolveDir: join(import.meta.dirname, '..', '..'), loader: 'ts' },
    bundle: true, format: 'iife', write: false, platform: 'browser',
  });
  bundle = out.outputFiles[0].text;
  browser = await chromium.launch({
    executablePath: chromePath(),
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
  });
});
afterAll(() => browser?.close());

/** Serves one HTML document and returns the links Chromium's DOM gives for it. */
async function linksInChromium(html: string, contentType: string, path = '/page.html'): Promise<{ url: string; links: ExtractedLink[] }> {
  const server = createServer((req, res) => {
    if (req.url === path) {
      res.writeHead(200, { 'content-type': contentType });
      res.end(html);
    } else demoHandler()(req, res);
  });
  const site = await listenOnLoopback(server);
  try {
    // The page's own scripts stay off: a document.write() link exists only on the live page (the crawler runs
    // no JavaScript), and the point here is the same document giving the same links.
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(site.origin + path);
    await page.evaluate(bundle);
    const links = (await page.evaluate(() => (globalThis as unknown as { extractLinks(d: Document, u: string): unknown }).extractLinks(document, location.href))) as ExtractedLink[];
    await page.close();
    return { url: site.origin + path, links };
  } finally {
    await site.close();
  }
}

const fixtureCases: [string, string][] = [
  ['broken-markup.html', 'text/html; charset=utf-8'],
  ['chinese-utf8.html', 'text/html; charset=utf-8'],
];

for (const [file, contentType] of fixtureCases) {
  it(`gives the same links and contexts on ${file} in Chromium and in linkedom`, async () => {
    const html = readFileSync(join(fixtures, file), 'utf8');
    const live = await linksInChromium(html, contentType);
    const worker = parseHtml(html, live.url).links;
    expect(worker.length).toBeGreaterThan(3);
    expect(live.links).toEqual(worker);
  });
}

it('gives the same links and contexts on a page of the demo site', async () => {
  const demoPage = await new Promise<string>((resolve) => {
    const res = { writeHead() {}, end: (body: string) => resolve(body) };
    demoHandler()({ url: '/space/planets' } as never, res as never);
  });
  const live = await linksInChromium(demoPage, 'text/html; charset=utf-8', '/space/planets');
  const worker = parseHtml(demoPage, live.url).links;
  expect(worker.length).toBeGreaterThan(10);
  expect(live.links).toEqual(worker);
});
