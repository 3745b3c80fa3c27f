// The crawl configuration: what the dashboard form and the runner's JSON file both produce.
import { STRATEGY_NAMES, strategyParams, strategyProblem } from '../strategies/registry';
import { DEFAULT_JUDGE_SMOOTHING, DEFAULT_SCORING, type LinkScoring } from '../classifier/config';
import { DEFAULT_SAFETY_RULES } from './safety-rules';
import { DEFAULT_CANONICAL, siteOfHostOrUrl, type CanonicalOptions } from '../url';
import { parseTemplate, TemplateError, type TemplateConfig } from '../template/config';

/**
 * Where a crawl may go (lib/crawl/scope.ts): the seeds' hosts, the seeds' registrable domains (every
 * subdomain), the listed sites, or anywhere. The first is the default: the crawl sends the user's cookies.
 */
export const SCOPE_MODES = ['seed-hosts', 'seed-sites', 'listed-sites', 'anywhere'] as const;
export type ScopeMode = (typeof SCOPE_MODES)[number];
/** Whether pages are rendered in the user's browser before they are read (docs/rendering.md). */
export const RENDER_MODES = ['never', 'auto', 'always'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];
/**
 * The crawl strategies a topic crawl may choose (lib/strategies/registry.ts); the benchmark runs each of them.
 * "template" is not among them: a crawl runs it exactly when its config has a template (SPEC E).
 */
export const STRATEGIES: readonly string[] = STRATEGY_NAMES.filter((n) => n !== 'template');
export type StrategyName = string;
/** A strategy and its parameters: `{"name": "sparse-tunneling", "maxTunnel": 3}`. */
export type StrategyConfig = { name: StrategyName } & Record<string, string | number | readonly string[]>;

export interface CrawlConfig {
  name: string;
  seeds: string[];
  /** `id`: the topic (crawl profile) to learn from and add to; without it the crawl gets a new topic of its own. */
  topic: { keywords: string[]; id?: number };
  training: { linkSources: string[]; positive: string[]; negative: string[] };
  strategy: StrategyConfig;
  /** Sites (registrable domains) never entered, whatever the strategy; the dashboard can add to it while a crawl runs. */
  siteBlacklist: string[];
  budget: { maxPages: number; maxDepth: number };
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
   * as it is scrolled (an endless feed) is scrolled to its end at most `renderScrolls` times.
   */
  fetch: {
    timeoutMs: number; maxBytes: number; retries: number; retryBaseMs: number;
    render: RenderMode; renderTabs: number; renderTimeoutMs: number; renderScrolls: number;
  };
  /**
   * Session safety (lib/crawl/safety.ts). `avoid`: the user's own words, added to the default rules;
   * `disabledRules`: default rules turned off, by name (DEFAULT_SAFETY_RULES).
   */
  safety: { avoid: string[]; disabledRules: string[] };
  /**
   * The page judge. `threshold`: a page is relevant when P(on topic) >= threshold. `smoothing`: its pseudo-count
   * per word (1 is Laplace, as SPEC A; the default 0.1 lets it recognise pages of small topics, docs/benchmarks.md "Every topic").
   */
  judge: { threshold: number; smoothing: number };
  /**
   * Online learning. `fromVerdicts`: the link that led to a fetched page becomes a labeled link with the page's
   * verdict. `linksToJudged`: so does every link found later to a page already judged (it multiplies what the
   * crawl learns from; docs/benchmarks.md, "Every topic"). The queued links are re-scored with the current model every `rescoreEveryPages` pages and after
   * `rescoreEveryLabels` new labels from elsewhere (the labeler, the dashboard); 0 turns either off.
   */
  learning: { fromVerdicts: boolean; linksToJudged: boolean; rescoreEveryPages: number; rescoreEveryLabels: number };
  /** How links and seeds become the canonical URL (lib/url.ts); `sortQuery: false` for sites that read the query in order. */
  canonical: CanonicalOptions;
  /**
   * SPEC E: template crawling. Seeds come from a search engine, links are followed by filter layers and fields
   * are extracted into records; such a crawl needs no seeds and no topic keywords (the search keywords serve).
   */
  template?: TemplateConfig;
  /**
   * How the link classifier scores links (lib/classifier/config.ts, LinkScoring). SPEC A's classifier
   * (with the context averaged, as Focus first measured it) is
   * `{"smoothing": "laplace", "parentPage": false, "everyLink": false, "contextDamping": 1, "parentHub": false, "targetAuthority": false, "anchorShape": false}`.
   */
  classifier: LinkScoring;
}

