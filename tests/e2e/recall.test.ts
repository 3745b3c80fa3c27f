// How much of the topic a crawl holds, in the browser: a crawl started from the dashboard's form with a target recall
// ends once its estimate reaches it, well inside its page budget, and the popup and the crawl detail say how much of
// the topic it found, against what the site's server saw requested. A young crawl says it has not enough to go on.
// @module-tag chromium
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, type Launched } from '../../scripts/lib/browser';
import { serveTopicWeb, type TopicWeb } from '../fixtures/sites/topic-web';
import type { Locator } from 'playwright-core';
import { DashboardPage, openDashboard, PopupPage } from './page-objects';

let site: { web: TopicWeb; close(): Promise<void> };
let browser: Launched;

beforeAll(async () => {
  ensureBuilt();
  site = await serveTopicWeb(2000);
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The New crawl form filled as a user would: the first sixty pages labeled by the truth, forty read for links. */
async function startFromForm(dashboard: DashboardPage, name: string, maxPages: number, targetRecall: string): Promise<void> {
  const { web } = site;
  const labeled = Array.from({ length: 60 }, (_, k) => k + 1);
  const p = dashboard.page;
  await p.getByTestId('form-link-sources').fill(labeled.slice(0, 40).map(web.url).join('\n'));
  await p.getByTestId('form-positive').fill(labeled.filter(web.onTopic).map(web.url).join('\n'));
  await p.getByTestId('form-negative').fill(labeled.filter((i) => !web.onTopic(i)).map(web.url).join('\n'));
  await p.getByTestId('form-concurrency').fill('4');
  await p.getByTestId('form-target-recall').fill(targetRecall);
  await dashboard.startCrawl({ name, seeds: web.url(0), keywords: 'astronomy, telescope, planet', maxPages, delayMs: 0 });
}

/** A line's text as the user reads it: nothing when it is hidden (innerText reads a hidden element's text too). */
const shown = async (line: Locator): Promise<string> => ((await line.isVisible()) ? line.innerText() : '(hidden)');

/** The share of the topic's pages reachable from the seed that the server was asked for. */
function servedShare(web: TopicWeb): { share: number; pages: number } {
  const topic = [...web.reachable].filter(web.onTopic);
  const served = (i: number) => (web.hits.get(`/p/${i}`) ?? 0) > 0;
  const pages = [...web.hits.keys()].filter((path) => path.startsWith('/p/')).length;
  return { share: topic.filter(served).length / topic.length, pages };
}

it('refuses a target recall that is no share of the topic beside its field', async () => {
  const dashboard = await new DashboardPage(await browser.context.newPage(), browser.extensionId).open();
  await startFromForm(dashboard, 'too much', 100, '1.5');
  await expect.poll(() => dashboard.fieldError('form-target-recall'))
    .toEqual({ text: 'Target recall must be a share of the topic above 0 and at most 1, e.g. 0.8 (you wrote 1.5)', marked: true });
  expect(await dashboard.page.getByTestId('crawl-item').count()).toBe(0);
  await dashboard.page.close();
});

it('stops a crawl at its target recall and says how much of the topic it found, in the popup and the crawl detail', async () => {
  const dashboard = await new DashboardPage(await browser.context.newPage(), browser.extensionId).open();
  await startFromForm(dashboard, 'Sky, to 80%', 1500, '0.8');
  const popup = await new PopupPage(await browser.context.newPage(), browser.extensionId).open();
  await popup.waitFor(async () => /finished/i.test(await popup.state()), 300_000);

  const message = await popup.card().getByTestId('message').innerText();
  const sentence = await shown(popup.card().getByTestId('recall'));
  const [, said] = /^target recall reached: about (\d+)% of the topic found$/.exec(message) ?? [];
  const [, estimate, low, high] = (/^about (\d+)% of the topic found \((\d+)-(\d+)%\)$/.exec(sentence) ?? []).map(Number);
  expect(said, message).toBeDefined();
  expect(estimate, sentence).toBe(Number(said));
  expect(estimate).toBeGreaterThanOrEqual(80);
  expect(low).toBeLessThanOrEqual(estimate!);
  expect(high).toBeGreaterThanOrEqual(estimate!);

  // What the server saw: the crawl stopped well inside its budget of 1,500, holding what it said it held.
  const truth = servedShare(site.web);
  expect(truth.pages).toBeLessThan(1200);
  // Within 20 points of what the server served: the goal is 10, not met on every topic (docs/benchmarks.md).
  expect(Math.abs(truth.share * 100 - estimate!)).toBeLessThanOrEqual(20);

  // The crawl detail: the same sentence, and the estimates against pages fetched, one every hundred pages.
  const id = Number(await popup.card().getAttribute('data-crawl-id'));
  const { dash, errors } = await openDashboard(browser.context, browser.extensionId, `crawl=${id}`);
  await expect.poll(() => shown(dash.getByTestId('detail-recall'))).toBe(sentence);
  const chart = dash.getByTestId('recall-chart');
  await expect.poll(async () => Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
  expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
  expect(errors).toEqual([]);
}, 420_000);

it('says it has not enough to estimate yet while a crawl is young', async () => {
  const dashboard = await new DashboardPage(await browser.context.newPage(), browser.extensionId).open();
  await startFromForm(dashboard, 'Sky, a first look', 60, '');
  const opened = await new PopupPage(await browser.context.newPage(), browser.extensionId).open();
  const card = opened.page.getByTestId('popup-crawl').filter({ has: opened.page.getByText('Sky, a first look', { exact: true }) });
  await card.waitFor({ timeout: 30_000 });
  const id = Number(await card.getAttribute('data-crawl-id'));
  const popup = opened.crawl(id);
  await popup.waitFor(async () => /finished/i.test(await popup.state()), 120_000);
  expect(await shown(popup.card().getByTestId('recall'))).toBe('not enough to estimate yet');
  const { dash } = await openDashboard(browser.context, browser.extensionId, `crawl=${id}`);
  await expect.poll(() => shown(dash.getByTestId('detail-recall'))).toBe('not enough to estimate yet');
  expect(await dash.getByTestId('recall-chart').getAttribute('data-points')).toBe('0');
}, 180_000);
