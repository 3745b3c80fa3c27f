// Which crawls the popup lists, in which order.
import { expect, it } from 'vitest';
import type { CrawlRecord, CrawlState } from '../../lib/records/rows';
import { popupOrder } from '../../lib/ui/popup-crawls';

const row = (id: number, state: CrawlState) => ({ id, state }) as CrawlRecord;

it('lists the running crawls first, then the paused ones, then the newest that ended', () => {
  // Newest first, as the database gives them.
  const crawls = [row(6, 'finished'), row(5, 'running'), row(4, 'paused'), row(3, 'stopped'), row(2, 'training'), row(1, 'running')];
  expect(popupOrder(crawls).map((c) => c.id)).toEqual([5, 2, 1, 4, 6]);
  expect(popupOrder([row(2, 'failed'), row(1, 'finished')]).map((c) => c.id)).toEqual([2]);
  expect(popupOrder([])).toEqual([]);
});
