// The labeled links this context's page commits wrote, kept until its learner reads them.
//
// A crawl that learns from links to judged pages writes about six labeled links a page, packed a commit's worth to a
// row (label-packs.ts), and its learner's catch-up (model.ts) read each of them back from the database right after.
// The catch-up still asks the database which rows of the topic's labels came after its model's (their keys, in order:
// labels written by anyone else are among them), but the labels this context's commits wrote are taken from here
// instead of read again. So it learns the same labels, in the same order, at the same moments.
//
// A copy is what the commit wrote, given here only once its transaction committed. A pack deleted since is not in the
// keys the catch-up reads, so its copy is never used; one changed in place (a relabel or a deletion leaves a hole)
// moves its topic's revision, and every copy of a topic is dropped when its revision is seen to move. It is a copy: a
// killed worker loses nothing by it.
import type { LabeledLink } from '../records/types';
import { type LabelPack, unpack } from './label-packs';
import type { CrawlerDB } from './db';

/**
 * Labels held per database connection, at most (the oldest packs go first): a few hundred bytes each, about 2 MB in
 * all. A catch-up takes them about once a commit batch, so a crawl holds a few dozen; a crawl whose learner never
 * catches up (learning off) holds up to this many.
 */
export const LABEL_COPIES = 5_000;

interface Copies {
  /** Each pack's labels by its key, oldest first. */
  rows: Map<number, { topicId: number; labels: LabeledLink[] }>;
  /** Labels in `rows`. */
  size: number;
  /** The revision each topic had when a catch-up last read it. */
  revisions: Map<number, number>;
}

const copies = new WeakMap<CrawlerDB, Copies>();

function of(db: CrawlerDB): Copies {
  let c = copies.get(db);
  if (!c) copies.set(db, (c = { rows: new Map(), size: 0, revisions: new Map() }));
  return c;
}

function drop(c: Copies, key: number): void {
  c.size -= c.rows.get(key)?.labels.length ?? 0;
  c.rows.delete(key);
}

/** After a commit's transaction committed: the packs it wrote, with their keys. */
export function keepLabels(db: CrawlerDB, packs: readonly LabelPack[]): void {
  const c = of(db);
  for (const p of packs) {
    if (p.id === undefined) continue;
    const labels = unpack(p);
    c.rows.set(p.id, { topicId: p.topicId, labels });
    c.size += labels.length;
  }
  while (c.size > LABEL_COPIES) drop(c, c.rows.keys().next().value!);
}

/**
 * For a catch-up that read the topic (at `revision`) and the keys of its label rows from `afterId`'s on, in order: the
 * labels this context holds for each (undefined where it holds none), taken out. Copies of the topic whose labels are
 * all at or below `afterId` are dropped (no catch-up asks for them again), and all of them when the topic's revision
 * moved.
 */
export function takeLabels(db: CrawlerDB, topicId: number, revision: number, afterId: number, keys: readonly number[]): (LabeledLink[] | undefined)[] {
  const c = of(db);
  const moved = c.revisions.get(topicId) !== revision;
  c.revisions.set(topicId, revision);
  for (const [key, r] of c.rows) if (r.topicId === topicId && (moved || r.labels.every((l) => l.id! <= afterId))) drop(c, key);
  return keys.map((key) => {
    const r = c.rows.get(key);
    if (r) drop(c, key);
    return r?.labels;
  });
}

/** Whether this context holds any copy (a catch-up without any reads the rows at once). */
export const holdsLabels = (db: CrawlerDB): boolean => (copies.get(db)?.rows.size ?? 0) > 0;
