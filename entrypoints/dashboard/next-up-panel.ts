// The links the selected crawl fetches next, live: the best queued links, in the order the crawl takes them.
import type { CrawlerDB } from '@/lib/store/db';
import type { FrontierEntry } from '@/lib/records/types.ts';
import { errorText, fill, h } from '@/lib/platform/dom';
import { formatScore } from '@/lib/ui/format';
import { nextUp, queueChanges, watchThrottled } from '@/lib/ui/queries';

const NEXT_UP = 10;

export class NextUpPanel {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private watching: number | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly db: CrawlerDB) {
    this.list = h('ol', { class: 'next-up-list' });
    this.root = h(
      'section',
      { class: 'learning-block', 'data-testid': 'next-up' },
      // The page cannot know a site's robots.txt before the crawl asks for it: a queued link is checked against
      // robots.txt, scope and safety when its turn comes, and may still be skipped then.
      h('h3', null, 'Next up ', h('small', { class: 'muted', 'data-testid': 'next-up-note' }, 'the best queued links, in the order the crawl takes them; each is checked against robots.txt when its turn comes, and may be skipped then')),
      this.list,
    );
  }

  /** Follows the best queued links of the selected crawl (a few index reads when its queue changes, at most every REREAD_MS). */
  show(crawlId: number | undefined): void {
    if (crawlId === this.watching) return;
    this.watching = crawlId;
    this.unwatch?.();
    this.unwatch = undefined;
    fill(this.list);
    if (crawlId === undefined) return;
    this.unwatch = watchThrottled(
      () => queueChanges(this.db, crawlId),
      () => nextUp(this.db, crawlId, NEXT_UP),
      (entries) => this.render(entries),
      (err) => fill(this.list, h('li', { class: 'error-text' }, `Could not read the frontier: ${errorText(err)}`)),
    );
  }

  private render(entries: FrontierEntry[]): void {
    if (entries.length === 0) {
      fill(this.list, h('li', { class: 'empty muted' }, 'Nothing queued.'));
      return;
    }
    fill(
      this.list,
      ...entries.map((e) =>
        h(
          'li',
          { 'data-testid': 'next-up-item' },
          h('span', { class: 'score num', title: 'P(on topic) the link classifier gives the link' }, formatScore(e.score)),
          h(
            'span',
            { class: 'next-link' },
            h('span', { class: e.anchor ? 'anchor' : 'anchor muted' }, e.anchor || (e.parentUrl ? '(no anchor text)' : 'seed')),
            h('a', { class: 'url', href: /^https?:\/\//i.test(e.url) ? e.url : null, target: '_blank', rel: 'noopener noreferrer', title: e.url }, e.url),
          ),
          h('span', { class: 'depth muted small', title: 'Links followed from a seed' }, `depth ${e.depth}`),
        ),
      ),
    );
  }
}
