// The crawl configuration: what the dashboard form and the runner's JSON file both produce, its defaults and the
// error a refused one raises. Checking a user's config and filling its defaults is parseConfig
// (lib/app/parse-config.ts), a layer up, where each strategy's parameters can be asked for.
import { DEFAULT_JUDGE_SMOOTHING, DEFAULT_SCORING, type LinkScoring } from './classifier-config';
import { DEFAULT_CANONICAL, type CanonicalOptions } from './url';
import type { TemplateConfig } from './template-config';

/**
 * Where a crawl may go (lib/policy/scope.ts): the seeds' hosts, the seeds' registrable domains (every
 * subdomain), the listed sites, or anywhere. The first is the default: the crawl sends the user's cookies.
 */
export const SCOPE_MODES = ['seed-hosts', 'seed-sites', 'listed-sites', 'anywhere'] as const;
export type ScopeMode = (typeof SCOPE_MODES)[number];
/** Whether pages are rendered in the user's browser before they are read (docs/rendering.md). */
export const RENDER_MODES = ['never', 'auto', 'always'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];
export type StrategyName = string;
/** A strategy and its parameters: `{"name": "sparse-tunneling", "maxTunnel": 3}`. */
export type StrategyConfig = { name: StrategyName } & Record<string, string | number | readonly string[]>;

/**
 * A link the user let the crawl request after seeing why it was kept (the dashboard's "Kept from requesting"): one
 * URL (canonical), or every link one rule caught by one match ("action verb" "watch"), for this crawl only.
 */
export type SafetyAllowance = { url: string; at: number } | { rule: string; match: string; at: number };

export interface CrawlConfig {
  name: string;
  seeds: string[];
  /**
   * Read the seeds' sitemaps (robots.txt's `Sitemap:` lines, else /sitemap.xml) and queue their URLs as links
   * (lib/run/sitemap-seeding.ts). Written `"seeds": {"urls": [...], "sitemaps": false}` in a config.
   */
  seedSitemaps: boolean;
  /** `id`: the topic (crawl profile) to learn from and add to; without it the crawl gets a new topic of its own. */
  topic: { keywords: string[]; id?: number };
  training: { linkSources: string[]; positive: string[]; negative: string[] };
  strategy: StrategyConfig;
  /** Sites (registrable domains) never entered, whatever the strategy; the dashboard can add to it while a crawl runs. */
  siteBlacklist: string[];
  /**
   * `targetRecall` (0-1): the crawl ends once its estimate of how much of the topic it holds reaches it, whatever is
   * left of `maxPages` (lib/run/recall-watch.ts); absent, only the page budget ends it.
   */
  budget: { maxPages: number; maxDepth: number; targetRecall?: number };
  scope: { mode: ScopeMode; sites: string[] };
  /**
   * `identify`: the crawl's requests name it in their User-Agent (the browser's own, then `FocusCrawler/<version>`),
   * so robots.txt groups written for Focus apply and a site can tell the crawl from the user; off for a site that
   * refuses it.
   */
  politeness: { delayMs: number; concurrency: number; perHost: number; robots: boolean; identify: boolean };
  /**
   * `retries`: re-queues of a URL after a passing fault (429, 502-504, network error, timeout) before it is
   * failed; `retryBaseMs`: the first wait when the server names none (doubled each time; robots.txt outages
   * wait three times longer each time). `render`: whether a fetched page is also loaded in a background tab and read
   * from the DOM its scripts built (`auto`: when its HTML looks like a script's shell, or its site turned out to be
   * built by scripts); `renderTabs` tabs at most at once, each given `renderTimeoutMs` to settle; a page that grows
   * as it is scrolled (an endless feed) is scrolled to its end at most `renderScrolls` times, and a list's "load more"
   * pressed at most `renderClicks` times, for at most `renderGrowMs` after it first settled and until it holds
   * `renderGrowLinks` links; what a rendered page's tab loaded (scripts, styles, JSON calls, images) is
   * kept for the archive up to `renderCaptureBytes` a page (0: none).
   */
  fetch: {
    timeoutMs: number; maxBytes: number; retries: number; retryBaseMs: number;
    render: RenderMode; renderTabs: number; renderTimeoutMs: number; renderScrolls: number; renderClicks: number;
    renderGrowMs: number; renderGrowLinks: number; renderCaptureBytes: number;
  };
  /**
   * Session safety (lib/policy/safety.ts). `avoid`: the user's own words, added to the default rules;
   * `disabledRules`: default rules turned off, by name (DEFAULT_SAFETY_RULES).
   */
  safety: { avoid: string[]; disabledRules: string[] };
  /**
   * The page judge. `threshold`: a page is relevant when P(on topic) >= threshold. `smoothing`: its pseudo-count
   * per word (1 is Laplace, as design A; the default 0.1 lets it recognise pages of small topics, docs/benchmarks.md "Every topic").
   */
  judge: { threshold: number; smoothing: number };
  /**
   * Online learning. `fromVerdicts`: the link that led to a fetched page becomes a labeled link with the page's
   * verdict. `linksToJudged`: so does every link found later to a page already judged (it multiplies what the
   * crawl learns from; docs/benchmarks.md, "Every topic"), until links have taught `linksPerJudgedPage` labels of that
   * page: a page linked from every page of its site teaches little after the first few. The queued links are re-scored
   * with the current model every `rescoreEveryPages` pages and after `rescoreEveryLabels` new labels from elsewhere
   * (the labeler, the dashboard); 0 turns either off.
   */
  learning: { fromVerdicts: boolean; linksToJudged: boolean; linksPerJudgedPage: number; rescoreEveryPages: number; rescoreEveryLabels: number };
  /** How links and seeds become the canonical URL (lib/records/url.ts); `sortQuery: false` for sites that read the query in order. */
  canonical: CanonicalOptions;
  /**
   * Design E: template crawling. Seeds come from a search engine, links are followed by filter layers and fields
   * are extracted into records; such a crawl needs no seeds and no topic keywords (the search keywords serve).
   */
  template?: TemplateConfig;
  /**
   * How the link classifier scores links (lib/records/classifier-config.ts, LinkScoring). Design A's classifier
   * (with the context averaged, as Focus first measured it) is
   * `{"smoothing": "laplace", "parentPage": false, "everyLink": false, "contextDamping": 1, "parentHub": false, "targetAuthority": false, "anchorShape": false}`.
   */
  classifier: LinkScoring;
}

