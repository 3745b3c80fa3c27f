// Design E.1: a crawl template, the part of a crawl's config that turns a topic into records. Three keyword
// levels: search keywords (sent to a search engine), filter layers (which links to follow from a result, layer
// by layer, each a list of synonyms), and fields (what to extract, each with its synonyms). Validated here with
// one sentence per bad field, as the rest of the config is (lib/app/parse-config.ts).
import { compile } from 'css-select';

export interface TemplateSearch {
  /** The engine's query URL with `{query}` and `{offset}` (or `{page}`, counted from 1) in it. */
  url: string;
  keywords: string[];
  /** Result pages read per keyword. */
  pages: number;
  /** Results per page: the offset of page p (from 0) is p × perPage. */
  perPage: number;
  /** A CSS selector for the result links, for engines where "links leaving the engine's site" is not enough. */
  selector?: string;
}

export interface TemplateConfig {
  search: TemplateSearch;
  /** Filter layers (design E.4): layer i's synonyms choose the links followed from pages of layer i. */
  filters: string[][];
  /** Field name -> its synonyms (design E.5); the name is a synonym too and says the kind (email, phone...). */
  fields: Record<string, string[]>;
  /** design E.3 seed sampling; false crawls every result in order. */
  sampling: boolean;
  /** Seed for the sampling's randomness (the same seed samples the same seeds). */
  randomSeed: number;
  /** design E.6: the base recrawl period ("12h", "1d", "2w"); absent: recrawled only when asked. */
  recrawl?: { every: string };
}

export class TemplateError extends Error {}

/**
 * Whether a CSS selector compiles in css-select, the engine linkedom's `querySelectorAll` runs when the search page is
 * read. Compiled alone, so the popup and dashboard that check a form do not load the HTML parser.
 */
function isSelector(selector: string): boolean {
  if (!selector.trim()) return false;
  try {
    compile(selector);
    return true;
  } catch {
    return false;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function words(v: unknown, field: string): string[] {
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new TemplateError(`${field} must be a list of strings`);
  const out = (v as string[]).map((s) => s.trim()).filter(Boolean);
  if (out.length === 0) throw new TemplateError(`${field} must name at least one keyword`);
  return out;
}

function whole(v: unknown, field: string, fallback: number, min: number, max: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new TemplateError(`${field} must be a whole number between ${min} and ${max} (got ${JSON.stringify(v)})`);
  }
  return v;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "90m", "12h", "1d", "2w" -> milliseconds, or null when it is none of these. */
export function parseEvery(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([mhdw])\s*$/i.exec(text);
  return m ? Number(m[1]) * UNITS[m[2]!.toLowerCase()]! : null;
}

/** Validates the `template` block of a config; throws TemplateError with one sentence naming the field. */
export function parseTemplate(input: unknown): TemplateConfig {
  if (!isObject(input)) throw new TemplateError('template must be an object with search, filters and fields');
  const known = ['search', 'filters', 'fields', 'sampling', 'randomSeed', 'recrawl'];
  const stray = Object.keys(input).find((k) => !known.includes(k));
  if (stray) throw new TemplateError(`template.${stray} is not a template setting (they are ${known.join(', ')})`);
  const s = input.search;
  if (!isObject(s)) throw new TemplateError('template.search must be an object with url and keywords');
  if (typeof s.url !== 'string') throw new TemplateError('template.search.url must be the engine\'s query URL, e.g. https://engine.example/search?q={query}&first={offset}');
  let engine: URL;
  try {
    engine = new URL(s.url.replace(/\{(query|offset|page)\}/g, '0'));
  } catch {
    throw new TemplateError(`template.search.url: "${s.url}" is not a URL`);
  }
  if (engine.protocol !== 'http:' && engine.protocol !== 'https:') throw new TemplateError(`template.search.url: "${s.url}" is not an http(s) URL`);
  if (!s.url.includes('{query}')) throw new TemplateError('template.search.url must contain {query} where the keywords go');
  const pages = whole(s.pages, 'template.search.pages', 1, 1, 50);
  if (pages > 1 && !/\{(offset|page)\}/.test(s.url)) throw new TemplateError('template.search.url must contain {offset} or {page} to read more than one result page');
  if (s.selector !== undefined && (typeof s.selector !== 'string' || !isSelector(s.selector))) {
    throw new TemplateError(`template.search.selector: ${JSON.stringify(s.selector)} is not a CSS selector (e.g. "#results h2 > a")`);
  }
  const filters = input.filters ?? [];
  if (!Array.isArray(filters)) throw new TemplateError('template.filters must be a list of layers, each a list of keywords, e.g. [["contact us", "联系我们"]]');
  const fields = input.fields;
  if (!isObject(fields) || Object.keys(fields).length === 0) throw new TemplateError('template.fields must name at least one field, e.g. {"email": ["e-mail", "邮箱"]}');
  const every = input.recrawl === undefined ? undefined : isObject(input.recrawl) ? input.recrawl.every : null;
  const everyMs = typeof every === 'string' ? parseEvery(every) : every === undefined ? undefined : null;
  if (everyMs === null || (everyMs !== undefined && everyMs < 60_000)) {
    throw new TemplateError('template.recrawl.every must be a period such as "12h", "1d" or "2w" (at least "1m")');
  }
  if (input.sampling !== undefined && typeof input.sampling !== 'boolean') throw new TemplateError('template.sampling must be true or false');
  return {
    search: {
      url: s.url, keywords: words(s.keywords, 'template.search.keywords'), pages,
      perPage: whole(s.perPage, 'template.search.perPage', 10, 1, 100),
      ...(typeof s.selector === 'string' ? { selector: s.selector.trim() } : {}),
    },
    filters: filters.map((layer, i) => words(layer, `template.filters[${i}]`)),
    fields: Object.fromEntries(Object.entries(fields).map(([name, syn]) => [name, syn === undefined ? [] : Array.isArray(syn) && syn.length === 0 ? [] : words(syn, `template.fields.${name}`)])),
    sampling: input.sampling ?? true,
    randomSeed: whole(input.randomSeed, 'template.randomSeed', 1, 0, 2 ** 32 - 1),
    ...(everyMs === undefined ? {} : { recrawl: { every: (every as string).trim() } }),
  };
}

/** The base recrawl interval in milliseconds, or null when the template has no schedule. */
export function recrawlEveryMs(t: TemplateConfig): number | null {
  return t.recrawl ? parseEvery(t.recrawl.every) : null;
}

/** The engine's address (its query URL with placeholders filled): its host is in the crawl's scope. */
export function engineUrl(t: TemplateConfig): string {
  return t.search.url.replace(/\{(query|offset|page)\}/g, '0');
}

/** The query URL for a keyword and a result page (from 0). */
export function searchUrl(t: TemplateSearch, keyword: string, page: number): string {
  return t.url
    .replace('{query}', encodeURIComponent(keyword).replace(/%20/g, '+'))
    .replace('{offset}', String(page * t.perPage))
    .replace('{page}', String(page + 1));
}
