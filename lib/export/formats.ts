// Every export format behind one call: what file it makes, whether it needs the page bodies, and its writer.
// The writers are loaded when an export starts: between them they carry the HTML parser (JSON Lines' text), gzip and
// the archive formats' hashing, which the dashboard need not load to open.
import type { CrawlRecord } from '../records/rows';
import type { ExportFormat } from '../records/rows';
import type { ExportPage } from './selection';

export interface FormatInfo {
  /** What the menu says. */
  label: string;
  /** The file the command-line runner writes into --out; the dashboard prefixes the crawl's name. */
  fileName: string;
  mime: string;
  /** False when only page rows are read (the body store is not touched). */
  needsBodies: boolean;
}

export const FORMATS: Record<ExportFormat, FormatInfo> = {
  jsonl: { label: 'JSON Lines (metadata, label, text)', fileName: 'pages.jsonl', mime: 'application/x-ndjson', needsBodies: true },
  csv: { label: 'CSV (metadata)', fileName: 'pages.csv', mime: 'text/csv', needsBodies: false },
  warc: { label: 'WARC (web archive)', fileName: 'crawl.warc.gz', mime: 'application/warc', needsBodies: true },
  wacz: { label: 'WACZ (opens in ReplayWeb.page)', fileName: 'crawl.wacz', mime: 'application/wacz', needsBodies: true },
  zip: { label: 'ZIP of HTML files', fileName: 'pages.zip', mime: 'application/zip', needsBodies: true },
};

export interface ExportOptions {
  /** JSON Lines only: include each page's HTML. */
  html?: boolean;
  now: number;
  /** Who wrote the archive (WARC `warcinfo`, WACZ `datapackage.json`), e.g. "Focus 0.1.0". */
  software: string;
}

/** Writes the pages in a format, as a stream of byte chunks. */
export async function* writeExport(format: ExportFormat, pages: AsyncIterable<ExportPage>, crawl: Pick<CrawlRecord, 'name' | 'config'>, opts: ExportOptions): AsyncIterable<Uint8Array> {
  const info = {
    isPartOf: crawl.name,
    description: `Focus crawl "${crawl.name}" from ${crawl.config.seeds.join(' ')}`,
    robots: crawl.config.politeness.robots ? 'obey' : 'ignore',
  };
  switch (format) {
    case 'jsonl':
      return yield* (await import('./jsonl')).writeJsonl(pages, { html: opts.html });
    case 'csv':
      return yield* (await import('./csv')).writeCsv(pages);
    case 'warc':
      return yield* (await import('./warc')).writeWarc(pages, { filename: FORMATS.warc.fileName, info, software: opts.software, now: opts.now });
    case 'wacz':
      return yield* (await import('./wacz')).writeWacz(pages, { title: crawl.name, description: info.description, info, software: opts.software, now: opts.now });
    case 'zip':
      return yield* (await import('./html-zip')).writeHtmlZip(pages, { now: opts.now });
  }
}
