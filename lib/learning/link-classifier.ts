// The link classifier that orders the frontier: P(+|F) of the link's features (design A.1-A.3, A.7).
import {
  ANCHOR_DICT_FEATURE, ANCHOR_PREFIX, anchorShape, CONTEXT_DICT_FEATURE, CONTEXT_PREFIX, HUB_PREFIX, isHubFeature, isParentFeature, isShapeFeature,
  linkFeatures, makeDictionary, PARENT_OFF_FEATURE, PARENT_ON_FEATURE, type FeatureGroup,
} from './link-features';
import { tokenize } from '../parse/tokenize';
import { logistic, NaiveBayes, type Label, type NaiveBayesJSON } from './naive-bayes';
import { DEFAULT_SCORING, type LinkScoring } from '../records/classifier-config';
import { isCount, SavedModel, type SavedFields } from './saved-model';
import { AnswerLedger, answerLearning, type AnswerLedgerJSON } from './answer-evidence';


export interface LinkText {
  anchor: string;
  context: string;
  /** Whether the page the link is on is on topic, when known (the parent-page feature). */
  parentOnTopic?: boolean;
  /** The parent page's hub bucket (link-features.ts, `hubBucket`), when it links to labeled pages. */
  parentHub?: number;
}

/** What a frontier entry keeps of the links found to it: how many, the sum of their log-odds and the best one's. */
export interface Inlinks {
  n: number;
  sum: number;
  best: number;
}

/**
 * A URL's log-odds from every link found to it: the mean of its best link's and of all its links' log-odds.
 * One link: that link's. The best link alone lets one hopeful anchor on an off-topic hub outrank a page that
 * several on-topic pages link to; the mean alone would bury a page linked once by a clear anchor and often
 * by navigation. On the topic sweep this raised harvest most where online learning had most to learn from
 * (docs/benchmarks.md, "Every topic").
 */
export function urlLogOdds(inlinks: Inlinks): number {
  return (inlinks.best + inlinks.sum / inlinks.n) / 2;
}

/** The pseudo-count of `base-rate` smoothing: how many examples a feature needs before it counts as much as its own rate. */
const SHRINK_M = 4;

/**
 * How the evidence of the two feature groups is combined into log-odds:
 * - `independent`: textbook Naive Bayes (design A.1), every feature counted as independent evidence;
 * - `context-mean`: the anchor's features count in full, the context's are damped by their number
 *   (`LinkScoring.contextDamping`; 1, their mean, is how this was first measured).
 *   A link has 1-3 anchor words but 15-25 context words within the A.4 window, and those are strongly
 *   correlated (they describe the page the link sits on, not its target); summed, they swamp the anchor.
 *   On Wikispeedia (Science from English_language, 1,000 fetches, real browser, one run each) this raised
 *   harvest from 0.566 to 0.663.
 */
export type Evidence = 'independent' | 'context-mean';

export interface LinkClassifierJSON {
  kind: 'link-classifier';
  version: 1;
  keywords: string[];
  group: FeatureGroup;
  evidence: Evidence;
  /** Whether `model` holds the two keyword pseudo-examples (see the constructor). */
  seeded: boolean;
  model: NaiveBayesJSON;
  /** The user's answers, which `model` does not hold: their counts depend on the answer policy (answer-evidence.ts). */
  answers?: AnswerLedgerJSON;
}

export class LinkClassifier {
  readonly keywords: readonly string[];
  readonly group: FeatureGroup;
  readonly evidence: Evidence;
  private readonly dictionary: Set<string>;
  // Not readonly only so that fromJSON can put a restored model in place.
  private model: NaiveBayes;
  private seeded: boolean;
  private answers = new AnswerLedger();
  /** Feature weights and class totals as they were before the answers learned since the last `answerMoves`. */
  private weightsBefore = new Map<string, number>();
  private totalsBefore: { pos: number; neg: number } | null = null;
  /** Scratch for `contextMeanByWords`: the words of one group met so far (a feature counts once). */
  private readonly wordsSeen = new Set<string>();

