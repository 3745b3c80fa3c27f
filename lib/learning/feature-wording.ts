// The link classifier's features in words, for the dashboard's list of the strongest features of each class: what
// a user reads to see what the model has learned.
import { LinkClassifier, type LinkClassifierJSON } from './link-classifier';
import { ANCHOR_DICT_FEATURE, CONTEXT_DICT_FEATURE, PARENT_OFF_FEATURE, PARENT_ON_FEATURE, SHAPE_PREFIX } from './link-features';

export interface ReadableFeature {
  /** The model's feature string (`a:stock`, `c:market`, `A:dict`, `C:dict`). */
  feature: string;
  /** The same in words: anchor "stock", context "market", anchor has a keyword word. */
  text: string;
  /** log P(F|class) - log P(F|other class). */
  weight: number;
  /** Labeled links (keyword pseudo-examples not counted) of each class that have the feature. */
  pos: number;
  neg: number;
}

export interface TopFeatures {
  positive: ReadableFeature[];
  negative: ReadableFeature[];
}

/** The hub buckets of link-features.ts (`hubBucket`) in words. */
const HUB_SHARES = ['never', 'under half as often as the labeled pages do', 'under as often as the labeled pages do',
  'up to twice as often as the labeled pages do', 'two to four times as often as the labeled pages do', 'four times as often as the labeled pages do or more'];

/** The anchor-shape codes of link-features.ts (`anchorShape`) as the shape of a word. */
const SHAPE_WORDS: Record<string, string> = { Aa: 'Xxx', a: 'xxx', A: 'XXX', '0': '123', '+': '…' };

/** `a:word` -> anchor "word", `c:word` -> context "word", the two dictionary flags of design A.3, and the others Focus adds. */
export function describeFeature(feature: string): string {
  if (feature === ANCHOR_DICT_FEATURE) return 'anchor has a keyword word';
  if (feature === CONTEXT_DICT_FEATURE) return 'context has a keyword word';
  if (feature.startsWith('a:')) return `anchor "${feature.slice(2)}"`;
  if (feature.startsWith('c:')) return `context "${feature.slice(2)}"`;
  if (feature === PARENT_ON_FEATURE) return 'on a page judged on topic';
  if (feature === PARENT_OFF_FEATURE) return 'on a page judged off topic';
  const hub = /^H:(on|off|)([0-5])$/.exec(feature);
  if (hub) {
    const page = hub[1] === 'on' ? 'on an on-topic page' : hub[1] === 'off' ? 'on an off-topic page' : 'on a page';
    return `${page} whose links to labeled pages lead on topic ${HUB_SHARES[Number(hub[2])]}`;
  }
  if (feature.startsWith(SHAPE_PREFIX)) {
    const words = feature.slice(SHAPE_PREFIX.length).split(' ').map((w) => SHAPE_WORDS[w] ?? w);
    return `anchor shaped like "${words.join(' ')}"`;
  }
  return feature;
}

/** The `n` strongest features of each class, in words, with how many labeled links of each class have them. */
export function topFeaturesOf(classifier: LinkClassifier, n: number): TopFeatures {
  const positive = classifier.topFeatures(1, n);
  const negative = classifier.topFeatures(0, n);
  const counts = labeledCounts(classifier.toJSON(), new Set([...positive, ...negative].map((f) => f.feature)));
  const readable = ({ feature, weight }: { feature: string; weight: number }): ReadableFeature => {
    const [pos, neg] = counts.get(feature) ?? [0, 0];
    return { feature, text: describeFeature(feature), weight, pos, neg };
  };
  return { positive: positive.map(readable), negative: negative.map(readable) };
}

/** [pos, neg] counts of `wanted` features among the labeled links a model learned (pseudo-examples not counted). */
function labeledCounts(json: LinkClassifierJSON, wanted: ReadonlySet<string>): Map<string, [number, number]> {
  const seed = new Map<string, [number, number]>();
  if (json.seeded) {
    const fresh = new LinkClassifier(json.keywords, { group: json.group, alpha: json.model.alpha, evidence: json.evidence });
    for (const [f, p, n] of fresh.toJSON().model.features) seed.set(f, [p, n]);
  }
  const counts = new Map<string, [number, number]>();
  for (const [f, p, n] of json.model.features) {
    if (!wanted.has(f)) continue;
    const s = seed.get(f);
    counts.set(f, [p - (s?.[0] ?? 0), n - (s?.[1] ?? 0)]);
  }
  return counts;
}
