// The dashboard's "New crawl" form as plain values, and the two conversions it needs: form -> config
// (sent to the worker, which validates it with parseConfig) and runner config file -> form. Pure: no DOM. What the
// form refuses, in its own words beside each field, is form-problems.ts.
import { DEFAULTS, RENDER_MODES, SCOPE_MODES, type CrawlConfig, type RenderMode, type ScopeMode, type StrategyName } from '../records/config';
import { DEFAULT_SAFETY_RULES, SAFETY_RULE_HELP } from '../records/safety-rules';
import { STRATEGY_MODULES, strategyModule } from '../strategies/registry';
import type { StrategyModule } from '../strategies/types';
import type { Topic } from '../records/types';

/** What the form's fields hold: text as typed, one URL or pattern a line. */
export interface CrawlFormValues {
  name: string;
  seeds: string;
  /** The id of the topic to crawl for, as text; empty for a new topic named after the crawl, or its keywords when unnamed. */
  topicId: string;
  /** Comma or newline separated. */
  keywords: string;
  linkSources: string;
  positive: string;
  negative: string;
  strategy: StrategyName;
  /** The chosen strategy's parameters as typed, by key; empty: the default. */
  strategyParams: Record<string, string>;
  /** Sites never entered, one a line (hosts or URLs). */
  siteBlacklist: string;
  maxPages: string;
  maxDepth: string;
  /** budget.targetRecall as typed, a share from 0 to 1; empty: the crawl runs to its page budget. */
  targetRecall: string;
  scopeMode: ScopeMode;
  scopeSites: string;
  delayMs: string;
  concurrency: string;
  robots: boolean;
  /** Read the seeds' sitemaps and queue their URLs as links (seeds.sitemaps). */
  sitemaps: boolean;
  /** Name the crawl (FocusCrawler) in the User-Agent of its requests. */
  identify: boolean;
  /** Whether pages are rendered in a background tab before they are read (fetch.render). */
  render: RenderMode;
  /** Times a rendered page is scrolled to its end while it grows (fetch.renderScrolls). */
  renderScrolls: string;
  /** Times a rendered page's "load more" is pressed while it grows (fetch.renderClicks). */
  renderClicks: string;
  /** How long a rendered page may go on growing, ms (fetch.renderGrowMs). */
  renderGrowMs: string;
  /** A rendered page stops growing once it holds this many links (fetch.renderGrowLinks). */
  renderGrowLinks: string;
  /** The user's own words and phrases to keep from requesting, comma or newline separated; added to the rules. */
  safetyAvoid: string;
  /** Default safety rules turned off, by name. */
  safetyOff: string[];
  /** A crawl template (design E) as JSON; empty for a topic crawl. */
  template: string;
}

export const defaultFormValues = (): CrawlFormValues => ({
  name: '',
  seeds: '',
  topicId: '',
  keywords: '',
  linkSources: '',
  positive: '',
  negative: '',
  strategy: DEFAULTS.strategy.name,
  strategyParams: {},
  siteBlacklist: '',
  maxPages: String(DEFAULTS.budget.maxPages),
  maxDepth: String(DEFAULTS.budget.maxDepth),
  targetRecall: '',
  scopeMode: DEFAULTS.scope.mode,
  scopeSites: '',
  delayMs: String(DEFAULTS.politeness.delayMs),
  concurrency: String(DEFAULTS.politeness.concurrency),
  robots: DEFAULTS.politeness.robots,
  sitemaps: DEFAULTS.seedSitemaps,
  identify: DEFAULTS.politeness.identify,
  render: DEFAULTS.fetch.render,
  renderScrolls: String(DEFAULTS.fetch.renderScrolls),
  renderClicks: String(DEFAULTS.fetch.renderClicks),
  renderGrowMs: String(DEFAULTS.fetch.renderGrowMs),
  renderGrowLinks: String(DEFAULTS.fetch.renderGrowLinks),
  safetyAvoid: '',
  safetyOff: [],
  template: '',
});

/** The default safety rules as the form lists them: name, one line on what it keeps from being requested, on or off. */
export function safetyRuleChoices(off: readonly string[]): { name: string; help: string; on: boolean }[] {
  return DEFAULT_SAFETY_RULES.map((name) => ({ name, help: SAFETY_RULE_HELP[name as keyof typeof SAFETY_RULE_HELP], on: !off.includes(name) }));
}

/** The rendering choices of the form (fetch.render), the default first. */
export const RENDER_CHOICES: readonly { value: RenderMode; text: string }[] = [
  { value: 'auto', text: 'Render those that need it' },
  { value: 'always', text: 'Render every page' },
  { value: 'never', text: 'Never render: read the HTML sent' },
];

