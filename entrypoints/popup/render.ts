// Fills the popup's fixed skeleton (index.html) with one snapshot of a crawl. Updates text and the
// buttons' disabled state in place, so a click is never lost to a re-render while the worker writes.
import { byId, fill, h } from '@/lib/platform/dom';
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
import type { CrawlRecord } from '@/lib/records';
import type { FrontierEntry, PageRecord } from '@/lib/types';

export interface PopupSnapshot {
  crawl: CrawlRecord | undefined;
  inFlight: FrontierEntry[];
  errors: PageRecord[];
}

const text = (id: string, value: string) => {
  byId(id).textContent = value;
};

export function renderPopup(snap: PopupSnapshot, requestedId: number | undefined, busy: boolean): void {
  const { crawl } = snap;
  byId('crawl').hidden = !crawl;
  const empty = byId('empty');
  empty.hidden = !!crawl;
  const state = byId('state');
  state.hidden = !crawl;
  if (!crawl) {
    empty.firstElementChild!.textContent =
      requestedId === undefined
        ? 'No crawl yet. Start one from the dashboard: give a few start URLs and say what the topic is.'
        : `There is no crawl #${requestedId}. It may have been deleted.`;
    return;
  }

  state.textContent = crawl.state;
  state.className = `badge ${crawl.state}`;
  text('crawl-name', crawl.name);
  const message = byId('message');
  message.hidden = !crawl.message;
  message.textContent = crawl.message ?? '';
  // A lost session is the one message the user must act on before anything else.
  message.classList.toggle('alert', !!crawl.sessionLost);
  message.setAttribute('role', crawl.sessionLost ? 'alert' : 'status');

  const { stats } = crawl;
  const budget = crawl.config.budget.maxPages;
  byId('budget-fill').style.width = `${Math.min(100, (stats.attempts / Math.max(1, budget)) * 100)}%`;
  text('budget-text', `${formatCount(stats.attempts)} / ${formatCount(budget)}`);
  text('fetched', formatCount(stats.fetched));
  text('relevant', formatCount(stats.relevant));
  text('harvest', formatPercent(harvestRate(stats)));
  text('frontier', formatCount(stats.queued));
  text('ppm', formatRate(pagesPerMinute(crawl)));
  text('failed', formatCount(stats.failed));

  const training = byId('training');
  training.hidden = crawl.state !== 'training';
  training.textContent = `Training the link classifier: ${formatCount(stats.trainPages)} pages read, ${formatCount(stats.labels)} labeled links.`;

  const can = crawlActions(crawl.state);
  byId<HTMLButtonElement>('pause').disabled = busy || !can.pause;
  byId<HTMLButtonElement>('resume').disabled = busy || !can.resume;
  byId<HTMLButtonElement>('stop').disabled = busy || !can.stop;

  fill(
    byId('inflight'),
    ...(snap.inFlight.length
      ? snap.inFlight.map((e) => h('li', { title: e.url }, urlText(e.url)))
      : [h('li', { class: 'empty', 'data-testid': 'waiting' }, waitingText(crawl))]),
  );
  fill(
    byId('errors'),
    ...(snap.errors.length
      ? snap.errors.map((p) =>
          h('li', { title: p.url }, urlText(p.url), h('span', { class: 'reason' }, p.error ?? '')),
        )
      : [h('li', { class: 'empty' }, 'No failures.')]),
  );
}

/** A URL as its host (dim) then its path, on up to three lines: the end of a long path is what tells pages apart. */
function urlText(url: string): HTMLElement {
  const { host, rest } = splitUrl(url);
  return h('span', { class: 'url' }, host ? h('span', { class: 'host' }, host) : null, rest);
}
