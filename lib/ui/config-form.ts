// The dashboard's "New crawl" form as plain values, and the two conversions it needs: form -> config
// (sent to the worker, which validates it with parseConfig) and runner config file -> form. Pure: no DOM.
import { ConfigError, DEFAULTS, RENDER_MODES, SCOPE_MODES, type CrawlConfig, type RenderMode, type ScopeMode, type StrategyName } from '../records/config';
import { parseConfig } from '../app/parse-config';
import { patternProblems } from '../records/patterns';
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
  scopeMode: ScopeMode;
  scopeSites: string;
  delayMs: string;
  concurrency: string;
  robots: boolean;
  /** Name the crawl (FocusCrawler) in the User-Agent of its requests. */
  identify: boolean;
  /** Whether pages are rendered in a background tab before they are read (fetch.render). */
  render: RenderMode;
  /** Times a rendered page is scrolled to its end while it grows (fetch.renderScrolls). */
  renderScrolls: string;
  /** Times a rendered page's "load more" is pressed while it grows (fetch.renderClicks). */
  renderClicks: string;
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
  scopeMode: DEFAULTS.scope.mode,
  scopeSites: '',
  delayMs: String(DEFAULTS.politeness.delayMs),
  concurrency: String(DEFAULTS.politeness.concurrency),
  robots: DEFAULTS.politeness.robots,
  identify: DEFAULTS.politeness.identify,
  render: DEFAULTS.fetch.render,
  renderScrolls: String(DEFAULTS.fetch.renderScrolls),
  renderClicks: String(DEFAULTS.fetch.renderClicks),
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const section = (base: Json, key: string): Json => (isObject(base[key]) ? (base[key] as Json) : {});

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
    topic: topicOf(v, section(base, 'topic')),
    training: {
      ...section(base, 'training'),
      linkSources: lines(v.linkSources),
      positive: lines(v.positive),
      negative: lines(v.negative),
    },
    strategy: strategyOfForm(v, section(base, 'strategy')),
    siteBlacklist: lines(v.siteBlacklist),
    budget: { ...section(base, 'budget'), maxPages: numberField(v.maxPages), maxDepth: numberField(v.maxDepth) },
    scope: { ...section(base, 'scope'), mode: v.scopeMode, sites: v.scopeMode === 'listed-sites' ? lines(v.scopeSites) : [] },
    politeness: {
      ...section(base, 'politeness'),
      delayMs: numberField(v.delayMs),
      concurrency: numberField(v.concurrency),
      robots: v.robots,
      identify: v.identify,
    },
    fetch: { ...section(base, 'fetch'), render: v.render, renderScrolls: numberField(v.renderScrolls), renderClicks: numberField(v.renderClicks) },
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
 * as text, which the config refuses in one sentence (`templateJsonProblem` says what is wrong with it first).
 */
