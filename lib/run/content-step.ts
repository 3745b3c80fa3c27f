// The page pipeline's look at content (docs/duplicates.md): a parsed page's sketch, the held page it duplicates, the
// canonical URL it names and whether that is taken as its own, and what it teaches of its host's URL variants; before
// a request, whether the URL is a page held by what its host's variants taught; and a page's links that are.
import { contentSketch, type ContentSketch } from '../parse/content-sketch';
import { sameContent, type ContentMatch, type HeldContent } from '../learning/content-index';
import { PageVariants, PRESUMED_PENALTY } from '../learning/duplicates';
import { candidates, ruleWords } from '../learning/url-variants';
import type { SameAs } from '../learning/variant-learner';
import type { FetchOutcome } from '../net/fetcher';
import { isLoginUrl } from '../net/session';
import type { Candidate, PageCommit } from '../ports';
import type { FrontierEntry, ParsedPage } from '../records/types';
import { hostOf, siteOf } from '../records/url';
import type { RunContext } from './context';

/** What a parsed page's content says. */
export interface ContentFindings {
  sketch: ContentSketch;
  /** The held page it duplicates, when it does. */
  duplicate: ContentMatch | null;
  /** The canonical URL it names (another than its own), and whether it is taken as the page's; why not, when not. */
  canonical: { url: string; taken: boolean; note?: string } | null;
  /** Its host's variant rules, when the page changed them. */
  variantRules?: PageCommit['variantRules'];
  /** The page as the index holds it (not a duplicate): its verdict is set once judged. */
  held?: HeldContent;
}

/** A page's title or heading that says it is an error page: its canonical URL says nothing of the page asked for. */
const ERROR_PAGE = /\b(?:404|not found|page not found|error|no longer available)\b/i;

/**
 * The page's canonical URL, when it names another than its own, and whether the crawl takes it as the page's (same
 * site and scope, safe, not a login page; the page not a login or error page; no chain: a canonical URL the crawl
 * holds as naming yet another is recorded, not followed; and not a pager's first page, which a listing's later pages
 * often name in error).
 */
function canonicalOf(ctx: RunContext, entry: FrontierEntry, out: FetchOutcome, parsed: ParsedPage): ContentFindings['canonical'] {
  const named = parsed.canonical === undefined ? null : ctx.canonical(parsed.canonical);
  if (named === null || named === entry.url || named === ctx.canonical(out.finalUrl)) return null;
  const not = (note: string) => ({ url: named, taken: false, note });
  if (siteOf(named) !== siteOf(out.finalUrl)) return not('names a page of another site: recorded, not followed');
  if (ctx.rules.outOfScope(named)) return not("names a page outside the crawl's scope");
  if (isLoginUrl(named) || isLoginUrl(out.finalUrl)) return not('a login page: its canonical URL is not taken');
  if (ERROR_PAGE.test(parsed.heading ?? parsed.title)) return not('the page reads as an error page: its canonical URL is not taken');
  if (ctx.rules.safety.check(named)) return not('names a page the safety rules keep from being requested');
  const held = ctx.duplicates.index.atUrl(named);
  if (held?.canonical !== undefined && held.canonical !== named) return not(`a chain: ${named} names ${held.canonical} in turn; not followed`);
  const pager = parsed.links.some((l) => l.pagination);
  const u = new URL(entry.url), c = new URL(named);
  if (pager && u.search !== '' && c.search === '' && u.pathname === c.pathname) return not("a pager's first page, which this page is not");
  return { url: named, taken: true };
}