export const DEFAULTS: Omit<CrawlConfig, 'name' | 'seeds'> = {
  topic: { keywords: [] },
  training: { linkSources: [], positive: [], negative: [] },
  strategy: { name: 'best-first' },
  siteBlacklist: [],
  budget: { maxPages: 100, maxDepth: 50 },
  scope: { mode: 'seed-hosts', sites: [] },
  politeness: { delayMs: 1000, concurrency: 2, perHost: 1, robots: true, identify: true },
  fetch: { timeoutMs: 30_000, maxBytes: 5 * 1024 * 1024, retries: 3, retryBaseMs: 10_000, render: 'auto', renderTabs: 2, renderTimeoutMs: 15_000, renderScrolls: 5 },
  safety: { avoid: [], disabledRules: [] },
  judge: { threshold: 0.5, smoothing: DEFAULT_JUDGE_SMOOTHING },
  learning: { fromVerdicts: true, linksToJudged: true, rescoreEveryPages: 500, rescoreEveryLabels: 10 },
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

/**
 * The user's words add to the default rules, so an imported `"avoid": []` (or an old file whose `avoid` is the
 * first guard's word list) never weakens them; turning a default rule off is its own, named choice.
 */
function safetyOf(safety: Record<string, unknown>): CrawlConfig['safety'] {
  const disabledRules = [...new Set(strings(safety.disabledRules, 'safety.disabledRules'))];
  const unknown = disabledRules.find((r) => !DEFAULT_SAFETY_RULES.includes(r));
  if (unknown !== undefined) {
    throw new ConfigError(
      `safety.disabledRules: "${unknown}" is not a safety rule (the rules are ${DEFAULT_SAFETY_RULES.map((r) => `"${r}"`).join(', ')})`,
    );
  }
  return { avoid: strings(safety.avoid, 'safety.avoid'), disabledRules };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function strings(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new ConfigError(`${field} must be a list of strings`);
  return (v as string[]).map((s) => s.trim()).filter(Boolean);
}

function num(v: unknown, field: string, fallback: number, min: number, max: number, integer = false): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    throw new ConfigError(`${field} must be a ${integer ? 'whole number' : 'number'} between ${min} and ${max} (got ${JSON.stringify(v)})`);
  }
  return v;
}

function renderMode(v: unknown): RenderMode {
  if (v === undefined) return DEFAULTS.fetch.render;
  if (RENDER_MODES.includes(v as RenderMode)) return v as RenderMode;
  throw new ConfigError(`fetch.render must be one of ${RENDER_MODES.map((m) => `"${m}"`).join(', ')} (got ${JSON.stringify(v)})`);
}

function bool(v: unknown, field: string, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new ConfigError(`${field} must be true or false`);
  return v;
}

function httpUrl(s: string, field: string): string {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new ConfigError(`${field}: "${s}" is not a URL (write it in full, e.g. https://example.org/)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${field}: "${s}" is not an http(s) URL`);
  return u.href;
}

