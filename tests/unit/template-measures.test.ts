// What a template crawl's detail shows in place of a harvest rate (design E): records per page fetched and per site.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import type { CrawlRecord } from '../../lib/records/rows';
import { templateMeasures } from '../../lib/ui/template-measures';

const template = { search: { url: 'http://engine.test/search?q={query}&first={offset}', keywords: ['telescope shop'] }, fields: { email: ['e-mail'] } };
const crawl = (fetched: number) => ({ id: 7, stats: { fetched }, config: parseConfig({ template }) }) as unknown as Pick<CrawlRecord, 'id' | 'stats' | 'config'>;

describe('a template crawl is measured by its records', () => {
  it('counts records per page this cycle fetched, and the sites with and without a record', () => {
    const records = [
      { site: 'shop01.test', lastCrawlId: 7 }, { site: 'shop01.test', lastCrawlId: 7 },
      { site: 'shop02.test', lastCrawlId: 7 },
      // Kept from the cycle before: the sampling skipped its site this time.
      { site: 'shop09.test', lastCrawlId: 6 },
    ];
    const m = templateMeasures(crawl(12), records, ['shop01.test', 'shop02.test', 'shop03.test', 'shop04.test', 'engine.test']);
    expect(m).toEqual({ records: 4, fromThisCycle: 3, perPage: 3 / 12, sitesWith: 3, sitesWithout: 2 });
  });

  it('has no rate before the first page', () => {
    expect(templateMeasures(crawl(0), [], []).perPage).toBeNull();
  });
});
