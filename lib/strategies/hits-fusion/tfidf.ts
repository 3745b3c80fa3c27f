// Design C.1: text similarity as the cosine between TF-IDF vectors of a text and of the topic. Words come from
// the project's tokenizer (Chinese is segmented), with stop words removed there and a few more here; document
// frequencies are learned from the pages the crawl fetches, so IDF fits the web being crawled; the topic vector
// is the sum of the on-topic pages' vectors and the keywords, with words seen in fewer than `minDf` documents
// left out (rare words say more about one page than about the topic).
import { tokenize } from '../../parse/tokenize';

/** Function words the tokenizer keeps (its list is short on purpose) that say nothing about a topic. */
const MORE_STOP_WORDS = new Set([
  'also', 'such', 'other', 'some', 'most', 'many', 'much', 'very', 'one', 'two', 'first', 'new', 'used', 'use', 'between',
  'after', 'before', 'during', 'while', 'since', 'until', 'because', 'however', 'both', 'each', 'through', 'under', 'up',
  'out', 'them', 'him', 'me', 'us', 'am', 'being', 'same', 'own', 'then', 'now', 'here', 'why', 'whom', 'whose',
  '我们', '他们', '你们', '一个', '这个', '那个', '没有', '可以', '因为', '所以', '但是', '如果', '已经', '还是', '就是', '不是',
]);

export function terms(text: string): string[] {
  return tokenize(text).filter((t) => !MORE_STOP_WORDS.has(t));
}

function counts(words: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

export interface TopicModelState {
  docs: number;
  df: [string, number][];
  topicTf: [string, number][];
}

export class TopicModel {
  private readonly df = new Map<string, number>();
  private docs = 0;
  /** Summed term frequencies of the on-topic pages (normalized per page) and the keywords. */
  private readonly topicTf = new Map<string, number>();
  private topicVector: Map<string, number> | null = null;

  constructor(keywords: string[], private readonly minDf = 2, private readonly keywordWeight = 1) {
    for (const k of keywords) for (const w of terms(k)) this.topicTf.set(w, (this.topicTf.get(w) ?? 0) + keywordWeight);
  }

  /** What the store keeps to resume after a restart. */
  toJSON(): TopicModelState {
    return { docs: this.docs, df: [...this.df], topicTf: [...this.topicTf] };
  }

  /** Picks up a saved state (the keywords given to the constructor are part of it). */
  restore(state: TopicModelState): void {
    this.docs = state.docs;
    this.df.clear();
    for (const [w, n] of state.df) this.df.set(w, n);
    this.topicTf.clear();
    for (const [w, n] of state.topicTf) this.topicTf.set(w, n);
    this.topicVector = null;
  }

  /** A fetched page: its words count in the document frequencies; an on-topic page also shapes the topic. */
  addPage(text: string, onTopic: boolean): void {
    const tf = counts(terms(text));
    this.docs++;
    for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
    if (onTopic && tf.size) {
      let total = 0;
      for (const n of tf.values()) total += n;
      for (const [w, n] of tf) this.topicTf.set(w, (this.topicTf.get(w) ?? 0) + n / total);
    }
    this.topicVector = null;
  }

  /** idf = ln((1 + N) / (1 + df)) + 1 (smoothed, never zero: a keyword no page has yet still counts). */
  idf(word: string): number {
    return Math.log((1 + this.docs) / (1 + (this.df.get(word) ?? 0))) + 1;
  }

  /** The topic's TF-IDF vector; words below `minDf` are dropped, except keywords (their df may still be 0). */
  topic(): Map<string, number> {
    if (this.topicVector) return this.topicVector;
    const v = new Map<string, number>();
    for (const [w, tf] of this.topicTf) {
      const df = this.df.get(w) ?? 0;
      if (df < this.minDf && this.docs >= this.minDf && tf < this.keywordWeight) continue;
      v.set(w, tf * this.idf(w));
    }
    this.topicVector = v;
    return v;
  }

  /** Cosine similarity of a text's TF-IDF vector to the topic's, in [0, 1]. */
  similarity(text: string): number {
    const topic = this.topic();
    const tf = counts(terms(text));
    if (tf.size === 0 || topic.size === 0) return 0;
    let dot = 0, textSq = 0;
    for (const [w, n] of tf) {
      const x = n * this.idf(w);
      textSq += x * x;
      const t = topic.get(w);
      if (t !== undefined) dot += x * t;
    }
    let topicSq = 0;
    for (const t of topic.values()) topicSq += t * t;
    return dot === 0 ? 0 : dot / Math.sqrt(textSq * topicSq);
  }
}
