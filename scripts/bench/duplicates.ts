// What a crawl of the test shop (tests/fixtures/sites/catalog-shop.ts) spends on content it already holds, as the
// shop's server counts it: its page requests, those answered with content served before, the on-topic pages found and
// the pages only its sitemap lists, at a few budgets, with the seeds' sitemaps read and not. docs/benchmarks.md
// ("Duplicates") holds the table.
//   npx tsx scripts/bench/duplicates.ts [--budgets 150,222,unlimited] [--concurrency N]
// At the product's politeness without its delay (2 at once, 1 a host: one at a time on the one-host shop), or N at
// once, N a host.
// With `--sitemap-cases Science:Atom,...`: instead, the default of seeds.sitemaps on Wikispeedia crawled in Node as one
// site (scripts/bench/node-crawl.ts), sitemaps off, on with no sitemap served, and on with one listing every article.
import { parseArgs } from 'node:util';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';
import { learnedText } from '../../lib/ui/duplicate-words';
import { startCatalogShop, uniquePages, type CatalogShop } from '../../tests/fixtures/sites/catalog-shop';
import { loopbackFetch } from '../../tests/support/loopback-fetch';
import { shopSpend } from '../../tests/support/shop-measure';
import { markdownTable } from './report';
import { loadCorpusInMemory, runNodeCase } from './node-crawl';
import { DEFAULT_CORPUS } from './wikispeedia';

/** A budget no crawl of the shop reaches: the crawl ends when its frontier does. */
const UNLIMITED = 100_000;
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
const KEYWORDS = ['telescope', 'astronomy', 'eyepiece', 'observing', 'galaxy', 'stars'];

async function crawlShop(shop: CatalogShop, maxPages: number, sitemaps: boolean, concurrency?: number) {
  shop.seen.length = 0;
  const store = new CrawlStore(new CrawlerDB(`dup-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: loopbackFetch(shop.port), clock: realClock });
  const { crawlId } = await service.handlers.start({
    name: 'shop', seeds: { urls: ['http://shop.test/'], sitemaps }, topic: { keywords: KEYWORDS }, budget: { maxPages },
    politeness: { delayMs: 0, ...(concurrency ? { concurrency, perHost: concurrency } : {}) },
  });
  await service.settled(crawlId);
  const crawl = (await store.getCrawl(crawlId))!;
  return { crawl, spend: shopSpend(shop.seen) };
}

/** Harvest and recall at 250 and 500 pages of best-first on Wikispeedia, by whether sitemaps are read and served. */
async function sitemapDefault(cases: string[]): Promise<void> {
  loadCorpusInMemory(DEFAULT_CORPUS, 'one-site');
  const rows: (string | number | null)[][] = [];
  for (const c of cases) {
    const [topic, seed] = c.split(':') as [string, string];
    for (const mode of ['off', 'on, none served', 'on, served'] as const) {
      const r = await runNodeCase({
        corpus: DEFAULT_CORPUS, topic, seed, budget: 500, strategy: 'best-first', concurrency: 4, web: 'one-site', maxSources: 300,
        seedSitemaps: mode !== 'off', serveSitemaps: mode === 'on, served',
      });
      const at = (n: number) => r.table.find((x) => x.fetched === n) ?? r.table.at(-1)!;
      rows.push([`${topic} from ${seed}`, mode, at(250).scoredHarvest, at(250).scoredRecall, at(500).scoredHarvest, at(500).scoredRecall]);
      console.error(`done: ${c} ${mode}`);
    }
  }
  console.log(markdownTable(['case', 'sitemaps', 'scored harvest @250', 'scored recall @250', 'scored harvest @500', 'scored recall @500'], rows));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { budgets: { type: 'string', default: `150,${2 * uniquePages().length},unlimited` }, 'sitemap-cases': { type: 'string' }, concurrency: { type: 'string' } } });
  const concurrency = values.concurrency ? Number(values.concurrency) : undefined;
  if (values['sitemap-cases']) return sitemapDefault(values['sitemap-cases'].split(','));
  const budgets = values.budgets.split(',').map((b) => (b === 'unlimited' ? UNLIMITED : Number(b)));
  const shop = await startCatalogShop();
  const rows: (string | number)[][] = [];
  const kinds: string[] = [];
  try {
    for (const budget of budgets) {
      for (const sitemaps of [true, false]) {
        const { crawl, spend } = await crawlShop(shop, budget, sitemaps, concurrency);
        const s = crawl.stats;
        rows.push([
          budget === UNLIMITED ? 'unlimited' : budget, sitemaps ? 'on' : 'off', spend.requests + spend.other,
          `${spend.duplicates} (${pct(spend.duplicates, spend.requests + spend.other)} of requests${budget === UNLIMITED ? '' : `, ${pct(spend.duplicates, budget)} of budget`})`,
          `${spend.onTopic} / ${spend.onTopicAll}`, `${spend.sitemapOnlyFound} / ${spend.sitemapOnlyAll}`, `${spend.unique} / ${uniquePages().length}`,
          spend.allOnTopicAt ?? '—', s.variantSkips ?? 0, s.canonicalSkips ?? 0, s.duplicates ?? 0,
        ]);
        kinds.push(`${budget === UNLIMITED ? 'unlimited' : budget}, sitemaps ${sitemaps ? 'on' : 'off'}: duplicates by kind ${spend.duplicateKinds.map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}; ${learnedText(crawl.variants).join('; ')}`);
        console.error(`done: budget ${budget}, sitemaps ${sitemaps}`);
      }
    }
  } finally {
    await shop.close();
  }
  console.log(markdownTable(
    ['budget', 'sitemaps', 'requests', 'duplicates fetched', 'on-topic found', 'sitemap-only found', 'unique found', 'all on-topic by request', 'not requested: rule', 'not requested: canonical', 'duplicates the crawl recorded'],
    rows,
  ));
  for (const k of kinds) console.log(`- ${k}`);
}

await main();
