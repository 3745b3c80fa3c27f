// Turns fetched bytes into text with the right charset (design E.7: header charset, else the <meta> charset;
// GBK and UTF-8 both occur). TextDecoder knows every WHATWG label in Node (full ICU) and in Chrome.

/** How much of the page the <meta> prescan reads (WHATWG reads 1024; some pages put a long comment first). */
const META_SCAN_BYTES = 2048;

/** The charset parameter of a Content-Type header, lowercased, or null. */
export function charsetFromContentType(ct: string | null): string | null {
  if (!ct) return null;
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^;\s]*))/i.exec(ct);
  const label = (m?.[1] ?? m?.[2] ?? m?.[3] ?? '').trim().toLowerCase();
  return label || null;
}

/** The charset a `<meta charset>` or `<meta http-equiv=content-type content="...charset=...">` declares. */
export function sniffMetaCharset(bytes: Uint8Array): string | null {
  const head = bytes.subarray(0, META_SCAN_BYTES);
  // Latin-1 keeps one char per byte, so ASCII markup reads the same whatever the real encoding is.
  let s = '';
  for (let i = 0; i < head.length; i += 512) {
    s += String.fromCharCode(...head.subarray(i, i + 512));
  }
  s = s.replace(/<!--[\s\S]*?(?:-->|$)/g, ''); // a commented-out <meta> does not count
  const m = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/i.exec(s);
  return m?.[1] ? m[1].toLowerCase() : null;
}

function bomCharset(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/**
 * A decoder for a charset label, or null when the label is unknown. GBK and GB2312 labels get the GB18030
 * decoder: WHATWG already decodes them as GBK (a superset of GB2312, which pages often claim while using
 * GBK characters), and GB18030 is in turn a superset of GBK, so nothing a real page holds is lost.
 */
function decoderFor(label: string): TextDecoder | null {
  try {
    const d = new TextDecoder(label.trim());
    return d.encoding === 'gbk' ? new TextDecoder('gb18030') : d;
  } catch {
    return null;
  }
}

/**
 * Decodes an HTML body. Order as in browsers (WHATWG "encoding sniffing"): a byte order mark, then the
 * header's charset, then the `<meta>` prescan, then UTF-8. The BOM comes before the header because it cannot
 * be wrong about the bytes that follow it, while server headers often are. An unknown label is skipped.
 */
export function decodeHtml(bytes: Uint8Array, contentType: string | null): { text: string; charset: string } {
  const fromBom = bomCharset(bytes);
  let decoder = fromBom ? decoderFor(fromBom) : null;
  if (!decoder) {
    const header = charsetFromContentType(contentType);
    decoder = header ? decoderFor(header) : null;
  }
  if (!decoder) {
    const meta = sniffMetaCharset(bytes);
    decoder = meta ? decoderFor(meta) : null;
    // WHATWG: a <meta> that could be read as ASCII cannot be UTF-16; x-user-defined means windows-1252.
    if (decoder?.encoding.startsWith('utf-16')) decoder = decoderFor('utf-8');
    if (meta === 'x-user-defined') decoder = decoderFor('windows-1252');
  }
  decoder ??= new TextDecoder('utf-8');
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}
