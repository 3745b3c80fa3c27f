// The page judge: is a *fetched* page on topic? It gives the harvest rate (design A.8, "Metrics") and the
// verdicts the link classifier can learn from. Design A.5 warns that page text and link contexts have
// different word distributions, so this is a separate model over page words, not the link classifier.
import { logistic, type Label } from './naive-bayes';
import { DEFAULT_JUDGE_SMOOTHING } from '../records/classifier-config';
import { makeDictionary } from './link-features';
import { isCount, SavedModel } from './saved-model';
import { tokenize } from '../parse/tokenize';

export interface PageText {
  title: string;
  text: string;
  /** The page's links: words in anchors are navigation more often than content, and weigh less. */
  links?: readonly { anchor: string }[];
}

export interface PageVerdict {
  /** Probability-like relevance in [0,1]. */
  relevance: number;
  relevant: boolean;
  /** 'model' once the judge has MIN_EXAMPLES_PER_CLASS labeled pages of each class, else 'keywords'. */
  by: 'model' | 'keywords';
}

export interface PageJudgeJSON {
  kind: 'page-judge';
  version: 1;
  keywords: string[];
  threshold: number;
  /** Labeled pages per class. */
  pos: number;
  neg: number;
  /** Word occurrences per class (title words counted TITLE_WEIGHT times). */
  posWords: number;
  negWords: number;
  /** Rows [word, occurrences in positive pages, occurrences in negative pages]. */
  words: [string, number, number][];
}

/** Fewer labeled pages than this in either class and the model's estimates are noise: use the keywords. */
export const MIN_EXAMPLES_PER_CLASS = 3;
/** A title names what a page is about; its words count as this many occurrences. */
const TITLE_WEIGHT = 3;
/** Only the start of the text is read: enough to judge the topic, and bounded cost on huge pages. */
const MAX_TEXT_CHARS = 20_000;

// Keyword judge, relevance = 1 - exp(-(TITLE_HIT_EVIDENCE [if a keyword is in the title]
//                                      + BODY_EVIDENCE * keywords per 100 words of text outside links
//                                      + LINK_EVIDENCE * keywords in anchors per 100 words of text)).
// A keyword in the title alone gives 0.78; 2 keywords per 100 words of prose (an article about the topic)
// give 0.63. Keywords in link text count a tenth as much: a home page, a news list or a recipe whose
// menu links to "Sky and Space" pages is not about the sky (on the demo site those made the keyword judge
// call 22 of 26 pages relevant where 14 are). English plurals match their keyword (stars, nebulae, moons).
const TITLE_HIT_EVIDENCE = 1.5;
const BODY_EVIDENCE = 0.5;
const LINK_EVIDENCE = 0.05;
/** Links alone never make a page relevant: at most 1 - exp(-0.5) = 0.39. */
const MAX_LINK_EVIDENCE = 0.5;

interface WordCounts {
  pos: number;
  neg: number;
}

export class PageJudge {
  readonly keywords: readonly string[];
  readonly threshold: number;
  private readonly dictionary: Set<string>;
  private pos = 0;
  private neg = 0;
  private posWords = 0;
  private negWords = 0;
  private readonly words = new Map<string, WordCounts>();

