// The benchmarks' corpus server: held answers stand for a server across the web, and the server tells how many
// requests it had open at once, which is what a crawler's concurrency promises.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meanOpen, openShares, startCorpusServer } from '../../scripts/bench/corpus-server';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'corpus-'));
  const lines = ['a', 'b', 'c'].map((p) => JSON.stringify({ path: `/wiki/${p}.html`, html: `<title>${p}</title>` }));
  writeFileSync(join(dir, 'pages.jsonl.gz'), gzipSync(lines.join('\n')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('meanOpen', () => {
  it('averages the requests open over the window, cutting spans at its edges', () => {
    // Two requests over the whole 100 ms, one for its second half, one before it began.
    const spans: [number, number][] = [[0, 100], [-10, 120], [50, 100], [-50, -1]];
    expect(meanOpen(spans, 0, 100)).toBeCloseTo(2.5, 10);
  });

  it('splits the window by how many requests were open', () => {
    // 0-20: none; 20-50: one; 50-80: two; 80-100: one.
    const shares = openShares([[20, 80], [50, 100], [-5, 0]], 0, 100);
    expect(shares.map((x) => Math.round(x * 100))).toEqual([20, 50, 30]);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it('counts an answer never sent as open to the end', () => {
    expect(meanOpen([[50, NaN]], 0, 100)).toBeCloseTo(0.5, 10);
  });
});

describe('startCorpusServer', () => {
  // A second's latency, so that an answer not held (below) is told apart from a held one on a machine however busy.
  it('holds every answer for latencyMs and records each request it saw', async () => {
    const site = await startCorpusServer(dir, 0, { latencyMs: 1000 });
    try {
      const t0 = Date.now();
      const answers = await Promise.all(['a', 'b', 'c', 'nope'].map((p) => fetch(`${site.origin}/wiki/${p}.html`)));
      expect(Date.now() - t0).toBeGreaterThanOrEqual(995);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 404]);
      expect(await answers[1]!.text()).toBe('<title>b</title>');
      // As the server saw them (no client or connection time in a span): each held, the 404 too.
      expect(site.spans).toHaveLength(4);
      for (const [a, b] of site.spans) expect(b - a).toBeGreaterThanOrEqual(995);
    } finally {
      await site.close();
    }
  });

  it('answers at once without latencyMs', async () => {
    const site = await startCorpusServer(dir);
    try {
      expect((await fetch(`${site.origin}/wiki/a.html`)).status).toBe(200);
      const [[a, b]] = site.spans as [[number, number]];
      // As the server saw it (no client or connection time in it): well under the second a held answer takes.
      expect(b - a).toBeLessThan(500);
    } finally {
      await site.close();
    }
  });
});
