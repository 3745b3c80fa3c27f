// The labeling queue: frontier links of the topic's crawls that the current model is least sure about
// (lib/classifier/uncertainty.ts), labeled on or off topic with the keyboard. Each label goes to the worker
// as a labelLink message and the row leaves; every REFRESH_EVERY labels the queue is read again with the
// model that has learned them.
import { labelingQueue, type QueueItem } from '@/lib/classifier/uncertainty';
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { FrontierEntry, LabelValue } from '@/lib/types';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatScore } from '@/lib/ui/format';
import { watch } from '@/lib/ui/queries';
import { currentLinkClassifier, queueCandidates, userLabeledUrls } from '@/lib/ui/label-queries';
import { showNotice } from './topic-ui';
import type { AnswerEffect } from '@/lib/records';

/** What an answer changed, in the user's words: "re-scored 312 queued links; 14 moved into the next 100". */
export function answerEffectText(e: AnswerEffect): string {
  const parts = [`re-scored ${formatCount(e.changed - e.skipped)} queued link${e.changed - e.skipped === 1 ? '' : 's'}`];
  if (e.skipped) parts.push(`${formatCount(e.skipped)} taken out of the queue`);
  parts.push(`${formatCount(e.enteredTop)} moved into the next ${NEXT_LINKS}`);
  return `Your answer ${parts.join('; ')}.`;
}

/** Labels after which the queue is re-read with the model that learned them. */
export const REFRESH_EVERY = 10;
const QUEUE_LENGTH = 40;
/** The "next links" an answer's effect is counted against (lib/crawl/learner.ts, NEXT_LINKS). */
const NEXT_LINKS = 100;

type Item = QueueItem<FrontierEntry>;

const KEYS: Record<string, 'down' | 'up' | 'on' | 'off' | 'skip'> = {
  j: 'down', ArrowDown: 'down', k: 'up', ArrowUp: 'up', '1': 'on', o: 'on', '2': 'off', x: 'off', s: 'skip',
};

const isHttp = (url: string): boolean => /^https?:\/\//i.test(url);

/** Scrolls the list, and only the list (scrollIntoView would scroll the page too), to show `row`. */
function keepInView(list: HTMLElement, row: HTMLElement): void {
  const top = row.offsetTop; // the list is positioned (style.css), so this is from the list's top
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + row.offsetHeight - list.clientHeight;
}

export class LabelQueue {
  private topicId: number | undefined;
  private items: Item[] = [];
  private focus = 0;
  /** URLs labeled or skipped here since the topic was shown: never queued again in this visit. */
  private handled = new Set<string>();
  private sinceRefresh = 0;
  private labeled = 0;
  /** What the newest answer changed in the running crawls' frontiers (none when no crawl of the topic runs). */
  private lastEffect: AnswerEffect | null = null;
  private pending = new Set<Promise<unknown>>();
  private loading = 0;
  private hasCrawls = true;
  /** When the topic's saved model was written last: a newer one (a Retrain, a rebuild) re-scores the queue. */
  private modelAt: number | undefined;
  private unwatchModel: (() => void) | undefined;
  private readonly list = byId<HTMLOListElement>('label-queue');
  private readonly error = byId('queue-error');

