// Features of a link for the Naive Bayes link classifier, design A.3.
import { tokenize } from '../parse/tokenize';

/**
 * Design A.3: group 1 = anchor words only; group 2 = anchor words, context words and dictionary flags (and here the
 * anchor's shape, `anchorShape`).
 */
export type FeatureGroup = 1 | 2;

/** Prefixes keep the groups apart: "stock" in the anchor and "stock" in the context are different features. */
export const ANCHOR_PREFIX = 'a:';
export const CONTEXT_PREFIX = 'c:';
/** design A.3 group 2: "anchor contains a domain-dictionary word", "context contains a domain-dictionary word". */
export const ANCHOR_DICT_FEATURE = 'A:dict';
export const CONTEXT_DICT_FEATURE = 'C:dict';
/**
 * Topical locality (design C's SimPage, Chakrabarti's focused crawler): whether the page the link sits on is on
 * topic. Training links take their source page's label; crawl links the judge's verdict on their page.
 */
export const PARENT_ON_FEATURE = 'P:on';
export const PARENT_OFF_FEATURE = 'P:off';
export const isParentFeature = (f: string): boolean => f === PARENT_ON_FEATURE || f === PARENT_OFF_FEATURE;
/**
 * The parent page as a hub (design C's hub score, read from labels instead of the link graph): of its links to
 * pages the user labeled (the crawl's `training.positive` and `training.negative`), the share that lead on topic,
 * as a `hubBucket`. It is one feature joined with the parent-page feature (`H:on3`, `H:off0`; `H:3` when the page
 * itself is not known): the two say much the same, and counted side by side Naive Bayes would count it twice.
 */
export const HUB_PREFIX = 'H:';
export const isHubFeature = (f: string): boolean => f.startsWith(HUB_PREFIX);

/**
 * The anchor's shape: each word's case, in order (`S:Aa Aa` for "Nelson Mandela", `S:Aa a Aa` for "Treaty of
 * Versailles", `S:a` for "mercantilism", `S:A` for "NATO", `S:0` for "1848"), at most `SHAPE_WORDS` words and
 * then `+`. It says what kind of thing a link names when its words are new: a person's or a place's name, an
 * acronym, a common noun. Which kinds are on topic the model learns per topic (names are on topic for People and
 * mostly off topic for History). Undefined for an anchor with a word in a script without case (Chinese, Arabic),
 * and for one without words.
 */
export const SHAPE_PREFIX = 'S:';
export const isShapeFeature = (f: string): boolean => f.startsWith(SHAPE_PREFIX);
const SHAPE_WORDS = 4;

