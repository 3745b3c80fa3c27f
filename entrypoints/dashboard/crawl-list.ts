// The list of crawls with their counters and controls. Items are keyed by crawl id and updated in
// place, so a click is not lost when the worker rewrites a crawl's counters many times a second.
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import { controlCrawl, type CrawlControl } from '@/lib/platform/actions';
import { byId, errorText, h } from '@/lib/platform/dom';
import { crawlActions, formatCount, formatDateTime, formatPercent, harvestRate } from '@/lib/ui/format';

interface Item {
  li: HTMLLIElement;
  name: HTMLButtonElement;
  state: HTMLSpanElement;
  fetched: HTMLSpanElement;
  relevant: HTMLSpanElement;
  harvest: HTMLSpanElement;
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

  constructor(private readonly events: CrawlListEvents) {}

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
      fetched: h('span', { 'data-testid': 'crawl-fetched' }),
      relevant: h('span', { 'data-testid': 'crawl-relevant' }),
      harvest: h('span', { 'data-testid': 'crawl-harvest' }),
      created: h('span', { class: 'muted', 'data-testid': 'crawl-created' }),
      buttons,
    };
    item.li.append(
      h('div', { class: 'crawl-line' }, item.name, item.state),
      h('div', { class: 'crawl-numbers' },
        h('span', null, item.fetched, ' fetched'),
        h('span', null, item.relevant, ' relevant'),
        h('span', null, item.harvest, ' harvest'),
      ),
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
    item.fetched.textContent = formatCount(crawl.stats.fetched);
    item.relevant.textContent = formatCount(crawl.stats.relevant);
    item.harvest.textContent = formatPercent(harvestRate(crawl.stats));
    item.created.textContent = formatDateTime(crawl.createdAt);
    const can = crawlActions(crawl.state);
    item.buttons.pause.hidden = !can.pause;
    item.buttons.resume.hidden = !can.resume;
    item.buttons.stop.hidden = !can.stop;
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
