// The `warc` parser (test-only): a Transform stream of uncompressed WARC in, one object per record out.
declare module 'warc' {
  import { Transform } from 'node:stream';
  export default class WARCStream extends Transform {}
}