export function templateOfForm(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Why the template field is not JSON, as a refusal naming it, or null. */
export function templateJsonProblem(text: string): string | null {
  if (!text.trim()) return null;
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return `template is not JSON: ${err instanceof Error ? err.message : String(err)}`;
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
    seeds: textLines(c.seeds) ?? current.seeds,
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
    scopeMode: mode ?? current.scopeMode,
    scopeSites: textLines(scope.sites) ?? current.scopeSites,
    delayMs: text(politeness.delayMs) ?? current.delayMs,
    concurrency: text(politeness.concurrency) ?? current.concurrency,
    robots: typeof politeness.robots === 'boolean' ? politeness.robots : current.robots,
    identify: typeof politeness.identify === 'boolean' ? politeness.identify : current.identify,
    render: RENDER_MODES.find((m) => m === fetchCfg.render) ?? current.render,
    renderScrolls: text(fetchCfg.renderScrolls) ?? current.renderScrolls,
    renderClicks: text(fetchCfg.renderClicks) ?? current.renderClicks,
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
  'scope.mode': { field: 'scopeMode', label: 'Scope' },
  'scope.sites': { field: 'scopeSites', label: 'Sites' },
  'politeness.delayMs': { field: 'delayMs', label: 'Delay (ms)' },
  'politeness.concurrency': { field: 'concurrency', label: 'Concurrency' },
  'politeness.identify': { field: 'identify', label: 'Name the crawl in its User-Agent' },
  'fetch.render': { field: 'render', label: 'Pages built by scripts' },
  'fetch.renderScrolls': { field: 'renderScrolls', label: 'Scrolls' },
  'fetch.renderClicks': { field: 'renderClicks', label: '"Load more" presses' },
  'safety.avoid': { field: 'safetyAvoid', label: 'Also keep from requesting' },
};

/**
 * A refusal of the config in the form's words, and the field it is about (null: no field of the form, the
 * sentence stays by the Start button). `budget.maxPages must be a whole number between 1 and 10000000 (got
 * -5)` becomes `Max pages must be a whole number from 1 to 10,000,000 (you wrote -5).` beside Max pages.
 */
export function formErrorOf(message: string): { field: string | null; message: string } {
  const path = /^([A-Za-z]+(?:\.[A-Za-z]+|\[\d+\])*)(?=[ :])/.exec(message)?.[1];
  if (!path) return { field: null, message };
  // The template is one JSON field: its refusals keep their path inside the template.
  if (path === 'template' || path.startsWith('template.') || path.startsWith('template[')) {
    return { field: 'template', message: `Template: ${message}${/[.!?)]$/.test(message) ? '' : '.'}` };
  }
  const indexed = /^(.*)\[(\d+)\]$/.exec(path);
  const base = indexed ? indexed[1]! : path;
  let target = FORM_FIELDS[base];
  const param = /^strategy\.(\w+)$/.exec(base);
  if (!target && param) {
    const spec = STRATEGY_MODULES.flatMap((m) => m.params).find((p) => p.key === param[1]);
    target = { field: `strategyParam:${param[1]}`, label: spec?.label ?? param[1]! };
  }
  if (!target) return { field: null, message };
  const where = indexed ? `${target.label}, line ${Number(indexed[2]) + 1}` : target.label;
  const rest = message
    .slice(path.length)
    .replace(/^\s*\([^)]*\)/, '') // "strategy.maxTunnel (longest tunnel) must…": the form says the name already
    .replace(/between (-?[\d.]+) and (-?[\d.]+)/, (_, a: string, b: string) => `from ${Number(a).toLocaleString('en-US')} to ${Number(b).toLocaleString('en-US')}`)
    .replace(/\(got ([^)]*)\)/, (_, got: string) => `(you wrote ${got.replace(/^"(.*)"$/, '$1')})`)
    .replace(/\b([a-z]+(?:\.[a-zA-Z]+)+)\b/g, (m: string) => (FORM_FIELDS[m] ? `"${FORM_FIELDS[m].label}"` : m))
    // A scope as the form's select shows it: "Sites I list", not "listed-sites".
    .replace(/"([a-z-]+)"/g, (m: string, value: string) => {
      const choice = SCOPE_CHOICES.find((c) => c.value === value);
      return choice ? `"${choice.text}"` : m;
    })
    .trim();
  const sentence = `${where}${rest.startsWith(':') ? '' : ' '}${rest}`;
  return { field: target.field, message: /[.!?)]$/.test(sentence) ? sentence : `${sentence}.` };
}

export interface FormProblem {
  /** The form field it is about (`strategyParam:key` for a strategy's parameter), null for none. */
  field: string | null;
  message: string;
}

/**
 * Number fields the form fills with their default as a value, not as a placeholder: emptied, the field no longer
 * shows what the crawl would use, so an empty one is refused rather than read as the default. (A strategy's
 * parameters show their default as the placeholder: empty there means that default.)
 */
const NUMBERS_SHOWN_AS_VALUES = ['budget.maxPages', 'budget.maxDepth', 'politeness.delayMs', 'politeness.concurrency'] as const;

const FILLER_URL = 'https://example.org/';

/**
 * Every refusal of the form at once, each beside its field in the field's own words: empty number fields, URL
 * patterns the crawl would ignore (read by lib/records/patterns.ts, as the crawl reads them), a template that is
 * not JSON, then each refusal of the worker's own check (parseConfig). parseConfig stops at its first refusal,
 * so each refused setting is set aside (its default, or a stand-in value that passes) and the check runs again,
 * until it passes: the stand-ins are never sent, they only let the next refusal show.
 */
