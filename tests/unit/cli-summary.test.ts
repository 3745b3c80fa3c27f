// The runner's closing summary says what measures the crawl: a harvest rate, or a template crawl's records per page.
import { describe, expect, it } from 'vitest';
import { formatSummary, type Summary } from '../../scripts/crawl';

const base: Summary = {
  name: 'shops', crawlId: 1, state: 'finished', message: null, fetched: 24, relevant: 24, harvestRate: 1, failed: 0, skipped: 0,
  trainPages: 0, frontierLeft: 0, blacklistedSites: 0, dropped: {}, durationSeconds: 12, pagesPerMinute: 120,
};

describe('the runner summary', () => {
  it('gives a topical crawl its harvest rate', () => {
    expect(formatSummary({ ...base, relevant: 18, harvestRate: 0.75 })).toContain('fetched 24 pages, 18 relevant: harvest rate 75.0%');
  });
  it('gives a template crawl its records per page, and no harvest rate', () => {
    const text = formatSummary({ ...base, template: { cycle: 1, searchResults: 8, seedsCrawled: 8, records: 7, changes: null, nextRecrawl: null } });
    expect(text).toContain('fetched 24 pages, 7 records: 0.29 records per page');
    expect(text).not.toMatch(/harvest/);
  });
});
