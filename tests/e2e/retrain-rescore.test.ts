// The frontier order of a running crawl changes after retraining, in the real
// extension. Labels go in through the same messages the labeler and the dashboard send.
// @module-tag chromium
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { send } from '../../scripts/lib/browser';
import { demoConfig } from '../fixtures/sites/demo-site';
import { useDemoBrowser } from './demo-browser';

const env = useDemoBrowser();

interface Queued { url: string; anchor: string; context: string; priority: number }

/** The best `n` queued frontier entries, best first, read from the extension's IndexedDB as the dashboard does. */
function nextUp(page: Page, crawlId: number, n: number): Promise<Queued[]> {
  return page.evaluate(([crawlId, n]) => new Promise<Queued[]>((resolve, reject) => {
    const open = indexedDB.open('focus');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const index = open.result.transaction('frontier').objectStore('frontier').index('[crawlId+state+priority+order]');
      const range = IDBKeyRange.bound([crawlId, 'queued', -Infinity, -Infinity], [crawlId, 'queued', Infinity, Infinity]);
      const out: Queued[] = [];
      const cursor = index.openCursor(range, 'prev');
      cursor.onsuccess = () => {
        const c = cursor.result;
        if (!c || out.length >= n) {
          open.result.close();
          return resolve(out);
        }
        const e = c.value as Queued & { state: string };
        if (e.state === 'queued') out.push({ url: e.url, anchor: e.anchor, context: e.context, priority: e.priority });
        c.continue();
      };
    };
  }), [crawlId, n] as const);
}

it('re-scores the queued links of a running crawl after a retrain, in the direction of the new labels', async () => {
  const { page } = env.browser;
  const { crawlId } = await send<{ crawlId: number }>(page, 'start', {
    ...demoConfig(env.site.origin), name: 'rescore', budget: { maxPages: 60 },
    // Slow enough that the frontier stays put while it is read, labeled and re-scored.
    politeness: { delayMs: 1500, concurrency: 1, robots: false },
    learning: { rescoreEveryPages: 0, rescoreEveryLabels: 0 },
  });
  let before: Queued[] = [];
  await expect.poll(async () => (before = await nextUp(page, crawlId, 40)).length).toBeGreaterThanOrEqual(10);
  const status = await send<{ crawl: { topicId: number; lastRescore?: unknown } }>(page, 'status', { crawlId });
  const topicId = status.crawl.topicId;
  expect(status.crawl.lastRescore).toBeUndefined();
  const liked = before.slice(-3), disliked = before.slice(0, 3);
  for (const [links, label] of [[liked, 1], [disliked, 0]] as const) {
    for (const e of links) await send(page, 'labelLink', { topicId, url: e.url, anchor: e.anchor, context: e.context, label });
  }
  const retrainedAt = Date.now();
  const report = await send<{ rescoring: number[]; examples: { pos: number; neg: number } }>(page, 'retrain', { topicId });
  expect(report.rescoring).toEqual([crawlId]);
  expect(report.examples).toEqual({ pos: 3, neg: 3 });
  // A whole re-score of the queue that began after the retrain: the retrain's own, or the one the answers' drift
  // of the class counts asks for when it comes last (both score with every label).
  await expect.poll(async () => {
    const r = (await send<{ crawl: { lastRescore?: { why: string; at: number; ms: number; complete?: boolean } } }>(page, 'status', { crawlId })).crawl.lastRescore;
    return r && r.complete !== false && r.at - r.ms >= retrainedAt - 1000 ? r.why : null;
  }).toMatch(/^(retrained|answers moved the class counts)$/);
  const after = await nextUp(page, crawlId, 200);
  const rank = (list: Queued[], url: string) => list.findIndex((e) => e.url === url);
  const stillQueued = (e: Queued) => rank(after, e.url) >= 0;
  expect(liked.filter(stillQueued).length).toBeGreaterThan(0);
  for (const e of liked.filter(stillQueued)) expect(rank(after, e.url)).toBeLessThan(rank(before, e.url));
  for (const e of disliked.filter(stillQueued)) expect(rank(after, e.url)).toBeGreaterThan(rank(before, e.url));
  // The best link now is one the user liked (or one alike to it), not what led before.
  expect(after[0].url).not.toBe(before[0].url);
  await send(page, 'stop', { crawlId });
});
