// One crawl in the popup: its live numbers and its Pause, Resume and Stop. Built once per crawl and updated in
// place, so a click is never lost to a re-render while the worker writes many times a second.
import { controlCrawl, type CrawlControl } from '@/lib/platform/actions';
import { errorText, fill, h } from '@/lib/platform/dom';
import {
  crawlActions,
  formatCount,
  formatPercent,
  formatRate,
  harvestRate,
  pagesPerMinute,
  splitUrl,
  waitingText,
} from '@/lib/ui/format';
import { isActive, type PopupCrawl } from '@/lib/ui/popup-crawls';
import { frontierSize } from '@/lib/records/rows.ts';

type StatId = 'fetched' | 'relevant' | 'harvest' | 'records' | 'perPage' | 'frontier' | 'ppm' | 'failed';

export interface CrawlCardEvents {
  openDashboard(crawlId: number): void;
  error(message: string | null): void;
}

export class CrawlCard {
  readonly root: HTMLElement;
  private readonly state = h('span', { class: 'badge', 'data-testid': 'state' });
  private readonly name = h('button', { type: 'button', class: 'crawl-name link', 'data-testid': 'crawl-name', title: 'Open this crawl in the dashboard' });
  private readonly message = h('p', { class: 'message', 'data-testid': 'message', hidden: true });
  private readonly budgetFill = h('div', { class: 'bar-fill' });
  private readonly budgetText = h('span', { 'data-testid': 'budget' });
  private readonly stats = {} as Record<StatId, HTMLSpanElement>;
  private readonly statBoxes = {} as Record<StatId, HTMLElement>;
  private readonly training = h('p', { class: 'training', 'data-testid': 'training', hidden: true });
  private readonly buttons: Record<CrawlControl, HTMLButtonElement>;
  private readonly inFlight = h('ul', { class: 'url-list', 'data-testid': 'inflight' });
  private readonly errors = h('ol', { class: 'url-list errors', 'data-testid': 'errors' });
  private readonly inFlightPart = h('div', null, h('h3', null, 'Fetching now'), this.inFlight);
  private readonly errorsPart = h('div', null, h('h3', null, 'Recent failures'), this.errors);
  private busy = false;
  private last: PopupCrawl | undefined;

  constructor(private readonly crawlId: number, events: CrawlCardEvents) {
    const stat = (id: StatId, label: string, cls = '') => {
      this.stats[id] = h('span', { class: 'value', 'data-testid': id }, '—');
      return (this.statBoxes[id] = h('div', { class: `stat ${cls}` }, this.stats[id], h('span', { class: 'label' }, label)));
    };
    const button = (action: CrawlControl, label: string, cls = '') =>
      h('button', { type: 'button', class: cls, 'data-testid': action, onclick: () => void this.control(action, events) }, label);
    this.buttons = { pause: button('pause', 'Pause'), resume: button('resume', 'Resume'), stop: button('stop', 'Stop', 'danger') };
    this.name.addEventListener('click', () => events.openDashboard(crawlId));
    this.root = h('section', { class: 'crawl-card', 'data-testid': 'popup-crawl', 'data-crawl-id': crawlId },
      h('div', { class: 'card-head' }, this.name, this.state),
      this.message,
      h('div', { class: 'budget', title: 'Requests made out of the page budget' }, h('div', { class: 'bar' }, this.budgetFill), this.budgetText),
      h('div', { class: 'stats' },
        stat('fetched', 'fetched'), stat('relevant', 'relevant', 'good'), stat('harvest', 'harvest rate'),
        stat('records', 'records', 'good'), stat('perPage', 'records / page'),
        stat('frontier', 'in frontier'), stat('ppm', 'pages / min'), stat('failed', 'failed', 'bad')),
      this.training,
      h('div', { class: 'controls' }, this.buttons.pause, this.buttons.resume, this.buttons.stop),
      this.inFlightPart,
      this.errorsPart,
    );
  }

