// the dashboard, in real Chromium: the harvest chart of a crawl and of the other crawls of its
// topic, the links it takes next, labeling a fetched page, starting a crawl for an existing topic, and the
// evaluation of the topic's link classifier in a Web Worker.
// @module-tag chromium
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { send } from '../../scripts/lib/browser';
import { demoConfig } from '../fixtures/sites/demo-site';
import type { CrawlStatus } from '../../lib/app/protocol';
import type { FrontierEntry, LabeledLink, PageLabel, PageRecord } from '../../lib/records/types';
import { useDemoBrowser } from './demo-browser';
import { openDashboard } from './page-objects';

const env = useDemoBrowser();

/** Every row of a store of the extension's database, read from one of its pages. */
function readAll<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate((store) => new Promise<T[]>((resolve, reject) => {
    const open = indexedDB.open('focus');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = open.result.transaction(store).objectStore(store).getAll();
      req.onsuccess = () => {
        open.result.close();
        resolve(req.result as T[]);
      };
      req.onerror = () => reject(req.error);
    };
  }), store);
}

async function finished(page: Page, crawlId: number): Promise<CrawlStatus> {
  let status: CrawlStatus | null = null;
  await expect.poll(async () => (status = await send<CrawlStatus>(page, 'status', { crawlId }))?.crawl.state, { timeout: 60_000, interval: 200 })
    .toBe('finished');
  return status!;
}

const numbers = async (cells: Locator): Promise<number[]> => (await cells.allInnerTexts()).map((t) => Number(t.replace(/[^\d]/g, '')));

