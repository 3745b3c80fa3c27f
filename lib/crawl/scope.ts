// Crawl scope: which discovered URLs may enter the frontier at all.
import { siteOf, siteOfHostOrUrl } from '../url';
import type { CrawlConfig } from './config';

export function makeScope(config: CrawlConfig): (url: string) => boolean {
  const { mode, sites } = config.scope;
  if (mode === 'anywhere') return () => true;
  const allowed = new Set(mode === 'seed-sites' ? config.seeds.map(siteOf) : sites.map(siteOfHostOrUrl));
  return (url) => allowed.has(siteOf(url));
}
