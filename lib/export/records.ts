// A template's records as files: JSON Lines (records.jsonl, one record a line) and CSV (one column per
// field), and what a cycle changed (changes.jsonl). The command-line runner and the dashboard write the same.
import Papa from 'papaparse';
import type { FieldRecord, RecordChange } from '../records/rows';

const iso = (t: number) => new Date(t).toISOString();

export function recordLine(r: FieldRecord): string {
  return JSON.stringify({ url: r.url, site: r.site, fields: r.fields, hash: r.hash, firstSeen: iso(r.firstSeen), lastChanged: iso(r.lastChanged), lastChecked: iso(r.lastChecked) });
}

export function recordsJsonl(records: FieldRecord[]): string {
  return records.map((r) => recordLine(r) + '\n').join('');
}

/** The field columns, in the template's order, then any others the records hold. */
export function fieldColumns(records: FieldRecord[], templateFields: string[] = []): string[] {
  const seen = new Set(templateFields);
  for (const r of records) for (const k of Object.keys(r.fields)) seen.add(k);
  return [...seen];
}

/**
 * A value starting with = + - @ (or a tab or CR) would run as a formula in a spreadsheet: Papa quotes it away.
 * A phone number ("+44 20 7946 1000", "-1234") is all digits, spaces and dialling punctuation after its sign:
 * no formula can hide in it, and a quote mark would spoil the field the user exported for.
 */
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d\s().\-/]+$))/;

export function recordsCsv(records: FieldRecord[], templateFields: string[] = []): string {
  const columns = fieldColumns(records, templateFields);
  const rows = records.map((r) => [r.url, r.site, ...columns.map((c) => r.fields[c] ?? ''), iso(r.firstSeen), iso(r.lastChanged)]);
  return Papa.unparse([['url', 'site', ...columns, 'firstSeen', 'lastChanged'], ...rows], { escapeFormulae: FORMULA, newline: '\r\n' }) + '\r\n';
}

export function changesJsonl(changes: RecordChange[]): string {
  const order = { new: 0, changed: 1, unchanged: 2, deleted: 3 };
  return [...changes]
    .sort((a, b) => order[a.change] - order[b.change] || a.url.localeCompare(b.url))
    .map((c) => JSON.stringify({ change: c.change, url: c.url, ...(c.fields ? { fields: c.fields } : {}), at: iso(c.at) }) + '\n')
    .join('');
}
