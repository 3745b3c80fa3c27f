// Questions by doubt: the frontier links the link classifier is least sure about (uncertainty sampling, weighted by
// how representative a link is of the frontier). The dashboard's queue asked these until it measured worse than
// ranking by what an answer changes (question-value.ts); the labels benchmark keeps it as its `doubt` choice.
//
// The rule, in order:
// 1. Links whose URL is already labeled are left out.
// 2. Links with the same anchor and context (the same navigation link on many pages, say) are one item: they
//    have the same features, so one label teaches the model the same thing; the item carries their count and
//    their distinct URLs.
// 3. Items are ordered by how close the posterior P(+|F) is to 0.5, in buckets of |P - 0.5| of width 0.05
//    (0.45..0.55 first, then 0.40..0.45 and 0.55..0.60, ...): within a bucket the model is about equally
//    unsure, and a finer order would only follow noise in the counts.
// 4. Within a bucket, the item most like the other candidates comes first: a label on a link whose words
//    are common teaches the model about many links. Its "density" is the information density of Settles &
//    Craven (2008, "An analysis of active learning strategies for sequence labeling tasks"): the sum of its
//    cosine similarities to all candidate links, duplicates included, over binary feature vectors. It is
//    computed exactly in linear time as sum over the item's features f of w(f) / sqrt(|item|), where
//    w(f) = sum over the candidates L containing f of 1 / sqrt(|L|). Cosine, not a plain count of shared
//    features, so links with long contexts are not favoured for their length alone.
// 5. Ties: more duplicates first, then by URL, so the order is deterministic.
import type { LinkClassifier, LinkText } from './link-classifier';

export interface FrontierLink extends LinkText {
  url: string;
}

export interface QueueItem<T extends FrontierLink> {
  /** The first candidate with this anchor and context. */
  link: T;
  /** Distinct unlabeled URLs that share this anchor and context, `link.url` first. */
  urls: string[];
  /** Candidates collapsed into this item. */
  count: number;
  /** P(+|F) under the current model. */
  score: number;
  /** floor(|score - 0.5| / bucketWidth): 0 is the least sure. */
  bucket: number;
  /** Sum of cosine similarities to all candidates (itself and its duplicates count 1 each). */
  density: number;
}

/** What the queue needs of a model: a `LinkClassifier` (its features decide which links are alike). */
export type LinkScorer = Pick<LinkClassifier, 'features' | 'score'>;

export interface QueueOptions {
  /** URLs that already have a label: never queued. */
  labeled?: ReadonlySet<string>;
  /** Items returned. Default 50. */
  limit?: number;
  /** Width of the |P - 0.5| buckets. Default 0.05. */
  bucketWidth?: number;
}

/** The candidates to label next, least sure and most representative first (the rule above). */
export function labelingQueue<T extends FrontierLink>(
  candidates: readonly T[],
  classifier: LinkScorer,
  opts: QueueOptions = {},
): QueueItem<T>[] {
  const labeled = opts.labeled ?? new Set<string>();
  const limit = opts.limit ?? 50;
  const width = opts.bucketWidth ?? 0.05;
  if (!(width > 0)) throw new RangeError(`bucketWidth must be positive, got ${width}`);

  // 1-2: drop labeled URLs, collapse identical anchor + context.
  const groups = new Map<string, { link: T; urls: Set<string>; count: number }>();
  for (const link of candidates) {
    if (labeled.has(link.url)) continue;
    const key = `${link.anchor}\u0000${link.context}`;
    const group = groups.get(key);
    if (group) (group.count++, group.urls.add(link.url));
    else groups.set(key, { link, urls: new Set([link.url]), count: 1 });
  }

  // 4: w(f) over every candidate, duplicates included (a group of n adds n / sqrt(|L|)).
  const items = [...groups.values()].map((g) => ({ ...g, features: classifier.features(g.link) }));
  const weight = new Map<string, number>();
  for (const item of items) {
    if (item.features.length === 0) continue;
    const share = item.count / Math.sqrt(item.features.length);
    for (const f of item.features) weight.set(f, (weight.get(f) ?? 0) + share);
  }

  const queue = items.map(({ link, urls, count, features }): QueueItem<T> => {
    const score = classifier.score(link);
    let density = 0;
    for (const f of features) density += weight.get(f)!;
    if (features.length > 0) density /= Math.sqrt(features.length);
    // The epsilon keeps exact bucket edges (P = 0.6 is |P - 0.5| = 0.1 = 2 widths) out of floating-point error.
    const bucket = Math.floor(Math.abs(score - 0.5) / width + 1e-9);
    return { link, urls: [...urls], count, score, bucket, density };
  });
  queue.sort(
    (a, b) =>
      a.bucket - b.bucket ||
      b.density - a.density ||
      b.count - a.count ||
      (a.link.url < b.link.url ? -1 : a.link.url > b.link.url ? 1 : 0),
  );
  return queue.slice(0, Math.max(0, limit));
}
