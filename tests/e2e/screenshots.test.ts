// The pages a user reads, photographed at 1,280 and 800 px in Chromium and Firefox from the same rows
// (screens-fixture.ts): the crawl list, the detail of a best-first, a template and a multi-queue crawl, the New crawl
// form with its refusals, and the popup. Set FOCUS_SCREENSHOTS=1 to write them into results/screens/<browser>/ (a
// plain `npm test` skips this file); docs/development.md says which of them the docs show.
// @module-tag chromium
// @module-tag firefox
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, ROOT } from '../../scripts/lib/browser';
import { launchFirefoxWithExtension } from '../../scripts/lib/firefox';
import { screensFixture, writeTables } from './screens-fixture';

/** What the photographer needs of a browser's page, in Chromium (Playwright) or Firefox (Puppeteer). */
interface Shooter {
  /** Opens an extension page (`dashboard.html?crawl=1`) at a width, and waits for `testid` to show. */
  open(path: string, width: number, testid: string): Promise<void>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  click(testid: string): Promise<void>;
  fill(testid: string, value: string): Promise<void>;
  /** The window, or the element of `testid`, into `file`. */
  shot(file: string, testid?: string): Promise<void>;
  errors: string[];
}

const WIDTHS = [1280, 800] as const;
/** The crawls of the fixture, by kind. */
const DETAILS = { 'best-first': 1, template: 10, 'multi-queue': 11 } as const;

const waitFor = async (check: () => Promise<boolean>, what: string) => {
  for (const end = Date.now() + 20_000; !(await check()); await new Promise((r) => setTimeout(r, 200))) {
    if (Date.now() > end) throw new Error(`never showed ${what}`);
  }
};

/** Photographs every page into `dir`, from a profile whose database `s` has just opened. */
async function photograph(s: Shooter, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const shown = (testid: string) => s.evaluate((id) => !!document.querySelector(`[data-testid="${id}"]:not([hidden])`)?.getClientRects().length, testid);
  await s.open('dashboard.html', 1280, 'crawl-list');
  await s.evaluate(writeTables, screensFixture());
  for (const width of WIDTHS) {
    await s.open('dashboard.html?crawl=1', width, 'crawl-item');
    await waitFor(async () => (await s.evaluate(() => document.querySelectorAll('[data-testid=crawl-item]').length, null)) === 5, 'the five crawls');
    // A template's records are read apart from the crawl rows: wait for them in its card.
    await waitFor(() => s.evaluate(() => document.querySelector('[data-crawl-id="10"] [data-figure=records]')?.textContent !== '—', null), "the template's records");
    await s.shot(join(dir, `crawl-list-${width}.png`), 'crawl-list');
    for (const [kind, id] of Object.entries(DETAILS)) {
      await s.open(`dashboard.html?crawl=${id}`, width, 'detail-name');
      await waitFor(() => s.evaluate(() => [...document.querySelectorAll('#counters [data-figure]')].filter((el) => !el.closest('[hidden]')).every((el) => el.textContent !== '—'), null), `${kind}'s figures`);
      await s.evaluate(() => {
        document.getElementById('detail-name')!.scrollIntoView({ block: 'start' });
      }, null);
      await new Promise((r) => setTimeout(r, 800)); // the chart and the tables' first reads
      await s.shot(join(dir, `detail-${kind}-${width}.png`));
      // Below the harvest rate, a topic crawl's estimate of how much of its topic it holds.
      if (await shown('recall-chart')) await s.shot(join(dir, `recall-${kind}-${width}.png`), 'recall-chart');
    }
    // The New crawl form with several refusals at once, the first field in error focused.
    await s.open('dashboard.html?crawl=1', width, 'new-crawl-toggle');
    if (!(await shown('form-seeds'))) await s.click('new-crawl-toggle');
    await s.fill('form-seeds', 'example.org\nhttps://example.org/sky/');
    await s.fill('form-keywords', 'astronomy, telescope');
    await s.fill('form-link-sources', 'library.example/sky');
    await s.fill('form-positive', 'https://example.org/sky/*\n[[[not a pattern');
    await s.fill('form-max-pages', '');
    await s.click('start');
    await waitFor(async () => (await s.evaluate(() => document.querySelectorAll('[data-testid=field-error]').length, null)) >= 4, 'the refusals');
    await s.evaluate(() => document.querySelector('[data-testid=form-panel]')!.scrollIntoView({ block: 'start' }), null);
    await s.shot(join(dir, `form-errors-${width}.png`));
  }
  await s.open('popup.html', 380, 'popup-crawl');
  await waitFor(async () => (await s.evaluate(() => document.querySelectorAll('[data-testid=popup-crawl]').length, null)) >= 2, 'the popup\'s crawls');
  await s.shot(join(dir, 'popup.png'));
  expect(s.errors).toEqual([]);
}

const shotsDir = (browser: string) => join(ROOT, 'results', 'screens', browser);

const WHY = 'writes results/screens: FOCUS_SCREENSHOTS=1 runs it';

describe('screenshots (FOCUS_SCREENSHOTS=1)', () => {
  it('in Chromium', async ({ skip }) => {
    skip(!process.env.FOCUS_SCREENSHOTS, WHY);
    ensureBuilt();
    const launched = await launchWithExtension();
    try {
      const page = await launched.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await photograph({
        errors,
        open: async (path, width, testid) => {
          await page.setViewportSize({ width, height: path.startsWith('popup') ? 640 : 1000 });
          await page.goto(`chrome-extension://${launched.extensionId}/${path}`);
          await page.getByTestId(testid).first().waitFor({ state: 'attached' });
        },
        evaluate: <R, A>(fn: (arg: A) => R | Promise<R>, arg: A) => page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg),
        click: (testid) => page.getByTestId(testid).click(),
        fill: (testid, value) => page.getByTestId(testid).fill(value),
        shot: async (file, testid) => {
          if (testid) await page.getByTestId(testid).screenshot({ path: file });
          else await page.screenshot({ path: file, fullPage: file.includes('popup') });
        },
      }, shotsDir('chromium'));
    } finally {
      await launched.close();
    }
  });

  it('in Firefox', async ({ skip }) => {
    skip(!process.env.FOCUS_SCREENSHOTS, WHY);
    ensureBuilt(undefined, 'firefox');
    const ff = await launchFirefoxWithExtension();
    try {
      let tab = ff.tab;
      const errors: string[] = [];
      await photograph({
        errors,
        open: async (path, width, testid) => {
          const next = await ff.openExtensionPage(path);
          await tab.close().catch(() => undefined);
          tab = next;
          await tab.page.setViewport({ width, height: path.startsWith('popup') ? 640 : 1000 });
          tab.page.on('pageerror', (e) => errors.push(String(e)));
          await tab.page.waitForSelector(`[data-testid="${testid}"]`, { timeout: 20_000 });
        },
        evaluate: (fn, arg) => tab.evaluate(fn, arg),
        click: (testid) => tab.page.click(`[data-testid="${testid}"]`),
        fill: async (testid, value) => {
          await tab.evaluate(([id, v]) => {
            const el = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[data-testid="${id}"]`)!;
            el.value = v;
            el.dispatchEvent(new Event('input', { bubbles: true }));
          }, [testid, value] as const);
        },
        shot: async (file, testid) => {
          if (testid) await (await tab.page.$(`[data-testid="${testid}"]`))!.screenshot({ path: file as `${string}.png` });
          else await tab.page.screenshot({ path: file as `${string}.png`, fullPage: file.includes('popup') });
        },
      }, shotsDir('firefox'));
    } finally {
      await ff.close();
    }
  });
});
