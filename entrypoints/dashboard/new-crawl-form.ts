// The "New crawl" form: reads its fields into a config, asks the worker to start it, and fills the
// fields from an imported runner config file. The crawl runs for a new topic or an existing one (whose
// labels it learns from); the topic field is built here, before the keywords field.
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { Topic } from '@/lib/records/types.ts';
import { requestCrawlAccess } from '@/lib/platform/actions';
import {
  configToForm,
  defaultFormValues,
  formToConfig,
  keywordsText,
  safetyRuleChoices,
  RENDER_CHOICES,
  SCOPE_CHOICES,
  scopeWarning,
  topicChoices,
  type CrawlFormValues,
  strategyChoices,
} from '@/lib/ui/config-form';
import { formErrorOf, formProblems, templateJsonProblem, type FormProblem } from '@/lib/ui/form-problems';
import { DEFAULT_SAFETY_RULES } from '@/lib/records/safety-rules.ts';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { downloadFile } from '@/lib/platform/actions';
import { allTopics } from '@/lib/ui/label-queries';
import { watch } from '@/lib/ui/queries';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type TextKey = Exclude<keyof CrawlFormValues, 'robots' | 'sitemaps' | 'identify' | 'safetyOff' | 'strategyParams'>;

const textKeys: TextKey[] = [
  'name', 'seeds', 'topicId', 'keywords', 'linkSources', 'positive', 'negative', 'strategy',
  'maxPages', 'maxDepth', 'targetRecall', 'scopeMode', 'scopeSites', 'delayMs', 'concurrency', 'render', 'renderScrolls', 'renderClicks', 'renderGrowMs', 'renderGrowLinks', 'safetyAvoid', 'siteBlacklist', 'template',
];