export function anchorShape(anchor: string): string | undefined {
  return isAscii(anchor) ? asciiAnchorShape(anchor) : anchorShapeByRegex(anchor);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * `anchorShapeByRegex` on an ASCII anchor, read by char code: words are cut at ASCII whitespace (what `\s` matches
 * there), a word's kind is its first letter or digit's, and a word of letters all capitals (two or more) is `A`. Most
 * anchors are ASCII and this runs for every link of every page; a test holds it equal to the regex reading.
 */
function asciiAnchorShape(anchor: string): string | undefined {
  let shape = SHAPE_PREFIX;
  let words = 0;
  const n = anchor.length;
  for (let i = 0; i < n; ) {
    while (i < n && isAsciiSpace(anchor.charCodeAt(i))) i++;
    // One word: its first letter or digit, and how many letters it has and whether one is lowercase.
    let first = 0, letters = 0, lower = false;
    for (let c: number; i < n && !isAsciiSpace((c = anchor.charCodeAt(i))); i++) {
      const isLower = c >= 97 && c <= 122, isUpper = c >= 65 && c <= 90;
      if (isLower || isUpper) {
        letters++;
        if (isLower) lower = true;
      }
      if (first === 0 && (isLower || isUpper || (c >= 48 && c <= 57))) first = c;
    }
    if (first === 0) continue;
    if (words === SHAPE_WORDS) return `${shape} +`;
    const kind = first <= 57 ? '0' : first >= 97 ? 'a' : letters > 1 && !lower ? 'A' : 'Aa';
    shape += words === 0 ? kind : ` ${kind}`;
    words++;
  }
  return words ? shape : undefined;
}

const isAsciiSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** The anchor's shape by the rule's regexes: any anchor, whatever its script. */
export function anchorShapeByRegex(anchor: string): string | undefined {
  const shapes: string[] = [];
  for (const word of anchor.split(/\s+/)) {
    const first = /[\p{L}\p{N}]/u.exec(word)?.[0];
    if (!first) continue;
    if (shapes.length === SHAPE_WORDS) {
      shapes.push('+');
      break;
    }
    const letters = word.replace(/[^\p{L}]/gu, '');
    const shape = /\p{N}/u.test(first) ? '0'
      : first.toLowerCase() === first.toUpperCase() ? undefined
      : first === first.toLowerCase() ? 'a'
      : letters.length > 1 && letters === letters.toUpperCase() ? 'A' : 'Aa';
    if (shape === undefined) return undefined;
    shapes.push(shape);
  }
  return shapes.length ? SHAPE_PREFIX + shapes.join(' ') : undefined;
}

/**
 * The bucket of a page's hub share: `k` of its `n` links to labeled pages lead on topic, against `base`, the
 * share of positives among the labeled pages. 0: none; then under half the base share, under the base,
 * under twice, under four times, four times or more (5). Relative to the base so that one bucket means the
 * same on a topic of 1% of pages and on one of 40%. Undefined when no link leads to a labeled page.
 */
export function hubBucket(k: number, n: number, base: number): number | undefined {
  if (n <= 0) return undefined;
  if (k <= 0) return 0;
  const x = k / n / base;
  return x < 0.5 ? 1 : x < 1 ? 2 : x < 2 ? 3 : x < 4 ? 4 : 5;
}

/**
 * Each link's hub bucket on a page whose link targets have these labels (undefined: not a labeled page): the
 * page's share with the link's own target left out, so a labeled link never counts its own label. A target
 * linked twice counts once.
 */
export function hubBuckets(labels: readonly { url: string; label: 0 | 1 | undefined }[], base: number): (number | undefined)[] {
  const known = new Map<string, 0 | 1>();
  for (const { url, label } of labels) if (label !== undefined) known.set(url, label);
  let k = 0;
  for (const l of known.values()) k += l;
  return labels.map(({ url }) => {
    const own = known.get(url);
    return own === undefined ? hubBucket(k, known.size, base) : hubBucket(k - own, known.size - 1, base);
  });
}

/**
 * The domain dictionary: the words of the crawl's keywords, tokenized exactly like link text so that they
 * compare equal (case, full-width forms, Chinese segmentation). A multiword keyword ("stock market")
 * contributes each of its words.
 */
export function makeDictionary(keywords: readonly string[]): Set<string> {
  const dictionary = new Set<string>();
  for (const keyword of keywords) {
    for (const word of tokenize(keyword)) for (const form of englishPlurals(word)) dictionary.add(form);
  }
  return dictionary;
}

/**
 * A keyword and its regular English plurals: topic words appear in anchors as "stars", "galaxies",
 * "telescopes" as often as in the singular. Only the dictionary flags fold plurals (no stemming of
 * features), and only for Latin-script words of three letters or more.
 */
function englishPlurals(word: string): string[] {
  if (word.length < 3 || !/^[a-z]+$/.test(word)) return [word];
  const forms = [word, `${word}s`];
  if (/(s|x|z|ch|sh)$/.test(word)) forms.push(`${word}es`);
  if (/[^aeiou]y$/.test(word)) forms.push(`${word.slice(0, -1)}ies`);
  return forms;
}

// Reused across calls: the crawler computes features for every link of every page, and building the
// deduplicated list in one scratch Set avoids a Set allocation per link.
const scratch = new Set<string>();

/** The deduplicated binary features of a link (design A.2 counts presence, not repeats). */
export function linkFeatures(
  link: { anchor: string; context: string; parentOnTopic?: boolean; parentHub?: number },
  dictionary: ReadonlySet<string>,
  group: FeatureGroup = 2,
): string[] {
  scratch.clear();
  if (link.parentOnTopic !== undefined) scratch.add(link.parentOnTopic ? PARENT_ON_FEATURE : PARENT_OFF_FEATURE);
  if (link.parentHub !== undefined) scratch.add(HUB_PREFIX + (link.parentOnTopic === undefined ? '' : link.parentOnTopic ? 'on' : 'off') + link.parentHub);
  let anchorHasDictWord = false;
  for (const word of tokenize(link.anchor)) {
    scratch.add(ANCHOR_PREFIX + word);
    if (!anchorHasDictWord && dictionary.has(word)) anchorHasDictWord = true;
  }
  if (group === 2) {
    const shape = anchorShape(link.anchor);
    if (shape) scratch.add(shape);
    let contextHasDictWord = false;
    for (const word of tokenize(link.context)) {
      scratch.add(CONTEXT_PREFIX + word);
      if (!contextHasDictWord && dictionary.has(word)) contextHasDictWord = true;
    }
    if (anchorHasDictWord) scratch.add(ANCHOR_DICT_FEATURE);
    if (contextHasDictWord) scratch.add(CONTEXT_DICT_FEATURE);
  }
  const features = [...scratch];
  scratch.clear();
  return features;
}