export function formProblems(v: CrawlFormValues, base: Json = {}): FormProblem[] {
  const problems: FormProblem[] = [];
  const config = formToConfig(v, base);
  const setAside: string[] = [];
  const push = (field: string, message: string) => problems.push({ field, message: /[.!?)]$/.test(message) ? message : `${message}.` });
  const add = (path: string, field: string, message: string) => {
    push(field, message);
    setAside.push(path);
  };
  for (const path of NUMBERS_SHOWN_AS_VALUES) {
    const { field, label } = FORM_FIELDS[path]!;
    const [group, key] = path.split('.') as [string, string];
    if (!String((v as unknown as Record<string, string>)[field] ?? '').trim()) {
      add(path, field, `${label} is empty: write a number; the crawl's default is ${formatDefault(DEFAULTS[group as 'budget'][key as 'maxPages'])}`);
    }
  }
  const patternFields: { path: string; field: string; label: string; text: string }[] = [
    { path: 'training.positive', ...FORM_FIELDS['training.positive']!, text: v.positive },
    { path: 'training.negative', ...FORM_FIELDS['training.negative']!, text: v.negative },
    ...(strategyModule(v.strategy)?.params ?? []).filter((p) => p.patterns).map((p) => ({
      path: `strategy.${p.key}`, field: `strategyParam:${p.key}`, label: p.label, text: v.strategyParams[p.key] ?? '',
    })),
  ];
  const keptPatterns = new Map<string, string[]>();
  for (const f of patternFields) {
    const given = f.text.split(/\r?\n/);
    const refused = patternProblems(given);
    // Lines are numbered as the user sees them in the field, blank ones included.
    for (const { line, problem } of refused) push(f.field, `${f.label}, line ${line + 1}: ${problem}`);
    if (refused.length) keptPatterns.set(f.path, given.filter((_, i) => !refused.some((r) => r.line === i)).map((s) => s.trim()).filter(Boolean));
  }
  const notJson = templateJsonProblem(v.template);
  if (notJson) add('template', 'template', formErrorOf(notJson).message);

  for (const path of new Set(setAside)) standIn(config, path);
  // The other lines of a field with a refused pattern still count (a positive pattern says what the topic is).
  for (const [path, kept] of keptPatterns) {
    const [group, key] = path.split('.') as [string, string];
    if (isObject(config[group])) (config[group] as Json)[key] = kept;
  }
  for (let round = 0; round < 40; round++) {
    let message: string;
    try {
      parseConfig(config);
      break;
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      message = err.message;
    }
    const refusal = formErrorOf(message);
    const path = /^([A-Za-z]+(?:\.[A-Za-z]+)*)/.exec(message)?.[1];
    // A refusal of a field already refused (its stand-in did not pass, or the seeds once empty) is not said twice.
    if (!problems.some((p) => p.field !== null && p.field === refusal.field)) problems.push(refusal);
    if (!path || !standIn(config, path)) break; // no way to set it aside: the rest waits for this one
  }
  return problems;
}

/** 100 -> "100", 10000 -> "10,000". */
const formatDefault = (n: number): string => n.toLocaleString('en-US');

/**
 * Sets a refused setting aside so that parseConfig goes on to the next: its default where it has one, else a
 * value that passes (a seed, a keyword, a listed site). False when the path is none the form can set aside.
 */
function standIn(config: Json, path: string): boolean {
  const [head, key] = path.split('.') as [string, string | undefined];
  const group = (name: string): Json => (isObject(config[name]) ? (config[name] as Json) : (config[name] = {}) as Json);
  switch (head) {
    case 'seeds':
      config.seeds = [FILLER_URL];
      return true;
    case 'template': {
      // Without its template the crawl needs what the template gave: seeds, keywords, a strategy of the list.
      delete config.template;
      config.strategy = { name: DEFAULTS.strategy.name };
      if (!Array.isArray(config.seeds) || config.seeds.length === 0) config.seeds = [FILLER_URL];
      const topic = group('topic');
      if (!Array.isArray(topic.keywords) || topic.keywords.length === 0) topic.keywords = ['stand-in'];
      return true;
    }
    case 'topic':
      if (key === 'keywords') {
        group('topic').keywords = ['stand-in'];
        return true;
      }
      if (key === 'id') {
        delete group('topic').id;
        return true;
      }
      return false;
    case 'scope':
      if (key === 'sites') {
        group('scope').sites = ['example.org'];
        return true;
      }
      group('scope').mode = DEFAULTS.scope.mode;
      return true;
    case 'training':
    case 'budget':
    case 'politeness':
    case 'fetch':
    case 'safety':
    case 'strategy':
      if (!key || (head === 'strategy' && key === 'name')) return false;
      delete group(head)[key];
      return true;
    case 'siteBlacklist':
    case 'name':
      delete config[head];
      return true;
    default:
      return false;
  }
}