  /**
   * With keywords but no labeled links yet the crawl must still be guided, so the model starts from two
   * pseudo-examples (a choice design A leaves open; the paper starts from 67,600 labeled links instead):
   * - one positive link whose anchor and context are the keywords: every keyword feature (a:w, c:w,
   *   A:dict, C:dict) gets Count(F,+) = 1, Count(F,-) = 0;
   * - one negative link with no features, which only balances the class prior at 1:1.
   * With alpha = 1 each matching feature then has likelihood ratio (1+1)/(1+2) : (0+1)/(1+2) = 2, so a link
   * with a keyword in its anchor (a:w and A:dict) scores 4/(4+1) = 0.8 (so does one with a keyword only in
   * its context: the seed does not presume which is stronger, the labels will tell), one with a keyword in
   * both scores 16/17 = 0.94, and a link without keyword words has only unseen features and scores 0.5. They weigh as much as one real label per class, so real labels soon outweigh them.
   * They stay in the model (and its JSON) but are not reported in `examples`.
   */
  constructor(keywords: readonly string[], opts: { group?: FeatureGroup; alpha?: number; evidence?: Evidence } = {}) {
    this.keywords = [...keywords];
    this.group = opts.group ?? 2;
    this.evidence = opts.evidence ?? 'context-mean';
    this.dictionary = makeDictionary(keywords);
    this.model = new NaiveBayes({ alpha: opts.alpha, prefixes: WORD_PREFIXES });
    this.seeded = this.dictionary.size > 0;
    if (this.seeded) {
      const keywordText = this.keywords.join(' ');
      // The keywords are not an anchor: their shape says nothing of a link's.
      this.model.learn(this.features({ anchor: keywordText, context: keywordText }).filter((f) => !isShapeFeature(f)), 1);
      this.model.learn([], 0);
    }
  }

  /** The features the model sees for a link (design A.3); exposed for inspection and evaluation. */
  features(link: LinkText): string[] {
    return linkFeatures(link, this.dictionary, this.group);
  }

  /** P(+|F): the predicted relevance of the page the link points to. */
  score(link: LinkText, scoring: LinkScoring = DEFAULT_SCORING): number {
    return this.rank(link, scoring).score;
  }

  /**
   * The log-odds log P(+|F)/P(-|F), which orders the frontier (it never saturates, where the posterior
   * rounds to 1.0 in double precision), and the posterior itself.
   */
  rank(link: LinkText, scoring: LinkScoring = DEFAULT_SCORING): { logOdds: number; score: number } {
    if (this.group !== 2 || this.evidence !== 'context-mean' || scoring.smoothing !== 'laplace') return this.rankByFeatures(link, scoring);
    const logOdds = this.contextMeanByWords(link, scoring);
    return { logOdds, score: logistic(logOdds) };
  }

  /**
   * `rank` as the model's definition reads: the link's feature list (`features`), the features the scoring counts, then
   * the evidence of each group. Every scoring takes this path but the default's (group 2, context-mean, Laplace), for
   * which `rank` computes the same numbers from the link's words without making the list.
   */
  rankByFeatures(link: LinkText, scoring: LinkScoring = DEFAULT_SCORING): { logOdds: number; score: number } {
    let features = this.features(link);
    // The page's evidence is one feature: P:on / P:off, or (with parentHub, where known) the same joined with its hub bucket.
    const hub = scoring.parentPage && scoring.parentHub && features.some(isHubFeature);
    features = features.filter((f) => (isHubFeature(f) ? hub : isParentFeature(f) ? scoring.parentPage && !hub : isShapeFeature(f) ? scoring.anchorShape : true));
    const logOdds = this.evidence === 'independent' ? this.logOdds(features, scoring) : this.contextMeanLogOdds(features, scoring);
    return { logOdds, score: logistic(logOdds) };
  }

  private logOdds(features: string[], scoring: LinkScoring): number {
    return scoring.smoothing === 'base-rate' ? this.model.logOddsShrunk(features, SHRINK_M) : this.model.logOdds(features);
  }

