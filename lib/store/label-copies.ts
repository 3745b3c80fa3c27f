// The labeled links this context's page commits wrote, kept until its learner reads them (issue 36).
//
// A crawl that learns from links to judged pages writes about sixteen labeled links a page, and its learner's
// catch-up (model.ts) read each of them back from the database right after. The catch-up still asks the database which
// labels of the topic came after its model's (their keys, in order: labels written by anyone else are among them),
// but the rows this context's commits wrote are taken from here instead of read again. So it learns the same labels,
// in the same order, at the same moments.
//
// A copy is what the commit wrote, given here only once its transaction committed. A label deleted since is not in the
// keys the catch-up reads, so its copy is never used; one changed in place (a relabel) moves its topic's revision, and
// every copy of a topic is dropped when its revision is seen to move. It is a copy: a killed worker loses nothing by it.
import type { LabeledLink } from '../types';
import type { CrawlerDB } from './db';

/**
 * Copies held per database connection, at most (the oldest go first): a few hundred bytes each, about 2 MB in all. A
 * catch-up takes them about once a commit batch, so a crawl holds a few dozen; a crawl whose learner never catches up
 * (learning off) holds up to this many.
 */
export const LABEL_COPIES = 5_000;

interface Copies {
  /** By label id, oldest first. */
  rows: Map<number, LabeledLink>;
  /** The revision each topic had when a catch-up last read it. */
  revisions: Map<number, number>;
}

const copies = new WeakMap<CrawlerDB, Copies>();

function of(db: CrawlerDB): Copies {
  let c = copies.get(db);
  if (!c) copies.set(db, (c = { rows: new Map(), revisions: new Map() }));
  return c;
}

/** After a commit's transaction committed: the labeled links it wrote, with their ids. */
export function keepLabels(db: CrawlerDB, rows: readonly LabeledLink[]): void {
  const c = of(db);
  for (const r of rows) if (r.id !== undefined) c.rows.set(r.id, r);
  while (c.rows.size > LABEL_COPIES) c.rows.delete(c.rows.keys().next().value!);
}

/**
 * For a catch-up that read the topic (at `revision`) and the ids of its labels after `afterId`, in order: the rows this
 * context holds for them (undefined where it holds none), taken out. Copies of the topic at or below `afterId` are
 * dropped (no catch-up asks for them again), and all of them when the topic's revision moved.
 */
export function takeLabels(db: CrawlerDB, topicId: number, revision: number, afterId: number, ids: readonly number[]): (LabeledLink | undefined)[] {
  const c = of(db);
  const moved = c.revisions.get(topicId) !== revision;
  c.revisions.set(topicId, revision);
  for (const [id, r] of c.rows) if (r.topicId === topicId && (moved || id <= afterId)) c.rows.delete(id);
  return ids.map((id) => {
    const r = c.rows.get(id);
    if (r) c.rows.delete(id);
    return r;
  });
}

/** Whether this context holds any copy (a catch-up without any reads the rows at once). */
export const holdsLabels = (db: CrawlerDB): boolean => (copies.get(db)?.rows.size ?? 0) > 0;
