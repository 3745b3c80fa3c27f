// Downloads one page through an injected fetch, with timeout, size cap, retries and clear errors.
// Never throws for what a page or a server does: every outcome, failures included, is a FetchOutcome.

import { decodeHtml } from './decode';

export type FetchPort = (url: string, init: RequestInit) => Promise<Response>;

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface FetchOptions {
  fetch: FetchPort;
  clock: Clock;
  /** Covers the whole attempt: headers and body. */
  timeoutMs: number;
  /** Bytes of body kept; the rest is not read. */
  maxBytes: number;
  /** Extra attempts after a 429/503 (a network error is retried at most once of these). */
  retries: number;
  /** Longest Retry-After honoured by waiting; beyond it the fetch returns at once. Default 60 s. */
  maxRetryWaitMs?: number;
  signal?: AbortSignal;
}

export interface FetchOutcome {
  url: string;
  finalUrl: string;
  status: number;
  redirected: boolean;
  /** MIME type without parameters, lowercased; "text/html" when sniffed from a body sent without one. */
  contentType: string;
  headers: Record<string, string>;
  /** Decoded text, only for HTML. */
  html: string | null;
  charset: string | null;
  /** Body bytes kept. */
  bytes: number;
  truncated: boolean;
  durationMs: number;
  /** One clear sentence when the page could not be had. */
  error?: string;
  retryAfterMs?: number;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MAX_BACKOFF_MS = 30_000;
/** Bytes looked at to tell HTML from something else when the server sends no Content-Type. */
const SNIFF_BYTES = 512;

/** What one attempt asks of the retry loop. */
interface Attempt {
  outcome: FetchOutcome;
  retry?: { kind: 'status' | 'network'; afterMs?: number };
}

export async function fetchPage(url: string, opts: FetchOptions): Promise<FetchOutcome> {
  const started = opts.clock.now();
  const maxRetryWaitMs = opts.maxRetryWaitMs ?? 60_000;
  let retriesDone = 0;
  let networkRetried = false;
  const finish = (o: FetchOutcome): FetchOutcome => ({ ...o, durationMs: opts.clock.now() - started });

  for (;;) {
    const { outcome, retry } = await attempt(url, opts);
    if (!retry) return finish(outcome);
    const { afterMs } = retry;
    if (afterMs !== undefined && afterMs > maxRetryWaitMs) {
      const s = Math.ceil(afterMs / 1000);
      return finish({ ...outcome, error: `HTTP ${outcome.status}: server asks to retry after ${s} s`, retryAfterMs: afterMs });
    }
    const allowed = retriesDone < opts.retries && (retry.kind === 'status' || !networkRetried);
    if (!allowed) {
      const note = retriesDone > 0 ? ` (gave up after ${retriesDone} ${retriesDone === 1 ? 'retry' : 'retries'})` : '';
      return finish({ ...outcome, error: `${outcome.error ?? 'failed'}${note}` });
    }
    if (retry.kind === 'network') networkRetried = true;
    const wait = afterMs ?? Math.min(1000 * 2 ** retriesDone, MAX_BACKOFF_MS, maxRetryWaitMs);
    retriesDone++;
    if (!(await sleepUnlessAborted(opts.clock, wait, opts.signal))) return finish(failure(url, 'aborted'));
  }
}

/** One request with its own timeout. */
async function attempt(url: string, opts: FetchOptions): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const onAbort = (): void => controller.abort();
  if (opts.signal?.aborted) controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const init: RequestInit = { credentials: 'include', redirect: 'follow', signal: controller.signal };
  // Held outside the try so that a failure while reading the body still reports the status and headers.
  const got: { res?: Response } = {};
  try {
    try {
      got.res = await opts.fetch(url, init);
    } catch (err) {
      if (timedOut || controller.signal.aborted) throw err;
      return await diagnoseFetchError(url, err, { ...init, redirect: 'manual' }, opts.fetch);
    }
    return await readResponse(url, got.res, opts.maxBytes);
  } catch (err) {
    if (timedOut) return { outcome: failure(url, `timed out after ${seconds(opts.timeoutMs)} s`, got.res) };
    if (opts.signal?.aborted) return { outcome: failure(url, 'aborted', got.res) };
    return { outcome: failure(url, networkMessage(err), got.res) };
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * fetch() rejects with a bare TypeError both for a dead host and for a redirect loop. Node names the cause
 * ("redirect count exceeded", "connect ECONNREFUSED ..."); Chrome says only "Failed to fetch", so there one
 * request with redirect: 'manual' tells them apart: a redirect answer means following it is what failed.
 */
async function diagnoseFetchError(url: string, err: unknown, manual: RequestInit, port: FetchPort): Promise<Attempt> {
  const message = networkMessage(err);
  if (/redirect/i.test(message)) return { outcome: failure(url, 'redirect loop or too many redirects') };
  if (hasCause(err)) return { outcome: failure(url, message), retry: { kind: 'network' } };
  let probe: Response;
  try {
    probe = await port(url, manual);
  } catch (probeErr) {
    if (manual.signal?.aborted) throw probeErr; // timed out or stopped: the caller words that
    return { outcome: failure(url, message), retry: { kind: 'network' } };
  }
  probe.body?.cancel().catch(() => {});
  if (probe.type === 'opaqueredirect' || (probe.status >= 300 && probe.status < 400)) {
    return { outcome: failure(url, 'redirect loop or too many redirects') };
  }
  // The server answers now: the first failure was transient, worth the one network retry.
  return { outcome: failure(url, message), retry: { kind: 'network' } };
}

async function readResponse(url: string, res: Response, maxBytes: number): Promise<Attempt> {
  const base = outcomeOf(url, res);
  if (res.status === 429 || res.status === 503) {
    res.body?.cancel().catch(() => {});
    const afterMs = parseRetryAfter(res.headers.get('retry-after'));
    return { outcome: { ...base, error: `HTTP ${res.status}`, retryAfterMs: afterMs }, retry: { kind: 'status', afterMs } };
  }
  if (res.status < 200 || res.status > 299) {
    res.body?.cancel().catch(() => {});
    return { outcome: { ...base, error: `HTTP ${res.status}` } };
  }
  const declared = base.contentType;
  if (declared && !HTML_TYPES.has(declared)) {
    res.body?.cancel().catch(() => {});
    return { outcome: { ...base, error: `not HTML (${declared})` } };
  }
  const body = await readCapped(res, maxBytes, declared ? null : looksLikeHtml);
  if (body === 'not-html') return { outcome: { ...base, error: 'not HTML (no content type, and the body is not HTML)' } };
  const { text, charset } = decodeHtml(body.bytes, res.headers.get('content-type'));
  return {
    outcome: {
      ...base,
      contentType: declared || 'text/html',
      html: text,
      charset,
      bytes: body.bytes.length,
      truncated: body.truncated,
    },
  };
}

/**
 * Reads the body chunk by chunk and stops at maxBytes (SPEC-free: a cap keeps one huge page from eating the
 * worker's memory); the kept prefix is still parsed. `sniff` sees the first bytes and may refuse the body.
 */
async function readCapped(
  res: Response,
  maxBytes: number,
  sniff: ((head: Uint8Array) => boolean) | null,
): Promise<{ bytes: Uint8Array; truncated: boolean } | 'not-html'> {
  if (!res.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  let sniffed = sniff === null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - total;
    const kept = value.length > room ? value.subarray(0, room) : value;
    if (kept.length > 0) chunks.push(kept);
    total += kept.length;
    if (!sniffed && total >= SNIFF_BYTES) {
      sniffed = true;
      if (!sniff!(concat(chunks, total))) {
        reader.cancel().catch(() => {});
        return 'not-html';
      }
    }
    if (value.length > room) {
      truncated = true;
      reader.cancel().catch(() => {});
      break;
    }
  }
  const bytes = concat(chunks, total);
  if (!sniffed && !sniff!(bytes)) return 'not-html';
  return { bytes, truncated };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** WHATWG MIME sniffing's HTML signatures: optional BOM and whitespace, then one of these tags. */
const HTML_SIGNATURE = /^(?:<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p)[\s>]|^<!--/i;

function looksLikeHtml(head: Uint8Array): boolean {
  let s = String.fromCharCode(...head.subarray(0, SNIFF_BYTES));
  if (s.startsWith('\xef\xbb\xbf')) s = s.slice(3);
  return HTML_SIGNATURE.test(s.trimStart());
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  // An absolute date is compared with the wall clock, not the injected Clock, which may be a counter.
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function outcomeOf(url: string, res: Response): FetchOutcome {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const ct = res.headers.get('content-type') ?? '';
  return {
    url,
    finalUrl: res.url || url,
    status: res.status,
    redirected: res.redirected,
    contentType: (ct.split(';')[0] ?? '').trim().toLowerCase(),
    headers,
    html: null,
    charset: null,
    bytes: 0,
    truncated: false,
    durationMs: 0,
  };
}

function failure(url: string, error: string, res?: Response | null): FetchOutcome {
  const o: FetchOutcome = res
    ? outcomeOf(url, res)
    : { url, finalUrl: url, status: 0, redirected: false, contentType: '', headers: {}, html: null, charset: null, bytes: 0, truncated: false, durationMs: 0 };
  return { ...o, error };
}

function hasCause(err: unknown): boolean {
  return err instanceof Error && err.cause !== undefined && err.cause !== null;
}

/** "network error: <what failed>", with Node's cause (e.g. "connect ECONNREFUSED 127.0.0.1:80") when given. */
function networkMessage(err: unknown): string {
  if (!(err instanceof Error)) return `network error: ${String(err)}`;
  const cause = err.cause as { message?: unknown; code?: unknown } | undefined;
  let detail = err.message;
  if (cause && typeof cause === 'object') {
    const msg = typeof cause.message === 'string' ? cause.message : '';
    const code = typeof cause.code === 'string' ? cause.code : '';
    if (msg) detail = msg;
    if (code && !detail.includes(code)) detail = `${detail} (${code})`;
  }
  return `network error: ${detail || err.name}`;
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(2)));
}

/** Resolves true after ms, or false as soon as the signal aborts. */
async function sleepUnlessAborted(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (!signal) {
    await clock.sleep(ms);
    return true;
  }
  if (signal.aborted) return false;
  let onAbort = (): void => {};
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([clock.sleep(ms).then(() => true as const), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
