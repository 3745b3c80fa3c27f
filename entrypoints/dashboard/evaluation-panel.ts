// The Topics view's evaluation (design A.8): held-out (7:3, as the paper splits its labeled links) or k-fold
// precision, recall, F1, accuracy and AUC, with confusion matrices, of the two feature groups of design A.3 side
// by side, and the strongest features of each class. The work runs in a Web Worker (eval-worker.ts).
import type { ByGroup, EvaluationReport } from '@/lib/learning/evaluate.ts';
import type { Confusion, Figures, TestResult } from '@/lib/learning/evaluation-metrics.ts';
import type { ReadableFeature } from '@/lib/learning/feature-wording.ts';
import type { FeatureGroup } from '@/lib/learning/link-features.ts';
import type { CrawlerDB } from '@/lib/store/db';
import type { LabelSource } from '@/lib/records/types.ts';
import { errorText, fill, h, type Child } from '@/lib/platform/dom';
import { formatCount, formatDuration, formatScore } from '@/lib/ui/format';
import { LABEL_SOURCES, type SourceCounts } from '@/lib/ui/label-queries';
import type { CountsBySource } from '@/lib/ui/queries';
import type { EvalReply, EvalRequest } from './eval-worker';
import './learning.css';

type Method = 'holdout' | 'kfold';

const TRAIN_FRACTION = 0.7;

const SOURCE_TEXT: Record<LabelSource, { name: string; title: string }> = {
  auto: { name: 'Training reads', title: 'Links on link-source pages whose target matched the positive or negative URL patterns' },
  user: { name: 'Yours', title: 'Links you labeled on the web, in the dashboard, or imported' },
  page: { name: 'From page labels', title: 'Every known link to a page you labeled on or off topic' },
  verdict: { name: 'Crawler verdicts', title: "The page judge's verdicts on the pages the crawl fetched: the crawler's own guesses" },
};

const GROUP_TEXT: Record<FeatureGroup, { name: string; what: string }> = {
  1: { name: 'Group 1: anchor text', what: 'words of the anchor text only' },
  2: { name: 'Group 2: anchor and context', what: 'anchor words, context words, "has a keyword word" flags and the anchor\'s shape (what the crawl uses)' },
};

const FIGURES: { key: keyof Figures; name: string; title: string }[] = [
  { key: 'precision', name: 'Precision', title: 'Of the links predicted on topic, the share that are' },
  { key: 'recall', name: 'Recall', title: 'Of the links on topic, the share predicted so' },
  { key: 'f1', name: 'F1', title: 'Harmonic mean of precision and recall' },
  { key: 'accuracy', name: 'Accuracy', title: 'Share of links predicted right' },
  { key: 'auc', name: 'AUC', title: 'ROC AUC: the chance that a random on-topic link outranks a random off-topic one (no threshold)' },
];

export class EvaluationPanel {
  private readonly el: HTMLElement;
  private readonly method: HTMLSelectElement;
  private readonly k: HTMLInputElement;
  private readonly seed: HTMLInputElement;
  private readonly sources = new Map<LabelSource, { box: HTMLInputElement; count: HTMLElement }>();
  private readonly warning: HTMLElement;
  private readonly button: HTMLButtonElement;
  private readonly status: HTMLElement;
  private readonly results: HTMLElement;
  private topicId: number | undefined;
  private worker: Worker | undefined;
  private nextId = 1;
  private pending = new Map<number, (reply: EvalReply) => void>();
  private running = false;
  /** The last report, with the settings it was made with. */
  private last: { report: EvaluationReport; examples: number; ms: number; readMs: number; settings: string } | undefined;

