// Design B, sparse tunneling (patent CN101872357): best-first that may cross a few irrelevant pages to reach
// other on-topic communities, without the exponential growth of plain tunneling. Per entry, the tunnel
// distance; per site, one of three kinds: on-topic (a relevant page was fetched there: no cap), unknown (at
// most R URLs queued), blacklisted (more than P irrelevant pages fetched, or listed by the user: never entered
// again, its queued URLs dropped).
import { SEED_PRIORITY, type Strategy, type StrategyModule } from './types';

export const sparseTunneling: StrategyModule = {
  name: 'sparse-tunneling',
  description: 'Best-first that may cross a few off-topic pages to reach other on-topic sites, with caps on unknown sites and a blacklist.',
  followsModel: true,
  params: [
    {
      key: 'maxTunnel', label: 'Longest tunnel', default: 10, min: 1, max: 30, integer: true,
      help: 'Off-topic pages in a row a path may cross before its links are dropped (K).',
    },
    {
      key: 'unknownSiteQueue', label: 'Queue per unknown site', default: 15, min: 1, max: 100_000, integer: true,
      help: 'URLs queued at most for a site where no relevant page was found yet (R).',
    },
    {
      key: 'blacklistAfter', label: 'Blacklist after', default: 20, min: 1, max: 100_000, integer: true,
      help: 'Off-topic pages fetched from a site beyond which the site is never entered again (P).',
    },
  ],
  create: (params) => sparse(params as Record<string, number>),
};

const sparse = ({ maxTunnel, unknownSiteQueue, blacklistAfter }: Record<string, number>): Strategy => ({
    name: 'sparse-tunneling',
    next: 'priority',
    followsModel: true,
    priorityIsLogOdds: true,
    seedPriority: () => SEED_PRIORITY,
    plan(link, parent) {
      // Design B.3: d(page) = 0 when the page is relevant, else d(parent) + 1; its links inherit d(page), and a
      // path that crossed more than K irrelevant pages ends there.
      const tunnel = parent.relevant ? 0 : (parent.entry.strategy?.tunnel ?? 0) + 1;
      if (tunnel > maxTunnel) return { drop: 'tunnel too long' };
      return { priority: link.logOdds, state: { tunnel } };
    },
    // Design B.4: an unknown site gets at most R queued paths; an on-topic one is not capped.
    admit: (site) => (site.relevant === 0 && site.queued >= unknownSiteQueue ? 'unknown site full' : null),
    // Design B.5: more than P irrelevant pages from a site blacklist it.
    judgeSite: (site) => {
      const irrelevant = site.fetched - site.relevant;
      return irrelevant > blacklistAfter ? `more than ${blacklistAfter} off-topic pages fetched (${irrelevant})` : null;
    },
    rerank: (_entry, logOdds) => logOdds,
});
