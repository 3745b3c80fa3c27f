import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { compilePatterns, readPattern } from '../../lib/records/patterns';
import { DEFAULT_SAFETY_RULES } from '../../lib/records/safety-rules';
import {
  configToForm, defaultFormValues, FORM_FIELDS, formToConfig, keywordList, keywordsText, safetyRuleChoices, SCOPE_CHOICES, scopeText, scopeWarning, strategyChoices, topicChoices,
} from '../../lib/ui/config-form';
import { formErrorOf, formProblems } from '../../lib/ui/form-problems';
import { crawlActions, formatDuration, formatPercent, formatRate, harvestRate, pagesPerMinute } from '../../lib/ui/format';

describe('new crawl form', () => {
  it('builds a config the worker accepts, one URL a line, keywords by comma or line', () => {
    const v = {
      ...defaultFormValues(),
      name: '  Solar ',
      seeds: 'https://a.example/\n\n  https://b.example/x  \n',
      keywords: 'solar, photovoltaic\ninverter,',
      positive: 'site:energy.example\nhttps://a.example/wiki/*',
      strategy: 'breadth-first' as const,
      maxPages: '250',
      scopeMode: 'listed-sites' as const,
      scopeSites: 'a.example\nb.example',
      robots: false,
    };
    const config = parseConfig(formToConfig(v));
    expect(config.name).toBe('Solar');
    expect(config.seeds).toEqual(['https://a.example/', 'https://b.example/x']);
    expect(config.topic.keywords).toEqual(['solar', 'photovoltaic', 'inverter']);
    expect(config.training.positive).toEqual(['site:energy.example', 'https://a.example/wiki/*']);
    expect(config.strategy.name).toBe('breadth-first');
    expect(config.budget).toEqual({ maxPages: 250, maxDepth: DEFAULTS.budget.maxDepth });
    expect(config.scope).toEqual({ mode: 'listed-sites', sites: ['a.example', 'b.example'] });
    expect(config.politeness.robots).toBe(false);
    // The sitemaps box is seeds.sitemaps, and a config file's seeds.sitemaps fills it.
    expect(parseConfig(formToConfig({ ...v, sitemaps: true })).seedSitemaps).toBe(true);
    expect(parseConfig(formToConfig({ ...v, sitemaps: false })).seedSitemaps).toBe(false);
    expect(configToForm({ seeds: { urls: ['https://a.example/'], sitemaps: true } }, defaultFormValues())).toMatchObject({ seeds: 'https://a.example/', sitemaps: true });
  });

  it('leaves the name out when empty and passes a bad number on for the worker to reject', () => {
    const raw = formToConfig({ ...defaultFormValues(), seeds: 'https://a.example/', keywords: 'x', maxPages: '', delayMs: '-5' });
    expect(raw).not.toHaveProperty('name');
    expect(raw.budget).toEqual({ maxDepth: DEFAULTS.budget.maxDepth });
    expect(() => parseConfig(raw)).toThrow(/politeness.delayMs/);
    expect(parseConfig({ ...raw, politeness: { delayMs: 0 } }).name).toBe('a.example');
  });

  it('fills the form from a runner config file and keeps settings it has no field for', () => {
    const file = {
      name: 'Birds', seeds: ['https://birds.example/'], topic: { keywords: ['robin', 'wren'] },
      budget: { maxPages: 30 }, politeness: { robots: false, perHost: 2 }, judge: { threshold: 0.7 },
    };
    const v = configToForm(file, defaultFormValues());
    expect(v).toMatchObject({ name: 'Birds', seeds: 'https://birds.example/', keywords: 'robin, wren', maxPages: '30', robots: false });
    expect(v.maxDepth).toBe(String(DEFAULTS.budget.maxDepth));
    const config = parseConfig(formToConfig(v, file));
    expect(config.judge.threshold).toBe(0.7);
    expect(config.politeness.perHost).toBe(2);
    expect(() => configToForm([1, 2], defaultFormValues())).toThrow(/JSON object/);
    expect(keywordList(' a ,, b\n')).toEqual(['a', 'b']);
  });
});

