// Archives hold one capture per request the crawl made. A crawl with training reaches pages training had already
// read and judges them from that copy, making no request: the WARC, the WACZ's index and the HTML ZIP are read back
// by readers that are not the writers and counted against the rows that did make a request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSurt } from 'warcio';
import type { ExportRequest } from '../../lib/export/export-crawl';
import { writeHtmlZip } from '../../lib/export/html-zip';
import type { ExportPage } from '../../lib/export/selection';
import type { CrawlStore } from '../../lib/store/crawl-store';
import type { PageRecord } from '../../lib/records/types';
import type { DemoServer } from '../fixtures/sites/demo-site';
import { parseWarc, unzip } from '../support/archive-readers';
import { crawlDemo, exportBytes } from '../support/demo-crawl';

let site: DemoServer;
let store: CrawlStore;
let crawlId: number;
/** Rows with a stored body: what the archive formats write. */
let captured: PageRecord[];

beforeAll(async () => {
  const sources = (o: string) => ['/space/', '/kitchen/', '/space/planets', '/space/moon', '/kitchen/bread'].map((p) => o + p);
  ({ site, store, crawlId } = await crawlDemo((o) => ({
    training: { linkSources: sources(o), positive: [`${o}/space/*`], negative: [`${o}/kitchen/*`] }, budget: { maxPages: 20 },
  })));
  const pages = await store.pages.pagesAfter(crawlId, 0, 1000);
  const bodies = await store.pages.bodies(pages.map((p) => ({ crawlId, seq: p.seq })));
  captured = pages.filter((p, i) => bodies[i] !== undefined && p.status > 0);
});
afterAll(() => site.close());

const run = (req: ExportRequest) => exportBytes(store, crawlId, req);

const requested = () => captured.filter((p) => p.copyOf === undefined);
const copies = () => captured.filter((p) => p.copyOf !== undefined);
const count = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
const isRedirect = (block: Buffer) => /^HTTP\/1\.1 30/.test(block.toString('latin1', 0, 12));

