// The Topics view's labeled links: filtered by label, source and site, read live one page at a time by key
// range (a topic can hold 70,000 labels), selected with checkboxes (shift-click selects a range), relabeled or
// deleted through the worker, exported as CSV or JSON Lines (the current filter) and imported from files.
import { labelsToCsv, labelsToJsonl } from '@/lib/export/labels';
import { checkImportSize } from '@/lib/export/label-input.ts';
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { LabeledLink, LabelValue, Topic } from '@/lib/records/types.ts';
import { downloadFile } from '@/lib/platform/actions';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatDateTime } from '@/lib/ui/format';
import {
  ALL_LABELS,
  filteredCount,
  forEachLabelChunk,
  LABEL_SOURCES,
  labelWindow,
  type LabelCounts,
  type LabelCursor,
  type LabelFilter,
  type LabelWindow,
} from '@/lib/ui/label-queries';
import { watch } from '@/lib/ui/queries';
import { urlLine } from './url-line';
import { busy, fileStem, rejectedText, showNotice } from './topic-ui';

export const LABELS_PAGE = 50;
/** Label rows read at a time for an export (a crawl's rows hold a commit's labels each). */
const EXPORT_CHUNK = 2000;
const COLUMNS = 7;

const shorten = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** The format of a label file: by its extension, else by its first character. */
export function labelFileFormat(name: string, text: string): 'csv' | 'jsonl' {
  if (/\.csv$/i.test(name)) return 'csv';
  if (/\.(jsonl|ndjson|json)$/i.test(name)) return 'jsonl';
  return text.trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

/** The filters' choices, typed by the filter they set; the first is the default. */
const LABEL_CHOICES: readonly [LabelFilter['label'], string][] = [['all', 'All'], ['on', 'On topic'], ['off', 'Off topic']];
const SOURCE_CHOICES: readonly [LabelFilter['source'], string][] = [['all', 'All'], ...LABEL_SOURCES.map((s) => [s, s[0]!.toUpperCase() + s.slice(1)] as [LabelFilter['source'], string])];
const options = (choices: readonly [string, string][]) => choices.map(([value, text]) => h('option', { value }, text));

export class LabelsTable {
  private topic: Topic | undefined;
  private filter: LabelFilter = { ...ALL_LABELS };
  private window: LabelWindow = { rows: [], hasNewer: false, hasOlder: false };
  private counts: LabelCounts | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly selected = new Set<number>();
  /** Row index of the last checkbox clicked without shift: one end of a shift-click range. */
  private anchorIndex: number | undefined;
  private readonly report = byId('labels-report');
  private readonly error = byId('labels-error');
  private readonly body = byId('labels-body');

  constructor(private readonly db: CrawlerDB) {
    const labelSelect = byId<HTMLSelectElement>('labels-label');
    const sourceSelect = byId<HTMLSelectElement>('labels-source');
    const siteInput = byId<HTMLInputElement>('labels-site');
    fill(labelSelect, ...options(LABEL_CHOICES));
    fill(sourceSelect, ...options(SOURCE_CHOICES));
    labelSelect.addEventListener('change', () => this.refilter({ label: labelSelect.value as LabelFilter['label'] }));
    sourceSelect.addEventListener('change', () => this.refilter({ source: sourceSelect.value as LabelFilter['source'] }));
    let typing: ReturnType<typeof setTimeout> | undefined;
    siteInput.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => this.refilter({ site: siteInput.value }), 250);
    });
    byId('labels-newest').addEventListener('click', () => this.go({ at: 'newest' }));
    byId('labels-oldest').addEventListener('click', () => this.go({ at: 'oldest' }));
    byId('labels-newer').addEventListener('click', () => {
      const first = this.window.rows[0];
      if (first) this.go({ newerThan: first.id! });
    });
    byId('labels-older').addEventListener('click', () => {
      const last = this.window.rows.at(-1);
      if (last) this.go({ olderThan: last.id! });
    });
    byId<HTMLInputElement>('labels-all').addEventListener('change', (ev) => {
      const on = (ev.target as HTMLInputElement).checked;
      for (const r of this.window.rows) (on ? this.selected.add(r.id!) : this.selected.delete(r.id!));
      this.renderRows(true);
    });
    byId('labels-on').addEventListener('click', (ev) => void this.relabel(ev.currentTarget as HTMLButtonElement, 1));
    byId('labels-off').addEventListener('click', (ev) => void this.relabel(ev.currentTarget as HTMLButtonElement, 0));
    byId('labels-delete').addEventListener('click', (ev) => void this.remove(ev.currentTarget as HTMLButtonElement));
    byId('labels-export-csv').addEventListener('click', (ev) => void this.exportLabels(ev.currentTarget as HTMLButtonElement, 'csv'));
    byId('labels-export-jsonl').addEventListener('click', (ev) => void this.exportLabels(ev.currentTarget as HTMLButtonElement, 'jsonl'));
    const input = byId<HTMLInputElement>('labels-import');
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      input.value = '';
      if (file) void this.importLabels(file);
    });
  }

  /** Shows a topic's labels from the newest (or nothing). */
  show(topic: Topic | undefined): void {
    const same = topic?.id === this.topic?.id;
    this.topic = topic;
    if (same) return;
    this.selected.clear();
    this.counts = undefined;
    showNotice(this.report, null);
    showNotice(this.error, null);
    this.go({ at: 'newest' });
  }

  /** The topic's label counts, read by the topic bar: the table's total comes from them. */
  setCounts(counts: LabelCounts): void {
    this.counts = counts;
    this.renderRange();
  }

  private refilter(patch: Partial<LabelFilter>): void {
    this.filter = { ...this.filter, ...patch };
    this.selected.clear();
    this.go({ at: 'newest' });
  }

  private go(cursor: LabelCursor): void {
    this.anchorIndex = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    const id = this.topic?.id;
    if (id === undefined) {
      this.window = { rows: [], hasNewer: false, hasOlder: false };
      fill(this.body);
      return;
    }
    const { filter } = this;
    this.unsubscribe = watch(
      () => labelWindow(this.db, id, filter, cursor, LABELS_PAGE),
      (window) => {
        this.window = window;
        this.renderRows(false);
      },
      (err) => {
        fill(this.body, h('tr', null, h('td', { colspan: COLUMNS, class: 'empty error' }, `Could not read the labels: ${errorText(err)}`)));
      },
    );
  }

  private renderRows(selectionOnly: boolean): void {
    const { rows } = this.window;
    if (!selectionOnly) {
      fill(
        this.body,
        ...(rows.length
          ? rows.map((l, i) => this.row(l, i))
          : [h('tr', null, h('td', { colspan: COLUMNS, class: 'empty' }, this.emptyText()))]),
      );
    } else {
      for (const box of this.body.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) box.checked = this.selected.has(Number(box.value));
    }
    for (const tr of this.body.querySelectorAll<HTMLTableRowElement>('tr[data-id]')) tr.classList.toggle('selected', this.selected.has(Number(tr.dataset.id)));
    const shownSelected = rows.filter((r) => this.selected.has(r.id!)).length;
    const all = byId<HTMLInputElement>('labels-all');
    all.checked = rows.length > 0 && shownSelected === rows.length;
    all.indeterminate = shownSelected > 0 && shownSelected < rows.length;
    all.disabled = rows.length === 0;
    byId<HTMLButtonElement>('labels-newest').disabled = !this.window.hasNewer;
    byId<HTMLButtonElement>('labels-newer').disabled = !this.window.hasNewer;
    byId<HTMLButtonElement>('labels-older').disabled = !this.window.hasOlder;
    byId<HTMLButtonElement>('labels-oldest').disabled = !this.window.hasOlder;
    const n = this.selected.size;
    byId('labels-selected').textContent = n ? `${formatCount(n)} selected` : 'None selected';
    for (const id of ['labels-on', 'labels-off', 'labels-delete']) byId<HTMLButtonElement>(id).disabled = n === 0;
    this.renderRange();
  }

  private renderRange(): void {
    const { rows } = this.window;
    const total = this.counts ? filteredCount(this.counts.links, this.filter) : null;
    const filtered = this.filter.label !== 'all' || this.filter.source !== 'all' || this.filter.site.trim() !== '';
    const of = total === null ? (filtered ? ' matching the filter' : '') : ` of ${formatCount(total)}${filtered ? ' matching' : ''}`;
    byId('labels-range').textContent = rows.length ? `${formatCount(rows.length)} shown${of}, newest first` : '';
  }

  private emptyText(): string {
    const filtered = this.filter.label !== 'all' || this.filter.source !== 'all' || this.filter.site.trim() !== '';
    return filtered
      ? 'No labeled links match the filter.'
      : 'No labeled links yet: label links in the queue above or on the web with the labeler, import a file, or run a crawl with training patterns.';
  }

  private row(l: LabeledLink, index: number): HTMLTableRowElement {
    const id = l.id!;
    const box = h('input', { type: 'checkbox', value: id, checked: this.selected.has(id), 'aria-label': `Select ${l.url}`, 'data-testid': 'label-check' });
    box.addEventListener('click', (ev) => this.toggle(index, box.checked, (ev as MouseEvent).shiftKey));
    return h(
      'tr',
      { 'data-testid': 'label-row', 'data-id': id, 'data-url': l.url, class: l.label === 1 ? 'on' : 'off' },
      h('td', { class: 'select-cell' }, box),
      h('td', { class: 'label-url-cell' }, urlLine(l.url, 'label-url')),
      h('td', { class: 'clip', title: l.context ? `${l.anchor}\n\n${l.context}` : l.anchor }, l.anchor.trim() ? l.anchor : h('span', { class: 'muted' }, '(no anchor)')),
      h('td', { class: 'context-cell', title: l.context }, shorten(l.context, 90)),
      h('td', null, h('span', { class: `badge ${l.label === 1 ? 'finished' : 'failed'}`, 'data-testid': 'label-value' }, l.label === 1 ? 'on topic' : 'off topic')),
      h('td', { 'data-testid': 'label-source' }, l.source),
      h('td', { class: 'date', title: l.pageUrl ? `Labeled on ${l.pageUrl}` : undefined }, formatDateTime(l.createdAt)),
    );
  }

  /** Checks or unchecks a row; with shift, every row between it and the last one clicked. */
  private toggle(index: number, on: boolean, shift: boolean): void {
    const rows = this.window.rows;
    const [from, to] = shift && this.anchorIndex !== undefined ? [Math.min(index, this.anchorIndex), Math.max(index, this.anchorIndex)] : [index, index];
    for (const r of rows.slice(from, to + 1)) (on ? this.selected.add(r.id!) : this.selected.delete(r.id!));
    if (!shift) this.anchorIndex = index;
    this.renderRows(true);
  }

  private async relabel(button: HTMLButtonElement, label: LabelValue): Promise<void> {
    const ids = [...this.selected];
    if (ids.length === 0) return;
    showNotice(this.error, null);
    try {
      const { changed } = await busy(button, () => sendMessage('relabel', { ids, label }));
      this.selected.clear();
      this.renderRows(true);
      showNotice(this.report, `Marked ${formatCount(changed)} ${changed === 1 ? 'link' : 'links'} ${label === 1 ? 'on' : 'off'} topic (they are now your labels).`);
    } catch (err) {
      showNotice(this.error, `Could not relabel: ${errorText(err)}`);
    }
  }

  private async remove(button: HTMLButtonElement): Promise<void> {
    const ids = [...this.selected];
    if (ids.length === 0) return;
    if (!confirm(`Delete ${formatCount(ids.length)} labeled ${ids.length === 1 ? 'link' : 'links'}? The model is rebuilt without them.`)) return;
    showNotice(this.error, null);
    try {
      const { deleted } = await busy(button, () => sendMessage('deleteLabels', { ids }));
      ids.forEach((id) => this.selected.delete(id));
      this.renderRows(true);
      showNotice(this.report, `Deleted ${formatCount(deleted)} labeled ${deleted === 1 ? 'link' : 'links'}.`);
    } catch (err) {
      showNotice(this.error, `Could not delete the labels: ${errorText(err)}`);
    }
  }

  private async exportLabels(button: HTMLButtonElement, format: 'csv' | 'jsonl'): Promise<void> {
    const topic = this.topic;
    if (!topic) return;
    showNotice(this.error, null);
    const label = button.textContent;
    // One string per chunk: the Blob joins them without building one huge string first.
    const parts: string[] = [];
    let written = 0;
    try {
      await busy(button, () =>
        forEachLabelChunk(this.db, topic.id!, this.filter, EXPORT_CHUNK, (rows) => {
          // labelsToCsv writes a header line; the file keeps only the first chunk's.
          const text = format === 'jsonl' ? labelsToJsonl(rows) : labelsToCsv(rows);
          parts.push(format === 'csv' && parts.length ? text.slice(text.indexOf('\n') + 1) : text);
          written += rows.length;
          button.textContent = `Exporting… ${formatCount(written)}`;
        }),
      );
      if (format === 'csv' && parts.length === 0) parts.push(labelsToCsv([]));
      const suffix = this.filter.label === 'all' && this.filter.source === 'all' && !this.filter.site.trim() ? '' : '-filtered';
      downloadFile(parts, `${fileStem(topic.name)}-labels${suffix}.${format}`, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
    } catch (err) {
      showNotice(this.error, `Could not export the labels: ${errorText(err)}`);
    } finally {
      button.textContent = label;
    }
  }

  private async importLabels(file: File): Promise<void> {
    const topic = this.topic;
    if (!topic) return;
    showNotice(this.error, null);
    showNotice(this.report, `Importing ${file.name}…`);
    try {
      const text = await file.text();
      // The worker refuses it too; checked here first so that a huge file is not copied into a message.
      checkImportSize(text.length, 'this file');
      const format = labelFileFormat(file.name, text);
      const report = await sendMessage('importLabels', { topicId: topic.id!, format, text });
      showNotice(this.report, `${file.name}: added ${formatCount(report.added)}, ${rejectedText(report)}.`);
    } catch (err) {
      showNotice(this.report, null);
      showNotice(this.error, `Could not import ${file.name}: ${errorText(err)}`);
    }
  }
}
