// A recrawl in Chromium, through the command-line runner: the company sites send an ETag and a Last-Modified a
// day old (which a browser's cache treats as fresh for hours), two of them change, and the recrawl in the same
// profile asks every page it kept with its validators, gets a 304 for each unchanged one, and sees the changes.
// Also what the browser's cache does with each cache mode of an extension's fetch: the evidence for 'no-store'.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt, launchWithExtension } from '../../scripts/lib/browser';
import { companies, companyConfig, startCompanyWorld, type CompanyWorld } from '../fixtures/sites/company-sites';
import { httpPayload, parseWarc } from '../support/archive-readers';

let world: CompanyWorld;
beforeAll(async () => {
  ensureBuilt();
  world = await startCompanyWorld(companies(20));
});
afterAll(() => world.close());

const hostRules = () => `MAP *.test 127.0.0.1:${world.port}`;
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const recordOf = (out: string, url: string) => lines(join(out, 'records.jsonl')).find((r: { url: string }) => r.url === url)?.fields;

it('a recrawl asks every page it kept with its validators, and downloads only what changed', async () => {
  world.honoursValidators = true;
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-recrawl-'));
  const config = companyConfig('recrawled shops');
  const first = mkdtempSync(join(tmpdir(), 'focus-out-'));
  const s1 = await runCrawl({ config, out: first, profileDir, hostRules: hostRules(), log: () => {} });
  expect(s1.state, s1.message ?? '').toBe('finished');
  expect(s1.recheck).toBeUndefined();
  const firstLog = world.log.length;
  expect(firstLog).toBe(s1.fetched);

  world.sites.get('shop02')!.email = 'orders@shop02.test';
  world.sites.get('shop11')!.phone = '+1 555 0111';
  const second = mkdtempSync(join(tmpdir(), 'focus-out-'));
  const s2 = await runCrawl({ config, out: second, profileDir, hostRules: hostRules(), recrawl: true, exports: ['warc'], log: () => {} });
  expect(s2.state, s2.message ?? '').toBe('finished');

  // The server's log: every page asked conditionally, a 304 for each unchanged one, the changed ones in full.
  const asked = world.log.slice(firstLog);
  expect(asked).toHaveLength(s1.fetched);
  expect(asked.filter((r) => !r.conditional)).toEqual([]);
  expect(asked.filter((r) => r.status === 200).map((r) => r.url).sort()).toEqual(['shop02.test/contact', 'shop11.test/contact']);
  expect(s2.recheck).toMatchObject({ requests: asked.length, conditional: asked.length, notModified: asked.length - 2, changed: 2, unchanged: asked.length - 2 });
  expect(s2.recheck!.bytesSaved).toBeGreaterThan(10 * s2.recheck!.bytesDownloaded);
  expect(recordOf(second, 'http://shop02.test/contact').email).toBe('orders@shop02.test');
  expect(recordOf(second, 'http://shop11.test/contact').phone).toBe('+1 555 0111');
  expect(s2.template?.changes).toMatchObject({ changed: 2, unchanged: 19 });

  // The archive: the changed pages as responses with their new content, the rest as revisits of the first crawl.
  const warc = await parseWarc(readFileSync(join(second, 'crawl.warc.gz')));
  const responses = warc.filter((r) => r.headers['WARC-Type'] === 'response');
  expect(responses.map((r) => r.headers['WARC-Target-URI']).sort()).toEqual(['http://shop02.test/contact', 'http://shop11.test/contact']);
  expect(httpPayload(responses.find((r) => r.headers['WARC-Target-URI'] === 'http://shop02.test/contact')!.content).toString()).toContain('orders@shop02.test');
  const revisits = warc.filter((r) => r.headers['WARC-Type'] === 'revisit');
  expect(revisits).toHaveLength(asked.length - 2);
  expect(new Set(revisits.map((r) => r.headers['WARC-Profile']))).toEqual(new Set(['http://netpreserve.org/warc/1.1/revisit/server-not-modified']));
  console.log(`recrawl of ${asked.length} pages: ${JSON.stringify(s2.recheck)}`);
});

it('a page with a day-old Last-Modified that changed is seen changed, even from a server that ignores validators', async () => {
  // Every answer in full: only the cache mode stands between the crawl and a copy the browser kept.
  world.honoursValidators = false;
  const profileDir = mkdtempSync(join(tmpdir(), 'focus-recrawl-'));
  const config = companyConfig('cached shops');
  const s1 = await runCrawl({ config, out: mkdtempSync(join(tmpdir(), 'focus-out-')), profileDir, hostRules: hostRules(), log: () => {} });
  expect(s1.state, s1.message ?? '').toBe('finished');
  world.sites.get('shop04')!.phone = '+1 555 0404';
  const before = world.log.length;
  const out = mkdtempSync(join(tmpdir(), 'focus-out-'));
  const s2 = await runCrawl({ config, out, profileDir, hostRules: hostRules(), recrawl: true, log: () => {} });
  expect(s2.state, s2.message ?? '').toBe('finished');
  expect(world.log.length - before).toBe(s1.fetched);
  expect(recordOf(out, 'http://shop04.test/contact').phone).toBe('+1 555 0404');
  expect(s2.recheck).toMatchObject({ changed: 1, unchanged: s1.fetched - 1, notModified: 0 });
  world.honoursValidators = true;
});

it("an extension's fetch and the browser's cache, by cache mode (the evidence for 'no-store')", async () => {
  const launched = await launchWithExtension({ hostRules: hostRules() });
  try {
    const url = 'http://shop07.test/about';
    const ask = (init: RequestInit) =>
      launched.worker.evaluate(async ([u, i]) => {
        const r = await fetch(u, i);
        return { status: r.status, length: (await r.text()).length };
      }, [url, init] as const);
    const server = () => world.log.filter((r) => r.url === 'shop07.test/about').map((r) => `${r.conditional ? 'conditional ' : ''}${r.status}`);
    const etag = async () => (await launched.worker.evaluate(async (u) => (await fetch(u, { cache: 'no-store' })).headers.get('etag'), url))!;
    world.log.length = 0;
    // 'default': the second fetch never reaches the server (heuristic freshness from the day-old Last-Modified).
    expect(await ask({})).toMatchObject({ status: 200 });
    expect(await ask({})).toMatchObject({ status: 200 });
    expect(server()).toEqual(['200']);
    // 'no-cache': the browser revalidates with its own validators and hands over its cached body as a 200.
    const revalidated = await ask({ cache: 'no-cache' });
    expect(server()).toEqual(['200', 'conditional 304']);
    expect(revalidated.status).toBe(200);
    expect(revalidated.length).toBeGreaterThan(0);
    // 'no-store' with Focus's own validators: the extension sees the server's 304 itself.
    const tag = await etag();
    world.log.length = 0;
    expect(await ask({ cache: 'no-store', headers: { 'If-None-Match': tag } })).toEqual({ status: 304, length: 0 });
    // Fetch spec: conditional headers set by the caller in 'default' mode make it act as 'no-store'.
    expect(await ask({ headers: { 'If-None-Match': tag } })).toEqual({ status: 304, length: 0 });
    expect(server()).toEqual(['conditional 304', 'conditional 304']);
  } finally {
    await launched.close();
  }
});
