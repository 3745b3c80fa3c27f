// A URL's authority among the pages the user labeled: how many of the labeled pages that link to it are on
// topic (design C's authority score, read from labels instead of the link graph). The mirror of the parent-hub
// feature (link-features.ts): a hub is a page whose links lead on topic, an authority a page that on-topic
// pages link to.
import { hubBucket } from './link-features';

/** Buckets of `hubBucket`: 0 (no on-topic in-linker) to 5 (four times the base share or more). */
const BUCKETS = 6;

/** What the authority was fitted on (the crawl logs it). */
export interface AuthorityFit {
  /** Per bucket: labeled pages [off topic, on topic] whose labeled in-linkers fall in it. */
  counts: [number, number][];
  /** Per bucket: the log-odds it adds to a URL's score. */
  logOdds: number[];
}

/**
 * The labeled pages' out-links, counted per target, and what each bucket of the on-topic share says of a
 * target, fitted on the targets that are labeled pages themselves (each counted once). A bucket's log-odds is
 * how much more often its targets are on topic than labeled targets overall, its rate shrunk toward the
 * overall one by `SHRINK` pseudo-targets:
 *   rate(b) = (on(b) + SHRINK * r) / (n(b) + SHRINK),   logOdds(b) = logit(rate(b)) - logit(r).
 * A bucket with few targets says little, and one with none says nothing. Add-one smoothing per class would
 * instead lift an empty bucket by log((1/18) / (1/1006)) = 4 on a topic of 12 labeled positives and 1,000
 * negatives (the topic sweep's IT lost 0.15-0.17 of the oracle to it).
 * A target's own label never enters its share (its in-linkers are other pages), so the labeled targets
 * measure the signal as it will be met on unlabeled URLs.
 */
export class TargetAuthority {
  private readonly inlinks = new Map<string, { k: number; n: number }>();
  private fitted: AuthorityFit | null = null;

  /** `base`: the share of positives among the labeled pages, which a bucket is measured against. */
  constructor(readonly base: number) {}

  /** A labeled page's out-links (normalized, each target once, the page itself left out). */
  add(pageLabel: 0 | 1, targets: Iterable<string>): void {
    for (const url of targets) {
      const t = this.inlinks.get(url);
      if (t) {
        t.k += pageLabel;
        t.n += 1;
      } else this.inlinks.set(url, { k: pageLabel, n: 1 });
    }
    this.fitted = null;
  }

  /** The bucket of a URL's labeled in-linkers, or undefined when no labeled page links to it. */
  bucket(url: string): number | undefined {
    const t = this.inlinks.get(url);
    return t && hubBucket(t.k, t.n, this.base);
  }

  /** Fits the buckets' log-odds on the targets `label` knows; again after pages were added. */
  fit(label: (url: string) => 0 | 1 | undefined): AuthorityFit {
    const counts: [number, number][] = Array.from({ length: BUCKETS }, () => [0, 0]);
    let on = 0, n = 0;
    for (const [url, t] of this.inlinks) {
      const l = label(url);
      if (l === undefined) continue;
      counts[hubBucket(t.k, t.n, this.base)!]![l]++;
      on += l;
      n++;
    }
    // No labeled target of one class or the other: nothing to compare, every bucket says nothing.
    const r = on / n;
    const logOdds = counts.map(([off, onB]) => (on === 0 || on === n ? 0 : logit((onB + SHRINK * r) / (off + onB + SHRINK)) - logit(r)));
    this.fitted = { counts, logOdds };
    return this.fitted;
  }

  /** The latest fit, or null when pages were added since (or it was never fitted). */
  get lastFit(): AuthorityFit | null {
    return this.fitted;
  }

  /** What the URL's authority adds to its log-odds: 0 until fitted, and for a URL no labeled page links to. */
  logOdds(url: string): number {
    if (!this.fitted) return 0;
    const b = this.bucket(url);
    return b === undefined ? 0 : this.fitted.logOdds[b]!;
  }

  /** Targets counted so far. */
  get size(): number {
    return this.inlinks.size;
  }
}

/** Pseudo-targets at the overall rate that each bucket's rate is shrunk with. */
const SHRINK = 4;

const logit = (p: number): number => Math.log(p / (1 - p));
