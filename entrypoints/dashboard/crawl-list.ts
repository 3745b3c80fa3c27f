// The list of crawls with their headline figures (those of each crawl's strategy, lib/ui/crawl-figures.ts) and
// controls. Items are keyed by crawl id and updated in place, so a click is not lost when the worker rewrites a crawl's
// counters many times a second.
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import type { CrawlerDB } from '@/lib/store/db';
import { controlCrawl, type CrawlControl } from '@/lib/platform/actions';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { crawlActions, formatDateTime } from '@/lib/ui/format';
import { crawlFigures, readRecordCounts, type RecordCounts } from '@/lib/ui/crawl-figures';
import { watchThrottled } from '@/lib/ui/queries';

interface Item {
  li: HTMLLIElement;
  name: HTMLButtonElement;
  state: HTMLSpanElement;
  /** The crawl's headline figures, one span each. */
  figures: HTMLDivElement;
  created: HTMLSpanElement;
  buttons: Record<CrawlControl | 'delete', HTMLButtonElement>;
}

export interface CrawlListEvents {
  select(crawlId: number): void;
  deleted(crawlId: number): void;
}

export class CrawlList {
  private items = new Map<number, Item>();
  private crawls = new Map<number, CrawlRecord>();
  private selected: number | undefined;
  private readonly list = byId<HTMLUListElement>('crawl-list');
  /** Template crawls' records, by crawl id, read apart from the crawl rows (throttled: they change with every record). */
  private records = new Map<number, RecordCounts>();
  private unwatchRecords: (() => void) | undefined;
  private recordsFor = '';

  /** `db`: the page's database connection (a template crawl's records are read from it). */
  constructor(private readonly db: CrawlerDB, private readonly events: CrawlListEvents) {}

  render(crawls: CrawlRecord[], selected: number | undefined): void {
    this.selected = selected;
    byId('no-crawls').hidden = crawls.length > 0;
    const seen = new Set<number>();
    let previous: Element | null = null;
    for (const crawl of crawls) {
      const id = crawl.id!;
      seen.add(id);
      this.crawls.set(id, crawl);
      const item = this.items.get(id) ?? this.create(id);
      this.update(item, crawl);
      // Keep the DOM order equal to `crawls` (newest first) without re-inserting items already in place.
      const expected: Element | null = previous ? previous.nextElementSibling : this.list.firstElementChild;
      if (expected !== item.li) this.list.insertBefore(item.li, expected);
      previous = item.li;
    }
    for (const [id, item] of this.items) {
      if (seen.has(id)) continue;
      item.li.remove();
      this.items.delete(id);
      this.crawls.delete(id);
    }
    this.watchRecords(crawls);
  }

  /** Follows the records of the template crawls listed, and shows them in their cards. */
  private watchRecords(crawls: CrawlRecord[]): void {
    const templates = crawls.filter((c) => c.config.template);
    const key = templates.map((c) => `${c.id}:${c.name}`).join('|');
    if (key === this.recordsFor) return;
    this.recordsFor = key;
    this.unwatchRecords?.();
    this.unwatchRecords = undefined;
    if (!templates.length) return;
    this.unwatchRecords = watchThrottled(
      () => Promise.all(templates.map((c) => this.db.records.where('crawlName').equals(c.name).limit(1).toArray())),
      () => readRecordCounts(this.db, templates),
      (counts) => {
        this.records = counts;
        for (const [id, item] of this.items) {
          const crawl = this.crawls.get(id);
          if (crawl?.config.template) this.showFigures(item, crawl);
        }
      },
      () => {}, // the cards then show "—" records
    );
  }

  private create(id: number): Item {
    const button = (label: string, testid: string, onClick: () => void, cls = 'small') =>
      h('button', { type: 'button', class: cls, 'data-testid': testid, onclick: onClick }, label);
    const buttons = {
      pause: button('Pause', 'crawl-pause', () => this.control('pause', id)),
      resume: button('Resume', 'crawl-resume', () => this.control('resume', id)),
      stop: button('Stop', 'crawl-stop', () => this.control('stop', id), 'small danger'),
      delete: button('Delete', 'crawl-delete', () => this.remove(id), 'small danger'),
    };
    const item: Item = {
      li: h('li', { class: 'crawl-item', 'data-testid': 'crawl-item', 'data-crawl-id': id }),
      name: h('button', { type: 'button', class: 'crawl-name', 'data-testid': 'crawl-select', onclick: () => this.events.select(id) }),
      state: h('span', { class: 'badge', 'data-testid': 'crawl-state' }),
      figures: h('div', { class: 'crawl-numbers', 'data-testid': 'crawl-figures' }),
      created: h('span', { class: 'muted', 'data-testid': 'crawl-created' }),
      buttons,
    };
    item.li.append(
      h('div', { class: 'crawl-line' }, item.name, item.state),
      item.figures,
      h('div', { class: 'crawl-line' }, item.created,
        h('span', { class: 'crawl-actions' }, buttons.pause, buttons.resume, buttons.stop, buttons.delete)),
    );
    this.items.set(id, item);
    return item;
  }

  private update(item: Item, crawl: CrawlRecord): void {
    item.li.classList.toggle('selected', crawl.id === this.selected);
    item.name.textContent = crawl.name;
    item.name.title = `Show crawl #${crawl.id}`;
    item.state.textContent = crawl.state;
    item.state.className = `badge ${crawl.state}`;
    this.showFigures(item, crawl);
    item.created.textContent = formatDateTime(crawl.createdAt);
    const can = crawlActions(crawl.state);
    item.buttons.pause.hidden = !can.pause;
    item.buttons.resume.hidden = !can.resume;
    item.buttons.stop.hidden = !can.stop;
  }

  /** "53 fetched · 15 records · 0.28 records / page · 14 sites with a record": the figures of the crawl's strategy. */
  private showFigures(item: Item, crawl: CrawlRecord): void {
    const figures = crawlFigures(crawl, this.records.get(crawl.id!));
    const shown = [...item.figures.querySelectorAll<HTMLElement>('[data-figure]')];
    if (shown.length === figures.length && shown.every((el, i) => el.dataset.figure === figures[i]!.id)) {
      shown.forEach((el, i) => (el.textContent = figures[i]!.text));
      return;
    }
    fill(item.figures, ...figures.flatMap((f, i) => [
      ...(i ? [h('span', { class: 'sep', 'aria-hidden': 'true' }, ' · ')] : []),
      h('span', { class: 'figure', title: f.title }, h('span', { 'data-figure': f.id }, f.text), ` ${f.label}`),
    ]));
  }

  private showError(message: string | null): void {
    const el = byId('list-error');
    el.hidden = !message;
    el.textContent = message ?? '';
  }

  private control(action: CrawlControl, id: number): void {
    const b = this.items.get(id)?.buttons[action];
    if (b) b.disabled = true;
    controlCrawl(action, id)
      .then(() => this.showError(null), (err: unknown) => this.showError(`Could not ${action} the crawl: ${errorText(err)}`))
      .finally(() => {
        if (b) b.disabled = false;
      });
  }

  private remove(id: number): void {
    const crawl = this.crawls.get(id);
    const what = crawl ? `"${crawl.name}" and all its pages` : `crawl #${id}`;
    if (!confirm(`Delete ${what}? This cannot be undone.`)) return;
    sendMessage('deleteCrawl', { crawlId: id }).then(
      () => {
        this.showError(null);
        this.events.deleted(id);
      },
      (err: unknown) => this.showError(`Could not delete the crawl: ${errorText(err)}`),
    );
  }
}