describe('the session safety of a new crawl', () => {
  const base = { ...defaultFormValues(), seeds: 'https://a.example/', keywords: 'solar' };

  it('lists every default rule with its explanation, all on until the user turns one off', () => {
    const choices = safetyRuleChoices(defaultFormValues().safetyOff);
    expect(choices.map((c) => c.name)).toEqual([...DEFAULT_SAFETY_RULES]);
    expect(choices.every((c) => c.on && c.help.length > 20)).toBe(true);
    expect(safetyRuleChoices(['nofollow']).filter((c) => !c.on).map((c) => c.name)).toEqual(['nofollow']);
    expect(parseConfig(formToConfig(base)).safety).toEqual({ avoid: [], disabledRules: [] });
  });

  it('sends the user\'s words and the rules turned off', () => {
    const config = parseConfig(formToConfig({ ...base, safetyAvoid: 'rota,\nswap shift\n', safetyOff: ['nofollow', 'api path'] }));
    expect(config.safety).toEqual({ avoid: ['rota', 'swap shift'], disabledRules: ['nofollow', 'api path'] });
  });

  it('reads them from an imported file, where "avoid": [] leaves every rule on', () => {
    const file = { seeds: ['https://a.example/'], topic: { keywords: ['x'] }, safety: { avoid: ['rota'], disabledRules: ['anchor text'] } };
    const v = configToForm(file, defaultFormValues());
    expect(v).toMatchObject({ safetyAvoid: 'rota', safetyOff: ['anchor text'] });
    expect(parseConfig(formToConfig(v, file)).safety).toEqual({ avoid: ['rota'], disabledRules: ['anchor text'] });
    const empty = { ...file, safety: { avoid: [] } };
    expect(parseConfig(formToConfig(configToForm(empty, defaultFormValues()), empty)).safety).toEqual({ avoid: [], disabledRules: [] });
    // A misspelt rule is not dropped quietly: the worker refuses it by name.
    const typo = configToForm({ safety: { disabledRules: ['nofolow'] } }, defaultFormValues());
    expect(() => parseConfig(formToConfig({ ...typo, ...base, safetyOff: typo.safetyOff }))).toThrow(/"nofolow" is not a safety rule/);
  });
});

describe('the scope choice', () => {
  it("offers the four modes, the seeds' hosts first and chosen by default", () => {
    expect(SCOPE_CHOICES.map((c) => c.value)).toEqual(['seed-hosts', 'seed-sites', 'listed-sites', 'anywhere']);
    expect(defaultFormValues().scopeMode).toBe('seed-hosts');
    const config = parseConfig(formToConfig({ ...defaultFormValues(), seeds: 'https://docs.example.org/', keywords: 'x' }));
    expect(config.scope).toEqual({ mode: 'seed-hosts', sites: [] });
  });

  it('warns that "anywhere" sends your cookies to every site, and only then', () => {
    expect(scopeWarning('anywhere')).toMatch(/sends your cookies to every site the crawl reaches/);
    for (const mode of ['seed-hosts', 'seed-sites', 'listed-sites'] as const) expect(scopeWarning(mode)).toBeNull();
  });

  it("reads each mode from a config file, keeping an old file's 'seed-sites'", () => {
    for (const { value } of SCOPE_CHOICES) {
      expect(configToForm({ scope: { mode: value } }, defaultFormValues()).scopeMode).toBe(value);
    }
    expect(configToForm({ scope: { mode: 'everywhere' } }, defaultFormValues()).scopeMode).toBe('seed-hosts');
    expect(scopeText({ mode: 'seed-sites', sites: [] })).toBe("the seeds' sites, every subdomain");
    expect(scopeText({ mode: 'listed-sites', sites: ['a.example', 'b.example'] })).toBe('listed sites: a.example, b.example');
  });
});