  constructor(keywords: readonly string[], threshold = 0.5) {
    if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`PageJudge: threshold ${threshold} not in [0,1]`);
    this.keywords = [...keywords];
    this.threshold = threshold;
    this.dictionary = makeDictionary(keywords);
  }

  get examples(): { pos: number; neg: number } {
    return { pos: this.pos, neg: this.neg };
  }

  /** A judge with the same keywords and threshold that has learned nothing. */
  emptyCopy(): PageJudge {
    return new PageJudge(this.keywords, this.threshold);
  }

  learn(page: PageText, label: Label): void {
    this.add(page, label, 1);
  }

  /**
   * Learns a page from its words alone (`termFrequencies` of it): the same as `learn` of the page. A crawl shared by
   * several browsers hands each worker the labeled pages the others read, so.
   */
  learnTerms(terms: Iterable<[string, number]>, label: Label): void {
    this.add({ title: '', text: '' }, label, 1, new Map(terms));
  }

  /** Exact inverse of `learn` with the same page and label (a corrected label). */
  unlearn(page: PageText, label: Label): void {
    if ((label === 1 ? this.pos : this.neg) === 0) throw new RangeError(`PageJudge.unlearn: no class ${label} pages`);
    const frequencies = termFrequencies(page);
    for (const [word, n] of frequencies) {
      const c = this.words.get(word);
      if (!c || (label === 1 ? c.pos : c.neg) < n) {
        throw new RangeError(`PageJudge.unlearn: this page was not learned with class ${label}`);
      }
    }
    this.add(page, label, -1, frequencies);
  }

  /** The page's verdict; `smoothing` is the model's pseudo-count per word (DEFAULT_JUDGE_SMOOTHING; 1: Laplace). */
  judge(page: PageText, smoothing = DEFAULT_JUDGE_SMOOTHING): PageVerdict {
    if (!(smoothing > 0)) throw new RangeError(`PageJudge.judge: smoothing ${smoothing} must be above 0`);
    const byModel = this.pos >= MIN_EXAMPLES_PER_CLASS && this.neg >= MIN_EXAMPLES_PER_CLASS;
    const relevance = byModel ? this.modelRelevance(page, smoothing) : this.keywordRelevance(page);
    return { relevance, relevant: relevance >= this.threshold, by: byModel ? 'model' : 'keywords' };
  }

  toJSON(): PageJudgeJSON {
    const words: [string, number, number][] = [];
    for (const [word, c] of this.words) words.push([word, c.pos, c.neg]);
    return {
      kind: 'page-judge',
      version: 1,
      keywords: [...this.keywords],
      threshold: this.threshold,
      pos: this.pos,
      neg: this.neg,
      posWords: this.posWords,
      negWords: this.negWords,
      words,
    };
  }

  /** Rebuilds a judge from `toJSON()` output; throws a TypeError on a malformed value. */
  static fromJSON(j: unknown): PageJudge {
    const saved = new SavedModel('PageJudge');
    const o = saved.fields(j, 'page-judge', 'page judge');
    const keywords = saved.strings(o.keywords, 'keywords');
    if (typeof o.threshold !== 'number' || !(o.threshold >= 0 && o.threshold <= 1)) return saved.fail('bad threshold');
    if (![o.pos, o.neg, o.posWords, o.negWords].every(isCount)) return saved.fail('bad class counts');
    const rows = saved.countRows(o.words, 'words', 'word');
    const judge = new PageJudge(keywords, o.threshold);
    judge.pos = o.pos as number;
    judge.neg = o.neg as number;
    judge.posWords = o.posWords as number;
    judge.negWords = o.negWords as number;
    let posSum = 0;
    let negSum = 0;
    for (const [word, pos, neg] of rows) {
      judge.words.set(word, { pos, neg });
      posSum += pos;
      negSum += neg;
    }
    if (posSum !== judge.posWords || negSum !== judge.negWords) return saved.fail('word totals do not match the rows');
    return judge;
  }

  private add(page: PageText, label: Label, delta: 1 | -1, frequencies = termFrequencies(page)): void {
    if (label !== 0 && label !== 1) throw new RangeError(`PageJudge: label must be 0 or 1, got ${String(label)}`);
    let total = 0;
    for (const [word, n] of frequencies) {
      let c = this.words.get(word);
      if (!c) {
        c = { pos: 0, neg: 0 };
        this.words.set(word, c);
      }
      if (label === 1) c.pos += delta * n;
      else c.neg += delta * n;
      if (c.pos === 0 && c.neg === 0) this.words.delete(word);
      total += n;
    }
    if (label === 1) {
      this.pos += delta;
      this.posWords += delta * total;
    } else {
      this.neg += delta;
      this.negWords += delta * total;
    }
  }

  /**
   * Multinomial Naive Bayes, smoothed with a pseudo-count a per word over the training vocabulary V:
   *   log-odds = log((D+ + 1)/(D- + 1)) + sum_w n_w [log((n_w,+ + a)/(W+ + a|V|)) - log((n_w,- + a)/(W- + a|V|))]
   * with D_c labeled pages and W_c word occurrences of class c. Words outside V are skipped (no evidence).
   * The sum is in log space, so long pages saturate the posterior to 0 or 1 without overflow.
   */
  private modelRelevance(page: PageText, a: number): number {
    const vocabulary = this.words.size;
    const logPosTotal = Math.log(this.posWords + a * vocabulary);
    const logNegTotal = Math.log(this.negWords + a * vocabulary);
    let logOdds = Math.log(this.pos + 1) - Math.log(this.neg + 1);
    for (const [word, n] of termFrequencies(page)) {
      const c = this.words.get(word);
      if (!c) continue;
      logOdds += n * (Math.log(c.pos + a) - logPosTotal - Math.log(c.neg + a) + logNegTotal);
    }
    return logistic(logOdds);
  }

  private keywordRelevance(page: PageText): number {
    if (this.dictionary.size === 0) return 0;
    const isKeyword = (w: string) => this.dictionary.has(w) || singulars(w).some((s) => this.dictionary.has(s));
    const titleHit = tokenize(page.title).some(isKeyword);
    const words = tokenize(capText(page.text));
    let hits = 0;
    for (const word of words) if (isKeyword(word)) hits++;
    let anchorWords = 0, anchorHits = 0;
    for (const link of page.links ?? []) {
      for (const word of tokenize(link.anchor)) {
        anchorWords++;
        if (isKeyword(word)) anchorHits++;
      }
    }
    // Anchor words are part of the text: what is left is the prose around the links.
    const bodyHits = Math.max(0, hits - anchorHits);
    const bodyWords = Math.max(0, words.length - anchorWords);
    const body = bodyWords === 0 ? 0 : (100 * bodyHits) / bodyWords;
    const linked = words.length === 0 ? 0 : (100 * Math.min(anchorHits, hits)) / words.length;
    const evidence = (titleHit ? TITLE_HIT_EVIDENCE : 0) + BODY_EVIDENCE * body + Math.min(MAX_LINK_EVIDENCE, LINK_EVIDENCE * linked);
    return 1 - Math.exp(-evidence);
  }
}

/** The singulars an English plural may stand for: stars -> star, galaxies -> galaxy, nebulae -> nebula. */
function singulars(w: string): string[] {
  if (w.length < 4) return [];
  const out: string[] = [];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) out.push(w.slice(0, -1));
  if (w.endsWith('ae')) out.push(w.slice(0, -1));
  return out;
}

function capText(text: string): string {
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

/** Word occurrences of a page: title words TITLE_WEIGHT times each, then the (capped) text. */
/** What the judge learns of a page: its words and how often each occurs (a title word counting TITLE_WEIGHT times). */
export function termFrequencies(page: PageText): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const word of tokenize(page.title)) frequencies.set(word, (frequencies.get(word) ?? 0) + TITLE_WEIGHT);
  for (const word of tokenize(capText(page.text))) frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
  return frequencies;
}
