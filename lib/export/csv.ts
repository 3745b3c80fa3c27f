// CSV of a crawl's pages, one row per fetch attempt: what an analyst opens in a spreadsheet.
import Papa from 'papaparse';
import { batched } from './bytes';
import type { ExportPage } from './selection';

export const PAGE_FIELDS = [
  'seq', 'url', 'finalUrl', 'status', 'outcome', 'phase', 'depth', 'parentUrl', 'score', 'relevant', 'relevance', 'label',
  'title', 'textLength', 'contentType', 'bytes', 'fetchedAt', 'error',
] as const;

function row(x: ExportPage): unknown[] {
  const p = x.page;
  const v: Record<(typeof PAGE_FIELDS)[number], unknown> = {
    seq: p.seq, url: p.url, finalUrl: p.finalUrl, status: p.status, outcome: p.outcome ?? '', phase: p.phase, depth: p.depth,
    parentUrl: p.parentUrl ?? '', score: round(p.score), relevant: p.relevant === null ? '' : p.relevant,
    relevance: p.relevance === null ? '' : round(p.relevance), label: x.label === undefined ? '' : x.label === 1 ? 'on' : 'off',
    title: p.title, textLength: p.textLength, contentType: p.contentType, bytes: p.bytes,
    fetchedAt: new Date(p.fetchedAt).toISOString(), error: p.error ?? '',
  };
  return PAGE_FIELDS.map((f) => v[f]);
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

// A title or URL starting with = + - @ would run as a formula in a spreadsheet; Papa quotes it away (as
// lib/export/labels.ts does for labels). Rows are written a few hundred at a time, never the whole crawl.
const unparse = (data: unknown[][]) => Papa.unparse(data, { escapeFormulae: true, newline: '\r\n' }) + '\r\n';

/** `pages.csv`, streamed, with a header row. */
export function writeCsv(pages: AsyncIterable<ExportPage>): AsyncIterable<Uint8Array> {
  return batched(
    (async function* () {
      yield unparse([[...PAGE_FIELDS]]);
      let rows: unknown[][] = [];
      for await (const x of pages) {
        rows.push(row(x));
        if (rows.length >= 500) {
          yield unparse(rows);
          rows = [];
        }
      }
      if (rows.length) yield unparse(rows);
    })(),
  );
}
