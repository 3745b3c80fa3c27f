// Sitemaps (sitemaps.org protocol 0.9): a `<urlset>` of page URLs, or a `<sitemapindex>` of sitemaps, each entry with
// an optional `<lastmod>`; gzipped or not. Read by a small tolerant scan rather than a DOM: a sitemap is a flat list of
// up to 50,000 entries and 50 MB, and the scan keeps every entry read before a fault in the XML, with the fault in one
// sentence, where a parser would give up the whole file. Pure but for the gunzip (DecompressionStream, which the
// service worker and Node both have).

/** The protocol's limits: a sitemap lists at most 50,000 URLs and is at most 50 MB (52,428,800 bytes) uncompressed. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

export interface SitemapEntry {
  loc: string;
  /** `<lastmod>` as a time (ms), when it gave a date that reads. */
  lastmod?: number;
}

export interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex';
  entries: SitemapEntry[];
  /** Why the file was read only in part (bad XML, over a limit); the entries before it are kept. */
  problem?: string;
}

/** Why a body is no sitemap at all. */
export class NotASitemap extends Error {}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's character references and its five entities; an `&` that starts none is a fault (null). */
function decodeText(raw: string): string | null {
  let bad = false;
  const out = raw.replace(/&([^;&\s]{1,10});|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) {
      bad = true;
      return whole;
    }
    if (ref in NAMED_ENTITIES) return NAMED_ENTITIES[ref]!;
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : ref.startsWith('#') ? parseInt(ref.slice(1), 10) : NaN;
    if (!Number.isFinite(code) || code < 1 || code > 0x10ffff) {
      bad = true;
      return whole;
    }
    return String.fromCodePoint(code);
  });
  return bad ? null : out.trim();
}

/** A W3C datetime (`2026-11-01`, `2026-11-01T10:00:00+01:00`) as ms, or undefined. */
function lastmodOf(text: string): number | undefined {
  if (!/^\d{4}(-\d{2}(-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?)?)?$/.test(text)) return undefined;
  const t = Date.parse(text.length === 4 ? `${text}-01-01` : text.length === 7 ? `${text}-01` : text);
  return Number.isNaN(t) ? undefined : t;
}

/** The line a character offset is on, for a fault's sentence. */
const lineAt = (xml: string, at: number): number => xml.slice(0, at).split('\n').length;

/** An element's local name (`sm:url` is `url`). */
const local = (name: string): string => name.slice(name.indexOf(':') + 1).toLowerCase();

const TOKEN = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)|<\?[\s\S]*?(?:\?>|$)|<!DOCTYPE[^>]*>|<(\/?)([A-Za-z_][\w.:-]*)([^>]*?)(\/?)>|<|[^<]+/gi;

/**
 * A sitemap's entries, in order, at most `maxUrls`. Throws NotASitemap when the body is no sitemap at all (an HTML
 * page, a root element of another name, nothing); keeps what it read before the first fault in the XML otherwise.
 */
