// What a crawl did to spend its budget on new content (docs/duplicates.md), in the words the crawl detail, the CLI and
// summary.json share: duplicates found, URLs not requested because of a learned rule or a canonical link, the rules
// learned per host, and what the sitemaps gave.
import type { CrawlRecord, VariantBook } from '../records/rows';
import { learnedRules, ruleWords } from '../learning/url-variants';
import { formatCount } from './format';

type Stats = CrawlRecord['stats'];

/** The counts summary.json keeps (zero when the crawl met none). */
export interface DuplicateCounts {
  /** Pages fetched whose content the crawl already held. */
  duplicates: number;
  /** URLs not requested: a learned rule of their host, or a fetched page naming them its canonical URL. */
  notRequestedByRule: number;
  notRequestedByCanonical: number;
  /** Sitemap files read, the URLs they queued, and of those the ones fetched. */
  sitemapFiles: number;
  sitemapQueued: number;
  sitemapFetched: number;
}

export function duplicateCounts(stats: Stats): DuplicateCounts {
  return {
    duplicates: stats.duplicates ?? 0, notRequestedByRule: stats.variantSkips ?? 0, notRequestedByCanonical: stats.canonicalSkips ?? 0,
    sitemapFiles: stats.sitemapRequests ?? 0, sitemapQueued: stats.sitemapQueued ?? 0, sitemapFetched: stats.sitemapFetched ?? 0,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "3 duplicates found; not requested: 212 URLs by a learned rule, 25 by a canonical link". */
export function duplicatesText(stats: Stats): string {
  const c = duplicateCounts(stats);
  const skipped = [
    c.notRequestedByRule ? `${plural(c.notRequestedByRule, 'URL')} by a learned rule` : '',
    c.notRequestedByCanonical ? `${c.notRequestedByRule ? formatCount(c.notRequestedByCanonical) : plural(c.notRequestedByCanonical, 'URL')} by a canonical link` : '',
  ].filter(Boolean);
  return `${plural(c.duplicates, 'duplicate')} found${skipped.length ? `; not requested: ${skipped.join(', ')}` : ''}`;
}

/** "`sort`, `view` and a trailing slash". */
function listWords(words: string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * Per host that taught the crawl something: "on shop.test, `sort`, `view` and a trailing slash do not change content:
 * 212 URLs not requested".
 */
export function learnedText(book: VariantBook | undefined): string[] {
  const out: string[] = [];
  for (const [host, variants] of Object.entries(book ?? {})) {
    const learned = learnedRules(variants);
    // A parameter learned whatever its value says its values too (`ref`, not `ref`, `ref=home` and `ref=related`).
    const rules = [...learned].filter((r) => !(r.startsWith('?') && r.includes('=') && learned.has(r.slice(0, r.indexOf('=')))));
    if (rules.length === 0) continue;
    const verb = rules.length === 1 ? 'does' : 'do';
    out.push(`on ${host}, ${listWords(rules.map(ruleWords))} ${verb} not change content: ${plural(variants.notRequested, 'URL')} not requested`);
  }
  return out;
}

/** "off", or "4 files read: 110 URLs queued, 80 fetched", with what went wrong with a file. */
export function sitemapsText(crawl: Pick<CrawlRecord, 'config' | 'stats' | 'sitemaps'>): string {
  if (!crawl.config.seedSitemaps) return 'not read (seeds.sitemaps off)';
  if (!crawl.sitemaps) return 'read when the crawl starts';
  const c = duplicateCounts(crawl.stats);
  const faults = crawl.sitemaps.filter((s) => s.error).map((s) => `${s.url}: ${s.error}`);
  const read = c.sitemapFiles === 0 ? 'none found' : `${plural(c.sitemapFiles, 'file')} read: ${plural(c.sitemapQueued, 'URL')} queued, ${formatCount(c.sitemapFetched)} fetched`;
  return [read, ...faults].join('\n');
}
