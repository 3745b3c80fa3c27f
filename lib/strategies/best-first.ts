// Design A.7: best-first by the link classifier. Priority is the log-odds of P(+ | anchor, context): monotone in
// the posterior, but not saturated near 0 and 1 as the posterior is.
import { SEED_PRIORITY, type StrategyModule } from './types';

export const bestFirst: StrategyModule = {
  name: 'best-first',
  description: 'Fetches the link the classifier rates most likely on topic next.',
  followsModel: true,
  params: [],
  create: () => ({
    name: 'best-first',
    next: 'priority',
    followsModel: true,
    priorityIsLogOdds: true,
    seedPriority: () => SEED_PRIORITY,
    plan: (link) => ({ priority: link.logOdds }),
    rerank: (_entry, logOdds) => logOdds,
  }),
};
