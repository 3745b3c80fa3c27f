// WARC 1.1 of a crawl, one gzip member per record (so a reader can seek to any record by its offset): a
// `warcinfo`, then for each fetched page a `request` and a `response` record with the HTTP status line, the
// response headers the browser exposed and the payload bytes as received; a page asked for again and found
// unchanged is a `revisit` record instead (WARC 1.1 6.7.2), pointing at the capture that holds its payload; and for
// a page rendered in a tab (fetch.render) a `conversion` record of the DOM its scripts built and a `response` record of
// each resource its tab loaded and kept (scripts, styles, JSON calls). A page judged from
// training's stored copy made no request and gets no record: its capture is the training read's (./captures.ts).
// Records are built with Webrecorder's warcio and written, with their SHA-256 block and payload digests, by ./warc-record.ts.
import { WARCRecord, WARCSerializer, getSurt } from 'warcio';
import { bodyHtml } from '../records/page-body';
import type { PageBody, PageRecord, Revisit } from '../records/types';
import { utf8 } from './bytes';
import { captures } from './captures';
import { statusLine } from './http-status';
import { recordSerializer } from './warc-record';
import type { ExportPage } from './selection';

export interface WarcOptions {
  /** The file name recorded in `warcinfo` (`crawl.warc.gz`, or `data.warc.gz` inside a WACZ). */
  filename: string;
  /** Fields of the `warcinfo` record besides software and format: the crawl's name, seeds, robots policy. */
  info?: Record<string, string>;
  software: string;
  /** When the file is written (the `warcinfo` record's date). */
  now: number;
}

/** Where a response record sits in the WARC: what a CDXJ index line says of it. */
export interface WarcIndexEntry {
  url: string;
  /** WARC-Date, ISO. */
  date: string;
  status: number;
  mime: string;
  digest: string;
  offset: number;
  length: number;
}

/** A page of the archive and the capture replay shows it from (the WACZ's page list). */
export interface WarcPageEntry {
  seq: number;
  /** The URL the crawl asked for. */
  url: string;
  /** WARC-Date of its capture, ISO: a copy's is the training read's. */
  date: string;
  title: string;
}

export interface WarcListeners {
  /** Each response or revisit record, where it was written. */
  onRecord?: (entry: WarcIndexEntry) => void;
  /** Each page, a page judged from a training copy included (it has a capture, the training read's). */
  onPage?: (page: WarcPageEntry) => void;
}

const WARC_1_1 = 'WARC/1.1';

