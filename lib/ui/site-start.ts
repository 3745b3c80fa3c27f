// "Crawl this site" in the popup: the config of a crawl that starts on the page the user is looking at. Pure: the
// popup reads the tab (page-outline.ts), suggests its keywords (page-keywords.ts) and sends the config.
import { DEFAULTS } from '../records/config';
import { formatCount } from './format';
import type { PageOutline } from './page-outline';

/** What the popup reads from the tab: its address, and its page's outline. */
export interface TabPage extends PageOutline {
  url: string;
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