  constructor(private readonly db: CrawlerDB) {
    this.list.addEventListener('keydown', (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || (ev.target as HTMLElement).matches('input, textarea, select')) return;
      const action = KEYS[ev.key];
      if (!action) return;
      ev.preventDefault();
      if (action === 'down' || action === 'up') this.move(action === 'down' ? 1 : -1);
      else if (action === 'skip') this.skip(this.focus);
      else this.label(this.focus, action === 'on' ? 1 : 0);
    });
    byId('queue-refresh').addEventListener('click', () => void this.load());
  }

  show(topicId: number | undefined): void {
    if (topicId === this.topicId) return;
    this.topicId = topicId;
    this.handled = new Set();
    this.items = [];
    this.focus = 0;
    this.labeled = 0;
    this.lastEffect = null;
    this.sinceRefresh = 0;
    showNotice(this.error, null);
    this.watchModel(topicId);
    void this.load();
  }

  /**
   * The queue's scores are the saved model's: when a Retrain (here, in another tab, or by a crawl's rebuild)
   * writes a newer model, the queue is read again, so it never shows the old model's doubts.
   */
  private watchModel(topicId: number | undefined): void {
    this.unwatchModel?.();
    this.modelAt = undefined;
    if (topicId === undefined) return;
    this.unwatchModel = watch(
      () => this.db.topicModels.get(topicId).then((m) => m?.updatedAt ?? 0),
      (at) => {
        const first = this.modelAt === undefined;
        this.modelAt = at;
        if (!first && topicId === this.topicId) void this.load();
      },
      () => {}, // the queue stays as read; Refresh reads it again
    );
  }

  /** Reads the candidates and the current model and builds the queue (after the labels sent so far are stored). */
  async load(): Promise<void> {
    const topicId = this.topicId;
    const token = ++this.loading;
    this.render();
    if (topicId === undefined) return;
    try {
      await Promise.allSettled([...this.pending]);
      const topic = await this.db.topics.get(topicId);
      if (!topic) return;
      this.hasCrawls = (await this.db.crawls.where('topicId').equals(topicId).count()) > 0;
      const candidates = await queueCandidates(this.db, topicId);
      const labeled = await userLabeledUrls(this.db, topicId, [...new Set(candidates.map((c) => c.url))]);
      for (const url of this.handled) labeled.add(url);
      const classifier = await currentLinkClassifier(this.db, topic);
      const items = labelingQueue(candidates, classifier, { labeled, limit: QUEUE_LENGTH });
      if (token !== this.loading || topicId !== this.topicId) return;
      // Labels given while this was read are not undone by it; the link in focus keeps it when still queued.
      const focused = this.items[this.focus]?.urls[0];
      this.items = items.filter((i) => !i.urls.some((u) => this.handled.has(u)));
      this.focus = Math.max(0, this.items.findIndex((i) => i.urls[0] === focused));
      this.sinceRefresh = 0;
      showNotice(this.error, null);
    } catch (err) {
      if (token === this.loading) showNotice(this.error, `Could not build the queue: ${errorText(err)}`);
    } finally {
      if (token === this.loading) {
        this.loading = 0;
        this.render();
      }
    }
  }

  private move(by: number): void {
    if (this.items.length === 0) return;
    this.focus = Math.min(this.items.length - 1, Math.max(0, this.focus + by));
    this.markFocus();
  }

  private take(index: number): Item | undefined {
    const item = this.items[index];
    if (!item) return undefined;
    this.items.splice(index, 1);
    item.urls.forEach((u) => this.handled.add(u));
    this.focus = Math.min(index, Math.max(0, this.items.length - 1));
    this.render();
    return item;
  }

  /** An emptied queue is read again at once (after the labels sent are stored). */
  private refillIfEmpty(): void {
    if (this.items.length === 0 && !this.loading) void this.load();
  }

  private skip(index: number): void {
    this.take(index);
    this.refillIfEmpty();
  }

  private label(index: number, label: LabelValue): void {
    const topicId = this.topicId;
    const item = this.take(index);
    if (!item || topicId === undefined) return;
    const { url, anchor, context, parentUrl } = item.link;
    const sent = sendMessage('labelLink', { topicId, url, anchor, context, label, wait: true, ...(parentUrl ? { pageUrl: parentUrl } : {}) }).then(
      ({ effect }) => {
        this.labeled++;
        if (topicId === this.topicId) this.lastEffect = effect ?? null;
        if (++this.sinceRefresh >= REFRESH_EVERY && !this.loading && topicId === this.topicId) void this.load();
        else this.renderStatus();
      },
      (err: unknown) => {
        if (topicId !== this.topicId) return;
        // Put it back where it was, so the label can be given again.
        item.urls.forEach((u) => this.handled.delete(u));
        this.items.splice(Math.min(index, this.items.length), 0, item);
        this.render();
        showNotice(this.error, `Could not label ${url}: ${errorText(err)}`);
      },
    );
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
    this.refillIfEmpty();
  }

  private render(): void {
    const hadFocus = this.list.contains(document.activeElement);
    fill(this.list, ...this.items.map((item, i) => this.row(item, i)));
    const empty = byId('queue-empty');
    empty.hidden = this.items.length > 0 || this.topicId === undefined;
    empty.textContent = this.loading
      ? 'Reading the frontier…'
      : this.hasCrawls
        ? 'No queued frontier links near P = 0.5 to label. Refresh when the crawls of this topic have found more.'
        : 'No crawl of this topic yet: the queue picks from the frontier of its crawls. Start one in Crawls.';
    this.list.hidden = this.items.length === 0;
    this.markFocus(hadFocus);
    this.renderStatus();
  }

  private renderStatus(): void {
    const parts = [this.loading && this.items.length ? 'refreshing…' : `${formatCount(this.items.length)} to label`];
    if (this.labeled) parts.push(`${formatCount(this.labeled)} labeled, refresh in ${REFRESH_EVERY - this.sinceRefresh}`);
    byId('queue-status').textContent = parts.join(' · ');
    byId('queue-effect').textContent = this.lastEffect ? answerEffectText(this.lastEffect) : '';
  }

  private markFocus(refocus = false): void {
    [...this.list.children].forEach((li, i) => {
      li.classList.toggle('focused', i === this.focus);
      li.setAttribute('aria-current', String(i === this.focus));
    });
    const current = this.list.children[this.focus] as HTMLElement | undefined;
    if (current) keepInView(this.list, current);
    if (refocus) this.list.focus({ preventScroll: true });
  }

  private row(item: Item, index: number): HTMLLIElement {
    const { url, anchor, context } = item.link;
    const act = (fn: () => void) => (ev: Event) => {
      ev.stopPropagation();
      fn();
    };
    const more = item.count > 1 ? h('span', { class: 'dup', title: `${item.count} queued links have this anchor and context` }, `×${item.count}`) : null;
    return h(
      'li',
      {
        class: 'queue-item', 'data-testid': 'queue-item', 'data-url': url,
        onclick: () => {
          this.focus = index;
          this.markFocus(true);
        },
      },
      h('span', { class: 'queue-score', title: 'P(on topic) under the current model', 'data-testid': 'queue-score' }, formatScore(item.score)),
      h(
        'div',
        { class: 'queue-text' },
        h('div', { class: 'queue-anchor' }, anchor.trim() ? anchor : h('span', { class: 'muted' }, '(no anchor text)'), more),
        h('a', { class: 'url', href: isHttp(url) ? url : null, target: '_blank', rel: 'noopener noreferrer', title: url, tabindex: -1 }, url),
        context.trim() ? h('div', { class: 'queue-context', title: context }, context) : null,
      ),
      h(
        'div',
        { class: 'queue-buttons' },
        h('button', { type: 'button', class: 'small on', tabindex: -1, title: 'On topic (1 or o)', 'data-testid': 'queue-on', onclick: act(() => this.label(index, 1)) }, 'On'),
        h('button', { type: 'button', class: 'small off', tabindex: -1, title: 'Off topic (2 or x)', 'data-testid': 'queue-off', onclick: act(() => this.label(index, 0)) }, 'Off'),
        h('button', { type: 'button', class: 'small', tabindex: -1, title: 'Skip (s)', 'data-testid': 'queue-skip', onclick: act(() => this.skip(index)) }, 'Skip'),
      ),
    );
  }
}
