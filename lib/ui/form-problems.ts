// What the "New crawl" form refuses, each refusal beside its field in the field's own words: the worker's own check
// (parseConfig) read as the form's sentences, and every refusal of a form at once rather than the first. Pure: no DOM.
import { ConfigError, DEFAULTS } from '../records/config';
import { httpUrlProblem, parseConfig } from '../app/parse-config';
import { patternProblems } from '../records/patterns';
import { STRATEGY_MODULES, strategyModule } from '../strategies/registry';
import { FORM_FIELDS, formToConfig, isObject, SCOPE_CHOICES, type CrawlFormValues, type Json } from './config-form';

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
 * patterns the crawl would ignore (read by lib/records/patterns.ts, as the crawl reads them), every seed and link
 * source that is no http(s) URL (numbered as the field shows its lines), a template that is not JSON, then each refusal of the worker's own check (parseConfig). parseConfig stops at its first refusal,
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
  // Every bad line of a list of URLs, as parseConfig reads each (it stops at the first).
  const urlFields = [
    { path: 'seeds', ...FORM_FIELDS.seeds!, text: v.seeds },
    { path: 'training.linkSources', ...FORM_FIELDS['training.linkSources']!, text: v.linkSources },
  ];
  const keptUrls = new Map<string, string[]>();
  for (const f of urlFields) {
    const given = f.text.split(/\r?\n/);
    const refused = given.flatMap((s, line) => {
      const problem = s.trim() ? httpUrlProblem(s.trim()) : null;
      return problem ? [{ line, problem }] : [];
    });
    for (const { line, problem } of refused) push(f.field, `${f.label}, line ${line + 1}: ${problem}`);
    if (refused.length) keptUrls.set(f.path, given.filter((_, i) => !refused.some((r) => r.line === i)).map((s) => s.trim()).filter(Boolean));
  }
  const notJson = templateJsonProblem(v.template);
  if (notJson) add('template', 'template', formErrorOf(notJson).message);

  for (const path of new Set(setAside)) standIn(config, path);
  // The other lines of a field with a refused pattern or URL still count (a positive pattern says what the topic is).
  for (const [path, kept] of [...keptPatterns, ...keptUrls]) {
    if (path === 'seeds') {
      config.seeds = kept.length ? kept : [FILLER_URL];
      continue;
    }
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
