// What a site's URLs spell that does not change its pages (docs/duplicates.md). Pages that differ from a page
// held only in one query parameter (`?sort=price`), one last path segment (`/print`), a trailing slash, letter case
// or an index file are compared by content as they come; once such pairs keep coming out the same content on a host,
// and not otherwise, the crawl has learned that the difference is no page of its own there, and a URL that differs
// from a page it holds only in what it learned is not requested. Pure rules and evidence, kept per host; the run
// keeps the pages seen (variant-learner.ts).
import type { HostVariants, VariantEvidence } from '../records/rows';
import { queryPair } from '../records/url';

/**
 * One way a URL of a host can differ from another: `?name` (a query parameter, whatever its value), `?name=value` (the
 * parameter with that value), `/segment` (a last path segment such as `/print` or `/amp`), `/` (a trailing slash),
 * `Aa` (the path's letter case), `index` (an index file: `index.html`, `default.aspx`); and `named`, not a spelling but
 * a link named like a page held (its anchor, or a slug of its path, is that page's heading: `/p/127` for "Orion XT8").
 */
export type VariantRule = string;

export type { HostVariants, VariantBook, VariantEvidence } from '../records/rows';

/** Same-content pairs a rule needs before it is learned, on at least two values (or two pages). */
export const LEARN_AFTER = 2;
/** Values kept per rule: two are all learning asks for. */
const VALUES_KEPT = 3;

/** A URL as one rule would make it: without what the rule says does not change content. */
export interface Candidate {
  rule: VariantRule;
  reduced: string;
  /** The parameter's value, or the page the variant is of (what `values` counts). */
  value: string;
}

const SUFFIX = /^[a-z][a-z-]{0,23}$/i;
const INDEX_FILE = /^(?:index|default)\.(?:html?|php|aspx?|jsp)$/i;

/** The query's pairs, as written (the canonical URL's order), with each name decoded. */
function pairsOf(search: string): { pair: string; name: string; value: string }[] {
  if (search.length <= 1) return [];
  return search.slice(1).split('&').filter(Boolean).map((raw) => {
    const { pair, decoded, value } = queryPair(raw);
    return { pair, name: decoded, value };
  });
}

const withQuery = (u: URL, pairs: { pair: string }[]) => `${u.origin}${u.pathname}${pairs.length ? `?${pairs.map((p) => p.pair).join('&')}` : ''}`;
const withPath = (u: URL, path: string) => `${u.origin}${path}${u.search}`;

/** Every way `url` (a canonical URL) is one rule away from another URL of its host. */
export function candidates(url: string): Candidate[] {
  const u = new URL(url);
  const out: Candidate[] = [];
  const pairs = pairsOf(u.search);
  for (const name of new Set(pairs.map((p) => p.name))) {
    const values = pairs.filter((p) => p.name === name).map((p) => p.value);
    const reduced = withQuery(u, pairs.filter((p) => p.name !== name));
    out.push({ rule: `?${name}`, reduced, value: values.join(',') });
    if (values.length === 1) out.push({ rule: `?${name}=${values[0]}`, reduced, value: reduced });
  }
  const path = u.pathname;
  if (path.length > 1 && path.endsWith('/')) out.push({ rule: '/', reduced: withPath(u, path.slice(0, -1)), value: path });
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (INDEX_FILE.test(last)) out.push({ rule: 'index', reduced: withPath(u, path.slice(0, -last.length)), value: path });
  else if (SUFFIX.test(last) && path.lastIndexOf('/') > 0) {
    out.push({ rule: `/${last.toLowerCase()}`, reduced: withPath(u, path.slice(0, path.lastIndexOf('/'))), value: path.slice(0, path.lastIndexOf('/')) });
  }
  if (path !== path.toLowerCase()) out.push({ rule: 'Aa', reduced: withPath(u, path.toLowerCase()), value: path.toLowerCase() });
  return out;
}

/** Evidence with one more pair counted (a new object: the book's rows are not changed in place by callers). */
export function counted(e: VariantEvidence | undefined, same: boolean, value: string): VariantEvidence {
  const next: VariantEvidence = { same: e?.same ?? 0, changed: e?.changed ?? 0, values: e?.values ?? [], ...(e?.paging ? { paging: true } : {}) };
  if (same) {
    next.same++;
    if (!next.values.includes(value) && next.values.length < VALUES_KEPT) next.values = [...next.values, value];
  } else next.changed++;
  return next;
}

