// The selected crawl's pages, 100 a page in seq order, filtered by verdict; read live by key range. Each
// fetched page can be labeled on or off topic beside the judge's verdict (the worker does the labeling).
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { LabelValue, PageLabel, PageRecord } from '@/lib/types';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatScore, priorityText } from '@/lib/ui/format';
import {
  pageCount,
  pageLabelsBetween,
  pageWindow,
  watch,
  type PageCursor,
  type PageFilter,
  type PageWindow,
} from '@/lib/ui/queries';
import './learning.css';

export const PAGE_SIZE = 100;
const COLUMNS = 9;
const PAGE_LABEL_HELP =
  "Label a fetched page on or off topic. A page label trains the topic's page judge (which decides what counts as relevant), and every known link to the page becomes a labeled link that trains the link classifier.";

export class PagesTable {
  private crawlId: number | undefined;
  private filter: PageFilter = 'all';
  private window: PageWindow = { rows: [], hasPrev: false, hasNext: false };
  private unsubscribe: (() => void) | undefined;
  private renderedKey = '';
  private readonly filterSelect = byId<HTMLSelectElement>('page-filter');
  /** The label cells of the rows shown, by seq: updated in place when a page's label changes. */
  private labelCells = new Map<number, PageLabelCell>();

  constructor(private readonly db: CrawlerDB) {
    addLabelColumn();
    this.filterSelect.addEventListener('change', () => {
      this.filter = this.filterSelect.value as PageFilter;
      this.go({ at: 'start' });
    });
    byId('page-first').addEventListener('click', () => this.go({ at: 'start' }));
    byId('page-last').addEventListener('click', () => this.go({ at: 'end' }));
    byId('page-prev').addEventListener('click', () => {
      const first = this.window.rows[0];
      if (first) this.go({ before: first.seq });
    });
    byId('page-next').addEventListener('click', () => {
      const last = this.window.rows[this.window.rows.length - 1];
      if (last) this.go({ after: last.seq });
    });
  }

  /** Shows another crawl's pages from the start (or nothing). */
  show(crawlId: number | undefined): void {
    if (crawlId === this.crawlId) return;
    this.crawlId = crawlId;
    this.go({ at: 'start' });
  }

  private go(cursor: PageCursor): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    const id = this.crawlId;
    if (id === undefined) return;
    const { filter } = this;
    this.unsubscribe = watch(
      async () => {
        const window = await pageWindow(this.db, id, filter, cursor, PAGE_SIZE);
        const { rows } = window;
        const labels = rows.length ? await pageLabelsBetween(this.db, id, rows[0].seq, rows[rows.length - 1].seq) : new Map<number, PageLabel>();
        return { window, total: await pageCount(this.db, id), labels };
      },
      ({ window, total, labels }) => this.render(window, total, labels),
      (err) => this.renderError(errorText(err)),
    );
  }

  private render(window: PageWindow, total: number, labels: Map<number, PageLabel>): void {
    this.window = window;
    const { rows } = window;
    byId<HTMLButtonElement>('page-first').disabled = !window.hasPrev;
    byId<HTMLButtonElement>('page-prev').disabled = !window.hasPrev;
    byId<HTMLButtonElement>('page-next').disabled = !window.hasNext;
    byId<HTMLButtonElement>('page-last').disabled = !window.hasNext;
    const range = rows.length ? `seq ${rows[0].seq}–${rows[rows.length - 1].seq}` : 'no pages';
    const shown = this.filter === 'all' ? '' : ` ${this.filter}`;
    byId('page-range').textContent = `${rows.length}${shown} shown (${range}) · ${formatCount(total)} pages in all`;
    // Page rows never change once written: when the same seqs are shown, keep the DOM (and a pending click).
    // Labels do change: their cells are updated in place.
    const key = `${this.crawlId}:${this.filter}:${rows.map((p) => p.seq).join(',')}`;
    if (key !== this.renderedKey) {
      this.renderedKey = key;
      this.labelCells = new Map();
      fill(
        byId('pages-body'),
        ...(rows.length
          ? rows.map((p) => this.pageRow(p))
          : [h('tr', null, h('td', { colspan: COLUMNS, class: 'empty' }, this.filter === 'all' ? 'No pages fetched yet.' : `No ${this.filter} pages here.`))]),
      );
    }
    for (const [seq, cell] of this.labelCells) cell.show(labels.get(seq));
  }

  private renderError(message: string): void {
    this.renderedKey = '';
    this.labelCells = new Map();
    fill(byId('pages-body'), h('tr', null, h('td', { colspan: COLUMNS, class: 'empty error' }, `Could not read pages: ${message}`)));
  }

  private pageRow(p: PageRecord): HTMLTableRowElement {
    const row = pageRow(p);
    // Only a page that was fetched has a text to judge; a failed fetch has nothing to label.
    const cell = p.error ? h('td', { class: 'page-label' }) : this.labelCell(p);
    row.querySelector('td.verdict')!.after(cell);
    return row;
  }

  private labelCell(p: PageRecord): HTMLTableCellElement {
    const cell = new PageLabelCell(p.crawlId, p.seq);
    this.labelCells.set(p.seq, cell);
    return cell.td;
  }
}