describe('archives hold one capture per request made', () => {
  it('WARC: one request and one response (or revisit) per request made; a page judged from its training copy adds none', async () => {
    expect(copies().length).toBeGreaterThanOrEqual(3);
    const records = await parseWarc(await run({ format: 'warc' }));
    const requests = records.filter((r) => r.headers['WARC-Type'] === 'request');
    const answers = records.filter((r) => (r.headers['WARC-Type'] === 'response' && !isRedirect(r.content)) || r.headers['WARC-Type'] === 'revisit');
    expect(requests.length).toBe(requested().length);
    expect(answers.length).toBe(requested().length);
    // Counted URL by URL: a copy's URL has only the records of the training read it was judged from.
    expect(count(answers.map((r) => r.headers['WARC-Target-URI']!))).toEqual(count(requested().map((p) => p.finalUrl)));
    expect(count(requests.map((r) => r.headers['WARC-Target-URI']!))).toEqual(count(requested().map((p) => p.finalUrl)));
    // Not as a revisit either: nothing in the file stands for the copy.
    expect(answers.filter((r) => r.headers['WARC-Type'] === 'revisit').length).toBe(requested().filter((p) => p.revisit).length);
  });

  it('WARC: a copy whose training read is left out of the export holds that read\'s capture, once', async () => {
    const lastRead = Math.max(...captured.filter((p) => p.phase === 'train').map((p) => p.seq));
    await store.setExportMark(crawlId, 'warc', lastRead);
    const records = await parseWarc(await run({ format: 'warc', sinceLastExport: true }));
    await store.setExportMark(crawlId, 'warc', 0);
    const later = captured.filter((p) => p.seq > lastRead);
    expect(later.some((p) => p.copyOf !== undefined)).toBe(true);
    const answers = records.filter((r) => r.headers['WARC-Type'] === 'response' && !isRedirect(r.content));
    expect(count(answers.map((r) => `${r.headers['WARC-Target-URI']} ${r.headers['WARC-Date']}`)))
      .toEqual(count(later.map((p) => `${p.finalUrl} ${new Date(p.fetchedAt).toISOString()}`)));
    expect(records.filter((r) => r.headers['WARC-Type'] === 'request').length).toBe(later.length);
  });

  it('WACZ: each capture indexed once under its SURT and timestamp; the pages list still lists the pages judged from copies', async () => {
    const files = await unzip(await run({ format: 'wacz' }));
    const lines = files.get('indexes/index.cdxj')!.data.toString().trim().split('\n');
    const keyed = lines.map((l) => ({ key: l.slice(0, l.indexOf(' {')), j: JSON.parse(l.slice(l.indexOf('{'))) as { status: string; offset: string } }));
    const pageKeys = keyed.filter((k) => !k.j.status.startsWith('3')).map((k) => k.key);
    expect(pageKeys.length).toBe(requested().length);
    expect(new Set(pageKeys).size).toBe(pageKeys.length);
    expect(new Set(keyed.map((k) => `${k.key} ${k.j.offset}`)).size).toBe(lines.length);
    for (const p of copies()) {
      const key = `${getSurt(p.finalUrl)} ${new Date(p.fetchedAt).toISOString().replace(/[^0-9]/g, '').slice(0, 14)}`;
      expect(pageKeys.filter((k) => k === key).length, p.finalUrl).toBe(1);
    }
    const listed = files.get('pages/pages.jsonl')!.data.toString().trim().split('\n').slice(1).map((l) => JSON.parse(l) as { id: string });
    expect(listed.map((l) => l.id).sort()).toEqual(captured.map((p) => `page-${p.seq}`).sort());
  });

  it('ZIP: one file per capture, named by its URL, readable and unique on every file system', async () => {
    const zip = await unzip(await run({ format: 'zip' }));
    const names = [...zip.keys()];
    expect(names.length).toBe(requested().length);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    const host = new URL(site.origin).host.replace(':', '_');
    for (const n of names) {
      expect(n).toMatch(new RegExp(`^${host}/`));
      expect(n).not.toMatch(/~\d+\.html$/);
    }
  });

  it('ZIP names: collisions take -2, -3 (case-blind), unsafe characters and trailing dots go, long names are cut', async () => {
    const urls = [
      'https://ex.org/wiki/Human', 'https://ex.org/wiki/Human.html', 'https://ex.org/wiki/human', 'https://ex.org/wiki/Human?x=1',
      'https://ex.org/a%3Ab%2A%3F%22%3C%3E%7C%5C.', 'https://ex.org/dots.../x', `https://ex.org/${'é'.repeat(300)}`, 'https://ex.org/con',
    ];
    const pages: ExportPage[] = urls.map((url, i) => ({
      page: { crawlId: 1, seq: i + 1, url, finalUrl: url, status: 200, fetchedAt: 0 } as PageRecord,
      body: { crawlId: 1, seq: i + 1, headers: { 'content-type': 'text/html' }, html: '<p>x</p>' },
    }));
    async function* each() {
      yield* pages;
    }
    const parts: Uint8Array[] = [];
    for await (const c of writeHtmlZip(each(), { now: 0 })) parts.push(c);
    const names = [...(await unzip(Buffer.concat(parts))).keys()];
    expect(names.slice(0, 4)).toEqual(['ex.org/wiki/Human.html', 'ex.org/wiki/Human-2.html', 'ex.org/wiki/human-3.html', 'ex.org/wiki/Human_x=1.html']);
    expect(names.length).toBe(urls.length);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    for (const n of names) {
      for (const seg of n.split('/')) {
        expect(seg, n).not.toMatch(/[\\:*?"<>|\x00-\x1f]/);
        expect(seg, n).not.toMatch(/[. ]$/);
        expect(seg, n).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i);
        expect(Buffer.byteLength(seg), n).toBeLessThanOrEqual(200);
      }
    }
  });
});
