// Files that fit on a few screens: no file in lib/ or entrypoints/ over 450 lines, whatever its kind (TypeScript,
// CSS, HTML). A file that grows past it has more than one job: split it at its seams.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const MAX_LINES = 450;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Lines as `wc -l` counts them: the newlines in the file. */
const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;

describe('file length', () => {
  it(`no file in lib/ or entrypoints/ has more than ${MAX_LINES} lines`, () => {
    const files = ['lib', 'entrypoints'].flatMap((d) => filesUnder(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files.map((f) => ({ file: relative(ROOT, f), lines: linesOf(f) })).filter((f) => f.lines > MAX_LINES);
    expect(tooLong.map((f) => `${f.file}: ${f.lines} lines`)).toEqual([]);
  });
});