it('charts harvest, lists the next links, labels pages and evaluates the topic', async () => {
  const { page, context, extensionId } = env.browser;
  const origin = env.site.origin;
  const { crawlId: first } = await send<{ crawlId: number }>(page, 'start', {
    ...demoConfig(origin), name: 'Sky A', budget: { maxPages: 20 }, politeness: { delayMs: 0, concurrency: 2, robots: true },
  });
  const status = await finished(page, first);
  const topicId = status.crawl.topicId;

  const { dash, errors } = await openDashboard(context, extensionId, `crawl=${first}`);

  // The chart has one line, as long as the crawl's fetched pages.
  const chart = dash.getByTestId('harvest-chart');
  await expect.poll(() => chart.getAttribute('data-lines')).toBe('1');
  expect(Number(await chart.getAttribute('data-points'))).toBe(status.crawl.stats.fetched);
  expect(await chart.locator('canvas').count()).toBeGreaterThan(0);

  // Next up: the ten best queued links, as the frontier index orders them.
  const items = dash.getByTestId('next-up').getByTestId('next-up-item');
  await expect.poll(() => items.count()).toBe(10);
  const frontier = await readAll<FrontierEntry>(dash, 'frontier');
  const best = frontier.filter((e) => e.crawlId === first && e.state === 'queued').sort((a, b) => b.priority - a.priority || b.order - a.order);
  expect(await items.first().locator('a.url').innerText()).toBe(best[0].url);
  const scores = (await items.locator('.score').allInnerTexts()).map(Number);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
  expect(await dash.getByTestId('detail-topic').getAttribute('href')).toBe(`?view=topics&topic=${topicId}`);

  // Label an astronomy page (not the seed: links to it are known) on topic.
  const pages = await readAll<PageRecord>(dash, 'pages');
  const target = pages.find((p) => p.crawlId === first && p.parentUrl && !p.error && p.url.includes('/space/'))!;
  const row = dash.locator(`[data-testid="page-row"][data-seq="${target.seq}"]`);
  await row.getByTestId('page-on').click();
  await expect.poll(() => row.getByTestId('page-label-note').innerText()).toMatch(/^\d+ links? labeled$/);
  const linked = Number((await row.getByTestId('page-label-note').innerText()).split(' ')[0]);
  expect(linked).toBeGreaterThan(0);
  // The button shows the stored label, read live from the database.
  await expect.poll(() => row.getByTestId('page-on').getAttribute('aria-pressed')).toBe('true');
  // The counters count the labeled page apart from the links the crawl labeled, each a number of its own.
  await expect.poll(() => dash.getByTestId('detail-page-labels').innerText()).toBe('1');
  expect(await dash.getByTestId('detail-labels').innerText()).toBe(status.crawl.stats.labels.toLocaleString('en-US'));
  // The line under the counters says where the verdicts come from, and now how the judge did on the label.
  const verdictOnTarget = target.relevant ? 'of the 1 it called relevant, 1 are (precision 100.0%)' : 'agreed with you on 0';
  await expect.poll(() => dash.getByTestId('verdict-line').innerText()).toMatch(/^Relevant means (the keyword judge|the judge trained on your labeled pages|a judge) said so/);
  await expect.poll(() => dash.getByTestId('verdict-line').innerText()).toContain(`On the 1 page you labeled, it `);
  expect(await dash.getByTestId('verdict-line').innerText()).toContain(verdictOnTarget);
  const pageLabels = await readAll<PageLabel>(dash, 'pageLabels');
  expect(pageLabels).toContainEqual(expect.objectContaining({ crawlId: first, seq: target.seq, label: 1, source: 'user', topicId }));
  const fromPage = (await readAll<LabeledLink>(dash, 'labels')).filter((l) => l.source === 'page' && l.url === target.url);
  expect(fromPage).toHaveLength(linked);
  expect(await dash.getByTestId('page-row').filter({ hasText: 'not HTML' }).getByTestId('page-on').count()).toBe(0);

  // A second crawl of the same topic, from the form: the topic's keywords fill in, and the chart compares the two.
  await dash.getByTestId('form-seeds').fill(`${origin}/`);
  await dash.getByTestId('form-topic').selectOption(String(topicId));
  expect(await dash.getByTestId('form-keywords').inputValue()).toBe(status.crawl.config.topic.keywords.join(', '));
  await dash.getByTestId('form-name').fill('Sky B');
  await dash.getByTestId('form-max-pages').fill('12');
  await dash.getByTestId('form-delay').fill('300');
  await dash.getByTestId('start').click();
  await expect.poll(() => dash.getByTestId('detail-name').innerText()).toBe('Sky B');
  const second = Number(new URL(dash.url()).searchParams.get('crawl'));
  // The running crawl's line grows as its pages arrive, without a reload.
  const seen = new Set<number>();
  await expect.poll(async () => {
    seen.add(Number(await chart.getAttribute('data-points')));
    return (await send<CrawlStatus>(page, 'status', { crawlId: second })).crawl.state;
  }, { timeout: 60_000, interval: 100 }).toBe('finished');
  const secondStatus = await finished(page, second);
  expect(secondStatus.crawl.topicId).toBe(topicId);
  await expect.poll(() => chart.getAttribute('data-points')).toBe(String(secondStatus.crawl.stats.fetched));
  expect([...seen].filter((n) => n > 0 && n < secondStatus.crawl.stats.fetched).length).toBeGreaterThanOrEqual(3);
  await expect.poll(() => chart.getAttribute('data-crawls')).toBe(`${second},${first}`);
  expect(await chart.getByTestId('compare-crawl').isChecked()).toBe(true);
  await chart.getByTestId('compare-crawl').uncheck();
  await expect.poll(() => chart.getAttribute('data-lines')).toBe('1');

  // Labels for the evaluation: a dozen links of each class from the frontier, as the labeler sends them.
  // One link per URL (the user has one label per URL), none to the labeled page (its links are labeled already).
  const byUrl = new Map((await readAll<FrontierEntry>(dash, 'frontier')).map((e) => [e.url, e]));
  const known = [...byUrl.values()].filter((e) => e.anchor && e.parentUrl && e.url !== target.url);
  const on = known.filter((e) => e.url.includes('/space/')).slice(0, 12);
  const off = known.filter((e) => /\/(kitchen|sports|news)\//.test(e.url)).slice(0, 12);
  expect([on.length, off.length]).toEqual([12, 12]);
  for (const [links, label] of [[on, 1], [off, 0]] as const) {
    for (const e of links) await send(page, 'labelLink', { topicId, url: e.url, anchor: e.anchor, context: e.context, label });
  }

  await dash.goto(`chrome-extension://${extensionId}/dashboard.html?view=topics&topic=${topicId}`);
  const panel = dash.getByTestId('evaluation-panel');
  await expect.poll(() => panel.getByTestId('eval-source-user').isChecked()).toBe(true);
  expect(await panel.getByTestId('eval-source-verdict').isChecked()).toBe(false);
  expect(await panel.getByTestId('eval-verdict-warning').isVisible()).toBe(false);
  await panel.getByTestId('evaluate').click();
  for (const group of ['eval-group-1', 'eval-group-2']) {
    const card = panel.getByTestId(group);
    await expect.poll(() => card.isVisible(), { timeout: 30_000 }).toBe(true);
    for (const figure of ['precision', 'recall', 'f1', 'accuracy']) {
      expect(await card.locator(`[data-figure="${figure}"]`).innerText()).toMatch(/^[01]\.\d\d$/);
    }
    const cells = await numbers(card.getByTestId('confusion').locator('td'));
    const tested = Number((await card.locator('.confusion-title').innerText()).match(/([\d,]+) test links/)![1]);
    expect(cells.reduce((a, b) => a + b, 0)).toBe(tested);
    expect(tested).toBeGreaterThanOrEqual(7); // 30% of 24 labeled links and more from the page label
  }
  expect(await panel.getByTestId('eval-features-on').locator('li').count()).toBeGreaterThan(0);
  expect(await panel.getByTestId('eval-features-off').locator('li').count()).toBeGreaterThan(0);

  // 3-fold cross-validation tests every label once.
  await panel.getByTestId('eval-method').selectOption('kfold');
  await panel.getByTestId('eval-k').fill('3');
  await panel.getByTestId('eval-k').dispatchEvent('change');
  await panel.getByTestId('evaluate').click();
  await expect.poll(() => panel.getByTestId('eval-status').innerText(), { timeout: 30_000 }).toMatch(/3-fold/);
  const total = Number((await panel.getByTestId('eval-status').innerText()).match(/^([\d,]+) labeled links/)![1]);
  const cells = await numbers(panel.getByTestId('eval-group-2').getByTestId('confusion').locator('td'));
  expect(cells.reduce((a, b) => a + b, 0)).toBe(total);
  expect(total).toBe(24 + linked);
  expect(await panel.getByTestId('eval-group-1').innerText()).toMatch(/±/);
  // Two dozen labels are too few to trust small differences: the panel says so.
  expect(await panel.getByTestId('eval-status').innerText()).toMatch(/Few links to test on .* can move by about ±\d+ points/);

  // Including the crawler's verdicts warns that they inflate the figures.
  await panel.getByTestId('eval-source-verdict').check();
  expect(await panel.getByTestId('eval-verdict-warning').isVisible()).toBe(true);
  expect(errors).toEqual([]);
});
