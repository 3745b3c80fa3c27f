// How a user's answers (the labeling queue, the labeler, a page they judged) enter the link model's
// counts. A crawl's model holds thousands of automatic labels, and the queue asks about links whose words are
// rare, so one answer can set a rare word's evidence on its own: 20 "off topic" answers about People links
// looked to teach the model that words they shared with other queued People links were off topic, and the crawl
// fetched fewer People pages than with no answers; measured, the loss is that of re-scoring People's queue early,
// which a Retrain with no answer costs as much (docs/benchmarks.md, "Labels that teach").
//
// The answered URL itself always takes the answer in full (the learner ranks it by the answer); what the policy
// decides is how much the answer's words say about other links:
//   full       each answer counts once, as an automatic label does, in its words and the class totals (what ships);
//   ignore     answers teach the model nothing (the bench's control: only the answered URL moves).
// `wordsOnly` (the bench's `full/words`) leaves the class totals alone: the queue picks the links it expects off
// topic, so its answers are no sample of the topic's base rate, and moving the class totals re-ranks every queued
// link a little (and, past the learner's drift bound, makes it re-score the whole frontier).
// Other weighings (shrinking a word's answer counts, one class at a lower weight, a word learned once k answers
// agree, training on error, the anchor's words only) were measured and removed: none did better than `full`
// (docs/benchmarks.md, "Labels that teach").
import type { Label } from './naive-bayes';

export type AnswerPolicy = { kind: 'full' | 'ignore'; wordsOnly?: boolean };

/**
 * The policy every link model applies to answers; the labels benchmark sets it (`--answer-policy`). `full`: no other
 * policy measured kept every case at least as good as with no answers and the other cases' gains (docs/benchmarks.md,
 * "Labels that teach").
 */
export const answerLearning: { policy: AnswerPolicy } = { policy: { kind: 'full' } };

export interface Counts {
  pos: number;
  neg: number;
}

/**
 * Plain-JSON form: answers per class, and `[feature, on, off]` rows of the answers that have each feature, each
 * answer counted at the weight it was learned with (1; a model saved while `surprise` was measured may hold less).
 */
export interface AnswerLedgerJSON {
  pos: number;
  neg: number;
  features: [string, number, number][];
}

/** The answers a link model learned, by feature, and the counts a policy makes of them. */
export class AnswerLedger {
  private readonly rows = new Map<string, Counts>();
  private pos = 0;
  private neg = 0;

  /** Answers learned, per class (integers: what the user said, before any policy). */
  get answers(): Counts {
    return { pos: this.pos, neg: this.neg };
  }

  features(): IterableIterator<string> {
    return this.rows.keys();
  }

  /** Learns one answer. */
  add(features: Iterable<string>, label: Label): void {
    for (const f of new Set(features)) {
      const c = this.rows.get(f) ?? { pos: 0, neg: 0 };
      if (label === 1) c.pos++;
      else c.neg++;
      this.rows.set(f, c);
    }
    if (label === 1) this.pos++;
    else this.neg++;
  }

  /** The class counts the model takes from the answers under `policy`. */
  classCounts(policy: AnswerPolicy): Counts {
    return policy.wordsOnly || policy.kind === 'ignore' ? { pos: 0, neg: 0 } : { pos: this.pos, neg: this.neg };
  }

  /** The counts of `feature` the model takes from the answers under `policy`. */
  featureCounts(feature: string, policy: AnswerPolicy): Counts {
    const c = this.rows.get(feature);
    return !c || policy.kind === 'ignore' ? { pos: 0, neg: 0 } : { pos: c.pos, neg: c.neg };
  }

  toJSON(): AnswerLedgerJSON {
    const features: [string, number, number][] = [];
    for (const [f, c] of this.rows) features.push([f, c.pos, c.neg]);
    return { pos: this.pos, neg: this.neg, features };
  }

  /** From validated `toJSON()` output. */
  static of(j: AnswerLedgerJSON): AnswerLedger {
    const ledger = new AnswerLedger();
    ledger.pos = j.pos;
    ledger.neg = j.neg;
    for (const [f, pos, neg] of j.features) ledger.rows.set(f, { pos, neg });
    return ledger;
  }
}
