// The export's record writer against warcio's own serializer: the same record gives the same bytes once
// decompressed (headers, their order, both digests, the length), so replay tools read what they read before.
import { gunzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';
import { describe, expect, it } from 'vitest';
import { recordSerializer } from '../../lib/export/warc-record';

const enc = new TextEncoder();
const html = enc.encode('<html><head><title>Planets</title></head><body>' + 'The star and the planet. '.repeat(3000) + 'é</body></html>');
const date = '2026-11-24T01:47:57.000Z';

type Make = () => WARCRecord;
const cases: [string, Make, Uint8Array][] = [
  ['response', () => WARCRecord.create({
    url: 'https://example.org/a', date, type: 'response', warcVersion: 'WARC/1.1', statusline: 'HTTP/1.1 200 OK',
    httpHeaders: [['content-type', 'text/html'], ['content-length', String(html.byteLength)]],
    warcHeaders: { 'WARC-Record-ID': '<urn:uuid:11111111-1111-4111-8111-111111111111>', 'WARC-Truncated': 'length' },
  }, [html]), html],
  ['redirect', () => WARCRecord.create({
    url: 'https://example.org/old', date, type: 'response', warcVersion: 'WARC/1.1', statusline: 'HTTP/1.1 301 Moved Permanently',
    httpHeaders: [['location', 'https://example.org/a']], warcHeaders: { 'WARC-Record-ID': '<urn:uuid:22222222-2222-4222-8222-222222222222>' },
  }, []), new Uint8Array(0)],
  ['request', () => WARCRecord.create({
    url: 'https://example.org/a?b=1', date, type: 'request', warcVersion: 'WARC/1.1', statusline: 'GET /a?b=1 HTTP/1.1',
    httpHeaders: [['host', 'example.org']],
    warcHeaders: { 'WARC-Record-ID': '<urn:uuid:33333333-3333-4333-8333-333333333333>', 'WARC-Concurrent-To': '<urn:uuid:11111111-1111-4111-8111-111111111111>' },
  }, []), new Uint8Array(0)],
  ['revisit', () => {
    const r = WARCRecord.create({
      url: 'https://example.org/a', date, type: 'revisit', warcVersion: 'WARC/1.1', refersToUrl: 'https://example.org/a', refersToDate: date,
      statusline: 'HTTP/1.1 304 Not Modified', httpHeaders: [['etag', '"x"']], warcHeaders: { 'WARC-Record-ID': '<urn:uuid:44444444-4444-4444-8444-444444444444>' },
    }, []);
    r.warcHeaders.headers.set('WARC-Profile', 'http://netpreserve.org/warc/1.1/revisit/server-not-modified');
    return r;
  }, new Uint8Array(0)],
  ['conversion', () => WARCRecord.create({
    url: 'https://example.org/a', date, type: 'conversion', warcVersion: 'WARC/1.1',
    warcHeaders: { 'Content-Type': 'text/html; charset=utf-8', 'WARC-Record-ID': '<urn:uuid:55555555-5555-4555-8555-555555555555>' },
  }, [html]), html],
];

describe('recordSerializer', () => {
  it.each(cases)('writes a %s record as warcio does', async (_, make, payload) => {
    const write = await recordSerializer();
    const ours = gunzipSync(write(make(), payload));
    const theirs = gunzipSync(await WARCSerializer.serialize(make(), { gzip: true, digest: { algo: 'sha-256', prefix: 'sha256:' } }));
    expect(ours.toString('latin1')).toBe(theirs.toString('latin1'));
  });

  it('gives each record its own digests when one writer writes many', async () => {
    const write = await recordSerializer();
    const [a, b] = cases;
    gunzipSync(write(a![1](), a![2]));
    const ours = gunzipSync(write(b![1](), b![2]));
    const theirs = gunzipSync(await WARCSerializer.serialize(b![1](), { gzip: true }));
    expect(ours.toString('latin1')).toBe(theirs.toString('latin1'));
  });
});
