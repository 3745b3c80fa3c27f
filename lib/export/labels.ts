// Labeled links in and out: CSV (url, anchor, context, label, source, createdAt, pageUrl) and JSON Lines with
// the same fields. Labels are written as "on"/"off"; reading also accepts 1/0, true/false, +/-, yes/no.
import Papa from 'papaparse';
import type { LabeledLink } from '../records/types';
import { checkImportRows, checkImportSize, MAX_IMPORT_ROWS, readLabelWord, readLinkText, readUrl } from './label-input';

export const LABEL_FIELDS = ['url', 'anchor', 'context', 'label', 'source', 'createdAt', 'pageUrl'] as const;

/** One label as exported: readable label, ISO date. */
function exported(l: LabeledLink): Record<(typeof LABEL_FIELDS)[number], string> {
  return {
    url: l.url, anchor: l.anchor, context: l.context, label: l.label === 1 ? 'on' : 'off', source: l.source,
    createdAt: new Date(l.createdAt).toISOString(), pageUrl: l.pageUrl ?? '',
  };
}

export function labelsToCsv(labels: LabeledLink[]): string {
  // A leading = + - @ would run as a formula when the file is opened in a spreadsheet; Papa quotes it away.
  return Papa.unparse({ fields: [...LABEL_FIELDS], data: labels.map((l) => LABEL_FIELDS.map((f) => exported(l)[f])) }, { escapeFormulae: true, newline: '\r\n' }) + '\r\n';
}

export function labelsToJsonl(labels: LabeledLink[]): string {
  return labels.map((l) => JSON.stringify(exported(l)) + '\n').join('');
}

/** A label read from a file, not yet given a topic or an id. */
export type ImportedLabel = Pick<LabeledLink, 'url' | 'anchor' | 'context' | 'label' | 'createdAt'> & { pageUrl?: string };

export interface ParsedLabels {
  labels: ImportedLabel[];
  /** 1-based line (CSV: record) numbers that could not be read, with why. */
  rejected: { line: number; error: string }[];
}

function toLabel(o: Record<string, unknown>, now: number): ImportedLabel | string {
  const url = readUrl(o.url);
  if (url instanceof Error) return url.message;
  const label = readLabelWord(o.label);
  if (label === null) return `label must be on/off (or 1/0), got ${JSON.stringify(o.label ?? null)}`;
  const anchor = readLinkText(o.anchor, 'anchor');
  if (anchor instanceof Error) return anchor.message;
  const context = readLinkText(o.context, 'context');
  if (context instanceof Error) return context.message;
  if (!anchor.trim() && !context.trim()) return 'anchor and context are both empty: there is nothing to learn from';
  const at = typeof o.createdAt === 'string' || typeof o.createdAt === 'number' ? new Date(o.createdAt).getTime() : NaN;
  // The dashboard shows the page as a link: an imported javascript: or data: address must not become one.
  const pageUrl = typeof o.pageUrl === 'string' && o.pageUrl ? readUrl(o.pageUrl, 'pageUrl') : undefined;
  if (pageUrl instanceof Error) return pageUrl.message;
  return { url, anchor, context, label, createdAt: Number.isFinite(at) ? at : now, ...(pageUrl ? { pageUrl } : {}) };
}

/**
 * Reads a label file. Rows that are not a label are skipped and reported by line; a file too large to be
 * one (MAX_IMPORT_CHARS, MAX_IMPORT_ROWS) is refused whole with an Error, before it is parsed.
 */
export function parseLabels(format: 'csv' | 'jsonl', text: string, now: number): ParsedLabels {
  const out: ParsedLabels = { labels: [], rejected: [] };
  const take = (o: unknown, line: number) => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return out.rejected.push({ line, error: 'not an object' });
    const r = toLabel(o as Record<string, unknown>, now);
    if (typeof r === 'string') out.rejected.push({ line, error: r });
    else out.labels.push(r);
  };
  checkImportSize(text.length, 'this file');
  if (format === 'jsonl') {
    const lines = text.split(/\r?\n/);
    checkImportRows(lines.length - (lines.at(-1) === '' ? 1 : 0), 'this file');
    lines.forEach((raw, i) => {
      if (!raw.trim()) return;
      try {
        take(JSON.parse(raw), i + 1);
      } catch {
        out.rejected.push({ line: i + 1, error: 'not valid JSON' });
      }
    });
    return out;
  }
  // One row past the limit is enough to know the file is over it.
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim(), preview: MAX_IMPORT_ROWS + 1 });
  checkImportRows(parsed.data.length, 'this file');
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes('url') || !fields.includes('label')) {
    out.rejected.push({ line: 1, error: `the header must name at least "url" and "label" columns (found: ${fields.join(', ') || 'none'})` });
    return out;
  }
  for (const e of parsed.errors) if (e.row !== undefined) out.rejected.push({ line: e.row + 2, error: e.message });
  const bad = new Set(parsed.errors.map((e) => e.row));
  parsed.data.forEach((row, i) => {
    if (!bad.has(i)) take(row, i + 2); // +1 for the header, +1 for 1-based
  });
  return out;
}
