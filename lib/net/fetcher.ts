// One HTTP request: never follows a redirect (the request gate decides, hop by hop, whether the next URL may
// be requested at all), with a timeout, a size cap and clear errors. Never throws for what a page or a server
// does: every outcome, failures included, is a HopOutcome.

import { concatBytes } from '../records/bytes';
import { decodeHtml } from './decode';
import type { CookieTrace } from './session';

/** A FetchPort's answer: the Response, with what the request sent of the session and what the answer did to it, where seen. */
export type PortResponse = Response & { cookieTrace?: CookieTrace };

/**
 * How the crawl core reaches the network. Called only by the request gate, always with `redirect: 'manual'`.
 * A 3xx answer must come back as a response whose `Location` header can be read: Node's fetch does this
 * itself; in the extension, where a manual redirect is an opaque response, lib/platform supplies it. A port
 * that can see the cookies a request carried and the Set-Cookie lines of its answer (the browser can; a page's
 * own fetch cannot) attaches them as `cookieTrace`: that is how a crawl notices it was logged out.
 */
export type FetchPort = (url: string, init: RequestInit) => Promise<PortResponse>;

/**
 * Thrown by a FetchPort whose platform refused a redirect to what is no web address (javascript:, data:, file:)
 * without saying where it led: the request is a redirect not followed, not a network fault to ask again.
 */
