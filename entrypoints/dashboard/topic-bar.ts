// The Topics view's bar: pick a topic, create, rename or re-keyword one, delete it, make it the labeler's
// topic, and its label counts (on and off topic by source, labeled pages), read live.
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { Topic } from '@/lib/records/types.ts';
import { keywordList } from '@/lib/ui/config-form';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatDateTime } from '@/lib/ui/format';
import { LabelTally, linkTotals, type LabelCounts } from '@/lib/ui/label-queries';
import { watch } from '@/lib/ui/queries';
import { busy, showNotice } from './topic-ui';

export interface TopicBarEvents {
  /** A topic was picked, created or imported (undefined: deleted, pick another). */
  select(topicId: number | undefined): void;
  /** The shown topic's label counts were read (again). */
  counted(topicId: number, counts: LabelCounts): void;
}

interface Counter {
  label: string;
  testid: string;
  /** A count, or an on-topic / off-topic pair (shown green / red, like the On topic and Off topic counters). */
  value: (c: LabelCounts) => number | { on: number; off: number };
  tone?: 'good' | 'bad';
  title?: string;
}

const both = (x: { on: number; off: number }): number => x.on + x.off;

const counters: Counter[] = [
  { label: 'Labeled links', testid: 'topic-count-links', value: (c) => both(linkTotals(c.links)) },
  { label: 'On topic', testid: 'topic-count-on', value: (c) => linkTotals(c.links).on, tone: 'good' },
  { label: 'Off topic', testid: 'topic-count-off', value: (c) => linkTotals(c.links).off, tone: 'bad' },
  { label: 'Yours', testid: 'topic-count-user', value: (c) => c.links.user, title: 'Links you labeled, on topic / off topic: in the dashboard, on the web with the labeler, or imported' },
  { label: 'Page links', testid: 'topic-count-page', value: (c) => c.links.page, title: 'Links to pages you labeled, on topic / off topic' },
  { label: 'Verdicts', testid: 'topic-count-verdict', value: (c) => c.links.verdict, title: "Links labeled by the trained page judge's verdict on the page they led to, on topic / off topic" },
  { label: 'Auto', testid: 'topic-count-auto', value: (c) => c.links.auto, title: 'Links on training pages labeled by the positive and negative URL patterns, on topic / off topic' },
  { label: 'Labeled pages', testid: 'topic-count-pages', value: (c) => c.pages, title: 'Fetched pages labeled on topic / off topic: they train the page judge' },
];

function showValue(el: HTMLElement, v: number | { on: number; off: number }): void {
  if (typeof v === 'number') return void (el.textContent = formatCount(v));
  fill(el, h('span', { class: 'on' }, formatCount(v.on)), ' / ', h('span', { class: 'off' }, formatCount(v.off)));
}

export class TopicBar {
  private topics: Topic[] = [];
  private topic: Topic | undefined;
  private counts: LabelCounts | undefined;
  private countsOf: number | undefined;
  private unsubscribe: (() => void) | undefined;
  private editing: 'new' | 'edit' | null = null;
  private optionsKey = '';
  private readonly tally: LabelTally;
  private readonly values = new Map<Counter, HTMLElement>();
  private readonly select = byId<HTMLSelectElement>('topic-select');
  private readonly form = byId<HTMLFormElement>('topic-form');
  private readonly error = byId('topic-error');
  private readonly note = byId('topic-note');

