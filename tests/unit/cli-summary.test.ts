// The runner's closing summary says the figures that measure the crawl, as the dashboard and the popup do: a harvest
// rate, a template crawl's records per page, a multi-queue crawl's content and list pages.
import { describe, expect, it } from 'vitest';
import { formatSummary, type Summary } from '../../scripts/crawl';

const base: Summary = {
  name: 'shops', crawlId: 1, state: 'finished', message: null, figures: { fetched: 24, relevant: 18, harvestRate: 0.75 }, fetched: 24,
  relevant: 18, requests: 25, failed: 1, skipped: 0, trainPages: 0, frontierLeft: 0, blacklistedSites: 0, dropped: {}, durationSeconds: 12,
  pagesPerMinute: 115,
};

describe('the runner summary', () => {
  it('gives a topical crawl its harvest rate', () => {
    const lines = formatSummary(base).split('\n');
    expect(lines[1]).toBe('  24 fetched, 18 relevant, 75.0% harvest rate');
    expect(lines[2]).toBe('  25 requests, failed 1, skipped 0, training pages 0, frontier left 0');
    expect(lines).toContain('  12.0 s, 115 pages/minute');
  });
  it('gives a template crawl its records per page, and no harvest rate', () => {
    const text = formatSummary({
      ...base, relevant: undefined, figures: { fetched: 24, records: 7, recordsPerPage: 0.292, sitesWithRecord: 6 },
      template: { cycle: 1, searchResults: 8, seedsCrawled: 8, records: 7, changes: null, nextRecrawl: null },
    });
    expect(text).toContain('24 fetched, 7 records, 0.29 records / page, 6 sites with a record');
    expect(text).not.toMatch(/harvest|relevant/);
  });
  it('gives a multi-queue crawl its content pages, list pages and queues', () => {
    expect(formatSummary({ ...base, figures: { fetched: 60, contentPages: 16, listPages: 4, queues: 0 } }))
      .toContain('  60 fetched, 16 content pages, 4 list pages read, 0 queues\n');
  });
  it('says a run too short for a rate of pages a minute is one', () => {
    expect(formatSummary({ ...base, pagesPerMinute: null })).toContain('  12.0 s, too short for a rate of pages a minute');
  });
  it('says what went to content already held, what was not requested, the sitemaps, and what was learned', () => {
    const text = formatSummary({ ...base, duplicates: {
      duplicates: 3, notRequestedByRule: 212, notRequestedByCanonical: 25, sitemapFiles: 4, sitemapQueued: 110, sitemapFetched: 80,
      learned: ['on shop.test, `sort` and `view` do not change content: 212 URLs not requested'],
    } });
    expect(text).toContain('duplicates fetched 3; not requested: 212 by a learned rule, 25 by a canonical link; sitemaps: 4 files, 110 URLs queued, 80 fetched');
    expect(text).toContain('\n  on shop.test, `sort` and `view` do not change content: 212 URLs not requested');
  });
  it('says how much of the topic the crawl holds, or why it cannot say', () => {
    const history = [{ fetched: 200, estimate: 0.41, low: 0.2, high: 0.6 }, { fetched: 300, estimate: 0.72, low: 0.65, high: 0.8 }];
    expect(formatSummary({ ...base, recall: { estimate: 0.72, low: 0.65, high: 0.8, history } }))
      .toContain('  recall: about 72% of the topic found (65-80%)');
    expect(formatSummary({ ...base, recall: { estimate: null, low: null, high: null, note: 'not enough to estimate yet', history: [] } }))
      .toContain('  recall: not enough to estimate yet');
    expect(formatSummary(base)).not.toMatch(/recall/);
  });
});