/** A parsed page's sketch, the held page it duplicates, its canonical URL and what it teaches of its host's variants. */
export function examineContent(ctx: RunContext, entry: FrontierEntry, out: FetchOutcome, parsed: ParsedPage): ContentFindings | null {
  if (!parsed.main) return null;
  const sketch = contentSketch(parsed.main, parsed.heading ?? parsed.title);
  const canonical = canonicalOf(ctx, entry, out, parsed);
  const match = ctx.duplicates.match(sketch);
  // A page asked for again (a list page's refresh) matches itself: it is no duplicate of its own.
  const duplicate = match && match.held.url !== entry.url ? match : null;
  const pager = parsed.links.filter((l) => l.pagination).map((l) => ctx.canonical(l.url)).filter((u): u is string => u !== null);
  const { variants } = ctx.duplicates;
  let variantRules = variants.observe(entry.url, sketch, pager) ?? undefined;
  // A link named like a page held: did it lead there?
  const named = ctx.duplicates.named(entry.url, entry.anchor);
  const namedSketch = named === undefined ? undefined : ctx.duplicates.index.atUrl(named)?.sketch;
  const same = namedSketch && sameContent(sketch, namedSketch, ctx.duplicates.index.threshold);
  if (named !== undefined && same !== undefined && same !== null) variantRules = variants.count(hostOf(entry.url), 'named', same, named);
  // A page that names its other spelling canonical: the site says they are one.
  if (canonical?.taken) variantRules = variants.declare(entry.url, canonical.url) ?? variantRules;
  // Held before the commit: a near-duplicate in flight at the same time is told apart too.
  let held: HeldContent | undefined;
  if (!match) ctx.duplicates.hold((held = { url: entry.url, sketch, relevant: null, ...(canonical?.taken ? { canonical: canonical.url } : {}) }));
  // The page is known by its canonical URL and its final one too: a link to their print version is another spelling.
  for (const also of [canonical?.taken ? canonical.url : null, ctx.canonical(out.finalUrl)]) if (also && also !== entry.url) ctx.duplicates.variants.restore(also, sketch);
  return { sketch, duplicate, canonical, ...(variantRules ? { variantRules } : {}), ...(held ? { held } : {}) };
}

/** The sentence a URL not requested for its host's variants is recorded with. */
export function sameAsReason(same: SameAs): string {
  const rules = same.rules.map(ruleWords);
  const what = rules.length === 1 ? `${rules[0]} does` : `${rules.slice(0, -1).join(', ')} and ${rules.at(-1)} do`;
  return `same page as ${same.url}: on ${same.host}, ${what} not change content`;
}

/** A page's links that its hosts' learned variants make pages held: not requested, with the reason. */
export function markVariantLinks(ctx: RunContext, children: Candidate[]): void {
  for (const c of children) {
    if (c.skip !== undefined) continue;
    const same = ctx.duplicates.sameAs(c.url, c.anchor);
    if (!same) continue;
    c.skip = sameAsReason(same);
    c.variantOf = same.host;
  }
}

/**
 * design A.7 with duplicates: a page's links that may be other spellings of pages the crawl knows wait behind the rest
 * (their priority lowered; a strategy whose order is not the link classifier's is left alone).
 */
export function presumeLinks(ctx: RunContext, pageUrls: string[], children: Candidate[], parsed: ParsedPage): void {
  if (!ctx.strategy.followsModel) return;
  const paging = new Set(parsed.links.filter((l) => l.pagination).map((l) => ctx.canonical(l.url)));
  const page = new PageVariants([...pageUrls, ...children.map((c) => c.url)]);
  for (const c of children) {
    if (c.skip !== undefined) continue;
    const presumed = ctx.duplicates.presume({ url: c.url, anchor: c.anchor, ...(paging.has(c.url) ? { pagination: 'page' } : {}) }, page);
    if (!presumed) continue;
    c.presumed = presumed.why;
    c.priority -= PRESUMED_PENALTY;
  }
}

/**
 * Why `url` waits for a URL being requested right now that is one rule from it (either way), or null. Only URLs past
 * their own checks count: two spellings taken at once must not each wait for the other.
 */
export function variantInFlight(ctx: RunContext, url: string): string | null {
  for (const other of ctx.requesting) {
    if (other === url) continue;
    const rule = candidates(url).find((c) => c.reduced === other)?.rule ?? candidates(other).find((c) => c.reduced === url)?.rule;
    if (rule !== undefined) return `may be ${other} spelled another way (${ruleWords(rule)}), which is being fetched`;
  }
  return null;
}

/** The page row's and the commit's part of what the content said. */
export function contentParts(findings: ContentFindings | null, url: string, relevant: boolean | null): {
  page: { duplicateOf?: string; canonical?: string; canonicalNote?: string };
  commit: Pick<PageCommit, 'sketch' | 'variantRules' | 'canonicalAlias'>;
} {
  if (!findings) return { page: {}, commit: {} };
  const { sketch, duplicate, canonical, variantRules } = findings;
  return {
    page: {
      ...(duplicate ? { duplicateOf: duplicate.held.url } : {}),
      ...(canonical ? { canonical: canonical.url, ...(canonical.note ? { canonicalNote: canonical.note } : {}) } : {}),
    },
    commit: {
      sketch: { url, ...sketch, relevant, ...(canonical?.taken ? { canonical: canonical.url } : {}), ...(duplicate ? { duplicateOf: duplicate.held.url } : {}) },
      ...(variantRules ? { variantRules } : {}),
      ...(canonical?.taken ? { canonicalAlias: canonical.url } : {}),
    },
  };
}
