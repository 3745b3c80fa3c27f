// Exports of a crawl, checked with readers that are not the writers: the WARC by the `warc` parser, the
// WACZ and the HTML ZIP by yauzl with every datapackage.json hash recomputed, CSV by Papa Parse.
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import type { ExportRequest } from '../../lib/export/export-crawl';
import type { CrawlStore } from '../../lib/store/crawl-store';
import type { PageRecord } from '../../lib/records/types';
import { realClock } from '../../lib/net/fetcher';
import type { DemoServer } from '../fixtures/sites/demo-site';
import { httpPayload, parseWarc, sha256, unzip } from '../support/archive-readers';
import { crawlDemo, exportBytes } from '../support/demo-crawl';

let site: DemoServer;
let store: CrawlStore;
let crawlId: number;
let pages: PageRecord[];

beforeAll(async () => {
  ({ site, store, crawlId } = await crawlDemo());
  pages = await store.pages.pagesAfter(crawlId, 0, 1000);
});
afterAll(() => site.close());

const run = (req: ExportRequest) => exportBytes(store, crawlId, req);

const fetchedPages = () => pages.filter((p) => p.outcome === 'done' && p.status === 200);

describe('exports, read back by independent readers', () => {
  it('WARC: warcinfo, then a response record per fetched page whose payload is what the server sent, and its request', async () => {
    const records = await parseWarc(await run({ format: 'warc' }));
    expect(records[0]!.headers['WARC-Type']).toBe('warcinfo');
    const responses = records.filter((r) => r.headers['WARC-Type'] === 'response' && !/^HTTP\/1\.1 30/.test(r.content.toString('latin1', 0, 12)));
    expect(fetchedPages().length).toBeGreaterThan(10);
    expect(responses.map((r) => r.headers['WARC-Target-URI']).sort()).toEqual(fetchedPages().map((p) => p.finalUrl).sort());
    for (const r of responses) {
      const sent = Buffer.from(await (await fetch(r.headers['WARC-Target-URI']!)).arrayBuffer());
      expect(httpPayload(r.content).equals(sent), r.headers['WARC-Target-URI']).toBe(true);
      expect(r.headers['WARC-Payload-Digest']).toBe(`sha256:${sha256(sent)}`);
    }
    // A request record per page response, tied to it; redirect hops are recorded as 3xx responses.
    const requests = records.filter((r) => r.headers['WARC-Type'] === 'request');
    expect(requests.length).toBe(responses.length);
    const ids = new Set(responses.map((r) => r.headers['WARC-Record-ID']));
    for (const r of requests) expect(ids.has(r.headers['WARC-Concurrent-To']!)).toBe(true);
    const redirects = records.filter((r) => r.headers['WARC-Type'] === 'response' && /^HTTP\/1\.1 30/.test(r.content.toString('latin1', 0, 12)));
    expect(redirects.length).toBe(pages.filter((p) => p.outcome === 'done').reduce((n, p) => n + (p.redirects?.length ?? 0), 0));
    // No cookie or other request header of the user's goes into a file meant to be shared.
    for (const r of requests) expect(r.content.toString()).not.toMatch(/cookie/i);
  });

  it('WACZ: stored files, every datapackage.json hash right, and the index pointing at the response records', async () => {
    const files = await unzip(await run({ format: 'wacz' }));
    expect([...files.keys()].sort()).toEqual(['archive/data.warc.gz', 'datapackage-digest.json', 'datapackage.json', 'indexes/index.cdxj', 'pages/pages.jsonl']);
    for (const f of files.values()) expect(f.compression).toBe(0);
    const pkg = JSON.parse(files.get('datapackage.json')!.data.toString()) as { wacz_version: string; resources: { path: string; hash: string; bytes: number }[] };
    expect(pkg.wacz_version).toBe('1.1.1');
    expect(pkg.resources.map((r) => r.path).sort()).toEqual(['archive/data.warc.gz', 'indexes/index.cdxj', 'pages/pages.jsonl']);
    for (const r of pkg.resources) {
      const data = files.get(r.path)!.data;
      expect(r.hash, r.path).toBe(`sha256:${sha256(data)}`);
      expect(r.bytes).toBe(data.length);
    }
    const digest = JSON.parse(files.get('datapackage-digest.json')!.data.toString()) as { path: string; hash: string };
    expect(digest).toEqual({ path: 'datapackage.json', hash: `sha256:${sha256(files.get('datapackage.json')!.data)}` });
    const warc = files.get('archive/data.warc.gz')!.data;
    const lines = files.get('indexes/index.cdxj')!.data.toString().trim().split('\n');
    expect([...lines].sort()).toEqual(lines);
    const indexed = new Set<string>();
    for (const line of lines) {
      const j = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string; status: string };
      const [rec] = await parseWarc(warc.subarray(Number(j.offset), Number(j.offset) + Number(j.length)));
      expect(rec!.headers['WARC-Type']).toBe('response');
      expect(rec!.headers['WARC-Target-URI']).toBe(j.url);
      expect(rec!.content.toString('latin1', 0, 12)).toBe(`HTTP/1.1 ${j.status}`);
      indexed.add(j.url);
    }
    for (const p of fetchedPages()) expect(indexed.has(p.finalUrl), p.finalUrl).toBe(true);
    const pageLines = files.get('pages/pages.jsonl')!.data.toString().trim().split('\n').map((l) => JSON.parse(l) as { url?: string; format?: string });
    expect(pageLines[0]!.format).toBe('json-pages-1.0');
    expect(pageLines.length - 1).toBe(fetchedPages().length);
  });

  it('JSON Lines carries text and the user label; CSV reads back; the ZIP holds each page under its URL', async () => {
    const seq = fetchedPages()[0]!.seq;
    await store.db.pageLabels.add({ topicId: 1, crawlId, seq, url: fetchedPages()[0]!.url, label: 0, source: 'user', createdAt: Date.now() });
    const lines = (await run({ format: 'jsonl' })).toString().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBe(pages.length);
    const first = lines.find((l) => l.seq === seq)!;
    expect(first.label).toBe('off');
    expect(typeof first.text).toBe('string');
    expect((first.text as string).length).toBeGreaterThan(20);
    expect(first.html).toBeUndefined();
    const withHtml = (await run({ format: 'jsonl', html: true, relevantOnly: true })).toString().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(withHtml.length).toBe(pages.filter((p) => p.relevant).length);
    expect(withHtml.every((l) => typeof l.html === 'string' && l.relevant === true)).toBe(true);

    const csv = Papa.parse<Record<string, string>>((await run({ format: 'csv' })).toString(), { header: true, skipEmptyLines: true });
    expect(csv.errors).toEqual([]);
    expect(csv.data.length).toBe(pages.length);
    expect(csv.data.find((r) => Number(r.seq) === seq)!.label).toBe('off');

    const zip = await unzip(await run({ format: 'zip' }));
    expect(zip.size).toBe(fetchedPages().length);
    const host = new URL(site.origin).host.replace(':', '_');
    expect([...zip.keys()].every((n) => n.startsWith(`${host}/`) && n.endsWith('.html'))).toBe(true);
  });

  it('exports only what is new since the last export of the format, and only the sites chosen', async () => {
    const service = new CrawlService({ store, fetch: (u, i) => fetch(u, i), clock: realClock });
    const count = async (req: ExportRequest) => (await run(req)).toString().trim().split('\n').filter(Boolean).length - 1; // less the header
    const all = await count({ format: 'csv' });
    expect(all).toBe(pages.length);
    const half = pages[Math.floor(pages.length / 2)]!.seq;
    await service.handlers.markExported({ crawlId, format: 'csv', seq: half });
    expect(await count({ format: 'csv', sinceLastExport: true })).toBe(pages.filter((p) => p.seq > half).length);
    // Another format has its own mark.
    expect((await run({ format: 'jsonl', sinceLastExport: true })).toString().trim().split('\n').length).toBe(pages.length);
    expect(await count({ format: 'csv', sites: ['elsewhere.test'] })).toBe(0);
    expect(await count({ format: 'csv', sites: ['127.0.0.1'] })).toBe(pages.length);
    await expect(service.handlers.markExported({ crawlId, format: 'pdf', seq: 1 })).rejects.toThrow(/not an export format/);
    await store.deleteCrawl(crawlId);
    expect(await store.db.settings.where('key').startsWith(`export:${crawlId}:`).count()).toBe(0);
  });
});
