// A page's body is stored once: the bytes as received (what an archive keeps) and the encoding the fetch decoded them
// with, from which its HTML is decoded again on read. Storing the decoded HTML beside the bytes wrote each page about
// three times over (UTF-16 text and the bytes). Rows stored before keep their `html`, read as they are.
// The bytes are stored gzip-compressed (`coding`): every byte handed to IndexedDB is written again by Chromium's
// LevelDB (its log, then each compaction that moves it down a level) on the browser's storage threads, and the
// compressed body is 2.3x smaller on Wikispeedia's pages; measured in docs/benchmarks.md, "What a stored body costs
// the browser". Compression is synchronous (pako, level 1: the fastest, nearly the ratio of the default level), so
// the body is still written in the page commit's one transaction. Readers get the bytes back through `readBody`.
import pako from 'pako';
import type { PageBody } from './types';

type BodyText = Pick<PageBody, 'html' | 'payload' | 'charset' | 'coding'>;

/** Bodies smaller than this are stored as they are: gzip's header and a tiny page's lack of repetition gain nothing. */
const COMPRESS_FROM = 512;

const decoders = new Map<string, TextDecoder>();

/** A decoder for one of `TextDecoder`'s encoding names, made once: `decode` without `stream` keeps no state between calls. */
function decoderFor(charset: string): TextDecoder {
  let d = decoders.get(charset);
  if (!d) decoders.set(charset, (d = new TextDecoder(charset)));
  return d;
}

/** The HTML of a stored body: as kept, or its bytes decoded as the fetch decoded them (lib/fetch/decode.ts). */
export function bodyHtml(body: BodyText): string {
  if (body.html !== undefined) return body.html;
  if (body.payload && body.charset) return decoderFor(body.charset).decode(payloadBytes(body));
  return '';
}

/** A stored body's bytes as received: decompressed when it was stored compressed. */
function payloadBytes(body: Pick<PageBody, 'payload' | 'coding'>): Uint8Array {
  return body.coding === 'gzip' ? pako.ungzip(body.payload!) : body.payload!;
}

/** A body as read from the database, given back as it was received: its payload decompressed, `coding` gone. */
export function readBody(stored: PageBody): PageBody {
  if (stored.coding === undefined || !stored.payload) return stored;
  const { coding: _, ...body } = stored;
  return { ...body, payload: payloadBytes(stored) };
}

/**
 * What a fetched page's body stores of its answer: the bytes and their encoding when it has both, else the decoded
 * HTML. `html` is what the fetch decoded from `payload` with `charset` (lib/fetch/fetcher.ts), so decoding them again
 * gives it back. A payload that is a view into a larger buffer is copied: IndexedDB would store the whole buffer.
 */
export function storedBody(out: { headers: Record<string, string>; html: string; payload: Uint8Array | null; charset: string | null }): Omit<PageBody, 'crawlId' | 'seq'> {
  const { headers, html, payload, charset } = out;
  if (!payload) return { headers, html };
  const packed = pack(payload);
  return charset ? { headers, ...packed, charset } : { headers, html, ...packed };
}

/**
 * The payload as stored: gzip-compressed when that makes it smaller by an eighth at least (an image or an archive
 * does not compress; it is kept as it is). A compressed payload is a fresh buffer; a payload kept as it is and
 * viewing a larger buffer is copied, as IndexedDB would store the whole buffer.
 */
function pack(payload: Uint8Array): Pick<PageBody, 'payload' | 'coding'> {
  if (payload.byteLength >= COMPRESS_FROM) {
    const packed = pako.gzip(payload, { level: 1 });
    if (packed.byteLength <= payload.byteLength * 0.875) return { payload: packed, coding: 'gzip' };
  }
  return { payload: payload.byteLength === payload.buffer.byteLength ? payload : payload.slice() };
}
