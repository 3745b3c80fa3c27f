// The run's memory of a site's URL variants (url-variants.ts): every page it compared, by URL; each fetched page paired
// with the pages one rule away from it, the pairs counted as evidence; and, per host, the pages it holds under the
// key its learned rules give them, so that a URL whose key a held page has is known before it is requested.
import type { ContentSketch } from '../parse/content-sketch';
import { hostOf } from '../records/url';
import {
  candidates, counted, isChanging, learnedRules, pagingParams, reduce, type HostVariants, type VariantBook, type VariantEvidence, type VariantRule,
} from './url-variants';

/** Whether two pages are one content: true, false, or null when either has too little text to tell. */
export type SameContent = (a: ContentSketch, b: ContentSketch) => boolean | null;

/** A URL the crawl need not request: the page it holds under the same key, and the rules that made them one. */
export interface SameAs {
  url: string;
  host: string;
  rules: VariantRule[];
}

interface HostKeys {
  learned: Set<VariantRule>;
  /** Key -> the held URL with that key (the first seen). */
  byKey: Map<string, string>;
}

export class VariantLearner {
  private readonly book: VariantBook;
  private readonly pages = new Map<string, ContentSketch>();
  /** URL one rule away -> the pages seen that are that rule away from it. */
  private readonly byReduced = new Map<string, { rule: VariantRule; url: string }[]>();
  private readonly hosts = new Map<string, HostKeys>();
  private readonly urlsOf = new Map<string, string[]>();

  constructor(book: VariantBook | undefined, private readonly same: SameContent) {
    this.book = structuredClone(book ?? {});
  }

  /** What the crawl knows of a host's variants, as the crawl row keeps it. */
  host(host: string): HostVariants | undefined {
    return this.book[host];
  }

  /**
   * A fetched page, compared with every page seen one rule away from it; returns its host's rules when that changed
   * them (for the crawl row). `pager`: the URLs of the page's pagination links (their parameters are never learned).
   */
  observe(url: string, sketch: ContentSketch, pager: readonly string[] = []): { host: string; rules: Record<VariantRule, VariantEvidence> } | null {
    const host = hostOf(url);
    let changed = false;
    const rules = (): Record<VariantRule, VariantEvidence> => (this.book[host] ??= { rules: {}, notRequested: 0 }).rules;
    for (const name of pagingParams(url, pager)) {
      const rule = `?${name}`;
      if (!rules()[rule]?.paging) {
        rules()[rule] = { ...(rules()[rule] ?? { same: 0, changed: 0, values: [] }), paging: true };
        changed = true;
      }
    }
    if (!this.pages.has(url)) {
      for (const { rule, other, value } of this.pairs(url)) {
        const otherSketch = this.pages.get(other);
        const verdict = otherSketch ? this.same(sketch, otherSketch) : null;
        if (verdict === null) continue;
        rules()[rule] = counted(rules()[rule], verdict, value);
        changed = true;
      }
      this.remember(url, host, sketch);
    }
    if (changed) this.hosts.delete(host); // its keys are made again with what it learned
    return changed ? { host, rules: rules() } : null;
  }

  /**
   * One pair of pages counted for a rule on a host, outside the URL pairs `observe` finds (a link named like a page held,
   * a page that names its other spelling its canonical URL); returns the host's rules.
   */
  count(host: string, rule: VariantRule, same: boolean, value: string): { host: string; rules: Record<VariantRule, VariantEvidence> } {
    const row = (this.book[host] ??= { rules: {}, notRequested: 0 });
    row.rules[rule] = counted(row.rules[rule], same, value);
    this.hosts.delete(host);
    return { host, rules: row.rules };
  }

  /**
   * A page that names as its canonical URL the URL one rule makes of it (`/a?ref=home` naming `/a`): the site says the
   * two are one page, a same-content pair counted without fetching the other. Counted only when the other page was not
   * seen (then `observe` compared the two itself). Returns the host's rules when counted.
   */
  declare(url: string, canonical: string): { host: string; rules: Record<VariantRule, VariantEvidence> } | null {
    if (this.pages.has(canonical) || hostOf(url) !== hostOf(canonical)) return null;
    let out: { host: string; rules: Record<VariantRule, VariantEvidence> } | null = null;
    for (const c of candidates(url)) if (c.reduced === canonical) out = this.count(hostOf(url), c.rule, true, c.value);
    return out;
  }

