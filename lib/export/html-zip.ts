// A ZIP of the fetched pages' HTML, one file per page named by its URL (host/path.html), as received.
import { makeZip } from 'client-zip';
import { readStream } from './bytes';
import { hasBody, type ExportPage } from './selection';
import { storedPayload } from './warc';

/** Longest path segment kept: file systems refuse names over 255 bytes, and a suffix may be added. */
const MAX_SEGMENT = 100;

const clean = (s: string): string => {
  // Characters Windows refuses in names, and control characters; `.` and `..` would climb out of the folder.
  const c = s.replace(/[<>:"\\|?*\x00-\x1f\x7f]/g, '_').slice(0, MAX_SEGMENT);
  return c === '.' || c === '..' ? '_' : c;
};

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
  last = clean(last);
  if (!/\.html?$/i.test(last)) last = `${last.slice(0, MAX_SEGMENT - 5)}.html`;
  const dirs = segments.map((s) => clean(s) || '_');
  return [clean(u.host.replace(':', '_')), ...dirs, last].join('/');
}

/** The ZIP as a stream. Two URLs that map to one name (`/a` and `/a.html`) are told apart by the page's seq. */
export function writeHtmlZip(pages: AsyncIterable<ExportPage>, opts: { now: number }): AsyncIterable<Uint8Array> {
  const used = new Set<string>();
  async function* files() {
    for await (const x of pages) {
      if (!hasBody(x)) continue;
      let name = htmlFileName(x.page.finalUrl || x.page.url);
      if (used.has(name)) name = name.replace(/(\.html?)$/i, `~${x.page.seq}$1`);
      used.add(name);
      yield { name, lastModified: new Date(x.page.fetchedAt || opts.now), input: storedPayload(x.body).payload };
    }
  }
  return readStream(makeZip(files(), { buffersAreUTF8: true }));
}