  /**
   * `contextMeanLogOdds(features)` with Laplace smoothing, for group 2, read from the link's words: each word's feature
   * is looked up by word in the model's index of its prefix, so no "a:"/"c:" string, feature list or group list is
   * made per link. The terms are those `rankByFeatures` sums, in the same order (linkFeatures': parent, hub, anchor
   * words, shape, context words, the two dictionary flags), so the number is the same to the last bit (a test holds it so).
   */
  private contextMeanByWords(link: LinkText, scoring: LinkScoring): number {
    const model = this.model;
    const { prior, denominator } = model.classTerms();
    let anchorSum = 0, anchorSeen = 0, anchorCount = 0;
    let contextSum = 0, contextSeen = 0, contextCount = 0;
    let w: number | undefined;
    const hub = scoring.parentPage && scoring.parentHub && link.parentHub !== undefined;
    if (link.parentOnTopic !== undefined && scoring.parentPage && !hub) {
      anchorCount++;
      if ((w = model.weight(link.parentOnTopic ? PARENT_ON_FEATURE : PARENT_OFF_FEATURE)) !== undefined) (anchorSum += w), anchorSeen++;
    }
    if (hub) {
      anchorCount++;
      if ((w = model.weight(HUB_PREFIX + (link.parentOnTopic === undefined ? '' : link.parentOnTopic ? 'on' : 'off') + link.parentHub)) !== undefined) (anchorSum += w), anchorSeen++;
    }
    const words = this.wordsSeen;
    let anchorHasDictWord = false;
    for (const word of tokenize(link.anchor)) {
      if (!anchorHasDictWord && this.dictionary.has(word)) anchorHasDictWord = true;
      if (words.has(word)) continue;
      words.add(word);
      anchorCount++;
      if ((w = model.weight(ANCHOR_PREFIX, word)) !== undefined) (anchorSum += w), anchorSeen++;
    }
    words.clear();
    const shape = scoring.anchorShape ? anchorShape(link.anchor) : undefined;
    if (shape !== undefined) {
      contextCount++;
      if ((w = model.weight(shape)) !== undefined) (contextSum += w), contextSeen++;
    }
    let contextHasDictWord = false;
    for (const word of tokenize(link.context)) {
      if (!contextHasDictWord && this.dictionary.has(word)) contextHasDictWord = true;
      if (words.has(word)) continue;
      words.add(word);
      contextCount++;
      if ((w = model.weight(CONTEXT_PREFIX, word)) !== undefined) (contextSum += w), contextSeen++;
    }
    words.clear();
    if (anchorHasDictWord) {
      anchorCount++;
      if ((w = model.weight(ANCHOR_DICT_FEATURE)) !== undefined) (anchorSum += w), anchorSeen++;
    }
    if (contextHasDictWord) {
      contextCount++;
      if ((w = model.weight(CONTEXT_DICT_FEATURE)) !== undefined) (contextSum += w), contextSeen++;
    }
    // NaiveBayes.logOdds of each group, and of no feature (the prior), as contextMeanLogOdds takes them.
    const anchorEvidence = anchorCount ? prior + anchorSum + (anchorSeen === 0 ? 0 : anchorSeen * denominator) - prior : 0;
    const contextEvidence = contextCount
      ? (prior + contextSum + (contextSeen === 0 ? 0 : contextSeen * denominator) - prior) / contextCount ** scoring.contextDamping
      : 0;
    return prior + anchorEvidence + contextEvidence;
  }

  private contextMeanLogOdds(features: string[], scoring: LinkScoring): number {
    const anchor: string[] = [];
    const context: string[] = [];
    for (const f of features) (isAnchorFeature(f) ? anchor : context).push(f);
    const prior = this.logOdds([], scoring);
    const anchorEvidence = anchor.length ? this.logOdds(anchor, scoring) - prior : 0;
    const contextEvidence = context.length ? (this.logOdds(context, scoring) - prior) / context.length ** scoring.contextDamping : 0;
    return prior + anchorEvidence + contextEvidence;
  }

  /** Learns a labeled link, counted `times` times (a user's answer weighs more than an automatic label). */
  learn(link: LinkText, label: Label, times = 1): void {
    this.model.learn(this.features(link), label, times);
  }

  /**
   * Learns a user's answer about a link: its words enter the model as the answer policy weighs them
   * (answer-evidence.ts), and what they move is kept for `answerMoves`.
   */
  learnAnswer(link: LinkText, label: Label): void {
    const features = new Set(this.features(link));
    this.totalsBefore ??= this.model.totals;
    for (const f of features) if (!this.weightsBefore.has(f)) this.weightsBefore.set(f, this.weightOf(f));
    this.answers.add(features, label);
    this.applyAnswers(features);
  }

  private applyAnswers(features: Iterable<string>): void {
    const policy = answerLearning.policy;
    for (const f of features) {
      const c = this.answers.featureCounts(f, policy);
      this.model.setExtra(f, c.pos, c.neg);
    }
    const k = this.answers.classCounts(policy);
    this.model.setExtraClasses(k.pos, k.neg);
  }

  private weightOf(feature: string): number {
    const { pos, neg } = this.model.countsOf(feature);
    return Math.log(pos + this.model.alpha) - Math.log(neg + this.model.alpha);
  }

  /** Exact inverse of `learn` with the same link and label (e.g. when a user corrects a label). */
  unlearn(link: LinkText, label: Label): void {
    this.model.unlearn(this.features(link), label);
  }

