// Exports through the real extension: the command-line runner's --export writes every format, read back by
// readers that are not the writers (payloads compared with what the server sends); the dashboard's Export panel
// downloads a chosen selection, remembers how far it got, and shows what the crawl stores.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { Download } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt } from '../../scripts/lib/browser';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';
import { httpPayload, parseWarc, sha256, unzip } from '../support/archive-readers';
import { openDashboard } from './page-objects';

let site: DemoServer;
beforeAll(async () => {
  ensureBuilt();
  site = await startDemoServer();
});
afterAll(() => site.close());

type Line = { seq: number; url: string; finalUrl: string; status: number; outcome?: string; relevant: boolean | null; text?: string | null; label?: string | null };

it('exports a crawl in every format, from the runner and from the dashboard', { timeout: 240_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'focus-export-'));
  const ui: { wacz?: Buffer; csvAgain?: string; mark?: string; storage?: string; relevant?: number; names: string[]; status?: string } = { names: [] };
  const summary = await runCrawl({
    config: { ...demoConfig(site.origin), politeness: { delayMs: 0, concurrency: 2 } },
    out, log: () => {}, exports: ['warc', 'wacz', 'jsonl', 'csv', 'zip'],
    onFinished: async (launched, crawlId) => {
      const { dash } = await openDashboard(launched.context, launched.extensionId, `crawl=${crawlId}`);
      await dash.getByTestId('export-panel').locator('summary').click();
      await expect.poll(() => dash.getByTestId('storage-line').textContent()).toMatch(/This crawl keeps .*B of pages as received; Focus uses .* of the .* this browser allows it/);
      ui.storage = (await dash.getByTestId('storage-line').textContent()) ?? '';
      await dash.getByTestId('export-format').selectOption('wacz');
      await dash.getByTestId('export-relevant').check();
      await dash.screenshot({ path: join(out, 'export-panel.png') });
      const download = async () => {
        const [d] = await Promise.all([dash.waitForEvent('download') as Promise<Download>, dash.getByTestId('export-start').click()]);
        ui.names.push(d.suggestedFilename());
        return readFile((await d.path())!);
      };
      ui.wacz = await download();
      await expect.poll(() => dash.getByTestId('export-status').textContent()).toMatch(/Exported .*\.wacz/);
      ui.status = (await dash.getByTestId('export-status').textContent()) ?? '';
      // CSV: the runner exported it already, so "new since the last export" has nothing left.
      await dash.getByTestId('export-format').selectOption('csv');
      await dash.getByTestId('export-relevant').uncheck();
      await dash.getByTestId('export-new').check();
      ui.mark = (await dash.locator('#export-mark').textContent()) ?? '';
      ui.csvAgain = (await download()).toString();
      await dash.close();
    },
  });
  expect(summary.state).toBe('finished');
  // The files are named in safe characters: the crawl's words, the day it started, the format's file.
  const d = new Date();
  const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  expect(ui.names).toEqual([`demo-astronomy-at-northfield-library-${day}-crawl.wacz`, `demo-astronomy-at-northfield-library-${day}-pages.csv`]);
  expect(ui.status).toMatch(new RegExp(`^Exported demo-astronomy-at-northfield-library-${day}-crawl\\.wacz \\(`));

  const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
  const fetched = lines.filter((p) => p.outcome === 'done' && p.status === 200);
  expect(fetched.length).toBeGreaterThan(10);
  // pages.jsonl is the full export: each fetched page with its extracted text.
  expect(fetched.every((p) => typeof p.text === 'string' && p.text.length > 0)).toBe(true);

  // WARC: a response record for every fetched page, whose payload is exactly what the server sends.
  const records = await parseWarc(readFileSync(join(out, 'crawl.warc.gz')));
  expect(records[0]!.headers['WARC-Type']).toBe('warcinfo');
  const responses = new Map(records.filter((r) => r.headers['WARC-Type'] === 'response').map((r) => [r.headers['WARC-Target-URI']!, r]));
  for (const p of fetched) {
    const r = responses.get(p.finalUrl);
    expect(r, p.finalUrl).toBeDefined();
    const sent = Buffer.from(await (await fetch(p.finalUrl)).arrayBuffer());
    expect(httpPayload(r!.content).equals(sent), p.finalUrl).toBe(true);
  }

  // WACZ: every hash in datapackage.json right, the index landing on the response records.
  const checkWacz = async (buf: Buffer) => {
    const files = await unzip(buf);
    const pkg = JSON.parse(files.get('datapackage.json')!.data.toString()) as { resources: { path: string; hash: string }[] };
    for (const r of pkg.resources) expect(r.hash, r.path).toBe(`sha256:${sha256(files.get(r.path)!.data)}`);
    const warc = files.get('archive/data.warc.gz')!.data;
    const urls: string[] = [];
    for (const line of files.get('indexes/index.cdxj')!.data.toString().trim().split('\n')) {
      const j = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string };
      const [rec] = await parseWarc(warc.subarray(Number(j.offset), Number(j.offset) + Number(j.length)));
      expect(rec!.headers['WARC-Target-URI']).toBe(j.url);
      urls.push(j.url);
    }
    return urls;
  };
  expect((await checkWacz(readFileSync(join(out, 'crawl.wacz')))).sort()).toEqual(expect.arrayContaining(fetched.map((p) => p.finalUrl).sort()));
  // The dashboard's WACZ of relevant pages only.
  const relevantUrls = fetched.filter((p) => p.relevant).map((p) => p.finalUrl).sort();
  expect((await checkWacz(ui.wacz!)).filter((u) => !responses.get(u) || !/^HTTP\/1\.1 30/.test(responses.get(u)!.content.toString('latin1', 0, 12))).sort()).toEqual(relevantUrls);

  // CSV and the ZIP of HTML files.
  const csv = Papa.parse<Record<string, string>>(readFileSync(join(out, 'pages.csv'), 'utf8'), { header: true, skipEmptyLines: true });
  expect(csv.errors).toEqual([]);
  expect(csv.data.length).toBe(lines.length);
  const zip = await unzip(readFileSync(join(out, 'pages.zip')));
  expect(zip.size).toBe(fetched.length);

  // After the runner's CSV export, "new since the last export" has only the header left.
  expect(ui.mark).toMatch(new RegExp(`last export reached page ${lines.at(-1)!.seq} of ${lines.at(-1)!.seq}`));
  expect(ui.csvAgain!.trim().split(/\r?\n/)).toHaveLength(1);
});