  constructor(private readonly db: CrawlerDB, private readonly root: HTMLElement) {
    void this.db; // the worker opens the database itself: 70,000 labels are read off the page's thread
    this.method = h(
      'select',
      { 'data-testid': 'eval-method' },
      h('option', { value: 'holdout' }, `Hold-out ${TRAIN_FRACTION * 10}:${10 - TRAIN_FRACTION * 10}`),
      h('option', { value: 'kfold' }, 'k-fold cross-validation'),
    );
    this.k = h('input', { type: 'number', min: 2, max: 20, step: 1, value: 5, 'data-testid': 'eval-k' });
    this.seed = h('input', { type: 'number', min: 0, step: 1, value: 1, 'data-testid': 'eval-seed' });
    const kField = h('label', { class: 'field' }, h('span', null, 'k'), this.k);
    const sourceBoxes = LABEL_SOURCES.map((source) => {
      const box = h('input', { type: 'checkbox', checked: source !== 'verdict', 'data-testid': `eval-source-${source}` });
      const count = h('span', { class: 'count', 'data-testid': `eval-count-${source}` });
      this.sources.set(source, { box, count });
      box.addEventListener('change', () => this.settingsChanged());
      return h('label', { title: SOURCE_TEXT[source].title }, box, SOURCE_TEXT[source].name, count);
    });
    this.warning = h(
      'p',
      { class: 'eval-warning', 'data-testid': 'eval-verdict-warning' },
      "Crawler verdicts are the crawl's own guesses (its page judge's verdicts on the pages it fetched), not judgements of yours: a classifier tested on them is graded against the crawler itself, and its figures come out higher than they are.",
    );
    this.button = h('button', { type: 'button', class: 'primary', 'data-testid': 'evaluate', onclick: () => this.evaluate() }, 'Evaluate');
    this.status = h('p', { class: 'eval-status muted', 'data-testid': 'eval-status', role: 'status' });
    this.results = h('div', { class: 'evaluation-results' });
    for (const input of [this.method, this.k, this.seed]) input.addEventListener('change', () => this.settingsChanged());
    this.method.addEventListener('change', () => (kField.hidden = this.method.value !== 'kfold'));
    kField.hidden = true;

    this.el = h(
      'div',
      { class: 'evaluation', 'data-testid': 'evaluation-panel' },
      h('h3', null, 'Evaluate the link classifier ', h('small', { class: 'muted' }, 'on labeled links it has not learned')),
      h(
        'div',
        { class: 'eval-controls' },
        h('label', { class: 'field' }, h('span', null, 'Method'), this.method),
        kField,
        h('label', { class: 'field', title: 'The same seed gives the same split and the same figures' }, h('span', null, 'Seed'), this.seed),
        h('fieldset', { class: 'eval-sources' }, h('legend', null, 'Labels to use'), ...sourceBoxes),
      ),
      this.warning,
      h('div', { class: 'eval-actions' }, this.button, this.status),
      this.results,
    );
    this.updateWarning();
  }

  /** Shows the evaluation controls for a topic (nothing when undefined). */
  show(topicId: number | undefined): void {
    if (topicId === this.topicId) return;
    this.topicId = topicId;
    this.stopWorker();
    this.last = undefined;
    fill(this.results);
    this.say('');
    if (topicId === undefined) {
      fill(this.root);
      return;
    }
    if (this.el.parentNode !== this.root) fill(this.root, this.el);
    for (const { count } of this.sources.values()) count.textContent = '';
  }

  /** The topic's labels by source, as the topic bar reads them live: each box says how many it would use. */
  setCounts(topicId: number, links: SourceCounts): void {
    if (topicId !== this.topicId) return;
    this.showCounts(Object.fromEntries(Object.entries(links).map(([s, c]) => [s, { pos: c.on, neg: c.off }])) as CountsBySource);
  }

  private settings(): { method: Method; k: number; seed: number; sources: LabelSource[] } {
    const k = Math.round(Number(this.k.value));
    const seed = Math.round(Number(this.seed.value));
    return {
      method: this.method.value as Method,
      k: Number.isFinite(k) ? Math.min(20, Math.max(2, k)) : 5,
      seed: Number.isFinite(seed) ? seed : 1,
      sources: LABEL_SOURCES.filter((s) => this.sources.get(s)!.box.checked),
    };
  }

  private settingsChanged(): void {
    this.updateWarning();
    if (!this.last || this.running) return;
    const s = this.settings();
    // Hold-out and k-fold come from one run: switching between them needs no new one.
    if (this.last.settings === settingsKey(s)) this.render(this.last);
    else this.say('The settings changed: press Evaluate for figures with them.');
  }

  private updateWarning(): void {
    this.warning.hidden = !this.sources.get('verdict')!.box.checked;
  }

  private showCounts(counts: CountsBySource): void {
    for (const [source, { count }] of this.sources) {
      const c = counts[source];
      count.textContent = c.pos + c.neg ? `${formatCount(c.pos)} on · ${formatCount(c.neg)} off` : 'none';
    }
  }

  private evaluate(): void {
    const topicId = this.topicId;
    if (topicId === undefined || this.running) return;
    const s = this.settings();
    if (s.sources.length === 0) return this.say('Tick at least one kind of label to evaluate on.', true);
    this.running = true;
    this.button.disabled = true;
    const started = performance.now();
    this.say('Reading the labeled links and evaluating…');
    this.ask({ kind: 'evaluate', topicId, sources: s.sources, seed: s.seed, folds: s.k, trainFraction: TRAIN_FRACTION })
      .then((reply) => {
        if (topicId !== this.topicId) return;
        if (!reply.ok) throw new Error(reply.error);
        if (reply.kind !== 'evaluate') return;
        this.showCounts(reply.counts);
        const ms = performance.now() - started;
        this.last = { report: reply.report, examples: reply.examples, ms, readMs: reply.readMs, settings: settingsKey(s) };
        this.render(this.last);
      })
      .catch((err: unknown) => {
        if (topicId === this.topicId) this.say(`Could not evaluate: ${errorText(err)}`, true);
      })
      .finally(() => {
        this.running = false;
        this.button.disabled = false;
      });
  }