export function parseSitemap(xml: string, maxUrls = SITEMAP_MAX_URLS): ParsedSitemap {
  const text = xml.replace(/^\uFEFF/, '');
  let kind: ParsedSitemap['kind'] | null = null;
  const entries: SitemapEntry[] = [];
  const open: string[] = [];
  let entry: { loc?: string; lastmod?: string } | null = null;
  let field: 'loc' | 'lastmod' | null = null;
  let buffer = '';
  const fault = (at: number, what: string): ParsedSitemap => {
    if (kind === null) throw new NotASitemap(`not a sitemap: ${what}`);
    const kept = entries.length === 0 ? 'no entry came before it' : entries.length === 1 ? 'the entry before it is kept' : `the ${entries.length} entries before it are kept`;
    return { kind, entries, problem: `bad XML at line ${lineAt(text, at)}: ${what}; ${kept}` };
  };
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const token = m[0];
    if (token.startsWith('<!--') || token.startsWith('<?') || /^<!doctype/i.test(token)) {
      if (token.startsWith('<!--') && !token.endsWith('-->')) return fault(m.index, 'a comment is never closed');
      continue;
    }
    if (token.startsWith('<![CDATA[')) {
      if (!token.endsWith(']]>')) return fault(m.index, 'a CDATA section is never closed');
      if (field) buffer += m[1];
      continue;
    }
    if (token === '<') return fault(m.index, 'a "<" that starts no tag');
    const name = m[3];
    if (name === undefined) {
      if (field) buffer += token;
      else if (token.trim() && open.length === 0) return fault(m.index, `text outside the root element ("${token.trim().slice(0, 30)}")`);
      continue;
    }
    const tag = local(name);
    const closing = m[2] === '/', selfClosing = m[5] === '/';
    if (open.length === 0 && !closing) {
      if (kind !== null) return fault(m.index, `a second root element <${name}>`);
      if (tag !== 'urlset' && tag !== 'sitemapindex') throw new NotASitemap(`not a sitemap: its root element is <${name}>, not <urlset> or <sitemapindex>`);
      kind = tag;
    }
    if (closing) {
      const top = open.pop();
      if (top !== name) return fault(m.index, top === undefined ? `</${name}> closes nothing` : `</${name}> where </${top}> was expected`);
      if (field && tag === field) {
        const value = decodeText(buffer);
        if (value === null) return fault(m.index, `an "&" in <${field}> that starts no entity (write it &amp;)`);
        entry![field] = value;
        field = null;
      } else if (entry && (tag === 'url' || tag === 'sitemap') && open.length === 1) {
        if (entry.loc) {
          const lastmod = entry.lastmod === undefined ? undefined : lastmodOf(entry.lastmod);
          entries.push({ loc: entry.loc, ...(lastmod === undefined ? {} : { lastmod }) });
          if (entries.length >= maxUrls) {
            return { kind: kind!, entries, problem: `lists more than ${maxUrls.toLocaleString('en')} entries: the first ${maxUrls.toLocaleString('en')} were read, as the protocol allows no more` };
          }
        }
        entry = null;
      }
      continue;
    }
    if (selfClosing) continue;
    open.push(name);
    if ((tag === 'url' || tag === 'sitemap') && open.length === 2) entry = {};
    else if (entry && open.length === 3 && (tag === 'loc' || tag === 'lastmod')) {
      field = tag;
      buffer = '';
    }
  }
  if (kind === null) throw new NotASitemap('not a sitemap: no XML element in it');
  if (open.length > 0) return fault(text.length, `the file ends inside <${open.at(-1)}> (cut short?)`);
  return { kind, entries };
}

/** Whether bytes are gzip (RFC 1952's magic number): a `.xml.gz` sitemap, whatever its Content-Type says. */
export const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * Gzip's bytes decompressed, at most `maxBytes` of them: past it the rest is not read (`cut`). A fault in the stream
 * keeps what came before it, with the fault.
 */
export async function gunzip(bytes: Uint8Array, maxBytes = SITEMAP_MAX_BYTES): Promise<{ bytes: Uint8Array; cut: boolean; error?: string }> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let cut = false;
  let error: string | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - total;
      if (value.length > room) {
        chunks.push(value.subarray(0, room));
        total += room;
        cut = true;
        await reader.cancel().catch(() => {});
        break;
      }
      chunks.push(value);
      total += value.length;
    }
  } catch (err) {
    error = `the gzip stream is damaged (${err instanceof Error ? err.message : String(err)})`;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { bytes: out, cut, ...(error ? { error } : {}) };
}

/** A sitemap's body (gzipped or not) read: its entries and what went wrong; throws NotASitemap when it is none. */
export async function readSitemap(body: Uint8Array, opts: { truncated?: boolean; maxBytes?: number; maxUrls?: number } = {}): Promise<ParsedSitemap> {
  const maxBytes = opts.maxBytes ?? SITEMAP_MAX_BYTES;
  let bytes = body;
  let cut = opts.truncated ?? false;
  let damaged: string | undefined;
  if (isGzip(body)) {
    const g = await gunzip(body, maxBytes);
    bytes = g.bytes;
    cut ||= g.cut;
    damaged = g.error;
  }
  const parsed = parseSitemap(new TextDecoder().decode(bytes), opts.maxUrls);
  const over = `larger than ${Math.round(maxBytes / 1024 / 1024)} MB uncompressed: read up to that size, as the protocol allows no more`;
  // A file cut at the size limit ends inside an entry: that is the limit's doing, not a fault of the file.
  const problem = cut ? over : damaged ?? parsed.problem;
  return { ...parsed, ...(problem ? { problem } : {}) };
}

/** The words of a URL's path, what a sitemap URL is scored by in place of an anchor (`/products/orion-xt8` -> "products orion xt8"). */
export function pathWords(url: string): string {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    path = new URL(url).pathname;
  }
  return path.replace(/\.(html?|php|aspx?|jsp)$/i, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
}