describe('the topic of a new crawl', () => {
  const topic = (id: number, name: string, keywords: string[]) => ({ id, name, keywords, revision: 0, createdAt: 0, updatedAt: 0 });

  it('sends no topic id for a new topic, and the chosen topic\'s id with the keywords as typed', () => {
    const v = { ...defaultFormValues(), seeds: 'https://a.example/', keywords: 'solar, wind' };
    const fresh = parseConfig(formToConfig(v));
    expect(fresh.topic).toEqual({ keywords: ['solar', 'wind'] });
    const existing = parseConfig(formToConfig({ ...v, topicId: '7' }));
    expect(existing.topic).toEqual({ id: 7, keywords: ['solar', 'wind'] });
    // A topic of an existing crawl may rely on its labels: no keywords is a config the worker accepts.
    expect(parseConfig(formToConfig({ ...v, topicId: '7', keywords: '' })).topic).toEqual({ id: 7, keywords: [] });
  });

  it('lets the form\'s choice win over an imported file\'s topic id, and reads that id into the form', () => {
    const file = { seeds: ['https://a.example/'], topic: { id: 3, keywords: ['x'] } };
    const v = configToForm(file, defaultFormValues());
    expect(v.topicId).toBe('3');
    expect(parseConfig(formToConfig(v, file)).topic.id).toBe(3);
    expect(parseConfig(formToConfig({ ...v, topicId: '' }, file)).topic).toEqual({ keywords: ['x'] });
    expect(configToForm({ topic: { id: 'nine' } }, defaultFormValues()).topicId).toBe('');
  });

  it('offers the existing topics first, by name with their first keywords, then a new topic', () => {
    const choices = topicChoices([topic(2, 'Solar', ['solar', 'photovoltaic', 'inverter', 'battery']), topic(1, 'Birds', []), topic(3, 'moon, lunar', ['moon', 'lunar'])]);
    expect(choices).toEqual([
      { value: '1', text: 'Birds' },
      // A topic an unnamed crawl made is named after its keywords: they are not said twice.
      { value: '3', text: 'moon, lunar' },
      { value: '2', text: 'Solar (solar, photovoltaic, inverter, …)' },
      { value: '', text: 'New topic' },
    ]);
    expect(keywordsText(topic(2, 'Solar', ['solar', 'photovoltaic']))).toBe('solar, photovoltaic');
  });
});

describe('numbers the popup shows', () => {
  it('writes a rate of a thousand pages a minute or more with its thousands separated, like every count', () => {
    expect([formatRate(null), formatRate(4.25), formatRate(117.4), formatRate(1113.2)]).toEqual(['—', '4.3', '117', '1,113']);
  });

  it('computes harvest rate and pages per minute from the crawl row', () => {
    expect(harvestRate({ fetched: 0, relevant: 0 })).toBeNull();
    expect(formatPercent(harvestRate({ fetched: 8, relevant: 3 }))).toBe('37.5%');
    // A row kept before crawls had a pace: over its whole running time, its first page no interval.
    expect(pagesPerMinute({ stats: { fetched: 51, failed: 10 } as never, activeMs: 120_000 })).toBe(25);
    expect(pagesPerMinute({ stats: { fetched: 0, failed: 10 } as never, activeMs: 120_000 })).toBeNull();
    expect(pagesPerMinute({ stats: { fetched: 1, failed: 0 } as never, activeMs: 0 })).toBeNull();
    expect(formatDuration(3_723_000)).toBe('1 h 2 min');
  });

  it('enables the controls a state allows', () => {
    expect(crawlActions('running')).toEqual({ pause: true, resume: false, stop: true });
    expect(crawlActions('paused')).toEqual({ pause: false, resume: true, stop: true });
    expect(crawlActions('finished')).toEqual({ pause: false, resume: false, stop: false });
  });
});