/**
 * The scope choices of the form, in plain words short enough for its narrow select; the default (the
 * narrowest) first. "Seeds' hosts only": a seed on docs.example.org never reaches mail.example.org.
 */
export const SCOPE_CHOICES: readonly { value: ScopeMode; text: string }[] = [
  { value: 'seed-hosts', text: "Seeds' hosts only" },
  { value: 'seed-sites', text: "Seeds' whole sites" },
  { value: 'listed-sites', text: 'Sites I list' },
  { value: 'anywhere', text: 'Anywhere' },
];

/**
 * What the form says under the scope choice: "anywhere" hands the user's session to every site it reaches,
 * which the user must see before starting. Null when there is nothing to warn about.
 */
export function scopeWarning(mode: ScopeMode): string | null {
  return mode === 'anywhere'
    ? 'Anywhere sends your cookies to every site the crawl reaches: each of them sees you visiting, logged in ' +
        'wherever you are logged in. Private and loopback addresses stay out unless a seed names them.'
    : null;
}

/** A crawl's scope in a few words, for the crawl's details. */
export function scopeText(scope: CrawlConfig['scope']): string {
  switch (scope.mode) {
    case 'seed-hosts': return "the seeds' hosts";
    case 'seed-sites': return "the seeds' sites, every subdomain";
    case 'listed-sites': return `listed sites: ${scope.sites.join(', ')}`;
    case 'anywhere': return 'anywhere';
  }
}

/** What a crawl's requests send as User-Agent, for the crawl's details (stored crawls without the setting identify). */
export function identityText(config: CrawlConfig): string {
  return config.politeness.identify === false
    ? "the browser's own: this crawl does not name itself"
    : "the browser's, followed by FocusCrawler/version: sites and robots.txt can tell the crawl apart";
}

/** Non-empty trimmed lines. */
export const lines = (text: string): string[] => text.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);

/** Keywords: comma or newline separated. */
export const keywordList = (text: string): string[] => text.split(/[,\r\n]/).map((s) => s.trim()).filter(Boolean);

/** A typed number, or undefined for an empty field (the default applies); anything else is passed on for the worker to reject. */
function numberField(text: string): number | string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const section = (base: Json, key: string): Json => (isObject(base[key]) ? (base[key] as Json) : {});

/** The strategies the form offers, from the registry: name, one sentence, and each parameter with its default. */
/** The template strategy is chosen by giving a template, not from the list. */
export const strategyChoices = (): readonly StrategyModule[] => STRATEGY_MODULES.filter((m) => m.name !== 'template');

/**
 * The strategy section: the chosen name and the parameters typed for it; an imported file's parameters of the
 * same strategy are kept, another strategy's dropped (they would be refused).
 */
function strategyOfForm(v: CrawlFormValues, base: Json): Json {
  const params = strategyModule(v.strategy)?.params ?? [];
  const out: Json = { name: v.strategy };
  for (const p of params) {
    const raw = (v.strategyParams[p.key] ?? '').trim();
    const typed = p.patterns ? (raw ? lines(raw) : undefined) : p.choices ? raw || undefined : numberField(raw);
    if (typed !== undefined) out[p.key] = typed;
    else if (base.name === v.strategy && base[p.key] !== undefined) out[p.key] = base[p.key];
  }
  return out;
}

/**
 * The config object to send with `start`. Settings the form has no field for (fetch, judge,
 * politeness.perHost) come from `base`, the imported config file, when there is one.
 */
