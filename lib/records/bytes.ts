// Byte chunks joined into one array: a fetched body read in pieces, an export's batches, a download's parts.

/** One array of `parts` in order; a single part is returned as it is, not copied. */
export function concatBytes(parts: Uint8Array[], total = parts.reduce((n, p) => n + p.byteLength, 0)): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
