// Every place that sums a crawl up shows the figures of its strategy, and they agree with its rows: the crawl list's
// card, the popup's card, the detail's tiles, the command line's summary and summary.json, for a best-first crawl of
// the demo site, a template crawl of company sites and a multi-queue crawl of a forum, each crawled for real through
// the command-line runner in Chromium. The Pages table's rows, the budget and the export's lines agree too: a row
// the budget does not count says why where the rows are counted.
// @module-tag chromium
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatSummary, runCrawl, type Summary } from '../../scripts/crawl';
import { ensureBuilt } from '../../scripts/lib/browser';
import { companies, companyConfig, startCompanyWorld, type CompanyWorld } from '../fixtures/sites/company-sites';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';
import { forumConfig, startForumSite, type ForumSite } from '../fixtures/sites/forum-site';
import { openDashboard, shownFigures } from './page-objects';

let demo: DemoServer;
let world: CompanyWorld;
let forum: ForumSite;
beforeAll(async () => {
  ensureBuilt();
  [demo, world, forum] = await Promise.all([startDemoServer(), startCompanyWorld(companies(8)), startForumSite()]);
  // shop01's contact page has details, none of which is an e-mail address or a phone number: a site without a record.
  Object.assign(world.sites.get('shop01')!, { email: 'ask in the shop', phone: 'ring the bell' });
});
afterAll(async () => {
  await Promise.all([demo?.close(), world?.close(), forum?.close()]);
});

interface Line { seq: number; phase: string; outcome?: string; relevant: boolean | null; urlClass?: string; error?: string; redirects?: unknown[]; copyOf?: number }

/** What a user reads of one finished crawl: each place's figures by id, the list card's line, the table's count. */
interface Shown {
  list: Record<string, string>;
  listText: string;
  popup: Record<string, string>;
  popupText: string;
  tiles: Record<string, string>;
  range: string;
  budgetParts: string;
}

/** Polls a read for up to 20 s until `done` says it is complete; returns the last read either way. */
async function settled<T>(page: Page, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 20_000;
  let v = await read();
  while (!done(v) && Date.now() < end) {
    await page.waitForTimeout(200);
    v = await read();
  }
  return v;
}

const complete = (f: Record<string, string>) => Object.keys(f).length > 0 && Object.values(f).every((v) => v !== '—');
const textOf = (l: Locator) => l.innerText().catch(() => '');

/** Crawls `config` through the runner (pages.jsonl as the export writes it), and reads every place that sums it up. */
async function crawl(config: object, hostRules?: string): Promise<{ summary: Summary; lines: Line[]; out: string; shown: Shown }> {
  const out = mkdtempSync(join(tmpdir(), 'focus-figures-'));
  let shown: Shown | undefined;
  const summary = await runCrawl({
    config, out, log: () => {}, exports: ['jsonl'], ...(hostRules ? { hostRules } : {}),
    onFinished: async (launched, crawlId) => {
      const { dash, errors } = await openDashboard(launched.context, launched.extensionId, `crawl=${crawlId}`);
      await dash.getByTestId('detail-name').waitFor();
      const item = dash.locator(`[data-testid=crawl-item][data-crawl-id="${crawlId}"]`);
      const tiles = await settled(dash, () => shownFigures(dash.locator('#counters')), complete);
      const list = await settled(dash, () => shownFigures(item), complete);
      const range = await settled(dash, () => textOf(dash.getByTestId('page-range')), (t) => /rows|in all/.test(t));
      const budgetParts = await textOf(dash.getByTestId('detail-budget-parts'));
      const listText = await textOf(item.locator('.crawl-numbers'));
      const popupPage = await launched.context.newPage();
      await popupPage.goto(`chrome-extension://${launched.extensionId}/popup.html?crawl=${crawlId}`);
      const card = popupPage.getByTestId('popup-crawl');
      await card.waitFor();
      const popup = await settled(popupPage, () => shownFigures(card), complete);
      const popupText = (await card.locator('.stat:not([hidden])').allInnerTexts()).join(' | ').replace(/\s+/g, ' ').toLowerCase();
      shown = { list, listText, popup, popupText, tiles, range, budgetParts };
      expect(errors).toEqual([]);
      await popupPage.close();
      await dash.close();
    },
  });
  const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
  return { summary, lines, out, shown: shown! };
}

const count = (n: number) => n.toLocaleString('en-US');
/** The crawl-phase pages judged: what "fetched" counts. */
const judged = (lines: Line[]) => lines.filter((l) => l.phase === 'crawl' && l.outcome === 'done' && l.relevant !== null);

