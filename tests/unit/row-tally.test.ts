// What a crawl's page rows are, said where they are counted: the parts always add up to the rows, and a row count
// that needs no words gets none.
import { expect, it } from 'vitest';
import { rowTally, rowTallyText } from '../../lib/ui/row-tally';

const crawl = (s: { attempts: number; trainPages?: number; copies?: number; robotsKept?: number }) => ({ stats: { trainPages: 0, ...s } as never });

it('names the rows the budget does not count, the requests first', () => {
  expect(rowTallyText(rowTally(crawl({ attempts: 40, robotsKept: 1 }), 41))).toBe('41 rows: 40 requests, 1 kept by robots.txt');
  expect(rowTallyText(rowTally(crawl({ attempts: 590, trainPages: 10 }), 600))).toBe('600 rows: 590 requests, 10 training reads');
  expect(rowTallyText(rowTally(crawl({ attempts: 3, trainPages: 1, copies: 1 }), 6))).toBe('6 rows: 3 requests, 1 training read, 1 copy of a training read, 1 not requested');
});

it('says nothing when every row is a request, even when pages took more than one', () => {
  expect(rowTallyText(rowTally(crawl({ attempts: 40 }), 40))).toBeNull();
  // A template's search page, a redirect's hops: 28 requests made 27 rows.
  expect(rowTallyText(rowTally(crawl({ attempts: 28 }), 27))).toBeNull();
});

it('adds up when some rows took more than one request and others none', () => {
  expect(rowTallyText(rowTally(crawl({ attempts: 42, robotsKept: 1 }), 41))).toBe('41 rows: 40 from 42 requests, 1 kept by robots.txt');
});
