// The keywords "Crawl this site" suggests for the page in the tab: its topical words, best first, in its own language.
// A page says its subject in its title (the part before the site's name) and its first heading, and what it is about
// in the text around its links; a word is worth more the more of these say it. Function words, generic verbs and
// adjectives ("choosing", "first") and a site's furniture ("read more") are left out, by the page's language:
// English, German, French and Spanish (keyword-stop-words.ts). Pure: the popup reads the page (page-outline.ts).
import { tokenize } from '../parse/tokenize';
import { KEYWORD_LANGUAGES, STOP_WORDS, type KeywordLanguage } from './keyword-stop-words';
import type { PageOutline } from './page-outline';

/** A separator between a page's own title and its site's name: "Choosing a telescope - Northfield Library". */
const TITLE_PARTS = /\s+[-–—|·:»]\s+/;

const MAX_KEYWORDS = 6;

/** How much each place a word is found in says about the page. */
const WEIGHT = { subject: 3, titleRest: 0.5, firstHeading: 2, heading: 1, context: 1, anchor: 0.5 } as const;

const STOP_SETS = Object.fromEntries(KEYWORD_LANGUAGES.map((l) => [l, new Set(STOP_WORDS[l])])) as Record<KeywordLanguage, Set<string>>;
const ALL_STOP = new Set(KEYWORD_LANGUAGES.flatMap((l) => STOP_WORDS[l]));

/**
 * The page's language: what its markup says (`lang="de-AT"`), else the language whose function words its text uses
 * most (at least three of them); null when neither tells.
 */
export function pageLanguage(page: Pick<PageOutline, 'lang' | 'title' | 'headings' | 'links'>): KeywordLanguage | null {
  const declared = (page.lang ?? '').toLowerCase().slice(0, 2);
  if ((KEYWORD_LANGUAGES as readonly string[]).includes(declared)) return declared as KeywordLanguage;
  const text = [page.title, ...page.headings, ...(page.links ?? []).map((l) => l.context)].join(' ');
  const tokens = tokenize(text);
  let best: KeywordLanguage | null = null;
  let bestHits = 2;
  for (const lang of KEYWORD_LANGUAGES) {
    const hits = tokens.filter((t) => STOP_SETS[lang].has(t)).length;
    if (hits > bestHits) [best, bestHits] = [lang, hits];
  }
  return best;
}

/**
 * A word's form with its plural ending set aside, so "telescope" and "telescopes" count as one: a light rule by
 * language, good enough to group a page's words (never shown).
 */
function stemOf(word: string, lang: KeywordLanguage | null): string {
  if (word.length <= 4) return word;
  if (lang === 'de') return word.replace(/(en|e|n|s)$/, '');
  if (lang === 'en' && /ies$/.test(word)) return word.slice(0, -3) + 'y';
  if (/(ss|us|is)$/.test(word)) return word;
  return word.replace(/[sx]$/, '');
}

/** Whether a word can be a keyword: not a function or generic word, not a number, not a stray letter. */
function topical(word: string, stop: Set<string>): boolean {
  if (stop.has(word) || /^\d[\d.,:]*$/.test(word)) return false;
  // Short Latin words are mostly abbreviations and particles; a Han or Hangul word of one or two signs is a word.
  return !(/^[a-z\u00c0-\u024f]+$/.test(word) && word.length < 3);
}

/**
 * Keywords for the page's topic, best first, at most six: each word scored by where it is found (the title's first
 * part, the first heading, other headings, the text around the page's links and, less, their anchors), a plural with
 * its singular, words of no topic left out. A suggestion the user edits before starting.
 */
export function keywordsFromPage(page: Pick<PageOutline, 'title' | 'headings'> & Partial<Pick<PageOutline, 'lang' | 'links'>>): string[] {
  const lang = pageLanguage({ lang: page.lang ?? '', title: page.title, headings: page.headings, links: page.links ?? [] });
  const stop = lang ? STOP_SETS[lang] : ALL_STOP;
  const score = new Map<string, { score: number; forms: Map<string, number> }>();
  const add = (words: Iterable<string>, weight: number) => {
    for (const word of words) {
      if (!topical(word, stop)) continue;
      const key = stemOf(word, lang);
      const held = score.get(key) ?? { score: 0, forms: new Map<string, number>() };
      held.score += weight;
      held.forms.set(word, (held.forms.get(word) ?? 0) + 1);
      score.set(key, held);
    }
  };
  const [subject = '', ...rest] = page.title.split(TITLE_PARTS);
  add(new Set(tokenize(subject)), WEIGHT.subject);
  for (const part of rest) add(new Set(tokenize(part)), WEIGHT.titleRest);
  page.headings.forEach((heading, i) => add(new Set(tokenize(heading)), i === 0 ? WEIGHT.firstHeading : WEIGHT.heading));
  // A paragraph with five links is one text around them, counted once, without the words of its anchors (which name
  // the pages linked to, and count for less).
  const anchorsIn = new Map<string, string[][]>();
  for (const link of page.links ?? []) anchorsIn.set(link.context, [...(anchorsIn.get(link.context) ?? []), tokenize(link.text)]);
  for (const [context, anchors] of anchorsIn) {
    const named = new Set(anchors.flat());
    add(new Set(tokenize(context).filter((w) => !named.has(w))), WEIGHT.context);
  }
  for (const anchors of anchorsIn.values()) for (const anchor of anchors) add(new Set(anchor), WEIGHT.anchor);
  // German writes its nouns with a capital: a word never written so there is a verb or an adjective.
  const text = lang === 'de' ? [page.title, ...page.headings, ...(page.links ?? []).flatMap((l) => [l.text, l.context])].join('\n') : '';
  const noun = (word: string) => lang !== 'de' || new RegExp(`(^|[^\\p{L}])${word[0]!.toUpperCase()}${word.slice(1)}`, 'u').test(text);
  // Map keeps first appearance as the order of equal scores: the title's words, the headings', then the links'.
  return [...score.values()]
    .sort((a, b) => b.score - a.score)
    // The form the page uses most, the shorter among equals (a singular before its plural).
    .map(({ forms }) => [...forms.entries()].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0]![0])
    .filter(noun)
    .slice(0, MAX_KEYWORDS);
}