/** Validates a user-supplied config and fills defaults. Throws ConfigError with one clear sentence. */
export function parseConfig(input: unknown): CrawlConfig {
  if (!isObject(input)) throw new ConfigError('the config must be a JSON object');
  const c = input;
  const seeds = strings(c.seeds, 'seeds').map((s, i) => httpUrl(s, `seeds[${i}]`));
  let template: TemplateConfig | undefined;
  try {
    template = c.template === undefined ? undefined : parseTemplate(c.template);
  } catch (err) {
    if (err instanceof TemplateError) throw new ConfigError(err.message);
    throw err;
  }
  if (seeds.length === 0 && !template) throw new ConfigError('seeds: give at least one start URL (or a template, whose search finds them)');
  const sub = (k: string): Record<string, unknown> => {
    const v = c[k];
    if (v === undefined) return {};
    if (!isObject(v)) throw new ConfigError(`${k} must be an object`);
    return v;
  };
  const topic = sub('topic'), training = sub('training'), strategy = sub('strategy'), budget = sub('budget');
  const scope = sub('scope'), politeness = sub('politeness'), fetchCfg = sub('fetch'), safety = sub('safety'), judge = sub('judge');
  const learning = sub('learning'), canonical = sub('canonical'), classifier = sub('classifier');
  const smoothing = classifier.smoothing ?? DEFAULTS.classifier.smoothing;
  if (smoothing !== 'laplace' && smoothing !== 'base-rate') {
    throw new ConfigError(`classifier.smoothing must be "laplace" or "base-rate" (got ${JSON.stringify(smoothing)})`);
  }
  const strategyName = (strategy.name ?? (template ? 'template' : DEFAULTS.strategy.name)) as string;
  if (template && strategyName !== 'template') throw new ConfigError(`strategy.name must be "template" for a crawl with a template (got ${JSON.stringify(strategyName)})`);
  if (!template && strategyName === 'template') throw new ConfigError('strategy.name "template" needs a template block (search, filters, fields)');
  const strategyError = strategyProblem({ ...strategy, name: strategyName });
  if (strategyError) throw new ConfigError(strategyError);
  const mode = scope.mode ?? DEFAULTS.scope.mode;
  if (!SCOPE_MODES.includes(mode as ScopeMode)) {
    throw new ConfigError(`scope.mode must be one of ${SCOPE_MODES.map((m) => `"${m}"`).join(', ')} (got ${JSON.stringify(mode)})`);
  }
  const robots = bool(politeness.robots, 'politeness.robots', DEFAULTS.politeness.robots);
  const name = c.name === undefined ? (seeds[0] ? new URL(seeds[0]).hostname : template!.search.keywords[0]) : c.name;
  if (typeof name !== 'string' || !name.trim()) throw new ConfigError('name must be a non-empty string');
  const config: CrawlConfig = {
    name: name.trim(),
    seeds,
    topic: {
      // SPEC E.1: a template's search keywords say what the topic is when the user gives none.
      keywords: strings(topic.keywords, 'topic.keywords').length ? strings(topic.keywords, 'topic.keywords') : template?.search.keywords ?? [],
      ...(topic.id === undefined ? {} : { id: num(topic.id, 'topic.id', 0, 1, Number.MAX_SAFE_INTEGER) }),
    },
    training: {
      linkSources: strings(training.linkSources, 'training.linkSources').map((s, i) => httpUrl(s, `training.linkSources[${i}]`)),
      positive: strings(training.positive, 'training.positive'),
      negative: strings(training.negative, 'training.negative'),
    },
    strategy: { name: strategyName, ...strategyParams(strategyName, strategy) },
    siteBlacklist: strings(c.siteBlacklist, 'siteBlacklist').map((site, i) => {
      try {
        return siteOfHostOrUrl(site);
      } catch {
        throw new ConfigError(`siteBlacklist[${i}]: "${site}" is not a host or URL`);
      }
    }),
    budget: {
      maxPages: num(budget.maxPages, 'budget.maxPages', DEFAULTS.budget.maxPages, 1, 10_000_000, true),
      maxDepth: num(budget.maxDepth, 'budget.maxDepth', DEFAULTS.budget.maxDepth, 0, 10_000, true),
    },
    scope: { mode: mode as ScopeMode, sites: strings(scope.sites, 'scope.sites') },
    politeness: {
      delayMs: num(politeness.delayMs, 'politeness.delayMs', DEFAULTS.politeness.delayMs, 0, 600_000),
      concurrency: num(politeness.concurrency, 'politeness.concurrency', DEFAULTS.politeness.concurrency, 1, 64, true),
      perHost: num(politeness.perHost, 'politeness.perHost', DEFAULTS.politeness.perHost, 1, 16, true),
      robots,
      identify: bool(politeness.identify, 'politeness.identify', DEFAULTS.politeness.identify),
    },
    fetch: {
      timeoutMs: num(fetchCfg.timeoutMs, 'fetch.timeoutMs', DEFAULTS.fetch.timeoutMs, 100, 600_000),
      maxBytes: num(fetchCfg.maxBytes, 'fetch.maxBytes', DEFAULTS.fetch.maxBytes, 1024, 512 * 1024 * 1024),
      retries: num(fetchCfg.retries, 'fetch.retries', DEFAULTS.fetch.retries, 0, 10, true),
      retryBaseMs: num(fetchCfg.retryBaseMs, 'fetch.retryBaseMs', DEFAULTS.fetch.retryBaseMs, 100, 3_600_000),
      render: renderMode(fetchCfg.render),
      renderTabs: num(fetchCfg.renderTabs, 'fetch.renderTabs', DEFAULTS.fetch.renderTabs, 1, 8, true),
      renderTimeoutMs: num(fetchCfg.renderTimeoutMs, 'fetch.renderTimeoutMs', DEFAULTS.fetch.renderTimeoutMs, 1000, 120_000),
      renderScrolls: num(fetchCfg.renderScrolls, 'fetch.renderScrolls', DEFAULTS.fetch.renderScrolls, 0, 100, true),
    },
    safety: safetyOf(safety),
    judge: {
      threshold: num(judge.threshold, 'judge.threshold', DEFAULTS.judge.threshold, 0, 1),
      smoothing: num(judge.smoothing, 'judge.smoothing', DEFAULTS.judge.smoothing, 0.001, 10),
    },
    learning: {
      fromVerdicts: bool(learning.fromVerdicts, 'learning.fromVerdicts', DEFAULTS.learning.fromVerdicts),
      linksToJudged: bool(learning.linksToJudged, 'learning.linksToJudged', DEFAULTS.learning.linksToJudged),
      rescoreEveryPages: num(learning.rescoreEveryPages, 'learning.rescoreEveryPages', DEFAULTS.learning.rescoreEveryPages, 0, 1e9),
      rescoreEveryLabels: num(learning.rescoreEveryLabels, 'learning.rescoreEveryLabels', DEFAULTS.learning.rescoreEveryLabels, 0, 1e9),
    },
    canonical: { sortQuery: bool(canonical.sortQuery, 'canonical.sortQuery', DEFAULTS.canonical.sortQuery) },
    ...(template ? { template } : {}),
    classifier: {
      smoothing, parentPage: bool(classifier.parentPage, 'classifier.parentPage', DEFAULTS.classifier.parentPage),
      everyLink: bool(classifier.everyLink, 'classifier.everyLink', DEFAULTS.classifier.everyLink),
      contextDamping: num(classifier.contextDamping, 'classifier.contextDamping', DEFAULTS.classifier.contextDamping, 0, 1),
      parentHub: bool(classifier.parentHub, 'classifier.parentHub', DEFAULTS.classifier.parentHub),
      targetAuthority: bool(classifier.targetAuthority, 'classifier.targetAuthority', DEFAULTS.classifier.targetAuthority),
      anchorShape: bool(classifier.anchorShape, 'classifier.anchorShape', DEFAULTS.classifier.anchorShape),
    },
  };
  if (config.scope.mode === 'listed-sites' && config.scope.sites.length === 0) {
    throw new ConfigError('scope.sites: list at least one site when scope.mode is "listed-sites"');
  }
  // A crawl of an existing topic may rely on that topic's keywords and labels (the service checks it has some).
  if (config.topic.keywords.length === 0 && config.training.positive.length === 0 && config.topic.id === undefined) {
    throw new ConfigError('topic.keywords or training.positive: give the crawler something that says what the topic is');
  }
  return config;
}