  private render({ report, examples, ms, readMs }: { report: EvaluationReport; examples: number; ms: number; readMs: number }): void {
    const s = this.settings();
    const { labels } = report;
    const counted = `${formatCount(examples)} labeled links (${formatCount(labels.pos)} on topic, ${formatCount(labels.neg)} off), each link once · ${seconds(ms)} (reading them ${seconds(readMs)})`;
    const run = s.method === 'holdout' ? report.holdout : report.crossValidation;
    if (!run.ok) {
      this.say(`${counted}. Not enough to evaluate: ${run.problem}.`, true);
      fill(this.results);
      return;
    }
    let groups: ByGroup<{ figures: Figures; sd: Figures | null; confusion: Confusion; n: number }>;
    let how: string;
    if (!('folds' in run)) {
      groups = mapGroups(run.groups, (g) => ({ figures: g, sd: null, confusion: g.confusion, n: g.n }));
      how = `trained on ${formatCount(run.train.pos + run.train.neg)} (${formatCount(run.train.pos)} on, ${formatCount(run.train.neg)} off), tested on ${formatCount(run.test.pos + run.test.neg)} (seed ${run.seed})`;
    } else {
      groups = mapGroups(run.mean, (mean, group) => {
        const results = run.folds.map((f) => f.groups[group]);
        return { figures: mean, sd: run.sd[group], confusion: sumConfusion(results), n: results.reduce((a, r) => a + r.n, 0) };
      });
      how = `${run.k}-fold cross-validation: mean ± standard deviation over the folds; the matrices add up every fold's test links (seed ${run.seed})`;
    }
    const tested = 'folds' in run ? examples : run.test.pos + run.test.neg;
    const fewest = 'folds' in run ? Math.min(labels.pos, labels.neg) : Math.min(run.test.pos, run.test.neg);
    // Below ~100 test links (or 20 of a class) a figure moves by several points with another split: say so.
    const small = tested < 100 || fewest < 20
      ? ` Few links to test on (${formatCount(tested)}, ${formatCount(fewest)} of the rarer class): a figure here can move by about ±${Math.round(100 / Math.sqrt(Math.max(1, tested)))} points with another seed; label more links${'folds' in run ? '' : ', or use cross-validation'}, before trusting small differences.`
      : '';
    this.say(`${counted}. ${how[0].toUpperCase()}${how.slice(1)}.${small}`);
    this.status.classList.toggle('warn', small !== '');
    fill(
      this.results,
      h('div', { class: 'eval-groups' }, groupCard(1, groups, 'folds' in run), groupCard(2, groups, 'folds' in run)),
      report.topFeatures ? featureLists(report.topFeatures.positive, report.topFeatures.negative) : null,
    );
  }

  private say(text: string, error = false): void {
    this.status.textContent = text;
    this.status.classList.toggle('error-text', error);
    this.status.classList.toggle('muted', !error);
  }

  // ---- the worker ----

  private ask(req: Unsent<EvalRequest>): Promise<EvalReply> {
    const worker = (this.worker ??= this.startWorker());
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ ...req, id } as EvalRequest);
    });
  }

  private startWorker(): Worker {
    const worker = new Worker(new URL('./eval-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (ev: MessageEvent<EvalReply>) => {
      const resolve = this.pending.get(ev.data.id);
      this.pending.delete(ev.data.id);
      resolve?.(ev.data);
    };
    worker.onerror = (ev) => {
      ev.preventDefault();
      this.failPending(ev.message || 'the evaluation worker failed to start');
      this.stopWorker();
    };
    return worker;
  }

  /** Ends the worker (a topic change abandons an evaluation in progress); the next request starts a new one. */
  private stopWorker(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.failPending('stopped');
  }

  private failPending(error: string): void {
    const pending = [...this.pending];
    this.pending.clear();
    for (const [id, resolve] of pending) resolve({ id, ok: false, error });
  }
}

const seconds = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatDuration(ms));

/** A request before it gets its id (Omit of each member of the union). */
type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

const settingsKey = (s: { k: number; seed: number; sources: LabelSource[] }): string => `${s.k}|${s.seed}|${s.sources.join(',')}`;

