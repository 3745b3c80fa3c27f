// The labeling queue: the questions whose answers most change what the topic's crawls fetch next
// (lib/learning/question-value.ts, measured in docs/benchmarks.md "Labels that teach"), each about a queued link
// ("is the page this link leads to on topic?") or a fetched page ("is this page on topic?"), answered on or off
// topic with the keyboard. A link's answer goes to the worker as a labelLink message, a page's as labelPage; the
// row leaves, and once the crawls have taken the answer in the queue is read again, so the next question is
// asked of the frontier the answer changed.
import { sendMessage } from '@/lib/platform/messaging';
import type { CrawlerDB } from '@/lib/store/db';
import type { LabelValue } from '@/lib/records/types.ts';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatScore } from '@/lib/ui/format';
import { watch } from '@/lib/ui/queries';
import { labelQuestions, type AskedQuestion } from '@/lib/ui/label-queries';
import { showNotice } from './topic-ui';
import type { AnswerEffect } from '@/lib/records/rows.ts';

/** What an answer changed, in the user's words: "re-scored 312 queued links; 14 moved into the next 100". */
export function answerEffectText(e: AnswerEffect): string {
  const parts = [`re-scored ${formatCount(e.changed - e.skipped)} queued link${e.changed - e.skipped === 1 ? '' : 's'}`];
  if (e.skipped) parts.push(`${formatCount(e.skipped)} taken out of the queue`);
  parts.push(`${formatCount(e.enteredTop)} moved into the next ${NEXT_LINKS}`);
  return `Your answer ${parts.join('; ')}.`;
}

/** Answers after which the queue is re-read: each one, since an answer re-ranks the frontier at once. */
export const REFRESH_EVERY = 1;
const QUEUE_LENGTH = 40;
/** The "next links" an answer's effect is counted against (lib/learning/learner.ts, NEXT_LINKS). */
const NEXT_LINKS = 100;

/** A question as the queue shows it: a link of a crawl's frontier, or a page a crawl fetched. */
type Item = AskedQuestion;

/** The URL a question is about (the link's target, or the page). */
const urlOf = (item: Item): string => (item.kind === 'link' ? item.link.url : item.page.url);

const KEYS: Record<string, 'down' | 'up' | 'on' | 'off' | 'skip'> = {
  j: 'down', ArrowDown: 'down', k: 'up', ArrowUp: 'up', '1': 'on', o: 'on', '2': 'off', x: 'off', s: 'skip',
};

const isHttp = (url: string): boolean => /^https?:\/\//i.test(url);

/** Input types whose keys are not text: the queue's keys still answer there. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color', 'image']);

/** Whether a key pressed with the focus on `target` is typed into it (a text field, a select, something editable). */
function takesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TEXT.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable;
}

