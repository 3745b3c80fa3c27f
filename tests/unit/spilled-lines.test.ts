// The WACZ's index and page list held outside the heap: read back in the order a plain sort (or the adding) gives,
// across runs packed into Blobs and lines cut by the slices they are read in.
import { describe, expect, it } from 'vitest';
import { SortedLines, SpilledLines } from '../../lib/export/spilled-lines';

const text = async (chunks: AsyncIterable<Uint8Array>) => {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts).toString('utf8');
};

function someLines(n: number): string[] {
  let x = 7;
  const rand = () => (x = (x * 48271) % 2147483647);
  // SURT-like keys that share long prefixes, some non-ASCII, one past a 64 KiB read slice, some repeated.
  return Array.from({ length: n }, (_, i) =>
    i === 5 ? `org,example)/${'x'.repeat(70_000)} 2026` : `org,example)/${rand() % 50}/é${rand() % 1000}${'ü'.repeat(rand() % 3)} ${20260000000000 + (rand() % 100)} {"i":${i % 40}}`);
}

describe('SortedLines', () => {
  it.each([[1, 10], [7, 1000], [1000, 2500], [100_000, 2500]])('at %i lines a run gives %i lines as a sort does', async (run, n) => {
    const lines = someLines(n);
    const sorted = new SortedLines(run);
    for (const l of lines) sorted.add(l);
    expect(await text(sorted.bytes())).toBe([...lines].sort().join('\n') + '\n');
  });

  // UTF-8 bytes order code points, and a plain sort orders UTF-16 code units: they disagree between a character past
  // U+FFFF (a surrogate pair, 0xD800-0xDFFF) and one in U+E000-U+FFFF. Lines with only one of the two merge as bytes.
  it.each([['past U+FFFF', ['𝄞', 'a']], ['in U+E000-U+FFFF', ['\uFF21', 'a']], ['both', ['𝄞', '\uFF21', 'a']]])('sorts lines with characters %s as a sort does', async (_, chars) => {
    const lines = someLines(700).map((l, i) => `org,example)/${chars[i % chars.length]}${l.slice(13)}`);
    const sorted = new SortedLines(100);
    for (const l of lines) sorted.add(l);
    expect(await text(sorted.bytes())).toBe([...lines].sort().join('\n') + '\n');
  });

  it('gives nothing for no lines', async () => {
    expect(await text(new SortedLines(3).bytes())).toBe('');
  });
});

describe('SpilledLines', () => {
  it('gives the lines back in the order added, across runs', async () => {
    const lines = someLines(2500);
    const list = new SpilledLines(333);
    for (const l of lines) list.add(l);
    expect(await text(list.bytes())).toBe(lines.join('\n') + '\n');
  });
});
