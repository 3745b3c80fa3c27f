// What a crawl of the test shop (tests/fixtures/sites/catalog-shop.ts) spent, as the server saw it: its page requests,
// those that fetched content it had already served (a duplicate), and when each of the shop's unique pages was first
// served. The same count for a Node crawl, the benchmark and a crawl through the built extension.
import { uniquePages, type ShopRequest } from '../fixtures/sites/catalog-shop';

export interface ShopSpend {
  /** Page requests (robots.txt and sitemaps apart). */
  requests: number;
  /** Requests answered with content served before. */
  duplicates: number;
  /** Sitemap and robots.txt requests. */
  other: number;
  /** The shop's unique pages served, and the on-topic ones. */
  unique: number;
  onTopic: number;
  onTopicAll: number;
  sitemapOnlyFound: number;
  sitemapOnlyAll: number;
  /** The page request after which every on-topic unique page had been served; null if some never were. */
  allOnTopicAt: number | null;
  /** The duplicate requests by what was asked (the path's shape), most first. */
  duplicateKinds: [string, number][];
}

/** A path as a kind of URL: `/products/*?ref`, `/p/*`, `/c/*?sort`... */
export function pathKind(path: string): string {
  const u = new URL(path, 'http://shop.test');
  const params = [...new Set([...u.searchParams.keys()])].sort().join('&');
  const shape = u.pathname.replace(/^\/(products|Products|p|c|blog|guides)\/[^/]+/, '/$1/*').replace(/\/\d+$/, '/*');
  return `${shape}${params ? `?${params}` : ''}`;
}

export function shopSpend(seen: readonly ShopRequest[]): ShopSpend {
  const pages = uniquePages();
  const byContent = new Map(pages.map((p) => [p.content, p]));
  const served = new Set<string>();
  const onTopic = pages.filter((p) => p.onTopic);
  let requests = 0, duplicates = 0, other = 0, onTopicServed = 0;
  let allOnTopicAt: number | null = null;
  const kinds = new Map<string, number>();
  for (const r of seen) {
    if (r.content === null && (r.path === '/robots.txt' || r.path.includes('sitemap'))) {
      other++;
      continue;
    }
    requests++;
    if (r.content === null) continue;
    if (served.has(r.content)) {
      duplicates++;
      kinds.set(pathKind(r.path), (kinds.get(pathKind(r.path)) ?? 0) + 1);
      continue;
    }
    served.add(r.content);
    if (byContent.get(r.content)?.onTopic && ++onTopicServed === onTopic.length) allOnTopicAt = requests;
  }
  const found = pages.filter((p) => served.has(p.content));
  return {
    requests, duplicates, other, unique: found.length, onTopic: found.filter((p) => p.onTopic).length, onTopicAll: onTopic.length,
    sitemapOnlyFound: found.filter((p) => p.sitemapOnly).length, sitemapOnlyAll: pages.filter((p) => p.sitemapOnly).length,
    allOnTopicAt, duplicateKinds: [...kinds].sort((a, b) => b[1] - a[1]),
  };
}
