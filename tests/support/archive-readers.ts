// Readers of archives that are not the writers: the `warc` npm parser for WARC records, yauzl for ZIP files.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import WARCStream from 'warc';
import yauzl from 'yauzl';

export type WarcRecord = { headers: Record<string, string>; content: Buffer };
export function parseWarc(gz: Buffer): Promise<WarcRecord[]> {
  return new Promise((resolve, reject) => {
    const records: WarcRecord[] = [];
    Readable.from([gunzipSync(gz)]).pipe(new WARCStream()).on('data', (r: WarcRecord) => records.push(r)).on('end', () => resolve(records)).on('error', reject);
  });
}
export const httpPayload = (block: Buffer) => block.subarray(block.indexOf('\r\n\r\n') + 4);

export function unzip(buf: Buffer): Promise<Map<string, { data: Buffer; compression: number }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, { data: Buffer; compression: number }>();
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, s) => {
          if (err2 || !s) return reject(err2);
          const bufs: Buffer[] = [];
          s.on('data', (b: Buffer) => bufs.push(b)).on('end', () => {
            files.set(e.fileName, { data: Buffer.concat(bufs), compression: e.compressionMethod });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.readEntry();
    });
  });
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
