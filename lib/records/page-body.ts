// A page's body is stored once: the bytes as received (what an archive keeps) and the encoding the fetch decoded them
// with, from which its HTML is decoded again on read. Storing the decoded HTML beside the bytes wrote each page about
// three times over (UTF-16 text and the bytes). Rows stored before keep their `html`, read as they are.
import type { PageBody } from './types';

type BodyText = Pick<PageBody, 'html' | 'payload' | 'charset'>;

const decoders = new Map<string, TextDecoder>();

/** A decoder for one of `TextDecoder`'s encoding names, made once: `decode` without `stream` keeps no state between calls. */
function decoderFor(charset: string): TextDecoder {
  let d = decoders.get(charset);
  if (!d) decoders.set(charset, (d = new TextDecoder(charset)));
  return d;
}

/** The HTML of a stored body: as kept, or its bytes decoded as the fetch decoded them (lib/net/decode.ts). */
export function bodyHtml(body: BodyText): string {
  if (body.html !== undefined) return body.html;
  if (body.payload && body.charset) return decoderFor(body.charset).decode(body.payload);
  return '';
}

/**
 * What a fetched page's body stores of its answer: the bytes and their encoding when it has both, else the decoded
 * HTML. `html` is what the fetch decoded from `payload` with `charset` (lib/net/fetcher.ts), so decoding them again
 * gives it back. A payload that is a view into a larger buffer is copied: IndexedDB would store the whole buffer.
 */
export function storedBody(out: { headers: Record<string, string>; html: string; payload: Uint8Array | null; charset: string | null }): Omit<PageBody, 'crawlId' | 'seq'> {
  const { headers, html, payload, charset } = out;
  if (!payload) return { headers, html };
  const bytes = payload.byteLength === payload.buffer.byteLength ? payload : payload.slice();
  return charset ? { headers, payload: bytes, charset } : { headers, html, payload: bytes };
}
