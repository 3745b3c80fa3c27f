// What Focus accepts as a label and as a link's text from outside the worker: the labeler's messages (a
// content script in a web page the page can fight), label files and model bundles. Everything that reaches
// the topic's labels passes here, so a label is 0 or 1 (never `__proto__`, `7` or an object) and no text is
// large enough to fill the database or the worker's memory.
import type { LabelSource, LabelValue } from '../records/types';
import { MAX_ANCHOR_CHARS, MAX_CONTEXT_CHARS } from '../parse/link-context';
import { normalizeUrl } from '../records/url';

// The extractor's own caps: what it reads from a page is never refused here.
export { MAX_ANCHOR_CHARS, MAX_CONTEXT_CHARS } from '../parse/link-context';
/** Longer than any URL a web server accepts (most stop at 8-16 KB), far shorter than a 5 MB "link". */
export const MAX_URL_CHARS = 65_536;
/** Links one `scoreLinks` request may carry (the labeler sends 500 at a time). */
export const MAX_SCORE_BATCH = 2_000;
/** A label file or bundle past these is not one someone made by labeling: refused whole, before parsing. */
export const MAX_IMPORT_CHARS = 50_000_000;
export const MAX_IMPORT_ROWS = 1_000_000;

const SOURCES: ReadonlySet<string> = new Set<LabelSource>(['user', 'page', 'verdict', 'auto']);

/** 0 or 1, and nothing else: not "1", not true, not 7. For requests and bundles, which Focus itself writes. */
export function isLabelValue(v: unknown): v is LabelValue {
  return v === 0 || v === 1;
}

/** Throws unless `v` is a label (or null, which clears one, when `nullable`). */
export function checkLabel(v: unknown, nullable: true): LabelValue | null;
export function checkLabel(v: unknown, nullable?: false): LabelValue;
export function checkLabel(v: unknown, nullable = false): LabelValue | null {
  if (isLabelValue(v) || (nullable && v === null)) return v;
  throw new Error(`a label is 1 (on topic) or 0 (off topic)${nullable ? ' or null (none)' : ''}, not ${describe(v)}`);
}

// A Map, not an object literal: an object answers `__proto__` and `constructor` with its prototype's members.
const LABEL_WORDS = new Map<string, LabelValue>([
  ...['on', '1', 'true', 'yes', '+', 'pos', 'positive', 'relevant'].map((w) => [w, 1] as const),
  ...['off', '0', 'false', 'no', '-', 'neg', 'negative', 'irrelevant'].map((w) => [w, 0] as const),
]);

/** A label as people write it in a file: 1/0, true/false, on/off, yes/no, +/- (any case, spaces around). */
export function readLabelWord(v: unknown): LabelValue | null {
  if (v === 1 || v === true) return 1;
  if (v === 0 || v === false) return 0;
  return typeof v === 'string' ? (LABEL_WORDS.get(v.trim().toLowerCase()) ?? null) : null;
}

/** The normalized http(s) URL, or an error sentence. */
export function readUrl(v: unknown, what = 'url'): string | Error {
  if (typeof v !== 'string') return new Error(`${what} is missing`);
  const checked = checkUrlLength(v, what);
  if (checked instanceof Error) return checked;
  return normalizeUrl(v.trim()) ?? new Error(`${what} is not an http(s) URL`);
}

export function checkUrlLength(url: string, what = 'url'): string | Error {
  return url.length > MAX_URL_CHARS ? new Error(`${what} is longer than ${MAX_URL_CHARS.toLocaleString('en')} characters`) : url;
}

/** Anchor or context text: a string (absent is empty) no longer than its cap, or an error sentence. */
export function readLinkText(v: unknown, what: 'anchor' | 'context'): string | Error {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') return new Error(`${what} is not text`);
  const max = what === 'anchor' ? MAX_ANCHOR_CHARS : MAX_CONTEXT_CHARS;
  return v.length > max ? new Error(`${what} is longer than ${max.toLocaleString('en')} characters`) : v;
}

/** A label's source from a bundle: one Focus writes, else "user" when absent; null for anything else. */
export function readSource(v: unknown): LabelSource | null {
  if (v === undefined) return 'user';
  return typeof v === 'string' && SOURCES.has(v) ? (v as LabelSource) : null;
}

/** Throws with the first error sentence among the values (a request's fields). */
export function must<T>(v: T | Error): T {
  if (v instanceof Error) throw v;
  return v;
}

/** Refuses text too large to import before any of it is parsed. */
export function checkImportSize(chars: number, what: string): void {
  if (chars > MAX_IMPORT_CHARS) {
    throw new Error(`${what} has ${(chars / 1e6).toFixed(0)} million characters; Focus imports at most ${MAX_IMPORT_CHARS / 1e6} million`);
  }
}

export function checkImportRows(rows: number, what: string): void {
  if (rows > MAX_IMPORT_ROWS) {
    throw new Error(`${what} has more than ${MAX_IMPORT_ROWS.toLocaleString('en')} rows; Focus imports at most that many at once`);
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}