/** Scrolls the list, and only the list (scrollIntoView would scroll the page too), to show `row`. */
function keepInView(list: HTMLElement, row: HTMLElement): void {
  const top = row.offsetTop; // the list is positioned (labeling-queue.css), so this is from the list's top
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
  /** When the topic's saved model and its crawls' re-scores were written last: a newer one re-reads the queue. */
  private modelAt: string | undefined;
  private unwatchModel: (() => void) | undefined;
  private readonly list = byId<HTMLOListElement>('label-queue');
  private readonly error = byId('queue-error');

  constructor(private readonly db: CrawlerDB) {
    // The keys answer the queue wherever the focus is in the Topics view (a click on the queue first was one step too
    // many), except where they are text: a text field, a list of choices, something editable.
    document.addEventListener('keydown', (ev) => {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.defaultPrevented || takesText(ev.target)) return;
      const action = KEYS[ev.key];
      if (!action || this.items.length === 0 || !this.list.isConnected || this.list.closest('[hidden]')) return;
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
   * The queue's scores are the saved model's and its order the crawls' frontiers: when a Retrain (here, in another
   * tab, or by a crawl's rebuild) writes a newer model, or a crawl of the topic finishes re-scoring its frontier,
   * the queue is read again, so it never asks what the old model doubted.
   */
  private watchModel(topicId: number | undefined): void {
    this.unwatchModel?.();
    this.modelAt = undefined;
    if (topicId === undefined) return;
    this.unwatchModel = watch(
      async () => {
        const [model, crawls] = await Promise.all([this.db.topicModels.get(topicId), this.db.crawls.where('topicId').equals(topicId).toArray()]);
        return [model?.updatedAt ?? 0, ...crawls.map((c) => c.lastRescore?.at ?? 0)].join(',');
      },
      (at) => {
        const first = this.modelAt === undefined;
        if (at === this.modelAt) return;
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
      const items = await labelQuestions(this.db, topic, { handled: this.handled, limit: QUEUE_LENGTH });
      if (token !== this.loading || topicId !== this.topicId) return;
      // Answers given while this was read are not undone by it; the question in focus keeps it when still asked.
      const focused = this.items[this.focus];
      this.items = items.filter((i) => !this.handled.has(urlOf(i)));
      this.focus = Math.max(0, focused ? this.items.findIndex((i) => urlOf(i) === urlOf(focused)) : 0);
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
    this.handled.add(urlOf(item));
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
    const sent = this.send(topicId, item, label).then(
      (effect) => {
        this.labeled++;
        if (topicId === this.topicId) this.lastEffect = effect;
        if (++this.sinceRefresh >= REFRESH_EVERY && !this.loading && topicId === this.topicId) void this.load();
        else this.renderStatus();
      },
      (err: unknown) => {
        if (topicId !== this.topicId) return;
        // Put it back where it was, so the answer can be given again.
        this.handled.delete(urlOf(item));
        this.items.splice(Math.min(index, this.items.length), 0, item);
        this.render();
        showNotice(this.error, `Could not label ${urlOf(item)}: ${errorText(err)}`);
      },
    );
    this.pending.add(sent);
    void sent.finally(() => this.pending.delete(sent));
    this.refillIfEmpty();
  }

  /** A link's answer labels its URL, a page's that fetch; either waits for the crawls to re-score where it reaches. */
  private async send(topicId: number, item: Item, label: LabelValue): Promise<AnswerEffect | null> {
    if (item.kind === 'page') {
      const { effect } = await sendMessage('labelPage', { crawlId: item.page.crawlId, seq: item.page.seq, label, wait: true });
      return effect ?? null;
    }
    const { url, anchor, context, parentUrl } = item.link.entry;
    const { effect } = await sendMessage('labelLink', { topicId, url, anchor, context, label, wait: true, ...(parentUrl ? { pageUrl: parentUrl } : {}) });
    return effect ?? null;
  }

  private render(): void {
    const hadFocus = this.list.contains(document.activeElement);
    fill(this.list, ...this.items.map((item, i) => this.row(item, i)));
    const empty = byId('queue-empty');
    empty.hidden = this.items.length > 0 || this.topicId === undefined;
    empty.textContent = this.loading
      ? 'Reading the frontier…'
      : this.hasCrawls
        ? 'Nothing to ask: the crawls of this topic have no queued links. Refresh when they have found more.'
        : 'No crawl of this topic yet: the queue picks from the frontier of its crawls. Start one in Crawls.';
    this.list.hidden = this.items.length === 0;
    this.markFocus(hadFocus);
    this.renderStatus();
  }

  private renderStatus(): void {
    const parts = [this.loading && this.items.length ? 'refreshing…' : `${formatCount(this.items.length)} to label`];
    if (this.labeled) parts.push(`${formatCount(this.labeled)} labeled`);
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
    const url = urlOf(item);
    const act = (fn: () => void) => (ev: Event) => {
      ev.stopPropagation();
      fn();
    };
    const page = item.kind === 'page';
    const kind = page
      ? h('span', { class: 'queue-kind page', 'data-testid': 'queue-kind', title: 'Is this page on topic? The answer teaches the page judge and labels the links to it.' }, 'Page')
      : h('span', { class: 'queue-kind', 'data-testid': 'queue-kind', title: 'Is the page this link leads to on topic? The link is not fetched yet.' }, 'Link');
    const text = page
      ? h(
          'div',
          { class: 'queue-text' },
          kind,
          h('div', { class: 'queue-anchor' }, item.page.title.trim() ? item.page.title : h('span', { class: 'muted' }, '(no title)')),
          h('a', { class: 'url', href: isHttp(url) ? url : null, target: '_blank', rel: 'noopener noreferrer', title: url, tabindex: -1 }, url),
          h('div', { class: 'queue-context' }, `${formatCount(item.page.children)} of the next queued links were found on this page`),
        )
      : h(
          'div',
          { class: 'queue-text' },
          kind,
          h('div', { class: 'queue-anchor' }, item.link.anchor.trim() ? item.link.anchor : h('span', { class: 'muted' }, '(no anchor text)')),
          h('a', { class: 'url', href: isHttp(url) ? url : null, target: '_blank', rel: 'noopener noreferrer', title: url, tabindex: -1 }, url),
          item.link.context.trim() ? h('div', { class: 'queue-context', title: item.link.context }, item.link.context) : null,
        );
    const score = page ? item.page.relevance : item.link.score;
    return h(
      'li',
      {
        class: 'queue-item', 'data-testid': 'queue-item', 'data-url': url, 'data-kind': item.kind,
        onclick: () => {
          this.focus = index;
          this.markFocus(true);
        },
      },
      h('span', { class: 'queue-score', title: page ? "P(on topic) by the page judge" : 'P(on topic) under the current model', 'data-testid': 'queue-score' }, formatScore(score)),
      text,
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
