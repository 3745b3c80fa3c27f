// Checks a user's crawl config (the dashboard form's, an imported file's, the runner's JSON) and fills its
// defaults: one clear sentence for the first thing wrong. Above the strategies, as it asks each for its parameters.
import { createStrategy, strategyParams, strategyProblem } from '../strategies/registry';
import { DEFAULT_SAFETY_RULES } from '../records/safety-rules';
import { siteOfHostOrUrl } from '../records/url';
import { patternProblems } from '../records/patterns';
import { parseTemplate, TemplateError, type TemplateConfig } from '../records/template-config';
import { ConfigError, DEFAULTS, RENDER_MODES, SCOPE_MODES, type CrawlConfig, type RenderMode, type ScopeMode } from '../records/config';

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

/** Why `s` is no URL a crawl can start from or read, in words after its field's name, or null when it is one. */
export function httpUrlProblem(s: string): string | null {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return `"${s}" is not a URL (write it in full, e.g. https://example.org/)`;
  }
  return u.protocol !== 'http:' && u.protocol !== 'https:' ? `"${s}" is not an http(s) URL` : null;
}

function httpUrl(s: string, field: string): string {
  const problem = httpUrlProblem(s);
  if (problem) throw new ConfigError(`${field}: ${problem}`);
  return new URL(s).href;
}

/** Validates a user-supplied config and fills defaults. Throws ConfigError with one clear sentence. */
export function parseConfig(input: unknown): CrawlConfig {
  if (!isObject(input)) throw new ConfigError('the config must be a JSON object');
  const c = input;
  // `seeds` is a list of URLs, or `{"urls": [...], "sitemaps": true|false}` (`seedSitemaps` is how a stored config keeps it).
  const seedBlock = isObject(c.seeds) ? c.seeds : { urls: c.seeds };
  const unknownSeedKey = Object.keys(seedBlock).find((k) => k !== 'urls' && k !== 'sitemaps');
  if (unknownSeedKey !== undefined) throw new ConfigError(`seeds.${unknownSeedKey} is not a setting of seeds (write "urls" and "sitemaps")`);
  const seeds = strings(seedBlock.urls, isObject(c.seeds) ? 'seeds.urls' : 'seeds').map((s, i) => httpUrl(s, `seeds[${i}]`));
  const seedSitemaps = bool(seedBlock.sitemaps ?? c.seedSitemaps, 'seeds.sitemaps', DEFAULTS.seedSitemaps);
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
    seedSitemaps,
    topic: {
      // Design E.1: a template's search keywords say what the topic is when the user gives none.
      keywords: strings(topic.keywords, 'topic.keywords').length ? strings(topic.keywords, 'topic.keywords') : template?.search.keywords ?? [],
      ...(topic.id === undefined ? {} : { id: num(topic.id, 'topic.id', 0, 1, Number.MAX_SAFE_INTEGER) }),
    },
    training: {
      linkSources: strings(training.linkSources, 'training.linkSources').map((s, i) => httpUrl(s, `training.linkSources[${i}]`)),
      positive: patterns(training.positive, 'training.positive'),
      negative: patterns(training.negative, 'training.negative'),
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
      ...targetRecall(budget.targetRecall),
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
      renderClicks: num(fetchCfg.renderClicks, 'fetch.renderClicks', DEFAULTS.fetch.renderClicks, 0, 100, true),
      renderGrowMs: num(fetchCfg.renderGrowMs, 'fetch.renderGrowMs', DEFAULTS.fetch.renderGrowMs, 0, 600_000, true),
      renderGrowLinks: num(fetchCfg.renderGrowLinks, 'fetch.renderGrowLinks', DEFAULTS.fetch.renderGrowLinks, 0, 100_000, true),
      renderCaptureBytes: num(fetchCfg.renderCaptureBytes, 'fetch.renderCaptureBytes', DEFAULTS.fetch.renderCaptureBytes, 0, 512 * 1024 * 1024, true),
    },
    safety: safetyOf(safety),
    judge: {
      threshold: num(judge.threshold, 'judge.threshold', DEFAULTS.judge.threshold, 0, 1),
      smoothing: num(judge.smoothing, 'judge.smoothing', DEFAULTS.judge.smoothing, 0.001, 10),
    },
    learning: {
      fromVerdicts: bool(learning.fromVerdicts, 'learning.fromVerdicts', DEFAULTS.learning.fromVerdicts),
      linksToJudged: bool(learning.linksToJudged, 'learning.linksToJudged', DEFAULTS.learning.linksToJudged),
      linksPerJudgedPage: num(learning.linksPerJudgedPage, 'learning.linksPerJudgedPage', DEFAULTS.learning.linksPerJudgedPage, 1, 1e9, true),
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
  // A target the crawl could never see itself reach is refused, not left to run to its page budget unnoticed.
  if (config.budget.targetRecall !== undefined && !createStrategy(config).priorityIsLogOdds) {
    throw new ConfigError(`budget.targetRecall needs a strategy that takes pages in the order of their link score (best-first, sparse-tunneling): ${strategyName} gives no recall estimate`);
  }
  return config;
}

/** `budget.targetRecall`: a share of the topic above 0 and at most 1, or nothing. */
function targetRecall(v: unknown): { targetRecall?: number } {
  if (v === undefined) return {};
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 1) {
    throw new ConfigError(`budget.targetRecall must be a share of the topic above 0 and at most 1, e.g. 0.8 (got ${JSON.stringify(v)})`);
  }
  return { targetRecall: v };
}

/** URL patterns, each read as the crawl reads it (lib/records/patterns.ts): one the crawl would ignore is refused. */
function patterns(v: unknown, field: string): string[] {
  const list = strings(v, field);
  const bad = patternProblems(list)[0];
  if (bad) throw new ConfigError(`${field}[${bad.line}]: ${bad.problem}`);
  return list;
}