export function formToConfig(v: CrawlFormValues, base: Json = {}): Json {
  const config: Json = {
    ...base,
    seeds: lines(v.seeds),
    // seeds.sitemaps, as a stored config keeps it: the seeds stay the list every other reader of the form expects.
    seedSitemaps: v.sitemaps,
    topic: topicOf(v, section(base, 'topic')),
    training: {
      ...section(base, 'training'),
      linkSources: lines(v.linkSources),
      positive: lines(v.positive),
      negative: lines(v.negative),
    },
    strategy: strategyOfForm(v, section(base, 'strategy')),
    siteBlacklist: lines(v.siteBlacklist),
    budget: { ...section(base, 'budget'), maxPages: numberField(v.maxPages), maxDepth: numberField(v.maxDepth), targetRecall: numberField(v.targetRecall) },
    scope: { ...section(base, 'scope'), mode: v.scopeMode, sites: v.scopeMode === 'listed-sites' ? lines(v.scopeSites) : [] },
    politeness: {
      ...section(base, 'politeness'),
      delayMs: numberField(v.delayMs),
      concurrency: numberField(v.concurrency),
      robots: v.robots,
      identify: v.identify,
    },
    fetch: {
      ...section(base, 'fetch'), render: v.render, renderScrolls: numberField(v.renderScrolls), renderClicks: numberField(v.renderClicks),
      renderGrowMs: numberField(v.renderGrowMs), renderGrowLinks: numberField(v.renderGrowLinks),
    },
    safety: { ...section(base, 'safety'), avoid: keywordList(v.safetyAvoid), disabledRules: [...v.safetyOff] },
  };
  // A template crawl runs the template strategy; its template is passed on as typed for the worker to check.
  const template = templateOfForm(v.template);
  if (template === undefined) delete config.template;
  else {
    config.template = template;
    config.strategy = { name: 'template' };
  }
  const name = v.name.trim();
  if (name) config.name = name;
  else delete config.name; // the worker names it after its topic, first host and day
  return dropUndefined(config);
}

/**
 * The template field's JSON as a value, undefined when the field is empty; text that is not JSON is passed on
 * as text, which the config refuses in one sentence (`templateJsonProblem`, form-problems.ts, says what is wrong with it first).
 */
