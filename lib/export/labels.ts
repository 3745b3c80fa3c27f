// Labeled links in and out: CSV (url, anchor, context, label, source, createdAt, pageUrl) and JSON Lines with
// the same fields. Labels are written as "on"/"off"; reading also accepts 1/0, true/false, +/-, yes/no.
import Papa from 'papaparse';
import type { LabeledLink, LabelValue } from '../types';
import { normalizeUrl } from '../url';

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

const LABEL_WORDS: Record<string, LabelValue> = {
  on: 1, '1': 1, true: 1, yes: 1, '+': 1, pos: 1, positive: 1, relevant: 1,
  off: 0, '0': 0, false: 0, no: 0, '-': 0, neg: 0, negative: 0, irrelevant: 0,
};

function readLabel(v: unknown): LabelValue | null {
  if (v === 1 || v === true) return 1;
  if (v === 0 || v === false) return 0;
  return typeof v === 'string' ? (LABEL_WORDS[v.trim().toLowerCase()] ?? null) : null;
}

function toLabel(o: Record<string, unknown>, now: number): ImportedLabel | string {
  const url = typeof o.url === 'string' ? normalizeUrl(o.url.trim()) : null;
  if (!url) return 'url is missing or not an http(s) URL';
  const label = readLabel(o.label);
  if (label === null) return `label must be on/off (or 1/0), got ${JSON.stringify(o.label ?? null)}`;
  const anchor = typeof o.anchor === 'string' ? o.anchor : '';
  const context = typeof o.context === 'string' ? o.context : '';
  if (!anchor.trim() && !context.trim()) return 'anchor and context are both empty: there is nothing to learn from';
  const at = typeof o.createdAt === 'string' || typeof o.createdAt === 'number' ? new Date(o.createdAt).getTime() : NaN;
  const pageUrl = typeof o.pageUrl === 'string' && o.pageUrl ? o.pageUrl : undefined;
  return { url, anchor, context, label, createdAt: Number.isFinite(at) ? at : now, ...(pageUrl ? { pageUrl } : {}) };
}

export function parseLabels(format: 'csv' | 'jsonl', text: string, now: number): ParsedLabels {
  const out: ParsedLabels = { labels: [], rejected: [] };
  const take = (o: unknown, line: number) => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return out.rejected.push({ line, error: 'not an object' });
    const r = toLabel(o as Record<string, unknown>, now);
    if (typeof r === 'string') out.rejected.push({ line, error: r });
    else out.labels.push(r);
  };
  if (format === 'jsonl') {
    text.split(/\r?\n/).forEach((raw, i) => {
      if (!raw.trim()) return;
      try {
        take(JSON.parse(raw), i + 1);
      } catch {
        out.rejected.push({ line: i + 1, error: 'not valid JSON' });
      }
    });
    return out;
  }
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim() });
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
