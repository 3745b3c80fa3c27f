// Design E.4, filter traversal of a crawl template (patent CN102930059): from a seed (a search result, layer 0)
// follow the links whose anchor matches the first filter layer's keywords, from those pages the second layer's,
// and so on; pages past the last layer are the final pages whose fields are extracted (lib/run/template-harvest.ts).
// On a layer's page a "next page" link is followed on the same layer (a list of branches split over pages).
// Links never leave the site they were found on, and the frontier's dedup keeps the walk from cycling.
import { keywordMatcher, type KeywordMatcher } from './keywords';
import type { TemplateConfig } from '../../records/template-config';
import { siteOf } from '../../records/url';
import { SEED_PRIORITY, type Strategy, type StrategyModule } from '../types';

/** What a "next page" link says, in the languages the template keywords come in. */
const NEXT_PAGE = /^(?:next(?:\s+page)?|more|older(?:\s+posts)?|下一页|下页|后页|›|»|>|>>|→)\s*[›»>→]*$/i;

export function isNextPage(anchor: string): boolean {
  return NEXT_PAGE.test(anchor.normalize('NFKC').trim());
}

export const templateStrategy: StrategyModule = {
  name: 'template',
  description: 'Template crawling: seeds from a search engine, links followed layer by layer by filter keywords, fields extracted on the last layer.',
  followsModel: false,
  params: [],
  create: (_params, context) => {
    if (!context.template) throw new Error('the template strategy needs a template');
    return filterLayers(context.template);
  },
};

/** The layer a frontier entry is on: 0 for seeds, i after i filter links. */
export const layerOf = (state: { layer?: number } | undefined): number => state?.layer ?? 0;

/**
 * Whether a page of a template crawl is a final page, whose fields are extracted: a page on the last layer, or
 * a page on an earlier layer (not a seed) none of whose links leads a layer deeper. Sites differ in depth (one
 * links "Contact us" from its home page, another "About us" first and "Contact" from there), and a template
 * with two layers still reads the first kind (beyond design E.4, which extracts on the last layer only).
 */
export function isFinalPage(layer: number, layers: number, childLayers: number[]): boolean {
  if (layer >= layers) return true;
  return layer > 0 && !childLayers.some((l) => l > layer);
}

function filterLayers(template: TemplateConfig): Strategy {
  const layers: KeywordMatcher[] = template.filters.map((words) => keywordMatcher(words));
  return {
    name: 'template',
    next: 'priority',
    followsModel: false,
    seedPriority: () => SEED_PRIORITY,
    plan(link, parent) {
      const layer = layerOf(parent.entry.strategy);
      if (siteOf(link.url) !== siteOf(parent.url)) return { drop: 'leaves the seed site' };
      // A layer's pages continue on its next pages, the last layer's too (a list of branches over pages).
      if (layer > 0 && isNextPage(link.anchor)) return { priority: layer, state: { layer } };
      if (layer >= layers.length) return { drop: 'past the last filter layer' };
      // Deeper layers first, so a site's final pages come soon after its seed.
      if (layers[layer]!.test(link.anchor)) return { priority: layer + 1, state: { layer: layer + 1 } };
      return { drop: 'no filter keyword in its text' };
    },
    rerank: () => null,
  };
}