/** `db`: the page's database connection (the topic choices are read from it); one of its own when not given. */
export function setupNewCrawlForm(onStarted: (crawlId: number) => void, db: CrawlerDB): void {
  const form = byId<HTMLFormElement>('new-crawl-form');
  const topicSelect = addTopicField(form);
  const field = (name: string) => form.elements.namedItem(name) as Field;
  const robots = field('robots') as HTMLInputElement;
  const sitemaps = field('sitemaps') as HTMLInputElement;
  const identify = field('identify') as HTMLInputElement;
  const safetyRules = byId('safety-rules');
  const ruleBoxes = () => [...safetyRules.querySelectorAll<HTMLInputElement>('input[type=checkbox]')];
  /** Rule names of an imported file that the form has no checkbox for: sent on, for the worker to name and refuse. */
  let unknownOff: string[] = [];
  const startButton = byId<HTMLButtonElement>('start');
  const importInput = byId<HTMLInputElement>('import-config');
  /** The imported config file: settings the form has no field for are taken from it. */
  let importedBase: Record<string, unknown> = {};

  const strategySelect = field('strategy') as HTMLSelectElement;
  fill(strategySelect, ...strategyChoices().map((m) => h('option', { value: m.name }, m.name)));
  const paramBox = byId('strategy-params');
  /** The chosen strategy's sentence and parameter fields (placeholder: the default). */
  const showStrategy = (typed: Record<string, string>) => {
    const m = strategyChoices().find((c) => c.name === strategySelect.value);
    byId('strategy-about').textContent = m?.description ?? '';
    fill(paramBox, ...(m?.params ?? []).map((p) =>
      h('label', { class: 'field', title: p.help },
        h('span', null, p.label, ' ', h('small', { class: 'muted' }, p.help)),
        p.choices
          ? h('select', { name: `strategyParam:${p.key}`, 'data-testid': `form-strategy-${p.key}` },
            ...p.choices.map((c) => h('option', { value: c, selected: (typed[p.key] || p.default) === c }, c)))
          : p.patterns
            ? h('textarea', { name: `strategyParam:${p.key}`, 'data-testid': `form-strategy-${p.key}`, rows: 2, placeholder: 'one pattern a line, e.g. https://forum.example/board/*' }, typed[p.key] ?? '')
            : h('input', { name: `strategyParam:${p.key}`, 'data-testid': `form-strategy-${p.key}`, inputmode: 'numeric', placeholder: String(p.default), value: typed[p.key] ?? '' }))));
  };
  strategySelect.addEventListener('change', () => showStrategy({}));
  const read = (): CrawlFormValues => {
    const v = defaultFormValues();
    for (const k of textKeys) (v as unknown as Record<TextKey, string>)[k] = field(k).value;
    v.strategyParams = Object.fromEntries([...paramBox.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')].map((i) => [i.name.replace(/^strategyParam:/, ''), i.value]));
    v.robots = robots.checked;
    v.sitemaps = sitemaps.checked;
    v.identify = identify.checked;
    v.safetyOff = [...ruleBoxes().filter((b) => !b.checked).map((b) => b.value), ...unknownOff];
    return v;
  };
  const write = (v: CrawlFormValues) => {
    for (const k of textKeys) field(k).value = v[k];
    showStrategy(v.strategyParams);
    robots.checked = v.robots;
    sitemaps.checked = v.sitemaps;
    identify.checked = v.identify;
    fill(
      safetyRules,
      ...safetyRuleChoices(v.safetyOff).map((r) =>
        h(
          'label',
          { class: 'check rule', 'data-testid': 'form-safety-rule' },
          h('input', { type: 'checkbox', name: 'safetyRule', value: r.name, checked: r.on }),
          h('span', null, h('strong', null, r.name), h('small', { class: 'muted' }, r.help)),
        ),
      ),
    );
    unknownOff = v.safetyOff.filter((r) => !DEFAULT_SAFETY_RULES.includes(r));
    showScope();
  };
  /** The sites field for "listed-sites", the cookie warning for "anywhere". */
  const showScope = () => {
    const mode = field('scopeMode').value as CrawlFormValues['scopeMode'];
    byId('scope-sites-field').hidden = mode !== 'listed-sites';
    const warning = scopeWarning(mode);
    const w = byId('scope-warning');
    w.hidden = !warning;
    w.textContent = warning ?? '';
  };
  const say = (error: string | null, note: string | null = null) => {
    const e = byId('form-error');
    e.hidden = !error;
    e.textContent = error ?? '';
    const n = byId('form-note');
    n.hidden = !note;
    n.textContent = note ?? '';
  };

  let topics: Topic[] = [];
  const renderTopics = (rows: Topic[]) => {
    topics = rows;
    const chosen = topicSelect.value;
    fill(topicSelect, ...topicChoices(rows).map((c) => h('option', { value: c.value }, c.text)));
    topicSelect.value = rows.some((t) => String(t.id) === chosen) ? chosen : '';
  };
  // Choosing a topic shows its keywords, to keep or change (changed ones are saved to the topic).
  topicSelect.addEventListener('change', () => {
    const topic = topics.find((t) => String(t.id) === topicSelect.value);
    if (topic) field('keywords').value = keywordsText(topic);
  });

  renderTopics([]);
  fill(field('scopeMode') as HTMLSelectElement, ...SCOPE_CHOICES.map((c) => h('option', { value: c.value }, c.text)));
  fill(field('render') as HTMLSelectElement, ...RENDER_CHOICES.map((c) => h('option', { value: c.value }, c.text)));
  write(defaultFormValues());
  field('scopeMode').addEventListener('change', showScope);
  watch(() => allTopics(db), renderTopics, (err) => say(`Could not read the topics: ${errorText(err)}`));

  /**
   * Refusals of the config, each beside its field (marked; the form's first field in error focused and scrolled into
   * view) when the form has one; a field refused on several lines gets one note a line. The rest stay by the Start
   * button.
   */
  const refuse = (refusals: FormProblem[]) => {
    const general: string[] = [];
    let first: Field | undefined;
    for (const { field: name, message } of refusals) {
      const el = name ? (form.elements.namedItem(name) as Field | null) : null;
      if (!name || !el) {
        general.push(message);
        continue;
      }
      const notes = form.querySelectorAll(`.field-error[data-for="${CSS.escape(name)}"]`);
      const note = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'field-error', 'data-for': name, id: `${name.replace(/\W/g, '-')}-error-${notes.length}` }, message);
      (notes[notes.length - 1] ?? el).insertAdjacentElement('afterend', note);
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', [el.getAttribute('aria-describedby'), note.id].filter(Boolean).join(' '));
      // The first in the form's order, whatever order the refusals came in: where the user starts reading.
      if (!first || first.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) first = el;
    }
    if (general.length) say(general.join(' '));
    if (first) {
      first.scrollIntoView({ block: 'center' });
      first.focus({ preventScroll: true });
    }
  };
  /** A refusal from the worker: one sentence, beside its field when it names one. */
  const refuseOne = (message: string) => refuse([formErrorOf(message)]);
  const clearRefusals = () => {
    for (const n of form.querySelectorAll('.field-error')) n.remove();
    for (const el of form.querySelectorAll('[aria-invalid]')) {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
    }
  };
  form.addEventListener('input', (ev) => {
    // Typing in a refused field takes its refusals away.
    const el = ev.target as Field;
    if (el.getAttribute?.('aria-invalid')) {
      el.removeAttribute('aria-invalid');
      el.removeAttribute('aria-describedby');
      for (const n of form.querySelectorAll(`.field-error[data-for="${CSS.escape(el.name)}"]`)) n.remove();
    }
  });

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    say(null);
    clearRefusals();
    // The worker's checks and the crawl's reading of patterns, first here: every refusal is shown at once, and
    // nothing is created.
    const problems = formProblems(read(), importedBase);
    if (problems.length) return refuse(problems);
    const config = formToConfig(read(), importedBase);
    startButton.disabled = true;
    requestCrawlAccess(read().render)
      .then((granted) => {
        if (!granted) throw new Error('Focus needs access to websites to crawl them: allow it when the browser asks.');
        return sendMessage('start', config);
      })
      .then(
      ({ crawlId }) => {
        // A form left as it was starts the same crawl again at the next click: it is cleared for the next one.
        write(defaultFormValues());
        topicSelect.value = '';
        importedBase = {};
        say(null, `Started crawl #${crawlId}. The form is cleared for the next one.`);
        onStarted(crawlId);
      },
      (err: unknown) => refuseOne(errorText(err)),
    ).finally(() => {
      startButton.disabled = false;
    });
  });

  setupTemplateFiles(field, () => formToConfig(read(), importedBase), say);

  importInput.addEventListener('change', () => {
    const file = importInput.files?.[0];
    if (!file) return;
    file.text().then(
      (text) => {
        const parsed: unknown = JSON.parse(text);
        write(configToForm(parsed, read()));
        importedBase = parsed as Record<string, unknown>;
        say(null, `Loaded ${file.name}. Settings the form has no field for (fetch, judge, …) are taken from the file.`);
      },
    ).catch((err: unknown) => say(`Could not import ${file.name}: ${errorText(err)}`))
      .finally(() => {
        importInput.value = ''; // choosing the same file again fires change again
      });
  });
}