/**
 * Whether a rule is learned: at least LEARN_AFTER same-content pairs on two values or more, and no pair whose content
 * changed. A parameter whatever its value (`?sort`) may have pairs that changed, up to a third of the same ones: sorting
 * a listing of two pages puts other items on its first page, yet sorts nothing away. A parameter the page's own pager
 * varies never is learned (`?page`), whatever it showed.
 */
export function isLearned(rule: VariantRule, e: VariantEvidence | undefined): boolean {
  if (!e || e.same < LEARN_AFTER || e.values.length < 2) return false;
  const anyValue = rule.startsWith('?') && !rule.includes('=');
  if (anyValue && e.paging) return false;
  return anyValue ? e.changed * 3 <= e.same : e.changed === 0;
}

/**
 * Whether a rule was seen to change content on a host: its pager varies the parameter, or its pairs changed three times
 * at least and over twice as often as not. A URL it makes of a page held is then a page of its own, as likely new as
 * any other link; a few pairs that changed among others that did not (the sorts of a listing of two pages) do not
 * make it so.
 */
export function isChanging(rule: VariantRule, e: VariantEvidence | undefined): boolean {
  if (!e) return false;
  return (rule.startsWith('?') && e.paging === true) || (e.changed >= 3 && e.changed > 2 * e.same);
}

/** The rules learned on a host. */
export function learnedRules(host: HostVariants | undefined): Set<VariantRule> {
  const out = new Set<VariantRule>();
  for (const [rule, e] of Object.entries(host?.rules ?? {})) if (isLearned(rule, e)) out.add(rule);
  return out;
}

/**
 * A URL with every learned rule applied, and the rules that changed it: two URLs with one key are one page of the
 * host's. Letter case, then an index file, a trailing slash, learned last segments (again while one is left), and the
 * learned parameters.
 */
export function reduce(url: string, learned: ReadonlySet<VariantRule>): { key: string; applied: VariantRule[] } {
  if (learned.size === 0) return { key: url, applied: [] };
  const u = new URL(url);
  const applied: VariantRule[] = [];
  let path = u.pathname;
  if (learned.has('Aa') && path !== path.toLowerCase()) {
    path = path.toLowerCase();
    applied.push('Aa');
  }
  const file = path.slice(path.lastIndexOf('/') + 1);
  if (learned.has('index') && INDEX_FILE.test(file)) {
    path = path.slice(0, -file.length);
    applied.push('index');
  }
  if (learned.has('/') && path.length > 1 && path.endsWith('/')) {
    path = path.slice(0, -1);
    applied.push('/');
  }
  for (;;) {
    const at = path.lastIndexOf('/');
    const rule = `/${path.slice(at + 1).toLowerCase()}`;
    if (at <= 0 || rule === '/' || !learned.has(rule)) break;
    path = path.slice(0, at);
    applied.push(rule);
  }
  const pairs = pairsOf(u.search);
  const kept = pairs.filter((p) => {
    const rule = learned.has(`?${p.name}`) ? `?${p.name}` : learned.has(`?${p.name}=${p.value}`) ? `?${p.name}=${p.value}` : null;
    if (rule && !applied.includes(rule)) applied.push(rule);
    return rule === null;
  });
  return { key: `${u.origin}${path}${kept.length ? `?${kept.map((p) => p.pair).join('&')}` : ''}`, applied };
}

/** The parameters a page's pager varies: those of its pagination links that differ from the page's own. */
export function pagingParams(pageUrl: string, pagerUrls: readonly string[]): string[] {
  const own = new Map(pairsOf(new URL(pageUrl).search).map((p) => [p.name, p.value]));
  const names = new Set<string>();
  for (const link of pagerUrls) {
    const u = new URL(link);
    if (u.host !== new URL(pageUrl).host) continue;
    for (const p of pairsOf(u.search)) if (own.get(p.name) !== p.value) names.add(p.name);
  }
  return [...names];
}

/** "`sort` and `view`", "`/print`", "a trailing slash": learned rules in the crawl's words. */
export function ruleWords(rule: VariantRule): string {
  if (rule === '/') return 'a trailing slash';
  if (rule === 'Aa') return 'letter case';
  if (rule === 'index') return 'an index file';
  if (rule === 'named') return 'a link named like a page held';
  return `\`${rule.startsWith('?') ? rule.slice(1) : rule}\``;
}
