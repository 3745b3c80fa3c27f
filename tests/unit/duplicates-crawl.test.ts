// A crawl of the test shop (tests/fixtures/sites/catalog-shop.ts) that spends its budget on new content: at most 5% of
// a budget of twice the shop's unique pages goes to content already held (the probes that teach each rule), every
// unique on-topic page is found (those only its sitemap lists too), the parameters and suffixes that change nothing
// are learned and their URLs not requested, and none that changes content is. Counted by what the server saw, not by
// what the crawl recorded.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import { learnedRules } from '../../lib/learning/url-variants';
import { pageLine } from '../../lib/export/jsonl';
import { duplicatesText, learnedText, sitemapsText } from '../../lib/ui/duplicate-words';
import { startCatalogShop, uniquePages, type CatalogShop } from '../fixtures/sites/catalog-shop';
import { loopbackFetch } from '../support/loopback-fetch';
import { shopSpend } from '../support/shop-measure';

let shop: CatalogShop;
beforeAll(async () => {
  shop = await startCatalogShop();
});
afterAll(() => shop.close());

export const SHOP_CONFIG = {
  name: 'shop', topic: { keywords: ['telescope', 'astronomy', 'eyepiece', 'observing', 'galaxy', 'stars'] },
  // The product's politeness without its delay: one request at a time on the shop's one host.
  politeness: { delayMs: 0 },
};

async function crawlShop(maxPages: number, sitemaps = true) {
  shop.seen.length = 0;
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: loopbackFetch(shop.port), clock: realClock });
  const { crawlId } = await service.handlers.start({ ...SHOP_CONFIG, seeds: { urls: ['http://shop.test/'], sitemaps }, budget: { maxPages } });
  await service.settled(crawlId);
  return { store, crawlId, crawl: (await store.getCrawl(crawlId))!, spend: shopSpend(shop.seen) };
}

describe('a crawl of a shop that serves its pages under many URLs', { timeout: 300_000 }, () => {
  const unique = uniquePages();

  it('spends at most 5% of a budget of twice its unique pages on content held, and finds every unique on-topic page', async () => {
    const budget = 2 * unique.length;
    const { crawl, spend, store, crawlId } = await crawlShop(budget);
    expect(crawl.state).toBe('finished');
    expect(spend.duplicates / budget).toBeLessThanOrEqual(0.05);
    expect(spend.onTopic).toBe(spend.onTopicAll);
    expect(spend.sitemapOnlyFound).toBe(spend.sitemapOnlyAll);
    expect(spend.unique).toBe(unique.length);
    // Every on-topic page was in before the crawl turned to URLs it took for other spellings.
    expect(spend.allOnTopicAt).toBeLessThanOrEqual(Math.ceil(1.1 * unique.length));

    // What it learned of the shop's URLs, and what that kept it from requesting.
    const host = crawl.variants?.['shop.test'];
    const learned = learnedRules(host);
    for (const rule of ['?sort', '?view', '/', 'named']) expect(learned, rule).toContain(rule);
    // A post's reply links (?replytocom=) name it by its slug: one or two asked for at most, the rest known as the post.
    expect(shop.seen.filter((r) => r.path.includes('replytocom')).length).toBeLessThanOrEqual(2);
    // Parameters that change what a listing shows are never learned: a page number, a brand filter.
    for (const rule of ['?page', '?brand']) expect(learned, rule).not.toContain(rule);
    expect(host!.notRequested).toBeGreaterThan(200);
    expect(crawl.stats.variantSkips).toBe(host!.notRequested);
    // As the crawl detail and the CLI say it.
    expect(learnedText(crawl.variants)).toEqual([expect.stringMatching(new RegExp(`^on shop\\.test, (?=.*\`sort\`)(?=.*\`view\`)(?!.*\`ref=).* do not change content: ${host!.notRequested.toLocaleString('en-US')} URLs not requested$`))]);
    // And none of them wrongly: every listing a brand filter or a page number makes was asked for, as it is or sorted
    // or viewed another way (which the crawl learns changes nothing: `?brand=ioptron&sort=price` is `?brand=ioptron`).
    const served = [...new Set(shop.seen.map((r) => r.path))];
    const askedFor = (path: string) => served.some((s) => {
      const [got, want] = [new URL(s, 'http://shop.test'), new URL(path, 'http://shop.test')];
      return got.pathname === want.pathname && [...want.searchParams].every(([k, v]) => got.searchParams.get(k) === v) &&
        [...got.searchParams.keys()].every((k) => want.searchParams.has(k) || k === 'sort' || k === 'view');
    });
    for (const path of ['/c/telescopes/?page=2', '/c/telescopes/?brand=orion', '/c/eyepieces/?brand=baader', '/c/mounts/?brand=ioptron']) expect(askedFor(path), path).toBe(true);

    // Counted on the crawl row, and told in the export.
    expect(crawl.stats.duplicates).toBe(spend.duplicates);
    expect(crawl.stats.canonicalSkips).toBeGreaterThan(10);
    expect(crawl.stats).toMatchObject({ sitemapRequests: 4, sitemapQueued: expect.any(Number), sitemapFetched: expect.any(Number) });
    expect(sitemapsText(crawl)).toBe(`4 files read: ${crawl.stats.sitemapQueued} URLs queued, ${crawl.stats.sitemapFetched} fetched`);
    expect(duplicatesText(crawl.stats)).toBe(`${spend.duplicates} duplicates found; not requested: ${crawl.stats.variantSkips} URLs by a learned rule, ${crawl.stats.canonicalSkips} by a canonical link`);
    const rows = await store.pages.pagesAfter(crawlId, 0, 1000);
    const dup = rows.find((r) => r.duplicateOf !== undefined)!;
    expect(dup).toMatchObject({ relevant: null, kind: 'duplicate' });
    expect(JSON.parse(pageLine(dup)).duplicateOf).toBe(dup.duplicateOf);
    expect(rows.filter((r) => r.duplicateOf !== undefined)).toHaveLength(spend.duplicates);
  });

  it('without its sitemaps, finds every page a link reaches for as little', async () => {
    const { spend } = await crawlShop(2 * unique.length, false);
    expect(spend.duplicates / (2 * unique.length)).toBeLessThanOrEqual(0.05);
    expect(spend.onTopic).toBe(spend.onTopicAll - unique.filter((p) => p.sitemapOnly && p.onTopic).length);
    expect(spend.sitemapOnlyFound).toBe(0);
  });
});