  constructor(db: CrawlerDB, private readonly events: TopicBarEvents) {
    this.tally = new LabelTally(db);
    fill(
      byId('topic-counts'),
      ...counters.map((c) => {
        const value = h('span', { class: 'value', 'data-testid': c.testid });
        this.values.set(c, value);
        return h('div', { class: `counter ${c.tone ?? ''}`, title: c.title }, value, h('span', { class: 'label' }, c.label));
      }),
    );
    this.select.addEventListener('change', () => this.events.select(Number(this.select.value)));
    byId('topic-new').addEventListener('click', () => this.openForm('new'));
    byId('topic-edit').addEventListener('click', () => this.openForm('edit'));
    byId('topic-form-cancel').addEventListener('click', () => this.closeForm());
    byId('topic-delete').addEventListener('click', () => void this.remove());
    byId('topic-use').addEventListener('click', () => void this.use());
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.save();
    });
  }

  /** Shows the topics with `selected` picked; `activeId` is the labeler's topic. */
  render(topics: Topic[], selected: Topic | undefined, activeId: number | undefined): void {
    const switched = selected?.id !== this.topic?.id;
    this.topics = topics;
    this.topic = selected;
    // Topic rows change with every relabel (their revision): refill the list only when what it shows changed.
    const shown = topics.map((t) => [t.id!, t.id === activeId ? `${t.name} · labeling` : t.name] as const);
    const key = JSON.stringify(shown);
    if (key !== this.optionsKey) {
      this.optionsKey = key;
      fill(this.select, ...shown.map(([id, text]) => h('option', { value: id }, text)));
    }
    this.select.disabled = topics.length === 0;
    if (selected) this.select.value = String(selected.id);
    const active = selected !== undefined && selected.id === activeId;
    byId('topic-active').hidden = !active;
    byId<HTMLButtonElement>('topic-use').hidden = !selected || active;
    for (const id of ['topic-edit', 'topic-delete']) byId<HTMLButtonElement>(id).disabled = !selected;
    byId('topic-keywords').textContent = selected
      ? `Keywords: ${selected.keywords.join(', ') || 'none (the model learns from labels only)'} · created ${formatDateTime(selected.createdAt)}`
      : '';
    byId('topic-counts').hidden = !selected;
    if (switched) {
      showNotice(this.error, null);
      showNotice(this.note, null);
      if (this.editing === 'edit') this.closeForm();
    }
    if (!selected && topics.length === 0 && this.editing === null) this.openForm('new');
    this.watchCounts(selected?.id);
  }

  private watchCounts(topicId: number | undefined): void {
    if (topicId === this.countsOf) return;
    this.countsOf = topicId;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.counts = undefined;
    for (const el of this.values.values()) el.textContent = '…';
    if (topicId === undefined) return;
    this.unsubscribe = watch(
      () => this.tally.read(topicId),
      (counts) => {
        this.counts = counts;
        for (const [c, el] of this.values) showValue(el, c.value(counts));
        this.events.counted(topicId, counts);
      },
      (err) => showNotice(this.error, `Could not count the labels: ${errorText(err)}`),
    );
  }

  private field(name: 'name' | 'keywords'): HTMLInputElement {
    return this.form.elements.namedItem(name) as HTMLInputElement;
  }

  private openForm(mode: 'new' | 'edit'): void {
    if (mode === 'edit' && !this.topic) return;
    this.editing = mode;
    this.form.hidden = false;
    byId('topic-form-title').textContent = mode === 'new' ? 'New topic' : `Edit "${this.topic!.name}"`;
    byId('topic-form-save').textContent = mode === 'new' ? 'Create topic' : 'Save';
    byId('topic-form-hint').hidden = mode === 'new';
    byId('topic-form-cancel').hidden = mode === 'new' && this.topics.length === 0;
    this.field('name').value = mode === 'edit' ? this.topic!.name : '';
    this.field('keywords').value = mode === 'edit' ? this.topic!.keywords.join(', ') : '';
    showNotice(this.error, null);
    this.field('name').focus();
  }

  private closeForm(): void {
    this.editing = null;
    this.form.hidden = true;
    showNotice(this.error, null);
  }

  private async save(): Promise<void> {
    const name = this.field('name').value.trim();
    const keywords = keywordList(this.field('keywords').value);
    if (!name) return showNotice(this.error, 'Give the topic a name.');
    showNotice(this.note, null);
    const button = byId<HTMLButtonElement>('topic-form-save');
    try {
      if (this.editing === 'new') {
        const topic = await busy(button, () => sendMessage('createTopic', { name, keywords }));
        this.closeForm();
        this.events.select(topic.id);
        return;
      }
      const topic = this.topic;
      if (!topic) return;
      const changedKeywords = keywords.join('\n') !== topic.keywords.join('\n');
      await busy(button, () => sendMessage('updateTopic', { topicId: topic.id!, name, ...(changedKeywords ? { keywords } : {}) }));
      this.closeForm();
      if (changedKeywords) showNotice(this.note, 'Keywords changed: the model is rebuilt from the new keywords and all the labels when it is next used (Retrain does it now).');
    } catch (err) {
      showNotice(this.error, `Could not save the topic: ${errorText(err)}`);
    }
  }

  private async remove(): Promise<void> {
    const topic = this.topic;
    if (!topic) return;
    const n = this.counts ? linkTotals(this.counts.links).on + linkTotals(this.counts.links).off : 0;
    const labels = n ? ` with its ${formatCount(n)} labeled links` : '';
    if (!confirm(`Delete the topic "${topic.name}"${labels} and its model? Its crawls and their pages are kept. This cannot be undone.`)) return;
    try {
      await busy(byId<HTMLButtonElement>('topic-delete'), () => sendMessage('deleteTopic', { topicId: topic.id! }));
      showNotice(this.error, null);
      this.events.select(undefined);
    } catch (err) {
      showNotice(this.error, `Could not delete the topic: ${errorText(err)}`);
    }
  }

  private async use(): Promise<void> {
    const topic = this.topic;
    if (!topic) return;
    try {
      await busy(byId<HTMLButtonElement>('topic-use'), () => sendMessage('activeTopic', { topicId: topic.id! }));
    } catch (err) {
      showNotice(this.error, `Could not make it the labeling topic: ${errorText(err)}`);
    }
  }
}
