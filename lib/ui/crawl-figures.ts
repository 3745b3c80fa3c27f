// What a crawl's headline figures are, by its strategy: the one answer the crawl list's cards, the popup's cards, the
// crawl detail's tiles, the command line's summary and summary.json all show, so none of them can say another thing.
// A topic crawl is measured by its relevant pages (its harvest rate); a template crawl (design E) by its records, since
// its keyword judge calls every page it fetches relevant; a multi-queue crawl (design D) by its content pages (a
// forum's threads), the list pages it read for links and the queues it takes from. Pure, but for the read of a
// template's records.
import type { CrawlRecord, FieldRecord } from '../records/rows';
import type { CrawlerDB } from '../store/db';
import { formatCount, formatPercent } from './format';

export type CrawlKind = 'topic' | 'template' | 'multi-queue';

export const crawlKind = (crawl: Pick<CrawlRecord, 'config'>): CrawlKind =>
  crawl.config.template ? 'template' : crawl.config.strategy.name === 'multi-queue' ? 'multi-queue' : 'topic';

export type FigureId = 'fetched' | 'relevant' | 'harvestRate' | 'records' | 'recordsPerPage' | 'sitesWithRecord' | 'contentPages' | 'listPages' | 'queues';

export interface Figure {
  id: FigureId;
  /** What it counts, in lower case, as the popup and the list say it after the number ("harvest rate"). */
  label: string;
  /** The number (a rate as a fraction), or null while it cannot be told (a template's records not read yet). */
  value: number | null;
  /** The number as shown: "1,234", "61.5%", "0.28", or "—". */
  text: string;
  /** What it is, in a sentence, for a tooltip. */
  title: string;
  tone?: 'good';
}

/** A template's records as a crawl of it counts them: all the template holds, those this cycle gave, their sites. */
export interface RecordCounts {
  all: number;
  thisCycle: number;
  sites: number;
}

/** The counts of a template's records, for the crawl (cycle) `crawlId`. */
export function recordCounts(records: readonly Pick<FieldRecord, 'site' | 'lastCrawlId'>[], crawlId: number): RecordCounts {
  return { all: records.length, thisCycle: records.filter((r) => r.lastCrawlId === crawlId).length, sites: new Set(records.map((r) => r.site)).size };
}

/** Reads the record counts of each template crawl among `crawls`, by crawl id (none for other crawls). */
export async function readRecordCounts(db: CrawlerDB, crawls: readonly CrawlRecord[]): Promise<Map<number, RecordCounts>> {
  const templates = crawls.filter((c) => c.config.template && c.id !== undefined);
  // Every read started before any is awaited: inside a live query, each of them is then watched.
  const rows = await Promise.all(templates.map((c) => db.records.where('crawlName').equals(c.name).toArray()));
  return new Map(templates.map((c, i) => [c.id!, recordCounts(rows[i]!, c.id!)]));
}

/** Each figure's words and how its number is written. */
const FIGURES: Record<FigureId, { label: string; title: string; as: 'count' | 'percent' | 'ratio'; tone?: 'good' }> = {
  fetched: { label: 'fetched', title: "Pages fetched and judged (a multi-queue crawl's list pages aside)", as: 'count' },
  relevant: { label: 'relevant', title: 'Pages the judge found on topic', as: 'count', tone: 'good' },
  harvestRate: { label: 'harvest rate', title: 'Relevant pages of the pages fetched', as: 'percent' },
  records: { label: 'records', title: "The template's records: pages with at least one field found, as the Records view and its exports list them", as: 'count', tone: 'good' },
  recordsPerPage: { label: 'records / page', title: 'Records this cycle found per page it fetched', as: 'ratio' },
  sitesWithRecord: { label: 'sites with a record', title: 'Sites with at least one record', as: 'count' },
  contentPages: { label: 'content pages', title: "Pages of the content class (the strategy's contentPages): a forum's threads, a news site's articles", as: 'count', tone: 'good' },
  listPages: { label: 'list pages read', title: 'List pages fetched and mined for links, first visits and refreshes: not content, so not counted in fetched', as: 'count' },
  queues: { label: 'queues', title: 'Queues (one per priority) holding URLs to fetch or in flight', as: 'count' },
};

/** A figure from its number (a rate or ratio kept to three places, as summary.json holds it). */
export function figure(id: FigureId, value: number | null): Figure {
  const spec = FIGURES[id];
  const kept = value === null || spec.as === 'count' ? value : Math.round(value * 1000) / 1000;
  // Written from the number kept, so the command line (from summary.json) and the pages write the same.
  const text = kept === null ? '—' : spec.as === 'count' ? formatCount(kept) : spec.as === 'percent' ? formatPercent(kept) : kept.toFixed(2);
  return { id, label: spec.label, value: kept, text, title: spec.title, ...(spec.tone ? { tone: spec.tone } : {}) };
}

/** The figures of summary.json's numbers, in their order. */
export const figuresOf = (values: Readonly<Record<string, number | null>>): Figure[] =>
  Object.entries(values).filter(([id]) => id in FIGURES).map(([id, v]) => figure(id as FigureId, v));

/**
 * The crawl's headline figures, in the order they are shown. `records`: a template crawl's records (absent: not read
 * yet, shown as "—"); the queues are the crawl row's own.
 */
export function crawlFigures(crawl: Pick<CrawlRecord, 'config' | 'stats' | 'queues'>, records?: RecordCounts): Figure[] {
  const { stats } = crawl;
  switch (crawlKind(crawl)) {
    case 'template':
      return [
        figure('fetched', stats.fetched),
        figure('records', records ? records.all : null),
        figure('recordsPerPage', records && stats.fetched > 0 ? records.thisCycle / stats.fetched : null),
        figure('sitesWithRecord', records ? records.sites : null),
      ];
    case 'multi-queue':
      return [
        figure('fetched', stats.fetched),
        figure('contentPages', stats.contentPages ?? 0),
        figure('listPages', stats.listPages ?? 0),
        figure('queues', Object.values(crawl.queues ?? {}).filter((q) => q.queued + q.inFlight > 0).length),
      ];
    case 'topic':
      return [figure('fetched', stats.fetched), figure('relevant', stats.relevant), figure('harvestRate', stats.fetched > 0 ? stats.relevant / stats.fetched : null)];
  }
}

/** The figures as one line: "26 fetched · 16 relevant · 61.5% harvest rate" (the command line joins them with commas). */
export const figuresLine = (figures: readonly Figure[], separator = ' · '): string => figures.map((f) => `${f.text} ${f.label}`).join(separator);

/** The figures as numbers by id, as summary.json holds them. */
export const figureValues = (figures: readonly Figure[]): Record<string, number | null> => Object.fromEntries(figures.map((f) => [f.id, f.value]));
