// Features of a link for the Naive Bayes link classifier, SPEC A.3.
import { tokenize } from '../text/tokenize';

/** SPEC A.3: group 1 = anchor words only; group 2 = anchor words, context words and dictionary flags. */
export type FeatureGroup = 1 | 2;

/** Prefixes keep the groups apart: "stock" in the anchor and "stock" in the context are different features. */
const ANCHOR_PREFIX = 'a:';
const CONTEXT_PREFIX = 'c:';
/** SPEC A.3 group 2: "anchor contains a domain-dictionary word", "context contains a domain-dictionary word". */
export const ANCHOR_DICT_FEATURE = 'A:dict';
export const CONTEXT_DICT_FEATURE = 'C:dict';
/**
 * Topical locality (SPEC C's SimPage, Chakrabarti's focused crawler): whether the page the link sits on is on
 * topic. Training links take their source page's label; crawl links the judge's verdict on their page.
 */
export const PARENT_ON_FEATURE = 'P:on';
export const PARENT_OFF_FEATURE = 'P:off';
export const isParentFeature = (f: string): boolean => f === PARENT_ON_FEATURE || f === PARENT_OFF_FEATURE;

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

/** The deduplicated binary features of a link (SPEC A.2 counts presence, not repeats). */
export function linkFeatures(
  link: { anchor: string; context: string; parentOnTopic?: boolean },
  dictionary: ReadonlySet<string>,
  group: FeatureGroup = 2,
): string[] {
  scratch.clear();
  if (link.parentOnTopic !== undefined) scratch.add(link.parentOnTopic ? PARENT_ON_FEATURE : PARENT_OFF_FEATURE);
  let anchorHasDictWord = false;
  for (const word of tokenize(link.anchor)) {
    scratch.add(ANCHOR_PREFIX + word);
    if (!anchorHasDictWord && dictionary.has(word)) anchorHasDictWord = true;
  }
  if (group === 2) {
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