export const DEFAULTS: Omit<CrawlConfig, 'name' | 'seeds'> = {
  seedSitemaps: false,
  topic: { keywords: [] },
  training: { linkSources: [], positive: [], negative: [] },
  strategy: { name: 'best-first' },
  siteBlacklist: [],
  budget: { maxPages: 100, maxDepth: 50 },
  scope: { mode: 'seed-hosts', sites: [] },
  politeness: { delayMs: 1000, concurrency: 2, perHost: 1, robots: true, identify: true },
  fetch: {
    timeoutMs: 30_000, maxBytes: 5 * 1024 * 1024, retries: 3, retryBaseMs: 10_000,
    render: 'auto', renderTabs: 2, renderTimeoutMs: 15_000, renderScrolls: 20, renderClicks: 20,
    renderGrowMs: 30_000, renderGrowLinks: 1000, renderCaptureBytes: 2 * 1024 * 1024,
  },
  safety: { avoid: [], disabledRules: [] },
  judge: { threshold: 0.5, smoothing: DEFAULT_JUDGE_SMOOTHING },
  learning: { fromVerdicts: true, linksToJudged: true, linksPerJudgedPage: 8, rescoreEveryPages: 500, rescoreEveryLabels: 10 },
  canonical: DEFAULT_CANONICAL,
  classifier: DEFAULT_SCORING,
};

/** A config the crawler refuses, in one sentence; `field` is the setting it is about (`budget.maxPages`, `seeds[2]`). */
export class ConfigError extends Error {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.field = field ?? configPathOf(message);
  }
}

/** The setting a refusal sentence starts with: `budget.maxPages must be…` -> `budget.maxPages`. */
export function configPathOf(message: string): string | undefined {
  return /^([A-Za-z]+(?:\.[A-Za-z]+|\[\d+\])*)(?=[ :])/.exec(message)?.[1];
}