/** Import and export of the template alone (a file holding a template, or a whole config with one) and of the whole config. */
function setupTemplateFiles(field: (name: string) => Field, config: () => Record<string, unknown>, say: (error: string | null, note?: string | null) => void): void {
  const input = byId<HTMLInputElement>('import-template');
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (!file) return;
    file.text().then((text) => {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const template = parsed && typeof parsed === 'object' && 'template' in parsed ? parsed.template : parsed;
      field('template').value = JSON.stringify(template, null, 2);
      (field('template').closest('details') as HTMLDetailsElement).open = true;
      say(null, `Loaded the template of ${file.name}.`);
    }).catch((err: unknown) => say(`Could not import ${file.name}: ${errorText(err)}`))
      .finally(() => {
        input.value = '';
      });
  });
  byId('export-template').addEventListener('click', () => {
    const problem = templateJsonProblem(field('template').value);
    if (problem || !field('template').value.trim()) return say(problem ?? 'There is no template to export: write or import one first.');
    downloadFile([JSON.stringify({ template: JSON.parse(field('template').value) }, null, 2) + '\n'], 'template.json', 'application/json');
  });
  byId('export-config').addEventListener('click', () => {
    const c = config();
    const name = typeof c.name === 'string' && c.name ? c.name.replace(/[^\p{L}\d]+/gu, '-') : 'crawl';
    downloadFile([JSON.stringify(c, null, 2) + '\n'], `${name}.json`, 'application/json');
  });
}

/** The topic field, put before the keywords field (the page's markup has none). */
function addTopicField(form: HTMLFormElement): HTMLSelectElement {
  const select = h('select', { name: 'topicId', 'data-testid': 'form-topic' });
  const keywords = form.elements.namedItem('keywords') as HTMLTextAreaElement;
  const keywordsField = keywords.closest('.field') ?? keywords;
  keywordsField.before(
    h(
      'label',
      { class: 'field', title: "A crawl learns from its topic's labeled links and adds its own to them; crawls of one topic can be compared." },
      h('span', null, 'Topic ', h('small', { class: 'muted' }, 'its labels train the crawl')),
      select,
    ),
  );
  return select;
}
