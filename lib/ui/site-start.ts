// "Crawl this site" in the popup: the config of a crawl that starts on the page the user is looking at, and
// the keywords its title and headings suggest. Pure: the popup reads the tab and sends the config.
import { DEFAULTS } from '../records/config';
import { tokenize } from '../parse/tokenize';
import { formatCount } from './format';

/** What the popup reads from the tab: its address, its title and its headings (h1 first, then h2). */
export interface TabPage {
  url: string;
  title: string;
  headings: string[];
}

/** Why a tab cannot be crawled from here, in one sentence, or null when it can. */
export function siteStartProblem(url: string | undefined): string | null {
  if (url === undefined || url === '') return 'Focus cannot see this tab’s address: it crawls web pages (http and https) only, not the browser’s own pages.';
  let scheme: string;
  try {
    scheme = new URL(url).protocol.replace(/:$/, '');
  } catch {
    return `“${url}” is not an address Focus can crawl.`;
  }
  return scheme === 'http' || scheme === 'https' ? null : `This tab shows a ${scheme}: page; Focus crawls web sites (http and https addresses) only.`;
}

/** A separator between a page's own title and its site's name: "Choosing a telescope - Northfield Library". */
const TITLE_PARTS = /\s+[-–—|·:»]\s+/;

const MAX_KEYWORDS = 6;

/**
 * Keywords for the page's topic: the words of its title and headings, most weight to the title's first part
 * (the page's own subject; the site's name usually comes after a separator) and the first heading, stop words
 * left out, at most six. A word only in the title's other parts or one lesser heading (the site's name, "See
 * also") is left out while better ones are found. A suggestion the user edits before starting.
 */
export function keywordsFromPage(page: Pick<TabPage, 'title' | 'headings'>): string[] {
  const score = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const word of new Set(tokenize(text))) {
      if (/^\d+$/.test(word) || (/^[a-z]+$/.test(word) && word.length < 3)) continue;
      score.set(word, (score.get(word) ?? 0) + weight);
    }
  };
  const [subject = '', ...rest] = page.title.split(TITLE_PARTS);
  add(subject, 3);
  for (const part of rest) add(part, 1);
  page.headings.forEach((heading, i) => add(heading, i === 0 ? 2 : 1));
  // Map keeps first appearance as the order of equal scores: the title's words before the headings'.
  const ranked = [...score.entries()].sort((a, b) => b[1] - a[1]);
  const strong = ranked.filter(([, s]) => s >= 2);
  return (strong.length ? strong : ranked).slice(0, MAX_KEYWORDS).map(([word]) => word);
}

/** The config "Crawl this site" starts: the tab's address as the seed, its host as the scope, default limits. */
export function siteStartConfig(start: { url: string; keywords: string[]; topicId?: number }): Record<string, unknown> {
  const seed = new URL(start.url);
  seed.hash = '';
  return {
    seeds: [seed.href],
    scope: { mode: 'seed-hosts' },
    topic: { keywords: start.keywords, ...(start.topicId === undefined ? {} : { id: start.topicId }) },
  };
}

/** The limits such a crawl runs with, in a line under its Start button. */
export function siteStartLimits(url: string): string {
  const { budget, politeness } = DEFAULTS;
  return `Up to ${formatCount(budget.maxPages)} pages on ${new URL(url).host} only, one request every ${politeness.delayMs / 1000} s per host, robots.txt obeyed.`;
}
