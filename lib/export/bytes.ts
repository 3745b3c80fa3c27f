// Byte-stream helpers the writers share: text to UTF-8, and many small chunks joined into fewer larger ones
// (a stream of one chunk per CSV row would cost more in per-chunk overhead than in bytes).

import { concatBytes } from '../records/bytes';

const encoder = new TextEncoder();

export const utf8 = (s: string): Uint8Array => encoder.encode(s);

/** Joins chunks until about `size` bytes, so that consumers (a file writer, page.evaluate) see few calls. */
export async function* batched(chunks: AsyncIterable<Uint8Array | string>, size = 256 * 1024): AsyncGenerator<Uint8Array> {
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const c of chunks) {
    const b = typeof c === 'string' ? utf8(c) : c;
    if (b.byteLength === 0) continue;
    if (b.byteLength >= size && held === 0) {
      yield b;
      continue;
    }
    parts.push(b);
    held += b.byteLength;
    if (held >= size) {
      yield concatBytes(parts, held);
      parts = [];
      held = 0;
    }
  }
  if (held) yield concatBytes(parts, held);
}

/** Reads a web ReadableStream as an async iterable (Chromium's streams are not async-iterable everywhere). */
export async function* readStream<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Reached by a consumer that stops early (a cancelled export): release the source too.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
