// A WARC record's bytes, gzipped as one member, with the same headers and digests warcio's WARCSerializer
// writes. warcio builds the record (its headers and record ID); this writes it. warcio's serializer starts two
// fresh hash-wasm instances and a CompressionStream for every record and awaits each: at two or three records a
// page that was most of an export's time (scripts/bench/export.ts). Here one SHA-256 instance is reused and the
// gzip is synchronous (pako, which warcio itself uses where CompressionStream is missing).
import { createSHA256, type IHasher } from 'hash-wasm';
import pako from 'pako';
import type { WARCRecord } from 'warcio';
import { concatBytes } from '../records/bytes';
import { utf8 } from './bytes';

const CRLF = utf8('\r\n');
const END = utf8('\r\n\r\n');
const NONE = new Uint8Array(0);

/** Serializes a record whose content is `payload` (after the HTTP headers, when it has them) into a gzip member. */
export type RecordSerializer = (record: WARCRecord, payload: Uint8Array) => Uint8Array;

export async function recordSerializer(): Promise<RecordSerializer> {
  const hasher: IHasher = await createSHA256();
  const digest = (...parts: Uint8Array[]): string => {
    hasher.init();
    for (const p of parts) hasher.update(p);
    return `sha256:${hasher.digest('hex')}`;
  };
  return (record, payload) => {
    const headers = record.warcHeaders.headers;
    const http = record.httpHeaders ? utf8(record.httpHeaders.toString() + '\r\n') : NONE;
    // As WARCSerializer: the payload digest first (none for a revisit, which may carry the one it did not repeat),
    // then the block digest over the HTTP headers and the payload, then the length.
    if (record.warcType !== 'warcinfo') {
      if (record.warcType !== 'revisit' && !record.warcPayloadDigest) headers.set('WARC-Payload-Digest', digest(payload));
      if (!record.warcBlockDigest) headers.set('WARC-Block-Digest', digest(http, payload));
    }
    headers.set('Content-Length', String(http.byteLength + payload.byteLength));
    const head = utf8(record.warcHeaders.toString());
    const bytes = concatBytes([head, CRLF, http, payload, END]);
    const windowBits = windowFor(bytes.byteLength);
    return pako.gzip(bytes, { windowBits, memLevel: Math.max(1, windowBits - 7) });
  };
}

/**
 * The smallest deflate window that holds the whole record (2^9 to 2^15 bytes), and a hash table and symbol buffer
 * to match (memLevel = windowBits - 7, zlib's default 8 at the full window): about the compression of the
 * defaults, since no match reaches back past the record's start, for a fraction of the state zlib allocates and
 * clears per stream, which for a record of a few hundred bytes was most of the work.
 */
function windowFor(length: number): number {
  let bits = 9;
  while (bits < 15 && 1 << bits < length) bits++;
  return bits;
}
