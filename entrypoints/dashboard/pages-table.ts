// The selected crawl's pages, 100 a page in seq order, filtered by verdict; read live by key range.
import type { CrawlerDB } from '@/lib/store/db';
import type { PageRecord } from '@/lib/types';
import { byId, errorText, fill, h } from '@/lib/ui/dom';
import { formatCount, formatScore } from '@/lib/ui/format';
import { pageCount, pageWindow, watch, type PageCursor, type PageFilter, type PageWindow } from '@/lib/ui/queries';

export const PAGE_SIZE = 100;

export class PagesTable {
  private crawlId: number | undefined;
  private filter: PageFilter = 'all';
  private cursor: PageCursor = { at: 'start' };
  private window: PageWindow = { rows: [], hasPrev: false, hasNext: false };
  private unsubscribe: (() => void) | undefined;
  private renderedKey = '';
  private readonly filterSelect = byId<HTMLSelectElement>('page-filter');

  constructor(private readonly db: CrawlerDB) {
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
    this.cursor = cursor;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    const id = this.crawlId;
    if (id === undefined) return;
    const { filter } = this;
    this.unsubscribe = watch(
      async () => ({ window: await pageWindow(this.db, id, filter, cursor, PAGE_SIZE), total: await pageCount(this.db, id) }),
      ({ window, total }) => this.render(window, total),
      (err) => this.renderError(errorText(err)),
    );
  }

  private render(window: PageWindow, total: number): void {
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
    const key = `${this.crawlId}:${this.filter}:${rows.map((p) => p.seq).join(',')}`;
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    fill(
      byId('pages-body'),
      ...(rows.length
        ? rows.map(pageRow)
        : [h('tr', null, h('td', { colspan: 7, class: 'empty' }, this.filter === 'all' ? 'No pages fetched yet.' : `No ${this.filter} pages here.`))]),
    );
  }

  private renderError(message: string): void {
    this.renderedKey = '';
    fill(byId('pages-body'), h('tr', null, h('td', { colspan: 7, class: 'empty error' }, `Could not read pages: ${message}`)));
  }
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
    h('td', { class: `verdict ${kind}` }, verdict),
    h('td', { class: 'status-cell' }, status),
  );
}

/** Only http(s) URLs become links (a crawled string is never trusted to be a safe href). */
const isHttp = (url: string): boolean => /^https?:\/\//i.test(url);
