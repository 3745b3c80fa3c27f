// What measures a template crawl (design E): the records it found, per page it fetched, and the sites that gave a
// record and those that gave none. A template crawl fetches only the pages its filter layers lead to and keeps
// no topic judge's verdicts worth a harvest rate: the keyword judge calls every page of it relevant.
import Dexie from 'dexie';
import type { CrawlRecord, FieldRecord } from '../records/rows';
import type { CrawlerDB } from '../store/db';
import { siteOf } from '../records/url';
import { engineUrl } from '../records/template-config';

export interface TemplateMeasures {
  /** The template's records after this cycle: the rows of the Records view and of its exports. */
  records: number;
  /** Of them, those this cycle's pages gave (the rest are kept from sites the sampling skipped this time). */
  fromThisCycle: number;
  /** Records this cycle gave per page it fetched, or null before its first page. */
  perPage: number | null;
  /** Sites with at least one record. */
  sitesWith: number;
  /** Sites this cycle fetched pages of that gave no record (the search engine's own site is not one of them). */
  sitesWithout: number;
}

/** The measures from the template's records and the sites this cycle fetched pages of. */
export function templateMeasures(
  crawl: Pick<CrawlRecord, 'id' | 'stats' | 'config'>,
  records: readonly Pick<FieldRecord, 'site' | 'lastCrawlId'>[],
  fetchedSites: readonly string[],
): TemplateMeasures {
  const withRecord = new Set(records.map((r) => r.site));
  const template = crawl.config.template;
  const engine = template ? siteOf(engineUrl(template)) : undefined;
  const fromThisCycle = records.filter((r) => r.lastCrawlId === crawl.id).length;
  return {
    records: records.length,
    fromThisCycle,
    perPage: crawl.stats.fetched > 0 ? fromThisCycle / crawl.stats.fetched : null,
    sitesWith: withRecord.size,
    sitesWithout: new Set(fetchedSites.filter((s) => s !== engine && !withRecord.has(s))).size,
  };
}

/** The rows the measures are read from: the template's records and the sites this crawl fetched pages of. */
export async function readTemplateMeasures(db: CrawlerDB, crawl: CrawlRecord): Promise<TemplateMeasures> {
  const [records, sites] = await Promise.all([
    db.records.where('crawlName').equals(crawl.name).toArray(),
    db.sites.where('[crawlId+site]').between([crawl.id!, Dexie.minKey], [crawl.id!, Dexie.maxKey]).toArray(),
  ]);
  return templateMeasures(crawl, records, sites.filter((s) => s.fetched > 0).map((s) => s.site));
}

/**
 * The crawl row (written with every page, so a site's count moving is seen) and one row of each table the measures
 * read, all reads started at once, to watch them (see watchThrottled).
 */
export function templateMeasureChanges(db: CrawlerDB, crawl: CrawlRecord): Promise<unknown> {
  return Promise.all([
    db.crawls.get(crawl.id!),
    db.records.where('crawlName').equals(crawl.name).limit(1).toArray(),
    db.sites.where('[crawlId+site]').between([crawl.id!, Dexie.minKey], [crawl.id!, Dexie.maxKey]).limit(1).toArray(),
  ]);
}