describe('the strategy choice', () => {
  const base = { ...defaultFormValues(), seeds: 'https://a.example/', keywords: 'solar' };

  it("offers every strategy of the registry with its parameters' defaults and explanations", () => {
    const choices = strategyChoices();
    expect(choices.map((c) => c.name)).toEqual(['best-first', 'breadth-first', 'sparse-tunneling', 'hits-fusion', 'multi-queue']);
    const sparse = choices.find((c) => c.name === 'sparse-tunneling')!;
    expect(sparse.params.map((p) => [p.key, p.default])).toEqual([['maxTunnel', 10], ['unknownSiteQueue', 15], ['blacklistAfter', 20]]);
    expect(sparse.params.every((p) => /\((K|R|P)\)\.$/.test(p.help))).toBe(true);
  });

  it('sends the typed parameters, the defaults for the rest, and the site blacklist', () => {
    const config = parseConfig(formToConfig({ ...base, strategy: 'sparse-tunneling', strategyParams: { maxTunnel: '3', unknownSiteQueue: '' }, siteBlacklist: 'ads.example\nhttps://spam.example/x' }));
    expect(config.strategy).toEqual({ name: 'sparse-tunneling', maxTunnel: 3, unknownSiteQueue: 15, blacklistAfter: 20 });
    expect(config.siteBlacklist).toEqual(['ads.example', 'spam.example']);
    expect(() => parseConfig(formToConfig({ ...base, strategy: 'sparse-tunneling', strategyParams: { maxTunnel: '40' } }))).toThrow(/strategy\.maxTunnel \(longest tunnel\) must be a whole number from 1 to 30/);
  });

  it("reads a file's strategy and parameters, and drops another strategy's when the user switches", () => {
    const file = { seeds: ['https://a.example/'], topic: { keywords: ['x'] }, strategy: { name: 'sparse-tunneling', maxTunnel: 4 } };
    const v = configToForm(file, defaultFormValues());
    expect(v).toMatchObject({ strategy: 'sparse-tunneling', strategyParams: { maxTunnel: '4' } });
    expect(parseConfig(formToConfig({ ...v, strategyParams: {} }, file)).strategy.maxTunnel).toBe(4);
    expect(parseConfig(formToConfig({ ...v, strategy: 'best-first', strategyParams: {} }, file)).strategy).toEqual({ name: 'best-first' });
  });
});

describe('config refusals in the form', () => {
  const refusal = (c: Record<string, unknown>) => {
    try {
      parseConfig({ seeds: ['http://a.test/'], topic: { keywords: ['x'] }, ...c });
    } catch (e) {
      return formErrorOf((e as Error).message);
    }
    throw new Error('accepted');
  };
  it('name the field in the form\'s words, beside it', () => {
    expect(refusal({ budget: { maxPages: -5 } })).toEqual({ field: 'maxPages', message: 'Max pages must be a whole number from 1 to 10,000,000 (you wrote -5)' });
    expect(refusal({ budget: { maxPages: 2.5 } })).toEqual({ field: 'maxPages', message: 'Max pages must be a whole number from 1 to 10,000,000 (you wrote 2.5)' });
    expect(refusal({ seeds: ['http://a.test/', 'foo'] })).toEqual({ field: 'seeds', message: 'Seeds, line 2: "foo" is not a URL (write it in full, e.g. https://example.org/)' });
    expect(refusal({ topic: {} })).toEqual({ field: 'keywords', message: 'Topic keywords or "Positive patterns": give the crawler something that says what the topic is.' });
    expect(refusal({ strategy: { name: 'sparse-tunneling', maxTunnel: 99 } }).field).toBe('strategyParam:maxTunnel');
    expect(refusal({ scope: { mode: 'listed-sites' } })).toEqual({ field: 'scopeSites', message: 'Sites: list at least one site when "Scope" is "Sites I list".' });
    expect(formErrorOf('the worker is gone')).toEqual({ field: null, message: 'the worker is gone' });
  });
});

