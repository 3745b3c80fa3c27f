// The links the safety guard kept the selected crawl from requesting, live: pages are fetched with the user's cookies,
// and these links could log the user out or act as the user. Each says why it was kept; the user may allow it (that
// URL, or every link the same rule caught by the same match) after a second click, and the crawl then requests it.
import type { CrawlerDB } from '@/lib/store/db';
import { errorText, fill, h } from '@/lib/platform/dom';
import { sendMessage } from '@/lib/platform/messaging';
import { formatCount } from '@/lib/ui/format';
import { DEFAULT_SAFETY_RULES, YOUR_LIST } from '@/lib/records/safety-rules';
import { keptFromRequesting, skippedChanges, watchThrottled, type KeptLink } from '@/lib/ui/queries';
import './kept-panel.css';

/** Kept links shown; the total is counted past it. */
const KEPT_SHOWN = 200;

/** What "Allow" covers: this URL, or every link its rule caught by its match. */
type Allowing = { url: string } | { rule: string; match: string };

export class KeptPanel {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly count: HTMLElement;
  private readonly note: HTMLElement;
  private watching: number | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly db: CrawlerDB) {
    this.list = h('ul', { class: 'kept-list', 'data-testid': 'kept-list' });
    this.count = h('small', { class: 'muted', 'data-testid': 'kept-count' });
    this.note = h('p', { class: 'muted small', 'data-testid': 'kept-note', role: 'status' });
    this.root = h(
      'section',
      { class: 'learning-block', 'data-testid': 'kept' },
      h('h3', { title: 'Pages are fetched with your cookies: these links could log you out or act as you, so they were never requested' }, 'Kept from requesting ', this.count),
      this.note,
      this.list,
    );
  }

  /** Follows the links the safety guard kept the selected crawl from requesting. */
  show(crawlId: number | undefined): void {
    if (crawlId === this.watching) return;
    this.watching = crawlId;
    this.unwatch?.();
    this.unwatch = undefined;
    fill(this.list);
    this.count.textContent = '';
    this.note.textContent = '';
    if (crawlId === undefined) return;
    this.unwatch = watchThrottled(
      () => skippedChanges(this.db, crawlId),
      () => keptFromRequesting(this.db, crawlId, KEPT_SHOWN),
      ({ links, total }) => this.render(crawlId, links, total),
      (err) => fill(this.list, h('li', { class: 'error-text' }, `Could not read the skipped links: ${errorText(err)}`)),
    );
  }

  private render(crawlId: number, links: KeptLink[], total: number): void {
    const all = `${formatCount(total)} ${total === 1 ? 'link' : 'links'}`;
    this.count.textContent = total === 0 ? '' : total > links.length ? `the first ${formatCount(links.length)} of ${all}` : all;
    if (links.length === 0) {
      fill(this.list, h('li', { class: 'empty muted' }, 'No link was kept from being requested.'));
      return;
    }
    fill(this.list, ...links.map((l) => this.item(crawlId, l)));
  }

  private item(crawlId: number, l: KeptLink): HTMLElement {
    const why = l.reason.replace(/^unsafe link \([^)]*\): /, '');
    const actions = h('span', { class: 'kept-actions' });
    const first = () => {
      actions.parentElement?.classList.remove('asking');
      fill(actions, h('button', { type: 'button', class: 'small', 'data-testid': 'kept-allow', title: 'Let the crawl request this link after all', onclick: ask }, 'Allow…'));
    };
    const ask = () => {
      actions.parentElement?.classList.add('asking');
      fill(actions, ...this.confirmation(crawlId, l, actions, first));
    };
    first();
    return h(
      'li',
      { 'data-testid': 'kept-item' },
      h('span', { class: 'kept-rule', title: `Matched: ${l.match}` }, l.rule),
      // Text, not a link: opening it here would send your cookies, the very request the guard held back.
      h(
        'span',
        { class: 'next-link' },
        h('span', { class: 'url', title: l.url }, l.url),
        h('span', { class: 'muted small' }, `${l.anchor ? `“${l.anchor}” · ` : ''}matched “${l.match}”`),
        why ? h('span', { class: 'muted small kept-why', 'data-testid': 'kept-why' }, why) : null,
      ),
      actions,
    );
  }

  /** The second click: this URL, or (for a rule of the guard) every link it caught by the same match. */
  private confirmation(crawlId: number, l: KeptLink, actions: HTMLElement, back: () => void): HTMLElement[] {
    const ruled = DEFAULT_SAFETY_RULES.includes(l.rule) || l.rule === YOUR_LIST;
    const allow = (allowing: Allowing) => (e: Event) => this.allow(crawlId, allowing, e.currentTarget as HTMLButtonElement, actions);
    return [
      h('span', { class: 'small' }, 'Request it with your cookies?'),
      h('button', { type: 'button', class: 'small danger', 'data-testid': 'kept-allow-url', onclick: allow({ url: l.url }) }, 'Allow this URL'),
      ruled ? h('button', { type: 'button', class: 'small', 'data-testid': 'kept-allow-rule', title: `Every link of this crawl kept by ${l.rule} “${l.match}”, now and later`, onclick: allow({ rule: l.rule, match: l.match }) }, `Allow all “${l.match}”`) : null,
      h('button', { type: 'button', class: 'small', 'data-testid': 'kept-allow-cancel', onclick: back }, 'Cancel'),
    ].filter((x): x is HTMLElement => x !== null);
  }

  private allow(crawlId: number, allowing: Allowing, button: HTMLButtonElement, actions: HTMLElement): void {
    for (const b of actions.querySelectorAll('button')) b.disabled = true;
    sendMessage('allowKept', { crawlId, ...allowing }).then(
      ({ allowed, crawl }) => {
        const what = 'url' in allowing ? allowing.url : `${allowed} ${allowed === 1 ? 'link' : 'links'} kept by ${allowing.rule} “${allowing.match}”`;
        const when = crawl.state === 'running' || crawl.state === 'training' ? 'the crawl requests it next' : 'resume the crawl to request it';
        // `crawl` is the row as the worker left it: a finished crawl has started again to request what was allowed.
        this.note.textContent = `Allowed by you: ${what}, queued again; ${when}.`;
      },
      (err: unknown) => {
        for (const b of actions.querySelectorAll('button')) b.disabled = false;
        button.title = errorText(err);
        this.note.textContent = `Not allowed: ${errorText(err)}`;
      },
    );
  }
}