  update(snap: PopupCrawl): void {
    this.last = snap;
    const { crawl } = snap;
    this.state.textContent = crawl.state;
    this.state.className = `badge ${crawl.state}`;
    this.name.textContent = crawl.name;
    this.message.hidden = !crawl.message;
    this.message.textContent = crawl.message ?? '';
    // A lost session is the one message the user must act on before anything else.
    this.message.classList.toggle('alert', !!crawl.sessionLost);
    this.message.setAttribute('role', crawl.sessionLost ? 'alert' : 'status');

    const { stats } = crawl;
    const budget = crawl.config.budget.maxPages;
    this.budgetFill.style.width = `${Math.min(100, (stats.attempts / Math.max(1, budget)) * 100)}%`;
    this.budgetText.textContent = `${formatCount(stats.attempts)} / ${formatCount(budget)}`;
    this.stats.fetched.textContent = formatCount(stats.fetched);
    this.stats.relevant.textContent = formatCount(stats.relevant);
    this.stats.harvest.textContent = formatPercent(harvestRate(stats));
    // A template crawl is measured by its records: its keyword judge calls every page it fetches relevant.
    const template = !!crawl.config.template;
    this.statBoxes.relevant.hidden = this.statBoxes.harvest.hidden = template;
    this.statBoxes.records.hidden = this.statBoxes.perPage.hidden = !template;
    this.stats.records.textContent = snap.records ? formatCount(snap.records.all) : '—';
    this.stats.perPage.textContent = snap.records && stats.fetched > 0 ? (snap.records.thisCycle / stats.fetched).toFixed(2) : '—';
    this.stats.frontier.textContent = formatCount(frontierSize(stats)); // packed seeds too (lib/store/seed-lists.ts)
    this.stats.ppm.textContent = formatRate(pagesPerMinute(crawl));
    this.stats.failed.textContent = formatCount(stats.failed);

    this.training.hidden = crawl.state !== 'training';
    this.training.textContent = `Training the link classifier: ${formatCount(stats.trainPages)} pages read, ${formatCount(stats.labels)} labeled links.`;
    this.showButtons();

    // A crawl that does not run fetches nothing: its card keeps to its numbers, and its failures if it had some.
    const active = isActive(crawl);
    this.inFlightPart.hidden = !active;
    this.errorsPart.hidden = !active && !snap.errors.length;
    fill(this.inFlight, ...(snap.inFlight.length
      ? snap.inFlight.map((url) => h('li', { title: url }, urlText(url)))
      : [h('li', { class: 'empty', 'data-testid': 'waiting' }, waitingText(crawl))]));
    fill(this.errors, ...(snap.errors.length
      ? snap.errors.map((p) => h('li', { title: p.url }, urlText(p.url), h('span', { class: 'reason' }, p.error ?? '')))
      : [h('li', { class: 'empty' }, 'No failures.')]));
  }

  private showButtons(): void {
    const can = this.last ? crawlActions(this.last.crawl.state) : { pause: false, resume: false, stop: false };
    for (const action of ['pause', 'resume', 'stop'] as const) this.buttons[action].disabled = this.busy || !can[action];
  }

  private async control(action: CrawlControl, events: CrawlCardEvents): Promise<void> {
    this.busy = true;
    this.showButtons();
    try {
      await controlCrawl(action, this.crawlId);
      events.error(null);
    } catch (err) {
      events.error(`Could not ${action} the crawl: ${errorText(err)}`);
    } finally {
      this.busy = false;
      this.showButtons();
    }
  }
}

/** A URL as its host (dim) then its path, on up to three lines: the end of a long path is what tells pages apart. */
function urlText(url: string): HTMLElement {
  const { host, rest } = splitUrl(url);
  return h('span', { class: 'url' }, host ? h('span', { class: 'host' }, host) : null, rest);
}
