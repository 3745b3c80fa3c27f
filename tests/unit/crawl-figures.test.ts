// A crawl's headline figures by its strategy: the one answer the crawl list, the popup, the detail, the command line
// and summary.json show.
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../lib/records/config';
import type { CrawlRecord } from '../../lib/records/rows';
import { crawlFigures, crawlKind, figuresLine, figuresOf, figureValues, recordCounts } from '../../lib/ui/crawl-figures';

const stats = { attempts: 40, fetched: 36, relevant: 22, failed: 2, skipped: 3, queued: 12, trainPages: 0, labels: 0, bytes: 0 };
const crawlOf = (over: Partial<CrawlRecord['config']>, more: Partial<CrawlRecord> = {}) =>
  ({ config: { ...structuredClone(DEFAULTS), ...over } as CrawlRecord['config'], stats: { ...stats }, ...more });

describe('crawl figures', () => {
  it('measures a topic crawl by its relevant pages and harvest rate', () => {
    const figures = crawlFigures(crawlOf({}));
    expect(figuresLine(figures)).toBe('36 fetched · 22 relevant · 61.1% harvest rate');
    expect(figureValues(figures)).toEqual({ fetched: 36, relevant: 22, harvestRate: 0.611 });
    expect(crawlFigures({ ...crawlOf({}), stats: { ...stats, fetched: 0, relevant: 0 } }).map((f) => f.text)).toEqual(['0', '0', '—']);
  });

  it('measures a template crawl by its records, this cycle\'s per page, and their sites; never by relevance', () => {
    const template = crawlOf({ template: {} as never });
    expect(crawlKind(template)).toBe('template');
    const records = recordCounts([{ site: 'a.test', lastCrawlId: 7 }, { site: 'a.test', lastCrawlId: 7 }, { site: 'b.test', lastCrawlId: 3 }], 7);
    expect(records).toEqual({ all: 3, thisCycle: 2, sites: 2 });
    expect(figuresLine(crawlFigures(template, records))).toBe('36 fetched · 3 records · 0.06 records / page · 2 sites with a record');
    // Before its records are read: said as not known, not as none.
    expect(figuresLine(crawlFigures(template))).toBe('36 fetched · — records · — records / page · — sites with a record');
  });

  it('measures a multi-queue crawl by its content pages, list pages and the queues it takes from', () => {
    const mq = crawlOf({ strategy: { name: 'multi-queue' } }, {
      stats: { ...stats, contentPages: 16, listPages: 4 }, queues: { 5: { queued: 3, inFlight: 0 }, 4: { queued: 0, inFlight: 1 }, 3: { queued: 0, inFlight: 0 } },
    });
    expect(figuresLine(crawlFigures(mq))).toBe('36 fetched · 16 content pages · 4 list pages read · 2 queues');
  });

  it('reads summary.json\'s numbers back as the same figures', () => {
    const figures = crawlFigures(crawlOf({}));
    expect(figuresOf(figureValues(figures))).toEqual(figures);
  });
});