  /** Whether a rule is learned on a host. */
  learned(host: string, rule: VariantRule): boolean {
    return this.keysOf(host).learned.has(rule);
  }

  /** A page seen in an earlier run: remembered, not counted again (its pairs are in the book already). */
  restore(url: string, sketch: ContentSketch): void {
    if (!this.pages.has(url)) this.remember(url, hostOf(url), sketch);
  }

  /** The held page a URL is one with by what its host's learned rules say, or null: request it. */
  sameAs(url: string): SameAs | null {
    const host = hostOf(url);
    const keys = this.keysOf(host);
    if (keys.learned.size === 0) return null;
    const { key, applied } = reduce(url, keys.learned);
    const held = keys.byKey.get(key);
    if (held === undefined || held === url) return null;
    // The rules that make the two one: those that changed this URL, or the held one (`/a` is `/a/` held).
    return { url: held, host, rules: applied.length > 0 ? applied : reduce(held, keys.learned).applied };
  }

  /**
   * A page seen one rule away from `url` by a rule not seen to change content on its host (`url` may be another
   * spelling of it), or null.
   */
  near(url: string): { rule: VariantRule; other: string } | null {
    const host = hostOf(url);
    return this.pairs(url).find((p) => !this.changes(host, p.rule)) ?? null;
  }

  /** Whether a rule was seen to change content on a host; a parameter's value changes content when its pager varies it. */
  changes(host: string, rule: VariantRule): boolean {
    const rules = this.book[host]?.rules;
    if (rule.startsWith('?') && rule.includes('=') && rules?.[rule.slice(0, rule.indexOf('='))]?.paging) return true;
    return isChanging(rule, rules?.[rule]);
  }

  /** The pages seen one rule away from `url`, with the rule and the value it counts. */
  private pairs(url: string): { rule: VariantRule; other: string; value: string }[] {
    const out: { rule: VariantRule; other: string; value: string }[] = [];
    for (const c of candidates(url)) {
      // The page the rule makes of this one, and pages the same rule makes the same page of (another `sort=`).
      if (this.pages.has(c.reduced)) out.push({ rule: c.rule, other: c.reduced, value: c.value });
      for (const seen of this.byReduced.get(c.reduced) ?? []) if (seen.rule === c.rule && seen.url !== url) out.push({ rule: c.rule, other: seen.url, value: c.value });
    }
    // Pages this one is what a rule makes of them (this is `/a`, they were `/a?sort=x`).
    for (const seen of this.byReduced.get(url) ?? []) {
      const value = candidates(seen.url).find((c) => c.rule === seen.rule)?.value ?? '';
      out.push({ rule: seen.rule, other: seen.url, value });
    }
    const once = new Set<string>();
    return out.filter((p) => !once.has(`${p.rule}\n${p.other}`) && !!once.add(`${p.rule}\n${p.other}`));
  }

  private remember(url: string, host: string, sketch: ContentSketch): void {
    this.pages.set(url, sketch);
    for (const c of candidates(url)) {
      const list = this.byReduced.get(c.reduced);
      if (list) list.push({ rule: c.rule, url });
      else this.byReduced.set(c.reduced, [{ rule: c.rule, url }]);
    }
    const urls = this.urlsOf.get(host);
    if (urls) urls.push(url);
    else this.urlsOf.set(host, [url]);
    const keys = this.hosts.get(host);
    if (keys) {
      const { key } = reduce(url, keys.learned);
      if (!keys.byKey.has(key)) keys.byKey.set(key, url);
    }
  }

  private keysOf(host: string): HostKeys {
    let keys = this.hosts.get(host);
    if (!keys) {
      const learned = learnedRules(this.book[host]);
      const byKey = new Map<string, string>();
      if (learned.size > 0) {
        for (const url of this.urlsOf.get(host) ?? []) {
          const { key } = reduce(url, learned);
          if (!byKey.has(key)) byKey.set(key, url);
        }
      }
      keys = { learned, byKey };
      this.hosts.set(host, keys);
    }
    return keys;
  }
}