describe('the form checks everything before a start, every refusal at once', () => {
  const valid = { ...defaultFormValues(), seeds: 'https://a.example/', keywords: 'moss' };
  const byField = (v: Parameters<typeof formProblems>[0]) => {
    const out: Record<string, string[]> = {};
    for (const p of formProblems(v)) (out[p.field ?? '(none)'] ??= []).push(p.message);
    return out;
  };

  it('refuses a pattern the crawl would read as nothing, on its line, as the crawl reads it', () => {
    // The crawl's own reading: such a pattern matches no URL at all, so a crawl trained with it learns nothing from it.
    expect(readPattern('[[[not a pattern').kind).toBe('refused');
    expect(compilePatterns(['[[[not a pattern', 'example.org/wiki/*', 'site:[[[']).size).toBe(0);
    for (const ok of ['https://a.example/wiki/Moss', 'https://a.example/wiki/*', '*://a.example/*', 'site:a.example', 'http://a.example/a page']) {
      expect(readPattern(ok).kind, ok).not.toBe('refused');
    }
    const problems = byField({ ...valid, positive: 'https://a.example/wiki/*\n[[[not a pattern', negative: '\nexample.org/wiki/*' });
    expect(problems).toEqual({
      positive: ['Positive patterns, line 2: "[[[not a pattern" is not a pattern: write a URL such as https://example.org/page, a URL with * wildcards such as https://example.org/wiki/*, or site:example.org.'],
      negative: ['Negative patterns, line 2: "example.org/wiki/*" can match no URL: a wildcard pattern is matched against whole URLs, so begin it with http://, https:// or *.'],
    });
    // A strategy's pattern parameters are read the same way.
    expect(byField({ ...valid, strategy: 'multi-queue', strategyParams: { listPages: 'site:[[[' } })).toEqual({
      'strategyParam:listPages': ['List pages, line 1: "site:[[[" names no site: after site: write a host, e.g. site:example.org.'],
    });
    expect(formProblems({ ...valid, positive: 'https://a.example/wiki/*\nsite:b.example' })).toEqual([]);
  });

  it('shows every refusal at once, each for its own field, in the words of its label', () => {
    const problems = byField({ ...valid, seeds: 'https://a.example/\nexample.org', positive: '[[[not a pattern', siteBlacklist: '[[[', delayMs: '-1', concurrency: '99', maxDepth: 'deep' });
    expect(Object.keys(problems).sort()).toEqual(['concurrency', 'delayMs', 'maxDepth', 'positive', 'seeds', 'siteBlacklist']);
    expect(problems.concurrency).toEqual(['Concurrency must be a whole number from 1 to 64 (you wrote 99)']);
    expect(problems.siteBlacklist).toEqual(['Site blacklist, line 1: "[[[" is not a host or URL.']);
    expect(problems.seeds).toEqual(['Seeds, line 2: "example.org" is not a URL (write it in full, e.g. https://example.org/)']);
    // A bad template and empty keywords: the template is refused, and the keywords it would have given are not asked for.
    expect(byField({ ...defaultFormValues(), template: '{"search": {}}' })).toEqual({ template: [expect.stringMatching(/^Template: template\.search\.url /)] });
  });

  it('sends a target recall as typed, none when empty, and refuses one no crawl could reach beside its field', () => {
    expect(parseConfig(formToConfig({ ...valid, targetRecall: '0.8' })).budget.targetRecall).toBe(0.8);
    expect(parseConfig(formToConfig(valid)).budget.targetRecall).toBeUndefined();
    expect(configToForm({ budget: { targetRecall: 0.9 } }, defaultFormValues()).targetRecall).toBe('0.9');
    expect(byField({ ...valid, targetRecall: '1.5' })).toEqual({
      targetRecall: ['Target recall must be a share of the topic above 0 and at most 1, e.g. 0.8 (you wrote 1.5)'],
    });
    expect(byField({ ...valid, strategy: 'breadth-first', targetRecall: '0.8' })).toEqual({
      targetRecall: ['Target recall needs a strategy that takes pages in the order of their link score (best-first, sparse-tunneling): breadth-first gives no recall estimate.'],
    });
  });

  it('reads an empty number field as its default only where the form shows that default', () => {
    // Max pages and the like show their default as their value: emptied, they show none, and are refused.
    const empty = byField({ ...valid, maxPages: '', concurrency: ' ' });
    expect(empty).toEqual({
      maxPages: ["Max pages is empty: write a number; the crawl's default is 100."],
      concurrency: [`Concurrency is empty: write a number; the crawl's default is ${DEFAULTS.politeness.concurrency}.`],
    });
    // A strategy's parameters show their default as the placeholder: empty there is that default.
    expect(formProblems({ ...valid, strategy: 'sparse-tunneling', strategyParams: { maxTunnel: '' } })).toEqual([]);
    expect(parseConfig(formToConfig({ ...valid, strategy: 'sparse-tunneling', strategyParams: { maxTunnel: '' } })).strategy).toMatchObject({ name: 'sparse-tunneling' });
  });

  it("names each field as the dashboard's form labels it", () => {
    const html = readFileSync(join(import.meta.dirname, '../../entrypoints/dashboard/index.html'), 'utf8');
    const { document } = parseHTML(html);
    let checked = 0;
    for (const { field, label } of Object.values(FORM_FIELDS)) {
      const el = document.querySelector(`#new-crawl-form [name="${field}"]`);
      if (!el) continue; // built by the script (the topic select)
      const words = el.closest('label')?.querySelector('span')?.firstChild?.textContent?.trim();
      expect(words, field).toBe(label);
      checked++;
    }
    expect(checked).toBeGreaterThan(12);
  });
});
