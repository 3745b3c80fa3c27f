// Reading back a model saved with `toJSON()` (from IndexedDB, or a model bundle a user imports). A damaged or
// foreign value is refused whole with a TypeError that names the model and what is wrong, never half loaded.

export type SavedFields = Record<string, unknown>;

/** A count of examples or words: a non-negative integer. */
export function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}

export class SavedModel {
  constructor(private readonly model: string) {}

  fail(why: string): never {
    throw new TypeError(`${this.model}.fromJSON: ${why}`);
  }

  /** The saved fields, when `j` is an object of this `kind` at version 1 (`described` as in "not a version 1 …"). */
  fields(j: unknown, kind: string, described: string): SavedFields {
    if (typeof j !== 'object' || j === null) return this.fail('not an object');
    const o = j as SavedFields;
    if (o.kind !== kind || o.version !== 1) return this.fail(`not a version 1 ${described}`);
    return o;
  }

  strings(x: unknown, field: string): string[] {
    if (!Array.isArray(x) || !x.every((k) => typeof k === 'string')) return this.fail(`${field} is not an array of strings`);
    return x as string[];
  }

  /**
   * `[key, pos, neg]` rows: each key once, counted at least once, and, given `totals`, no count above its
   * class's total. `field` is the array's name ("words"), `row` one row's ("word").
   */
  countRows(x: unknown, field: string, row: string, totals?: { pos: number; neg: number }): [string, number, number][] {
    if (!Array.isArray(x)) return this.fail(`${field} is not an array`);
    const seen = new Set<string>();
    for (const r of x as unknown[]) {
      if (!Array.isArray(r) || r.length !== 3 || typeof r[0] !== 'string') return this.fail(`bad ${row} row`);
      const [key, pos, neg] = r as [string, unknown, unknown];
      if (!isCount(pos) || !isCount(neg) || pos + neg === 0 || (totals && (pos > totals.pos || neg > totals.neg))) {
        return this.fail(`bad counts for ${row} "${key}"`);
      }
      if (seen.has(key)) return this.fail(`duplicate ${row} "${key}"`);
      seen.add(key);
    }
    return x as [string, number, number][];
  }

  /** As `countRows`, for weighted counts: non-negative numbers, not only integers. */
  weightRows(x: unknown, field: string, row: string, totals: { pos: number; neg: number }): [string, number, number][] {
    if (!Array.isArray(x)) return this.fail(`${field} is not an array`);
    const seen = new Set<string>();
    const weight = (w: unknown, total: number) => typeof w === 'number' && w >= 0 && w <= total;
    for (const r of x as unknown[]) {
      if (!Array.isArray(r) || r.length !== 3 || typeof r[0] !== 'string') return this.fail(`bad ${row} row`);
      const [key, pos, neg] = r as [string, unknown, unknown];
      if (!weight(pos, totals.pos) || !weight(neg, totals.neg)) return this.fail(`bad counts for ${row} "${key}"`);
      if (seen.has(key)) return this.fail(`duplicate ${row} "${key}"`);
      seen.add(key);
    }
    return x as [string, number, number][];
  }
}
