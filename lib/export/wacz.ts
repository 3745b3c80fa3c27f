// WACZ 1.1.1 (https://specs.webrecorder.net/wacz/1.1.1/): a ZIP, stored and not compressed as the spec asks,
// of the crawl's WARC, a CDXJ index of it, the list of pages and a datapackage.json with each file's SHA-256.
// client-zip writes the ZIP as a stream, and zip64 once a file or the archive passes 4 GiB.
import { makeZip } from 'client-zip';
import { createSHA256 } from 'hash-wasm';
import { batched, readStream, utf8 } from './bytes';
import type { ExportPage } from './selection';
import { SortedLines, SpilledLines } from './spilled-lines';
import { cdxjLine, writeWarc, type WarcListeners, type WarcOptions } from './warc';

export interface WaczOptions extends Omit<WarcOptions, 'filename'> {
  title: string;
  description?: string;
}

/** One file of `datapackage.json`'s `resources`. */
export interface WaczResource {
  name: string;
  path: string;
  hash: string;
  bytes: number;
}

const WARC_NAME = 'data.warc.gz';

/**
 * The WACZ as a stream. The WARC streams through; one index line and one page line per page (a few hundred bytes
 * each) wait until it has been written, because the CDXJ index must be sorted: they are kept out of the JS heap,
 * in Blobs (./spilled-lines.ts), so an export's memory stays flat however many pages it holds.
 */
export function writeWacz(pages: AsyncIterable<ExportPage>, opts: WaczOptions): AsyncIterable<Uint8Array> {
  const resources: WaczResource[] = [];
  const index = new SortedLines();
  const pageList = new SpilledLines();
  const lastModified = new Date(opts.now);
  const listeners: WarcListeners = {
    onRecord: (e) => index.add(cdxjLine(e, WARC_NAME)),
    // A page judged from a training copy is listed at the training read's capture, which replay finds by its date.
    onPage: (p) => pageList.add(JSON.stringify({ id: `page-${p.seq}`, url: p.url, ts: p.date, title: p.title || undefined })),
  };
  const file = (path: string, chunks: AsyncIterable<Uint8Array>) => ({ name: path, lastModified, input: hashed(path, chunks, resources) });
  async function* files() {
    // The records joined into chunks of a few hundred KiB: the ZIP's stream costs per chunk, and a record is ~1 KiB.
    yield file(`archive/${WARC_NAME}`, batched(writeWarc(pages, { ...opts, filename: WARC_NAME }, listeners)));
    // SURT then timestamp, as a plain sort of the lines gives them: the order replay's binary search expects. A key
    // repeats only for different records (two redirects through one URL in one second), never for one capture: a
    // page judged from a training copy has no record. Lines with one key are ordered by the rest of the line.
    yield file('indexes/index.cdxj', index.bytes());
    const header = JSON.stringify({ format: 'json-pages-1.0', id: 'pages', title: 'All Pages' }) + '\n';
    yield file('pages/pages.jsonl', prepend(utf8(header), pageList.bytes()));
    const datapackage = utf8(JSON.stringify(dataPackage(resources, opts), null, 2));
    yield { name: 'datapackage.json', lastModified, input: datapackage };
    const digest = { path: 'datapackage.json', hash: `sha256:${await sha256(datapackage)}` };
    yield { name: 'datapackage-digest.json', lastModified, input: utf8(JSON.stringify(digest, null, 2)) };
  }
  return readStream(makeZip(files(), { buffersAreUTF8: true }));
}

export function dataPackage(resources: WaczResource[], opts: WaczOptions) {
  return {
    profile: 'data-package',
    resources,
    wacz_version: '1.1.1',
    title: opts.title,
    ...(opts.description ? { description: opts.description } : {}),
    software: opts.software,
    created: new Date(opts.now).toISOString(),
  };
}

async function* prepend(first: Uint8Array, rest: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield first;
  yield* rest;
}

/** Passes the chunks through, and once they end records the file's size and SHA-256 as a resource. */
async function* hashed(path: string, chunks: AsyncIterable<Uint8Array>, resources: WaczResource[]): AsyncGenerator<Uint8Array> {
  const hash = await createSHA256();
  hash.init();
  let bytes = 0;
  for await (const c of chunks) {
    hash.update(c);
    bytes += c.byteLength;
    yield c;
  }
  resources.push({ name: path.slice(path.lastIndexOf('/') + 1), path, hash: `sha256:${hash.digest('hex')}`, bytes });
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = await createSHA256();
  hash.init();
  hash.update(bytes);
  return hash.digest('hex');
}
