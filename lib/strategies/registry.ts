// Every crawl strategy the crawler knows. The config's validation, the dashboard form and the benchmark read
// this list; nothing else names a strategy.
import { bestFirst } from './best-first';
import { breadthFirst } from './breadth-first';
import { sparseTunneling } from './sparse-tunneling';
import { hitsFusion } from './hits-fusion';
import { templateStrategy } from './template';
import type { TemplateConfig } from '../records/template-config';
import { multiQueue } from './multi-queue';
import type { ParamSpec, Strategy, StrategyModule, StrategyParams } from './types';

export const STRATEGY_MODULES: readonly StrategyModule[] = [bestFirst, breadthFirst, sparseTunneling, hitsFusion, multiQueue, templateStrategy];

export const STRATEGY_NAMES = STRATEGY_MODULES.map((m) => m.name);

/**
 * The crawl strategies a topic crawl may choose; the benchmark runs each of them. "template" is not among them: a
 * crawl runs it exactly when its config has a template (design E).
 */
export const STRATEGIES: readonly string[] = STRATEGY_NAMES.filter((n) => n !== 'template');

export function strategyModule(name: string): StrategyModule | undefined {
  return STRATEGY_MODULES.find((m) => m.name === name);
}

/** A strategy's parameters with defaults filled in. */
export function strategyParams(name: string, given: Record<string, unknown>): StrategyParams {
  const m = strategyModule(name);
  return Object.fromEntries((m?.params ?? []).map((p) => [p.key, fits(p, given[p.key]) ? (given[p.key] as number | string | string[]) : p.default]));
}

const fits = (p: ParamSpec, v: unknown): boolean =>
  p.patterns ? Array.isArray(v) && v.every((s) => typeof s === 'string') : typeof v === typeof p.default;

/**
 * Validates `{"name": ..., ...parameters}`; returns the first problem as one sentence naming the field, or
 * null. Unknown names and parameters are refused, so a typo does not silently run the defaults.
 */
export function strategyProblem(raw: Record<string, unknown>): string | null {
  const name = raw.name ?? 'best-first';
  const m = typeof name === 'string' ? strategyModule(name) : undefined;
  if (!m) return `strategy.name must be one of ${STRATEGY_NAMES.map((n) => `"${n}"`).join(', ')} (got ${JSON.stringify(name)})`;
  for (const key of Object.keys(raw)) {
    if (key === 'name') continue;
    if (!m.params.some((p) => p.key === key)) {
      const known = m.params.length ? `its parameters are ${m.params.map((p) => p.key).join(', ')}` : 'it has no parameters';
      return `strategy.${key} is not a parameter of ${m.name} (${known})`;
    }
  }
  for (const p of m.params) {
    const v = raw[p.key];
    if (v === undefined) continue;
    if (p.patterns) {
      if (!fits(p, v)) return `strategy.${p.key} (${p.label.toLowerCase()}) must be a list of URL patterns (got ${JSON.stringify(v)})`;
    } else if (p.choices) {
      if (typeof v !== 'string' || !p.choices.includes(v)) return `strategy.${p.key} (${p.label.toLowerCase()}) must be one of ${p.choices.map((c) => `"${c}"`).join(', ')} (got ${JSON.stringify(v)})`;
    } else if (typeof v !== 'number' || !Number.isFinite(v) || v < p.min || v > p.max || (p.integer && !Number.isInteger(v))) {
      return `strategy.${p.key} (${p.label.toLowerCase()}) must be a ${p.integer ? 'whole number' : 'number'} from ${p.min} to ${p.max} (got ${JSON.stringify(v)})`;
    }
  }
  return m.check?.(strategyParams(m.name, raw)) ?? null;
}

/**
 * A new instance of the strategy a crawl's config names. A run makes one and holds it for the whole run (the
 * strategy may keep state across pages); anything else that needs an instance makes its own.
 */
export function createStrategy(config: { strategy: { name: string } & Record<string, unknown>; topic?: { keywords: string[] }; template?: TemplateConfig }): Strategy {
  const m = strategyModule(config.strategy.name) ?? STRATEGY_MODULES[0]!;
  return m.create(strategyParams(m.name, config.strategy), { keywords: config.topic?.keywords ?? [], template: config.template });
}
