// Breadth-first: the baseline every focused crawler is measured against. Shallowest first, earliest found
// first among equals; the classifier's score is recorded but does not order anything.
import type { StrategyModule } from './types';

export const breadthFirst: StrategyModule = {
  name: 'breadth-first',
  description: 'Fetches pages in the order of their distance from the seeds, ignoring the classifier.',
  followsModel: false,
  params: [],
  create: () => ({
    name: 'breadth-first',
    next: 'priority',
    followsModel: false,
    seedPriority: () => 0,
    plan: (link) => ({ priority: -link.depth }),
    rerank: () => null,
  }),
};