/** The gzipped WARC as a stream of records, telling `listeners` where each page's response went. */
export async function* writeWarc(
  pages: AsyncIterable<ExportPage>,
  opts: WarcOptions,
  listeners: WarcListeners = {},
): AsyncGenerator<Uint8Array> {
  const { onRecord, onPage } = listeners;
  let offset = 0;
  const emit = (bytes: Uint8Array) => {
    offset += bytes.byteLength;
    return bytes;
  };
  const info = WARCRecord.createWARCInfo(
    { filename: opts.filename, warcVersion: WARC_1_1, date: new Date(opts.now).toISOString() },
    { software: opts.software, format: 'WARC File Format 1.1', conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/', ...opts.info },
  );
  yield emit(await serialize(info));
  const write = await recordSerializer();
  for await (const { page, body, copy } of captures(pages)) {
    const date = new Date(page.fetchedAt).toISOString();
    onPage?.({ seq: page.seq, url: page.url, date, title: page.title });
    // No revisit record either: a revisit says a request was made and found the content unchanged, and none was.
    if (copy) continue;
    for (const hop of redirectHops(page)) {
      const record = responseRecord(hop.url, date, statusLine(hop.status), [['location', hop.location]]);
      const start = offset;
      const bytes = emit(write(record, NO_PAYLOAD));
      onRecord?.(entryOf(record, hop.url, date, hop.status, '', start, bytes.byteLength));
      yield bytes;
    }
    const url = page.finalUrl || page.url;
    const { payload, headers } = storedPayload(body);
    const response = page.revisit
      ? await revisitRecord(url, date, page.revisit, page.status, headers, payload)
      : responseRecord(url, date, statusLine(page.status), headers, page.truncated);
    const start = offset;
    const bytes = emit(write(response, page.revisit ? NO_PAYLOAD : payload));
    onRecord?.(entryOf(response, url, date, page.status, page.revisit ? 'warc/revisit' : mimeOf(headers), start, bytes.byteLength));
    yield bytes;
    yield emit(write(requestRecord(url, date, response), NO_PAYLOAD));
    if (body.rendered !== undefined) yield emit(write(renderedRecord(url, date, response), utf8(body.rendered)));
    // What the rendered page's tab loaded (its scripts, styles, JSON calls), dated as the page: replay finds them.
    for (const r of body.resources ?? []) {
      const { payload: bytesSent, headers: sent } = storedPayload({ headers: r.headers, payload: r.payload });
      const record = responseRecord(r.url, date, statusLine(r.status), sent);
      const at = offset;
      const written = emit(write(record, bytesSent));
      onRecord?.(entryOf(record, r.url, date, r.status, mimeOf(sent), at, written.byteLength));
      yield written;
    }
  }
}

const NO_PAYLOAD = new Uint8Array(0);

/** The warcinfo record, whose content warcio writes from its fields. */
const serialize = (r: WARCRecord): Promise<Uint8Array> => WARCSerializer.serialize(r, { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:' } });

/** A response record's headers; its payload is given when it is written. */
function responseRecord(url: string, date: string, statusline: string, headers: [string, string][], truncated = false): WARCRecord {
  return WARCRecord.create(
    {
      url, date, type: 'response', warcVersion: WARC_1_1, statusline, httpHeaders: headers,
      // WARC 1.1 §5.13: the payload was cut at the crawler's size cap.
      ...(truncated ? { warcHeaders: { 'WARC-Truncated': 'length' } } : {}),
    },
    [],
  );
}

const PROFILES: Record<Revisit['profile'], string> = {
  'server-not-modified': 'http://netpreserve.org/warc/1.1/revisit/server-not-modified',
  'identical-payload-digest': 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest',
};

/**
 * A page found unchanged: no payload, and WARC-Refers-To-Target-URI / -Date name the capture that holds it. A 304
 * (server-not-modified) keeps the 304's own status line and headers; the same bytes sent again
 * (identical-payload-digest) keep the answer's headers and the digest of the payload it did not repeat.
 */
async function revisitRecord(url: string, date: string, revisit: Revisit, status: number, headers: [string, string][], payload: Uint8Array): Promise<WARCRecord> {
  const notModified = revisit.profile === 'server-not-modified';
  const record = WARCRecord.create(
    {
      url, date, type: 'revisit', warcVersion: WARC_1_1, refersToUrl: revisit.url, refersToDate: new Date(revisit.date).toISOString(),
      statusline: notModified ? statusLine(304) : statusLine(status),
      httpHeaders: notModified ? Object.entries(revisit.headers ?? {}) : headers,
    },
    [],
  );
  record.warcHeaders.headers.set('WARC-Profile', PROFILES[revisit.profile]);
  if (!notModified) record.warcHeaders.headers.set('WARC-Payload-Digest', await sha256(payload));
  return record;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return `sha256:${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * WARC 1.1 §6.8: the DOM a rendered page's scripts built, serialized, as an alternative version of its response
 * (which keeps what the server sent). Replay shows the response; this record is what the crawl read.
 */
function renderedRecord(url: string, date: string, response: WARCRecord): WARCRecord {
  return WARCRecord.create(
    {
      url, date, type: 'conversion', warcVersion: WARC_1_1,
      warcHeaders: { 'Content-Type': 'text/html; charset=utf-8', 'WARC-Refers-To': response.warcHeader('WARC-Record-ID') ?? '' },
    },
    [],
  );
}

/**
 * The request as far as it is known: the browser does not expose what it sent, and the cookies it sent are the
 * user's, which an archive meant to be shared must not carry. So only the request line and Host are written.
 */
function requestRecord(url: string, date: string, response: WARCRecord): WARCRecord {
  const u = new URL(url);
  return WARCRecord.create(
    {
      url, date, type: 'request', warcVersion: WARC_1_1, statusline: `GET ${u.pathname}${u.search} HTTP/1.1`,
      httpHeaders: [['host', u.host]], warcHeaders: { 'WARC-Concurrent-To': response.warcHeader('WARC-Record-ID') ?? '' },
    },
    [],
  );
}

/**
 * The redirects the fetch followed, each as the 3xx it answered and where it led. Only the status and the
 * target are known of them (fetch follows redirects without exposing their headers), and that is what is
 * written: enough for a replay of the URL the crawl asked for to reach the page.
 */
function redirectHops(page: PageRecord): { url: string; status: number; location: string }[] {
  const hops = page.redirects ?? [];
  return hops.map((h, i) => ({ url: h.url, status: h.status, location: hops[i + 1]?.url ?? page.finalUrl }));
}

/** Headers that describe the transfer, not the bytes stored: fetch has already undone them. */
const TRANSFER_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/**
 * The payload as received and the headers to store with it. fetch hands over the body decoded (no gzip, no
 * chunks), so Content-Encoding and Transfer-Encoding no longer describe it: they are kept under
 * `x-archive-orig-` names, as pywb and warcio's own recorders do, and Content-Length gives the stored length;
 * otherwise a replay would try to gunzip plain HTML. Rows stored before the raw bytes were kept have the
 * decoded HTML only: it is written as UTF-8, and the Content-Type says so.
 */
export function storedPayload(body: Pick<PageBody, 'headers' | 'html' | 'payload' | 'charset'>): { payload: Uint8Array; headers: [string, string][] } {
  const payload = body.payload ?? utf8(bodyHtml(body));
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(body.headers)) {
    const key = name.toLowerCase();
    if (TRANSFER_HEADERS.has(key)) {
      if (key !== 'content-length' || Number(value) !== payload.byteLength) headers.push([`x-archive-orig-${key}`, value]);
    } else if (key === 'content-type' && !body.payload) {
      headers.push([name, value.replace(/;\s*charset=[^;]*/i, '') + '; charset=utf-8']);
    } else headers.push([name, value]);
  }
  headers.push(['content-length', String(payload.byteLength)]);
  return { payload, headers };
}

const mimeOf = (headers: [string, string][]): string =>
  (headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '').split(';')[0].trim().toLowerCase();

function entryOf(r: WARCRecord, url: string, date: string, status: number, mime: string, offset: number, length: number): WarcIndexEntry {
  return { url, date, status, mime, digest: r.warcPayloadDigest ?? '', offset, length };
}

/** `20261124014757`: the 14-digit timestamp of CDX(J) lines. */
export const cdxTimestamp = (iso: string): string => iso.replace(/[^0-9]/g, '').slice(0, 14);

/** One CDXJ line (WACZ 1.1.1 §indexes): SURT key, timestamp, then the record's place and kind as JSON. */
export function cdxjLine(e: WarcIndexEntry, filename: string): string {
  const fields: Record<string, string> = { url: e.url, mime: e.mime || 'unk', status: String(e.status), digest: e.digest, length: String(e.length), offset: String(e.offset), filename };
  return `${getSurt(e.url)} ${cdxTimestamp(e.date)} ${JSON.stringify(fields)}`;
}
