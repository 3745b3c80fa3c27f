// The export reader's memory: how many body bytes it holds at once, read from the store and not yet written.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { BATCH_BYTES, readExportPages } from '../../lib/export/export-reader';
import { CrawlerDB } from '../../lib/store/db';
import type { PageBody, PageRecord } from '../../lib/records/types';

const MiB = 2 ** 20;

function row(seq: number, bytes: number, rendered: boolean): PageRecord {
  const url = `https://example.org/p${seq}`;
  return {
    crawlId: 1, seq, url, finalUrl: url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0, relevant: true, relevance: 0.9,
    title: `p${seq}`, textLength: 100, contentType: 'text/html', bytes, truncated: false, linkCount: 0, fetchedAt: 1_700_000_000_000 + seq, durationMs: 5,
    outcome: 'done', ...(rendered ? { render: { rendered: true, why: 'test' } } : {}),
  };
}

function body(seq: number, bytes: number, resourceBytes: number): PageBody {
  const html = `<p>${'x'.repeat(bytes - 7)}</p>`;
  return {
    crawlId: 1, seq, headers: { 'content-type': 'text/html' }, html, payload: new TextEncoder().encode(html),
    ...(resourceBytes ? { resources: [{ url: `https://example.org/app${seq}.js`, status: 200, headers: {}, payload: new Uint8Array(resourceBytes).fill(seq) }] } : {}),
  };
}

const heldBy = (b: PageBody | undefined) => (b ? (b.html?.length ?? 0) + (b.payload?.byteLength ?? 0) + (b.resources ?? []).reduce((n, r) => n + r.payload.byteLength, 0) : 0);

/** Reads every page, and measures the most body bytes read from the store and not yet handed on and written. */
async function readAll(pages: { row: PageRecord; body: PageBody }[]) {
  const db = new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.pages.bulkPut(pages.map((p) => p.row));
  await db.bodies.bulkPut(pages.map((p) => p.body));
  let read = 0, written = 0, most = 0, reads = 0;
  const bulkGet = db.bodies.bulkGet.bind(db.bodies);
  vi.spyOn(db.bodies, 'bulkGet').mockImplementation((keys) => bulkGet(keys).then((got) => {
    reads++;
    read += got.reduce((n, b) => n + heldBy(b as PageBody | undefined), 0); // stored alone here, not packed
    most = Math.max(most, read - written);
    return got;
  }));
  const seqs: number[] = [];
  let resources = 0;
  for await (const x of readExportPages(db, 1, {}, { bodies: true })) {
    seqs.push(x.page.seq);
    resources += x.body?.resources?.length ?? 0;
    // The writer takes its time over a page, so the next batch is read meanwhile.
    await new Promise((r) => setTimeout(r, 0));
    written += heldBy(x.body);
  }
  db.close();
  return { seqs, resources, most, reads };
}

describe('export reader', () => {
  it('holds a bounded number of body bytes when rendered pages keep megabytes of what their tabs loaded', async () => {
    // 30 rendered pages, each keeping 2 MiB of scripts and styles (the default capture limit): 60 MiB in all.
    const pages = Array.from({ length: 30 }, (_, i) => ({ row: row(i + 1, 20_000, true), body: body(i + 1, 20_000, 2 * MiB) }));
    const r = await readAll(pages);
    expect(r.seqs).toEqual(pages.map((p) => p.row.seq));
    expect(r.resources).toBe(30);
    // Two batches in hand (the one written and the next), each within the bound, one page over at most.
    expect(r.most).toBeLessThanOrEqual(2 * BATCH_BYTES + 2.1 * MiB);
  });

  it('still reads small pages a hundred bodies at a time', async () => {
    const pages = Array.from({ length: 250 }, (_, i) => ({ row: row(i + 1, 3_000, false), body: body(i + 1, 3_000, 0) }));
    const r = await readAll(pages);
    expect(r.seqs).toEqual(pages.map((p) => p.row.seq));
    expect(r.reads).toBe(3);
  });
});