  /**
   * What the answers learned since the last call moved (partial re-score): the features whose evidence
   * moved by more than `tolerance` in log-odds (the links that share one are the ones the answers re-rank), and
   * `drift`, a bound on how far it moved every other link through the class counts alone (the prior, and each
   * present feature's denominator). A feature seen thousands of times hardly moves; a name seen twice moves a
   * lot; with thousands of labeled links the drift is a few thousandths. Starts the next call's tally afresh.
   */
  answerMoves(tolerance: number): { features: Set<string>; drift: number } {
    const features = new Set<string>();
    for (const [f, before] of this.weightsBefore) if (Math.abs(this.weightOf(f) - before) > tolerance) features.add(f);
    const now = this.model.totals;
    const then = this.totalsBefore ?? now;
    const alpha = this.model.alpha;
    const prior = (p: number, q: number) => Math.log(p + 1) - Math.log(q + 1);
    const denominator = (p: number, q: number) => Math.log(q + 2 * alpha) - Math.log(p + 2 * alpha);
    // Present features a link's log-odds counts in full: its anchor's few, and its context's, damped to about
    // n^(1/4) of them (contextDamping 0.75); independent evidence counts every one of some 40.
    const counted = this.evidence === 'independent' ? 40 : 10;
    const drift = Math.abs(prior(now.pos, now.neg) - prior(then.pos, then.neg)) +
      counted * Math.abs(denominator(now.pos, now.neg) - denominator(then.pos, then.neg));
    this.weightsBefore.clear();
    this.totalsBefore = null;
    return { features, drift };
  }

  /** Real labeled links learned so far (the keyword pseudo-examples are not counted). */
  get examples(): { pos: number; neg: number } {
    const { pos, neg } = this.model.examples;
    const a = this.answers.answers;
    return this.seeded ? { pos: pos - 1 + a.pos, neg: neg - 1 + a.neg } : { pos: pos + a.pos, neg: neg + a.neg };
  }

  /** The features that most favour `label`, by log-likelihood ratio (for the dashboard). */
  topFeatures(label: Label, n: number): { feature: string; weight: number }[] {
    return this.model.topFeatures(label, n);
  }

  toJSON(): LinkClassifierJSON {
    return {
      kind: 'link-classifier',
      version: 1,
      keywords: [...this.keywords],
      group: this.group,
      evidence: this.evidence,
      seeded: this.seeded,
      model: this.model.toJSON(),
      answers: this.answers.toJSON(),
    };
  }

  /** Rebuilds a classifier from `toJSON()` output; throws a TypeError on a malformed value. */
  static fromJSON(j: unknown): LinkClassifier {
    const saved = new SavedModel('LinkClassifier');
    const o = saved.fields(j, 'link-classifier', 'link classifier');
    const keywords = saved.strings(o.keywords, 'keywords');
    if (o.group !== 1 && o.group !== 2) return saved.fail('group is not 1 or 2');
    if (typeof o.seeded !== 'boolean') return saved.fail('seeded is not a boolean');
    if (o.evidence !== 'independent' && o.evidence !== 'context-mean') return saved.fail('evidence is not "independent" or "context-mean"');
    const model = NaiveBayes.fromJSON(o.model, { prefixes: WORD_PREFIXES });
    const { pos, neg } = model.examples;
    if (o.seeded && (pos < 1 || neg < 1)) return saved.fail('seeded model lacks its pseudo-examples');
    // Saved before answers were kept apart: they are in `model`'s counts, at full weight.
    let answers: AnswerLedgerJSON | undefined;
    if (o.answers !== undefined) {
      if (typeof o.answers !== 'object' || o.answers === null) return saved.fail('answers is not an object');
      const a = o.answers as SavedFields;
      if (!isCount(a.pos) || !isCount(a.neg)) return saved.fail('answers: pos/neg are not non-negative integers');
      answers = { pos: a.pos, neg: a.neg, features: saved.weightRows(a.features, 'answers', 'answer feature', { pos: a.pos, neg: a.neg }) };
    }
    // Construct normally (the seeding is cheap), then put the saved model in place of the fresh one.
    const classifier = new LinkClassifier(keywords, { group: o.group, alpha: model.alpha, evidence: o.evidence });
    classifier.model = model;
    classifier.seeded = o.seeded;
    if (answers) {
      classifier.answers = AnswerLedger.of(answers);
      classifier.applyAnswers(classifier.answers.features());
    }
    return classifier;
  }
}

/** The word features the model indexes by word, so that scoring a link reads them without making their names. */
const WORD_PREFIXES = [ANCHOR_PREFIX, CONTEXT_PREFIX];

/**
 * Features counted in full: anchor words, the "anchor has a dictionary word" flag (design A.3), the parent page's.
 * The rest (context words and flag, the anchor's shape) are damped together.
 */
const isAnchorFeature = (f: string): boolean => f.startsWith('a:') || f === ANCHOR_DICT_FEATURE || isParentFeature(f) || isHubFeature(f);
