// Design D, multi-priority queues for targeted sites (patent CN102117275): URLs are classed (list page, content
// page, pagination, content-return, other), given a priority from 1 to max by their class and the page that
// links them, and taken from one FIFO queue per priority, the heaviest queue first (weights.ts). List pages
// are mined for links, not judged, and refreshed on a schedule; a thread seen before is queued again only
// when the reply count next to its link changed (the parser reads it, lib/parse/listing.ts).
import { compilePatterns } from '../../records/patterns';
import type { QueueLoad, Strategy, StrategyModule } from '../types';
import { isListing, linkClass, linkPriority, pageClass, type ClassPatterns } from './classes';
import { rankQueues, type WeighedQueue } from './weights';

export const multiQueue: StrategyModule = {
  name: 'multi-queue',
  description: 'For known sites (forums, news, blogs): one queue per priority, list pages refreshed for new content, a multi-page article finished first, and a busy host skipped for one that is ready.',
  followsModel: false,
  params: [
    { key: 'maxPriority', label: 'Priorities', default: 5, min: 2, max: 10, integer: true, help: 'Priority values 1 to this; a content page\'s next pages get the top one (MAX).' },
    { key: 'startPriority', label: 'Seed priority', default: 0, min: 0, max: 10, integer: true, help: 'Priority of the seeds; 0: the top one.' },
    { key: 'iFactor', label: 'iFactor', default: 2, min: 1, max: 1000, integer: false, help: 'How much each priority step weighs at first; then learned as the new links a list page shows per refresh.' },
    { key: 'refreshMinutes', label: 'Refresh lists every (min)', default: 60, min: 0, max: 100_000, integer: false, help: 'A list page is fetched again this long after; 0: never.' },
    { key: 'listPages', label: 'List pages', default: [], patterns: true, help: 'URL patterns of list pages (boards, indexes), as training patterns: a URL, * wildcards, site:host.' },
    { key: 'contentPages', label: 'Content pages', default: [], patterns: true, help: 'URL patterns of content pages (threads, articles).' },
  ],
  check: (p) => ((p.startPriority as number) > (p.maxPriority as number) ? 'strategy.startPriority (seed priority) must not exceed strategy.maxPriority (priorities)' : null),
  create: (params) => multiQueueStrategy(params as MultiQueueParams),
};

export interface MultiQueueParams {
  maxPriority?: number;
  startPriority?: number;
  iFactor?: number;
  refreshMinutes?: number;
  listPages?: readonly string[];
  contentPages?: readonly string[];
}

export function multiQueueStrategy(params: MultiQueueParams): Strategy {
  const max = params.maxPriority ?? 5;
  const start = params.startPriority || max;
  const refreshMinutes = params.refreshMinutes ?? 60;
  const patterns: ClassPatterns = { listPages: compilePatterns([...(params.listPages ?? [])]), contentPages: compilePatterns([...(params.contentPages ?? [])]) };
  // Design D.3: iFactor is the average number of new links a list page shows (the configured value until one
  // was read). On a first visit every link is new; on a refresh, those it did not show last time, so what each
  // refreshed list page showed last is kept. Read so, iFactor is how many URLs one step down a list page adds
  // for each one it is, which is what dividing by iFactor per step evens out.
  const shown = new Map<string, Set<string>>();
  let listReads = 0, newLinks = 0;
  /** After a worker restart the pages shown last are gone: a list page not seen since is not counted. */
  let restored = false;
  const iFactor = () => (listReads === 0 ? params.iFactor ?? 2 : Math.max(1, newLinks / listReads));
  let lastQueues: WeighedQueue[] = [];

  return {
    name: 'multi-queue',
    followsModel: false,
    reportsLive: true,
    seedPriority: () => start,
    next: {
      kind: 'queues',
      rank(queues: QueueLoad[]) {
        lastQueues = rankQueues(queues, max, iFactor());
        return lastQueues;
      },
    },
    plan(link, parent) {
      const from = pageClass(parent.url, parent.entry, patterns);
      const urlClass = linkClass(link, from, patterns);
      const priority = linkPriority(urlClass, parent.entry.priority, max);
      // Design D.5: the reply count in a thread's row, on a list page, is the thread's version. Only for links
      // the content patterns call content: the row's other links (its author) show the same count.
      const revisit = isListing(from) && link.replies !== undefined && urlClass === 'content' ? String(link.replies) : undefined;
      return { priority, state: { urlClass }, ...(revisit !== undefined ? { revisit } : {}) };
    },
    pageRole(entry, url) {
      const urlClass = pageClass(url, entry, patterns);
      const listing = isListing(urlClass);
      return { urlClass, listing, ...(urlClass === 'list' && refreshMinutes > 0 ? { refreshInMs: refreshMinutes * 60_000 } : {}) };
    },
    afterPage(page) {
      if (!page.role?.listing) return;
      const before = shown.get(page.url);
      const now = new Set(page.links);
      if (page.role.refreshInMs !== undefined) shown.set(page.url, now);
      if (!before && restored && page.role.urlClass === 'list') return; // a refresh or a first reading: unknown
      listReads++;
      for (const l of now) if (!before?.has(l)) newLinks++;
      return 'report';
    },
    // The learned iFactor outlives the worker (saved after each list page that changed it).
    save: () => ({ listReads, newLinks }),
    restore({ saved }) {
      const s = saved as { listReads?: number; newLinks?: number } | undefined;
      if (typeof s?.listReads === 'number' && typeof s.newLinks === 'number') ({ listReads, newLinks } = s as { listReads: number; newLinks: number });
      restored = true;
    },
    report: () => ({
      maxPriority: max, iFactor: iFactor(), listReads,
      queues: [...lastQueues].sort((a, b) => b.priority - a.priority),
    }),
    rerank: () => null,
  };
}