export class NonWebRedirect extends Error {
  constructor() {
    super('redirect to what is no web address');
    this.name = 'NonWebRedirect';
  }
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The wall clock: what the extension, the runner and the benchmarks crawl with. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

export interface HopOptions {
  fetch: FetchPort;
  clock: Clock;
  /** Covers the whole request: headers and body. */
  timeoutMs: number;
  /** Bytes of body kept; the rest is not read. */
  maxBytes: number;
  /** 'omit' for requests that must not carry the user's session (robots.txt). */
  credentials: RequestCredentials;
  /** 'text': read any 2xx body as UTF-8 text into `text` (robots.txt); 'bytes': any 2xx body into `payload` (a sitemap); default 'html'. */
  body?: 'html' | 'text' | 'bytes';
  /**
   * The stored copy's validators: the request asks with If-None-Match / If-Modified-Since, and a 304 is the
   * outcome `notModified`. Without them a 304 is an error like any other status outside 2xx.
   */
  validators?: Validators;
  signal?: AbortSignal;
}

/** What a stored copy's answer said to identify its version (RFC 9110 8.8). */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** The validators an answer's headers carry; undefined when it sent none. */
export function validatorsOf(headers: Record<string, string>): Validators | undefined {
  const etag = headers['etag'];
  const lastModified = headers['last-modified'];
  if (!etag && !lastModified) return undefined;
  return { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
}

export interface FetchOutcome {
  url: string;
  finalUrl: string;
  status: number;
  /** MIME type without parameters, lowercased; "text/html" when sniffed from a body sent without one. */
  contentType: string;
  headers: Record<string, string>;
  /** Decoded text, only for HTML. */
  html: string | null;
  /** The body as UTF-8 text, only when asked for with `body: 'text'`. */
  text?: string;
  /** The body bytes as received (up to maxBytes), only for HTML: what a web archive stores. */
  payload: Uint8Array | null;
  charset: string | null;
  /** Body bytes kept. */
  bytes: number;
  truncated: boolean;
  durationMs: number;
  /** One clear sentence when the page could not be had. */
  error?: string;
  /** What the request sent of the user's session and what the answer did to it, when the port could see it. */
  cookies?: CookieTrace;
}

/** What one request came to. */
export type HopOutcome =
  | { kind: 'response'; out: FetchOutcome }
  /** A 3xx: `location` is absolute (resolved against the request URL), or null when the server gave none. */
  | { kind: 'redirect'; out: FetchOutcome; location: string | null }
  /** A passing fault (429, 502-504, a network error or a timeout): worth asking again later. */
  | { kind: 'retry'; out: FetchOutcome; afterMs?: number }
  /** A 304 to a request made with the stored copy's validators: the copy is current, and no body came. */
  | { kind: 'notModified'; out: FetchOutcome };

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Statuses that say "not now" rather than "not at all". */
const PASSING_STATUS = new Set([429, 502, 503, 504]);
/** Bytes looked at to tell HTML from something else when the server sends no Content-Type. */
const SNIFF_BYTES = 512;

/** Makes one request with its own timeout. */
export async function fetchOnce(url: string, opts: HopOptions): Promise<HopOutcome> {
  const started = opts.clock.now();
  const done = (h: HopOutcome): HopOutcome => ({ ...h, out: { ...h.out, durationMs: opts.clock.now() - started } });
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const onAbort = (): void => controller.abort();
  if (opts.signal?.aborted) controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // Every request says how it uses the browser's HTTP cache: not at all. 'no-store' neither reads the cache nor
  // writes it, so an answer is always the server's, never a copy the browser kept under heuristic freshness
  // (a page whose Last-Modified is a day old is "fresh" for hours to a 'default' fetch). Focus keeps its own
  // copies and validators, and sends them itself: with 'no-cache' Chrome would revalidate with its own cache's
  // validators and hand the extension the cached body as a 200 after a 304, hiding whether anything changed.
  const init: RequestInit = {
    credentials: opts.credentials, redirect: 'manual', cache: 'no-store', signal: controller.signal,
    ...(opts.validators ? { headers: conditionalHeaders(opts.validators) } : {}),
  };
  // Held outside the try so that a failure while reading the body still reports the status and headers.
  const got: { res?: Response } = {};
  try {
    got.res = await opts.fetch(url, init);
    if (got.res.status === 304 && opts.validators) {
      got.res.body?.cancel().catch(() => {});
      return done({ kind: 'notModified', out: outcomeOf(url, got.res) });
    }
    return done(await readResponse(url, got.res, opts.maxBytes, opts.body ?? 'html'));
  } catch (err) {
    if (err instanceof NonWebRedirect) {
      return done({ kind: 'redirect', out: failure(url, 'not a web address (the browser refused to follow it), never requested', got.res), location: null });
    }
    if (timedOut) return done({ kind: 'retry', out: failure(url, `timed out after ${seconds(opts.timeoutMs)} s`, got.res) });
    if (opts.signal?.aborted) return done({ kind: 'response', out: failure(url, 'aborted', got.res) });
    return done({ kind: 'retry', out: failure(url, networkMessage(err), got.res) });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** RFC 9110 13.1: If-None-Match wins where both are sent; If-Modified-Since serves servers without ETags. */
function conditionalHeaders(v: Validators): Record<string, string> {
  return { ...(v.etag ? { 'If-None-Match': v.etag } : {}), ...(v.lastModified ? { 'If-Modified-Since': v.lastModified } : {}) };
}

async function readResponse(url: string, res: Response, maxBytes: number, want: 'html' | 'text' | 'bytes'): Promise<HopOutcome> {
  const base = outcomeOf(url, res);
  if (res.type === 'opaqueredirect') {
    // The platform's fetch could not tell where the redirect goes: it is not followed blind.
    return { kind: 'response', out: { ...base, status: 0, error: 'redirect whose target could not be read: not followed' } };
  }
  if (res.status >= 300 && res.status < 400 && res.status !== 304) {
    res.body?.cancel().catch(() => {});
    const raw = res.headers.get('location');
    let location: string | null = null;
    try {
      location = raw === null ? null : new URL(raw, url).href;
    } catch {
      location = null;
    }
    const error = location === null ? `HTTP ${res.status} redirect without a usable Location` : undefined;
    return { kind: 'redirect', out: { ...base, ...(error ? { error } : {}) }, location };
  }
  if (PASSING_STATUS.has(res.status)) {
    res.body?.cancel().catch(() => {});
    return { kind: 'retry', out: { ...base, error: `HTTP ${res.status}` }, afterMs: parseRetryAfter(res.headers.get('retry-after')) };
  }
  if (res.status < 200 || res.status > 299) {
    res.body?.cancel().catch(() => {});
    return { kind: 'response', out: { ...base, error: `HTTP ${res.status}` } };
  }
  if (want === 'text' || want === 'bytes') {
    const body = await readCapped(res, maxBytes, null);
    const bytes = body === 'not-html' ? new Uint8Array(0) : body.bytes;
    const truncated = body !== 'not-html' && body.truncated;
    return { kind: 'response', out: want === 'text' ? { ...base, text: new TextDecoder().decode(bytes), bytes: bytes.length } : { ...base, payload: bytes, bytes: bytes.length, truncated } };
  }
  const declared = base.contentType;
  if (declared && !HTML_TYPES.has(declared)) {
    res.body?.cancel().catch(() => {});
    return { kind: 'response', out: { ...base, error: `not HTML (${declared})` } };
  }
  const body = await readCapped(res, maxBytes, declared ? null : looksLikeHtml);
  if (body === 'not-html') return { kind: 'response', out: { ...base, error: 'not HTML (no content type, and the body is not HTML)' } };
  const { text, charset } = decodeHtml(body.bytes, res.headers.get('content-type'));
  return {
    kind: 'response',
    out: {
      ...base,
      contentType: declared || 'text/html',
      html: text,
      payload: body.bytes,
      charset,
      bytes: body.bytes.length,
      truncated: body.truncated,
    },
  };
}

/**
 * Reads the body chunk by chunk and stops at maxBytes (a cap keeps one huge page from eating the worker's
 * memory); the kept prefix is still parsed. `sniff` sees the first bytes and may refuse the body.
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
      if (!sniff!(concatBytes(chunks, total))) {
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
  const bytes = concatBytes(chunks, total);
  if (!sniffed && !sniff!(bytes)) return 'not-html';
  return { bytes, truncated };
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

function outcomeOf(url: string, res: PortResponse): FetchOutcome {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const ct = res.headers.get('content-type') ?? '';
  return {
    url,
    finalUrl: url,
    status: res.status,
    contentType: (ct.split(';')[0] ?? '').trim().toLowerCase(),
    headers,
    html: null,
    payload: null,
    charset: null,
    bytes: 0,
    truncated: false,
    durationMs: 0,
    ...(res.cookieTrace ? { cookies: res.cookieTrace } : {}),
  };
}

export function failure(url: string, error: string, res?: Response | null): FetchOutcome {
  const o: FetchOutcome = res
    ? outcomeOf(url, res)
    : { url, finalUrl: url, status: 0, contentType: '', headers: {}, html: null, payload: null, charset: null, bytes: 0, truncated: false, durationMs: 0 };
  return { ...o, error };
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