export function templateOfForm(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The config's topic: the chosen one with the keywords as typed, or none (the worker makes a new one). */
function topicOf(v: CrawlFormValues, base: Json): Json {
  const { id: _fileTopic, ...rest } = base; // the form's choice wins over an imported file's topic id
  const id = Number(v.topicId);
  return { ...rest, keywords: keywordList(v.keywords), ...(v.topicId.trim() && Number.isInteger(id) && id > 0 ? { id } : {}) };
}

/** A topic's keywords as the keywords field shows them. */
export const keywordsText = (topic: Pick<Topic, 'keywords'>): string => topic.keywords.join(', ');

/** The topic choices of the form: a new topic first, then the existing ones by name (ids as values). */
export function topicChoices(topics: readonly Topic[]): { value: string; text: string }[] {
  const named = topics
    .filter((t) => t.id !== undefined)
    .map((t) => ({ value: String(t.id), text: topicChoiceText(t) }))
    .sort((a, b) => a.text.localeCompare(b.text));
  // The user's topics first: a crawl for a topic already taught learns from its labels (and adds no new topic).
  return [...named, { value: '', text: 'New topic' }];
}

/** A topic's name and its first keywords, unless they are its name (a topic an unnamed crawl made). */
function topicChoiceText(t: Pick<Topic, 'name' | 'keywords'>): string {
  const first = t.keywords.slice(0, 3).join(', ');
  if (!first || first === t.name) return t.name;
  return `${t.name} (${first}${t.keywords.length > 3 ? ', …' : ''})`;
}

function dropUndefined(o: Json): Json {
  const out: Json = {};
  for (const [k, val] of Object.entries(o)) {
    if (val === undefined) continue;
    out[k] = isObject(val) ? dropUndefined(val) : val;
  }
  return out;
}

/** `seeds.sitemaps`, or a stored config's `seedSitemaps`, when the file says. */
function sitemapsOf(c: Json): boolean | undefined {
  const v = isObject(c.seeds) ? c.seeds.sitemaps : c.seedSitemaps;
  return typeof v === 'boolean' ? v : undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const textLines = (v: unknown): string | undefined =>
  Array.isArray(v) ? v.filter((s) => typeof s === 'string').join('\n') : undefined;

/**
 * Form values from a runner config file (the same JSON the command-line runner reads). Fields the file
 * leaves out keep their current value. Throws when the file is not a JSON object.
 */
export function configToForm(input: unknown, current: CrawlFormValues): CrawlFormValues {
  if (!isObject(input)) throw new Error('the config file must hold a JSON object');
  const c = input;
  const topic = section(c, 'topic'), training = section(c, 'training'), strategy = section(c, 'strategy');
  const budget = section(c, 'budget'), scope = section(c, 'scope'), politeness = section(c, 'politeness');
  const safety = section(c, 'safety'), fetchCfg = section(c, 'fetch');
  const strategyName = typeof strategy.name === 'string' && strategyChoices().some((m) => m.name === strategy.name) ? strategy.name : undefined;
  const params = strategyModule(strategyName ?? '')?.params ?? [];
  const mode = SCOPE_MODES.find((m) => m === scope.mode);
  return {
    name: text(c.name) ?? current.name,
    seeds: textLines(isObject(c.seeds) ? c.seeds.urls : c.seeds) ?? current.seeds,
    sitemaps: sitemapsOf(c) ?? current.sitemaps,
    topicId: typeof topic.id === 'number' && Number.isInteger(topic.id) ? String(topic.id) : current.topicId,
    keywords: Array.isArray(topic.keywords) ? topic.keywords.filter((s) => typeof s === 'string').join(', ') : current.keywords,
    linkSources: textLines(training.linkSources) ?? current.linkSources,
    positive: textLines(training.positive) ?? current.positive,
    negative: textLines(training.negative) ?? current.negative,
    strategy: strategyName ?? current.strategy,
    strategyParams: strategyName
      ? Object.fromEntries(params.flatMap((p) => (strategy[p.key] === undefined ? [] : [[p.key, Array.isArray(strategy[p.key]) ? (strategy[p.key] as unknown[]).join('\n') : String(strategy[p.key])]])))
      : current.strategyParams,
    siteBlacklist: textLines(c.siteBlacklist) ?? current.siteBlacklist,
    maxPages: text(budget.maxPages) ?? current.maxPages,
    maxDepth: text(budget.maxDepth) ?? current.maxDepth,
    targetRecall: text(budget.targetRecall) ?? current.targetRecall,
    scopeMode: mode ?? current.scopeMode,
    scopeSites: textLines(scope.sites) ?? current.scopeSites,
    delayMs: text(politeness.delayMs) ?? current.delayMs,
    concurrency: text(politeness.concurrency) ?? current.concurrency,
    robots: typeof politeness.robots === 'boolean' ? politeness.robots : current.robots,
    identify: typeof politeness.identify === 'boolean' ? politeness.identify : current.identify,
    render: RENDER_MODES.find((m) => m === fetchCfg.render) ?? current.render,
    renderScrolls: text(fetchCfg.renderScrolls) ?? current.renderScrolls,
    renderClicks: text(fetchCfg.renderClicks) ?? current.renderClicks,
    renderGrowMs: text(fetchCfg.renderGrowMs) ?? current.renderGrowMs,
    renderGrowLinks: text(fetchCfg.renderGrowLinks) ?? current.renderGrowLinks,
    safetyAvoid: textLines(safety.avoid) ?? current.safetyAvoid,
    // Unknown names are kept: the worker refuses them with a sentence that names them, rather than the form dropping them silently.
    safetyOff: Array.isArray(safety.disabledRules) ? safety.disabledRules.filter((s): s is string => typeof s === 'string') : current.safetyOff,
    template: c.template === undefined ? current.template : JSON.stringify(c.template, null, 2),
  };
}

/** Each setting the form has a field for: the field's name and its label's words (a test holds them to the page's labels). */
export const FORM_FIELDS: Record<string, { field: string; label: string }> = {
  name: { field: 'name', label: 'Name' },
  seeds: { field: 'seeds', label: 'Seeds' },
  'topic.keywords': { field: 'keywords', label: 'Topic keywords' },
  'topic.id': { field: 'topicId', label: 'Topic' },
  'training.linkSources': { field: 'linkSources', label: 'Link sources' },
  'training.positive': { field: 'positive', label: 'Positive patterns' },
  'training.negative': { field: 'negative', label: 'Negative patterns' },
  siteBlacklist: { field: 'siteBlacklist', label: 'Site blacklist' },
  'budget.maxPages': { field: 'maxPages', label: 'Max pages' },
  'budget.maxDepth': { field: 'maxDepth', label: 'Max depth' },
  'budget.targetRecall': { field: 'targetRecall', label: 'Target recall' },
  'scope.mode': { field: 'scopeMode', label: 'Scope' },
  'scope.sites': { field: 'scopeSites', label: 'Sites' },
  'politeness.delayMs': { field: 'delayMs', label: 'Delay (ms)' },
  'politeness.concurrency': { field: 'concurrency', label: 'Concurrency' },
  'politeness.identify': { field: 'identify', label: 'Name the crawl in its User-Agent' },
  'fetch.render': { field: 'render', label: 'Pages built by scripts' },
  'fetch.renderScrolls': { field: 'renderScrolls', label: 'Scrolls' },
  'fetch.renderClicks': { field: 'renderClicks', label: '"Load more" presses' },
  'fetch.renderGrowMs': { field: 'renderGrowMs', label: 'Time to grow (ms)' },
  'fetch.renderGrowLinks': { field: 'renderGrowLinks', label: 'Links to grow to' },
  'safety.avoid': { field: 'safetyAvoid', label: 'Also keep from requesting' },
};
