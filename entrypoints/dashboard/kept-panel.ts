// The links the safety guard kept the selected crawl from requesting, live: pages are fetched with the user's cookies,
// and these links could log the user out or act as the user.
import type { CrawlerDB } from '@/lib/store/db';
import { errorText, fill, h } from '@/lib/platform/dom';
import { formatCount } from '@/lib/ui/format';
import { keptFromRequesting, skippedChanges, watchThrottled, type KeptLink } from '@/lib/ui/queries';

/** Kept links shown; the total is counted past it. */
const KEPT_SHOWN = 200;

export class KeptPanel {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly count: HTMLElement;
  private watching: number | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly db: CrawlerDB) {
    this.list = h('ul', { class: 'kept-list', 'data-testid': 'kept-list' });
    this.count = h('small', { class: 'muted', 'data-testid': 'kept-count' });
    this.root = h(
      'section',
      { class: 'learning-block', 'data-testid': 'kept' },
      h('h3', { title: 'Pages are fetched with your cookies: these links could log you out or act as you, so they were never requested' }, 'Kept from requesting ', this.count),
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
    if (crawlId === undefined) return;
    this.unwatch = watchThrottled(
      () => skippedChanges(this.db, crawlId),
      () => keptFromRequesting(this.db, crawlId, KEPT_SHOWN),
      ({ links, total }) => this.render(links, total),
      (err) => fill(this.list, h('li', { class: 'error-text' }, `Could not read the skipped links: ${errorText(err)}`)),
    );
  }

  private render(links: KeptLink[], total: number): void {
    const all = `${formatCount(total)} ${total === 1 ? 'link' : 'links'}`;
    this.count.textContent = total === 0 ? '' : total > links.length ? `the first ${formatCount(links.length)} of ${all}` : all;
    if (links.length === 0) {
      fill(this.list, h('li', { class: 'empty muted' }, 'No link was kept from being requested.'));
      return;
    }
    fill(
      this.list,
      ...links.map((l) =>
        h(
          'li',
          { 'data-testid': 'kept-item' },
          h('span', { class: 'kept-rule', title: `Matched: ${l.match}` }, l.rule),
          // Text, not a link: opening it here would send your cookies, the very request the guard held back.
          h(
            'span',
            { class: 'next-link' },
            h('span', { class: 'url', title: l.url }, l.url),
            h('span', { class: 'muted small' }, `${l.anchor ? `“${l.anchor}” · ` : ''}matched “${l.match}”`),
          ),
        ),
      ),
    );
  }
}