function mapGroups<T, U>(by: ByGroup<T>, f: (value: T, group: FeatureGroup) => U): ByGroup<U> {
  return { 1: f(by[1], 1), 2: f(by[2], 2) };
}

function sumConfusion(results: readonly TestResult[]): Confusion {
  const sum: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const { confusion: c } of results) (sum.tp += c.tp, sum.fp += c.fp, sum.fn += c.fn, sum.tn += c.tn);
  return sum;
}

type GroupView = { figures: Figures; sd: Figures | null; confusion: Confusion; n: number };

/** One feature group's figures (the better of the two groups' marked) and its confusion matrix. */
function groupCard(group: FeatureGroup, groups: ByGroup<GroupView>, folds: boolean): HTMLElement {
  const mine = groups[group];
  const other = groups[group === 1 ? 2 : 1];
  const rows = FIGURES.map(({ key, name, title }) => {
    const v = mine.figures[key];
    const better = v !== null && other.figures[key] !== null && v > other.figures[key]! + 1e-9;
    const sd = mine.sd?.[key];
    return h(
      'tr',
      { title },
      h('th', { scope: 'row' }, name),
      h('td', { class: better ? 'better' : null, 'data-figure': key }, formatScore(v), sd !== null && sd !== undefined ? h('span', { class: 'sd' }, ` ± ${formatScore(sd)}`) : null),
    );
  });
  const c = mine.confusion;
  return h(
    'section',
    { class: 'eval-group', 'data-testid': `eval-group-${group}` },
    h('h4', null, GROUP_TEXT[group].name),
    h('p', { class: 'what muted' }, GROUP_TEXT[group].what),
    h(
      'div',
      { class: 'eval-group-body' },
      h('table', { class: 'figures' }, h('tbody', null, ...rows)),
      h(
        'div',
        null,
        h('p', { class: 'confusion-title' }, `Confusion matrix: ${formatCount(mine.n)} test links${folds ? ', all folds' : ''}`),
        confusionTable(c),
      ),
    ),
  );
}

function confusionTable(c: Confusion): HTMLTableElement {
  const cell = (n: number, kind: 'hit' | 'miss', testid: keyof Confusion, title: string): Child =>
    h('td', { class: n > 0 ? kind : null, 'data-testid': `confusion-${testid}`, title }, formatCount(n));
  return h(
    'table',
    { class: 'confusion', 'data-testid': 'confusion' },
    h('thead', null, h('tr', null, h('th'), h('th', { scope: 'col' }, 'predicted on'), h('th', { scope: 'col' }, 'predicted off'))),
    h(
      'tbody',
      null,
      h('tr', null, h('th', { scope: 'row' }, 'on topic'), cell(c.tp, 'hit', 'tp', 'True positives'), cell(c.fn, 'miss', 'fn', 'False negatives: on-topic links the classifier missed')),
      h('tr', null, h('th', { scope: 'row' }, 'off topic'), cell(c.fp, 'miss', 'fp', 'False positives: off-topic links predicted on topic'), cell(c.tn, 'hit', 'tn', 'True negatives')),
    ),
  );
}

/** The strongest features of each class, of a group-2 model trained on all the chosen labels. */
function featureLists(positive: ReadableFeature[], negative: ReadableFeature[]): HTMLElement {
  // With few labels of a class, the top n can include features that do not favour it at all.
  const list = (title: string, all: ReadableFeature[], testid: string, features = all.filter((f) => f.weight > 0)) =>
    h(
      'div',
      { 'data-testid': testid },
      h('h4', null, title),
      features.length
        ? h('ol', null, ...features.map((f) => h(
            'li',
            { title: `${f.feature}: in ${formatCount(f.pos)} on-topic and ${formatCount(f.neg)} off-topic labeled links` },
            f.text,
            h('span', { class: 'weight' }, ` ×${ratio(f.weight)} · ${formatCount(f.pos)} on / ${formatCount(f.neg)} off`),
          )))
        : h('p', { class: 'muted small' }, 'None yet.'),
    );
  return h(
    'section',
    null,
    h('h3', null, 'Strongest features ', h('small', { class: 'muted' }, 'group 2, trained on every chosen label; ×: how many times likelier in this class')),
    h('div', { class: 'eval-features' }, list('On topic', positive, 'eval-features-on'), list('Off topic', negative, 'eval-features-off')),
  );
}

/** A log likelihood ratio as a plain ratio: 1.23 -> "3.4", 6.2 -> "490". */
function ratio(weight: number): string {
  const r = Math.exp(weight);
  return r >= 100 ? formatCount(r) : r >= 10 ? r.toFixed(0) : r.toFixed(1);
}
