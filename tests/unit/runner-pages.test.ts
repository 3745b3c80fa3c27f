// The command-line runner writes pages.jsonl as the crawl goes: every committed page once, in order, without asking
// the extension for pages over and over while a fast crawl keeps committing a few at a time.
import { describe, expect, it } from 'vitest';
import { PAGES_A_READ, readNewPages } from '../../scripts/crawl';
import type { PageRecord } from '../../lib/records/types';

const row = (seq: number) => ({ crawlId: 1, seq, url: `http://w.test/${seq}` }) as PageRecord;

/** A crawl's page log that grows by `perAsk` pages each time it is read (a crawl committing meanwhile). */
function growingLog(start: number, perAsk: number) {
  let committed = start;
  const asks: number[] = [];
  return {
    asks,
    read: async (afterSeq: number, limit: number) => {
      asks.push(afterSeq);
      const out = [];
      for (let s = afterSeq + 1; s <= committed && out.length < limit; s++) out.push(row(s));
      if (asks.length < 50) committed += perAsk; // a crawl that ends, so a reader that never pauses ends too
      return out;
    },
  };
}

describe('the runner reading new pages', () => {
  it('reads a backlog a thousand at a time, every page once and in order', async () => {
    const log = growingLog(2 * PAGES_A_READ + 500, 0);
    const written: number[] = [];
    const last = await readNewPages(log.read, 0, (rows) => written.push(...rows.map((r) => r.seq)));
    expect(written).toEqual(Array.from({ length: 2 * PAGES_A_READ + 500 }, (_, i) => i + 1));
    expect(last).toBe(2 * PAGES_A_READ + 500);
    expect(log.asks).toEqual([0, PAGES_A_READ, 2 * PAGES_A_READ]);
  });

  it('asks once a tick while a crawl commits a few pages between asks', async () => {
    const log = growingLog(5, 3);
    const written: number[] = [];
    let after = 0;
    for (let tick = 0; tick < 4; tick++) after = await readNewPages(log.read, after, (rows) => written.push(...rows.map((r) => r.seq)));
    // Each tick read what was there and stopped: four asks, and nothing read twice or skipped.
    expect(log.asks).toHaveLength(4);
    expect(written).toEqual(Array.from({ length: written.length }, (_, i) => i + 1));
    expect(written.at(-1)).toBe(5 + 3 * 3);
  });

  it('keeps its place when nothing new was committed', async () => {
    const log = growingLog(0, 0);
    expect(await readNewPages(log.read, 42, () => { throw new Error('nothing to write'); })).toBe(42);
  });
});
