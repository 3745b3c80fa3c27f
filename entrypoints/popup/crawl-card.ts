// One crawl in the popup: its headline figures (those of its strategy, lib/ui/crawl-figures.ts), its pace and
// failures, and what can be done with it: Pause, Resume and Stop while it runs; Open, Crawl again (or Recrawl, for a
// template) and Delete once it has ended. Built once per crawl and updated in place, so a click is never lost to a
// re-render while the worker writes many times a second.
import { controlCrawl, type CrawlControl } from '@/lib/platform/actions';
import { errorText, fill, h } from '@/lib/platform/dom';
import { sendMessage } from '@/lib/platform/messaging';
import { crawlActions, formatCount, formatRate, pagesPerMinute, recallSentence, splitUrl, waitingText } from '@/lib/ui/format';
import { crawlAgain, isActive, type PopupCrawl } from '@/lib/ui/popup-crawls';
import { crawlFigures, type FigureId } from '@/lib/ui/crawl-figures';
import { frontierSize } from '@/lib/records/rows.ts';

type StatId = 'frontier' | 'ppm' | 'failed';
/** The testids the popup's figures had before they were the strategy's (tests and page objects read them). */
const FIGURE_TESTIDS: Partial<Record<FigureId, string>> = { harvestRate: 'harvest', recordsPerPage: 'perPage' };
/** How long a first click on Delete waits for the second. */
const CONFIRM_MS = 4000;

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
  private readonly statsBox = h('div', { class: 'stats' });
  private readonly stats = {} as Record<StatId, HTMLSpanElement>;
  private readonly common: HTMLElement[];
  private readonly training = h('p', { class: 'training', 'data-testid': 'training', hidden: true });
  /** How much of the topic the crawl holds (docs/recall.md), or why there is no estimate. */
  private readonly recall = h('p', { class: 'recall', 'data-testid': 'recall', hidden: true });
  private readonly buttons: Record<CrawlControl, HTMLButtonElement>;
  private readonly ended: { open: HTMLButtonElement; again: HTMLButtonElement; remove: HTMLButtonElement };
  private readonly running = h('div', { class: 'controls', 'data-testid': 'controls' });
  private readonly done = h('div', { class: 'controls', 'data-testid': 'ended-controls', hidden: true });
  private readonly inFlight = h('ul', { class: 'url-list', 'data-testid': 'inflight' });
  private readonly errors = h('ol', { class: 'url-list errors', 'data-testid': 'errors' });
  private readonly inFlightPart = h('div', null, h('h3', null, 'Fetching now'), this.inFlight);
  private readonly errorsPart = h('div', null, h('h3', null, 'Recent failures'), this.errors);
  private busy = false;
  private confirmUntil = 0;
  private last: PopupCrawl | undefined;

  constructor(private readonly crawlId: number, private readonly events: CrawlCardEvents) {
    const stat = (id: StatId, label: string, cls = '') => {
      this.stats[id] = h('span', { class: 'value', 'data-testid': id }, '—');
      return h('div', { class: `stat ${cls}` }, this.stats[id], h('span', { class: 'label' }, label));
    };
    this.common = [stat('frontier', 'in frontier'), stat('ppm', 'pages / min'), stat('failed', 'failed', 'bad')];
    const button = (action: CrawlControl, label: string, cls = '') =>
      h('button', { type: 'button', class: cls, 'data-testid': action, onclick: () => void this.control(action) }, label);
    this.buttons = { pause: button('pause', 'Pause'), resume: button('resume', 'Resume'), stop: button('stop', 'Stop', 'danger') };
    this.ended = {
      open: h('button', { type: 'button', 'data-testid': 'open', onclick: () => events.openDashboard(crawlId) }, 'Open'),
      again: h('button', { type: 'button', 'data-testid': 'again', onclick: () => void this.again() }, 'Crawl again'),
      remove: h('button', { type: 'button', class: 'danger', 'data-testid': 'delete', onclick: () => void this.remove() }, 'Delete'),
    };
    this.running.append(this.buttons.pause, this.buttons.resume, this.buttons.stop);
    this.done.append(this.ended.open, this.ended.again, this.ended.remove);
    this.name.addEventListener('click', () => events.openDashboard(crawlId));
    this.root = h('section', { class: 'crawl-card', 'data-testid': 'popup-crawl', 'data-crawl-id': crawlId },
      h('div', { class: 'card-head' }, this.name, this.state),
      this.message,
      h('div', { class: 'budget', title: 'Requests made out of the page budget' }, h('div', { class: 'bar' }, this.budgetFill), this.budgetText),
      this.statsBox,
      this.recall,
      this.training,
      this.running,
      this.done,
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
    this.showFigures(snap);
    this.stats.frontier.textContent = formatCount(frontierSize(stats)); // packed seeds too (lib/store/seed-lists.ts)
    this.stats.ppm.textContent = formatRate(pagesPerMinute(crawl));
    this.stats.failed.textContent = formatCount(stats.failed);

    const recall = recallSentence(crawl.recall);
    this.recall.hidden = recall === null;
    this.recall.textContent = recall ?? '';
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

  /** The strategy's figures first (a template's records, a multi-queue crawl's content pages), then the common ones. */
  private showFigures(snap: PopupCrawl): void {
    const figures = crawlFigures(snap.crawl, snap.records);
    const values = [...this.statsBox.querySelectorAll<HTMLElement>('[data-figure]')];
    if (values.length !== figures.length || values.some((el, i) => el.dataset.figure !== figures[i]!.id)) {
      fill(this.statsBox, ...figures.map((f) => h('div', { class: `stat ${f.tone ?? ''}`, title: f.title },
        h('span', { class: 'value', 'data-figure': f.id, 'data-testid': FIGURE_TESTIDS[f.id] ?? f.id }, f.text), h('span', { class: 'label' }, f.label))),
      ...this.common);
      return;
    }
    values.forEach((el, i) => (el.textContent = figures[i]!.text));
  }

  /** While it runs or is paused, its controls; once it has ended, what can be done with it. */
  private showButtons(): void {
    const crawl = this.last?.crawl;
    const over = !!crawl && !isActive(crawl) && crawl.state !== 'paused';
    this.running.hidden = over;
    this.done.hidden = !over;
    const can = crawl ? crawlActions(crawl.state) : { pause: false, resume: false, stop: false };
    for (const action of ['pause', 'resume', 'stop'] as const) this.buttons[action].disabled = this.busy || !can[action];
    const again = crawl ? crawlAgain(crawl) : null;
    this.ended.again.hidden = !again;
    this.ended.again.textContent = again?.label ?? '';
    this.ended.again.title = again?.title ?? '';
    for (const b of [this.ended.again, this.ended.remove]) b.disabled = this.busy;
  }

  private async act(what: string, run: () => Promise<unknown>): Promise<void> {
    this.busy = true;
    this.showButtons();
    try {
      await run();
      this.events.error(null);
    } catch (err) {
      this.events.error(`Could not ${what}: ${errorText(err)}`);
    } finally {
      this.busy = false;
      this.showButtons();
    }
  }

  private control(action: CrawlControl): Promise<void> {
    return this.act(`${action} the crawl`, () => controlCrawl(action, this.crawlId));
  }

  /** Starts the crawl again (a template's next cycle), and opens the new crawl in the dashboard. */
  private again(): Promise<void> {
    const again = this.last ? crawlAgain(this.last.crawl) : null;
    if (!again) return Promise.resolve();
    return this.act('start it again', async () => {
      const { crawlId } = again.recrawl ? await sendMessage('recrawl', again.recrawl) : await sendMessage('start', again.start!);
      this.events.openDashboard(crawlId);
    });
  }

  /** Deletes the crawl on a second click: the first one asks, on the button itself (a popup has no room for a dialog). */
  private remove(): Promise<void> {
    const button = this.ended.remove;
    if (Date.now() > this.confirmUntil) {
      this.confirmUntil = Date.now() + CONFIRM_MS;
      button.textContent = 'Delete it and its pages?';
      setTimeout(() => {
        if (Date.now() >= this.confirmUntil) button.textContent = 'Delete';
      }, CONFIRM_MS);
      return Promise.resolve();
    }
    this.confirmUntil = 0;
    return this.act('delete the crawl', () => sendMessage('deleteCrawl', { crawlId: this.crawlId }));
  }
}

/** A URL as its host (dim) then its path, on up to three lines: the end of a long path is what tells pages apart. */
function urlText(url: string): HTMLElement {
  const { host, rest } = splitUrl(url);
  return h('span', { class: 'url' }, host ? h('span', { class: 'host' }, host) : null, rest);
}