/** The label column's header, after the verdict's (the page's markup has eight columns). */
function addLabelColumn(): void {
  const head = byId('pages-body').closest('table')!.querySelector('thead tr')!;
  const cells = [...head.children];
  const verdict = cells.find((th) => th.textContent?.trim() === 'Verdict') ?? cells[cells.length - 2];
  verdict.after(h('th', { class: 'page-label-col', title: PAGE_LABEL_HELP }, 'Your label'));
  cells[cells.length - 1].classList.add('status-col');
  cells[1]?.classList.add('url-col');
}

function pageRow(p: PageRecord): HTMLTableRowElement {
  const kind = p.error ? 'failed' : p.relevant === true ? 'relevant' : p.relevant === false ? 'irrelevant' : '';
  const verdict =
    p.relevant === null ? '—' : `${p.relevant ? 'yes' : 'no'}${p.relevance === null ? '' : ` (${formatScore(p.relevance)})`}`;
  const status = p.error
    ? h('span', { class: 'error-text' }, p.status && !p.error.includes(String(p.status)) ? `${p.status} · ${p.error}` : p.error)
    : String(p.status);
  const shownUrl = p.finalUrl && p.finalUrl !== p.url ? `${p.url} → ${p.finalUrl}` : p.url;
  return h(
    'tr',
    { class: kind, 'data-testid': 'page-row', 'data-seq': p.seq },
    h('td', { class: 'num' }, p.seq),
    h('td', { class: 'url-cell' }, h('a', { href: isHttp(p.url) ? p.url : null, target: '_blank', rel: 'noopener noreferrer', class: 'url', title: shownUrl }, p.url)),
    h('td', { class: 'title-cell', title: p.title }, p.title),
    h('td', null, p.phase),
    h('td', { class: 'num' }, formatScore(p.score)),
    h('td', { class: 'queue-cell' },
      p.urlClass ? h('span', { 'data-testid': 'page-class' }, p.urlClass) : null,
      p.urlClass ? ' · ' : null,
      h('span', { class: 'muted', 'data-testid': 'page-priority' }, priorityText(p.priority))),
    h('td', { class: `verdict ${kind}` }, verdict),
    h('td', { class: 'status-cell' }, status),
  );
}

/** Only http(s) URLs become links (a crawled string is never trusted to be a safe href). */
const isHttp = (url: string): boolean => /^https?:\/\//i.test(url);

/** What labeling a page did, in a few words. */
function labeledText(label: LabelValue | null, links: number): string {
  if (label === null) return 'Label cleared';
  if (links === 0) return 'Labeled; no known links to it';
  return `${formatCount(links)} link${links === 1 ? '' : 's'} labeled`;
}

/** How long "N links labeled" stays after labeling a page. */
const NOTE_MS = 5000;

/**
 * A page's label (on topic, off topic, none) as three buttons, the one in force pressed; pressing one sends
 * `labelPage` and says how many links to the page became labeled links.
 */
class PageLabelCell {
  readonly td: HTMLTableCellElement;
  private readonly on: HTMLButtonElement;
  private readonly off: HTMLButtonElement;
  private readonly clear: HTMLButtonElement;
  private readonly note: HTMLElement;
  private label: PageLabel | undefined;
  private busy = false;
  private noteTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly crawlId: number, private readonly seq: number) {
    const button = (text: string, testid: string, title: string, label: LabelValue | null) =>
      h('button', { type: 'button', class: `small label-button ${testid}`, 'data-testid': testid, title, onclick: () => this.send(label) }, text);
    this.on = button('On', 'page-on', `On topic. ${PAGE_LABEL_HELP}`, 1);
    this.off = button('Off', 'page-off', `Off topic. ${PAGE_LABEL_HELP}`, 0);
    this.clear = button('×', 'page-clear', 'Clear the label: its labeled links are removed too.', null);
    this.note = h('span', { class: 'label-note', 'data-testid': 'page-label-note', role: 'status' });
    this.td = h(
      'td',
      { class: 'page-label', title: PAGE_LABEL_HELP },
      h('span', { class: 'label-buttons', role: 'group', 'aria-label': 'Page label' }, this.on, this.off, this.clear),
      this.note,
    );
    this.show(undefined);
  }

  /** Shows the page's stored label. */
  show(label: PageLabel | undefined): void {
    this.label = label;
    const value = label?.label;
    this.td.dataset.label = value === 1 ? 'on' : value === 0 ? 'off' : 'none';
    this.on.setAttribute('aria-pressed', String(value === 1));
    this.off.setAttribute('aria-pressed', String(value === 0));
    this.on.disabled = this.off.disabled = this.busy;
    this.clear.disabled = this.busy || !label;
    this.td.title = label?.source === 'auto' ? `Labeled by a training read (the URL patterns). ${PAGE_LABEL_HELP}` : PAGE_LABEL_HELP;
  }

  private send(label: LabelValue | null): void {
    if (this.busy || (label !== null && this.label?.label === label && this.label.source === 'user')) return;
    this.busy = true;
    this.show(this.label);
    this.say('…', false);
    sendMessage('labelPage', { crawlId: this.crawlId, seq: this.seq, label })
      .then(
        ({ links }) => this.say(labeledText(label, links), false),
        (err: unknown) => this.say(errorText(err), true),
      )
      .finally(() => {
        this.busy = false;
        this.show(this.label);
      });
  }

  private say(text: string, error: boolean): void {
    clearTimeout(this.noteTimer);
    this.note.textContent = text;
    this.note.classList.toggle('error-text', error);
    if (text !== '…') this.noteTimer = setTimeout(() => (this.note.textContent = ''), error ? 3 * NOTE_MS : NOTE_MS);
  }
}
