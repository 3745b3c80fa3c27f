// A ZIP of the fetched pages' HTML, one file per capture named by its URL (host/path.html), as received. A page
// judged from training's stored copy is the training read's file, not a second one (./captures.ts).
import { makeZip } from 'client-zip';
import { readStream } from './bytes';
import { captures } from './captures';
import type { ExportPage } from './selection';
import { storedPayload } from './warc';

/** Longest name kept, in UTF-8 bytes: file systems refuse names over 255 bytes, and a suffix may be added. */
const MAX_SEGMENT = 100;

/** Names Windows keeps for devices, with or without an extension (`con`, `NUL.html`). */
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

/** `s` cut to at most `max` UTF-8 bytes, never inside a character. */
function cut(s: string, max: number): string {
  let bytes = 0;
  let out = '';
  for (const ch of s) {
    bytes += ch.codePointAt(0)! < 0x80 ? 1 : ch.codePointAt(0)! < 0x800 ? 2 : ch.codePointAt(0)! < 0x10000 ? 3 : 4;
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

/**
 * A name every file system takes: no character Windows refuses (nor `/`, which a decoded %2F brings), no control
 * character, no trailing dot or space (Windows drops them, so two names would become one), no device name, and
 * bounded. `.` and `..` would climb out of the folder: the dots go, and an empty name is `_`.
 */
function clean(s: string, max = MAX_SEGMENT): string {
  let c = cut(s.replace(/[<>:"/\\|?*\x00-\x1f\x7f]/g, '_'), max).replace(/[. ]+$/, '');
  if (DEVICE.test(c)) c = `_${c}`.slice(0, max);
  return c || '_';
}

/**
 * The file a page's HTML goes to: `example.org/docs/intro.html` for https://example.org/docs/intro,
 * `example.org/docs/index.html` for .../docs/, the query kept in the name (`search_q=x.html`). Percent-escapes
 * are decoded so that names read as the URL does.
 */
export function htmlFileName(url: string): string {
  const u = new URL(url);
  const segments = u.pathname.split('/').slice(1).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  let last = segments.pop() || 'index';
  if (u.search) last += `_${u.search.slice(1)}`;
  const html = /\.html?$/i.exec(last)?.[0] ?? '.html';
  if (/\.html?$/i.test(last)) last = last.slice(0, -html.length);
  return [clean(u.host.replace(':', '_')), ...segments.map((s) => clean(s)), clean(last, MAX_SEGMENT - 5) + html].join('/');
}

/**
 * `name` or, when a file of the ZIP already has it, `name-2`, `name-3`... before the extension. Compared without
 * case: on Windows and macOS `Human.html` and `human.html` are one file.
 */
export function uniqueName(name: string, used: Set<string>): string {
  const dot = name.lastIndexOf('.');
  let candidate = name;
  for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${name.slice(0, dot)}-${n}${name.slice(dot)}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

/** The ZIP as a stream. Two URLs that map to one name (`/a` and `/a.html`) are told apart by a `-2` suffix. */
export function writeHtmlZip(pages: AsyncIterable<ExportPage>, opts: { now: number }): AsyncIterable<Uint8Array> {
  const used = new Set<string>();
  async function* files() {
    for await (const x of captures(pages)) {
      if (x.copy) continue;
      const name = uniqueName(htmlFileName(x.page.finalUrl || x.page.url), used);
      yield { name, lastModified: new Date(x.page.fetchedAt || opts.now), input: storedPayload(x.body).payload };
    }
  }
  return readStream(makeZip(files(), { buffersAreUTF8: true }));
}