/** The figures every place shows the same, and summary.json's second line of the command line says. */
function expectAgreeing(summary: Summary, shown: Shown, figures: Record<string, string>): void {
  expect(shown.tiles).toEqual(figures);
  expect(shown.list).toEqual(figures);
  expect(shown.popup).toEqual(figures);
  // The command line's summary says the list card's line, and summary.json holds the same figures as numbers.
  expect(formatSummary(summary).split('\n')[1]!.trim()).toBe(shown.listText.replace(/\s*·\s*/g, ', ').replace(/\s+/g, ' ').trim());
  expect(Object.keys(summary.figures)).toEqual(Object.keys(figures));
}

/**
 * The rows the Pages table lists, as it counts them: every line of the export, of which the budget counts the
 * requests; the others say why they are there (robots.txt kept the crawl from requesting them).
 */
function expectRowsTold(summary: Summary, lines: Line[], shown: Shown): void {
  const robots = lines.filter((l) => l.phase === 'crawl' && !l.redirects && /robots\.txt/.test(l.error ?? '')).length;
  const rows = lines.length;
  expect(rows).toBe(summary.requests + robots);
  const told = robots ? `${count(rows)} rows: ${count(summary.requests)} requests, ${count(robots)} kept by robots.txt` : `${count(rows)} in all`;
  expect(shown.range).toBe(`${count(rows)} of ${count(rows)} pages · ${told}`);
  if (robots) expect(shown.budgetParts).toBe(told);
}

it('a best-first crawl: fetched, relevant and harvest rate everywhere; 41 rows for 40 requests say why', async () => {
  const { summary, lines, shown } = await crawl({ ...demoConfig(demo.origin), name: 'Figures: demo', budget: { maxPages: 40 }, politeness: { delayMs: 0, concurrency: 2, robots: true } });
  expect(summary.state).toBe('finished');
  const fetched = judged(lines).length, relevant = judged(lines).filter((l) => l.relevant).length;
  expectAgreeing(summary, shown, { fetched: count(fetched), relevant: count(relevant), harvestRate: `${(Math.round((relevant / fetched) * 1000) / 10).toFixed(1)}%` });
  expect(summary.figures).toEqual({ fetched, relevant, harvestRate: Math.round((relevant / fetched) * 1000) / 1000 });
  // The budget counts 40 requests; the robots-closed staff page is a row of its own, and the table says so.
  expect(summary.requests).toBe(40);
  expect(lines.some((l) => /robots\.txt/.test(l.error ?? ''))).toBe(true);
  expectRowsTold(summary, lines, shown);
});

it('a template crawl: records, records a page and sites with a record everywhere, never a harvest rate', async () => {
  const { summary, lines, out, shown } = await crawl(companyConfig('Figures: shops'), `MAP *.test 127.0.0.1:${world.port}`);
  expect(summary.state, summary.message ?? '').toBe('finished');
  const records = readFileSync(join(out, 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { site: string });
  const fetched = judged(lines).length;
  const sites = new Set(records.map((r) => r.site)).size;
  expect(records.length).toBeGreaterThan(0);
  expectAgreeing(summary, shown, {
    fetched: count(fetched), records: count(records.length), recordsPerPage: (Math.round((records.length / fetched) * 1000) / 1000).toFixed(2), sitesWithRecord: count(sites),
  });
  expect(summary.figures).toEqual({ fetched, records: records.length, recordsPerPage: Math.round((records.length / fetched) * 1000) / 1000, sitesWithRecord: sites });
  // The keyword judge calls every page of a template crawl relevant: no place says "relevant" or "harvest" of it.
  for (const text of [shown.listText, shown.popupText, formatSummary(summary)]) expect(text).not.toMatch(/harvest|relevant/i);
  expectRowsTold(summary, lines, shown);
});

it('a multi-queue crawl: content pages, list pages read and queues everywhere', async () => {
  const { summary, lines, shown } = await crawl({ ...forumConfig(), name: 'Figures: forum', politeness: { delayMs: 0, concurrency: 2, perHost: 1 } },
    `MAP *.test 127.0.0.1:${forum.port}`);
  expect(summary.state).toBe('finished');
  const fetched = judged(lines).length;
  const content = lines.filter((l) => l.urlClass === 'content' && l.outcome === 'done').length;
  const lists = lines.filter((l) => l.phase === 'crawl' && l.outcome === 'done' && l.relevant === null).length;
  expect(lists).toBe(forum.boardPages().length);
  // The forum's threads are its content pages; with no refreshes, every queue is empty once the crawl ends.
  expectAgreeing(summary, shown, { fetched: count(fetched), contentPages: count(content), listPages: count(lists), queues: '0' });
  expect(summary.figures).toEqual({ fetched, contentPages: content, listPages: lists, queues: 0 });
  expectRowsTold(summary, lines, shown);
});
