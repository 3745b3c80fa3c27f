// The dashboard at 800 px: the New crawl form folds behind a button, so the selected crawl comes right after
// the list, and a click on a crawl brings its detail into view with the focus on its heading.
// @module-tag chromium
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/browser';
import { useDemoBrowser } from './demo-browser';
import { openDashboard } from './page-objects';
import { sampleFixture, seedDatabase } from './ui-fixtures';

const env = useDemoBrowser();

/** The sample's three crawls and nine more finished ones, so the list is longer than the window. */
function manyCrawls() {
  const fixture = sampleFixture();
  const finished = fixture.crawls.find((c) => c.state === 'finished')!;
  const topics = ['Tide tables', 'Bee keeping', 'Sourdough', 'Chess openings', 'Lichens', 'Film cameras', 'Tram lines', 'Moss gardens', 'Kites'];
  topics.forEach((name, i) => fixture.crawls.push({ ...structuredClone(finished), id: 4 + i, name, createdAt: finished.createdAt - (i + 1) * 86_400_000 }));
  return fixture;
}

/** Where the element is in the window, and whether it has the focus. */
const placeOf = (page: Page, testid: string) => page.getByTestId(testid).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, inView: r.top >= 0 && r.bottom <= innerHeight, focused: document.activeElement === el };
});

/**
 * Set FOCUS_SCREENSHOTS=1 to keep, in docs/images, the sample's running crawl as the dashboard shows it at 800
 * and 1,280 px (taken first, while the database holds only the sample's three crawls).
 */
async function screenshots(): Promise<void> {
  if (!process.env.FOCUS_SCREENSHOTS) return;
  mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
  for (const width of [800, 1280]) {
    const { dash } = await openDashboard(env.browser.context, env.browser.extensionId, 'crawl=1', { width, height: 900 });
    await seedDatabase(dash, sampleFixture());
    await expect.poll(() => dash.getByTestId('detail-name').innerText()).toBe('Solar power');
    await dash.evaluate(() => window.scrollTo(0, 0));
    await dash.waitForTimeout(500);
    // On one column, the top of the page: the list, the folded form's button, the crawl's detail after them.
    const path = join(ROOT, 'docs', 'images', `dashboard-${width}.png`);
    if (width < 900) await dash.screenshot({ path, fullPage: true, clip: { x: 0, y: 0, width, height: 1300 } });
    else await dash.screenshot({ path });
    await dash.close();
  }
}

for (const width of [800, 1280]) {
  it(`at ${width} px, a click on a crawl in the list brings its detail into view`, async () => {
    if (width === 800) await screenshots();
    const { dash, errors } = await openDashboard(env.browser.context, env.browser.extensionId, '', { width, height: 720 });
    await seedDatabase(dash, manyCrawls());
    await expect.poll(() => dash.getByTestId('crawl-item').count()).toBe(12);
    // On one column the form is folded: nothing but the list stands before the selected crawl.
    expect(await dash.getByTestId('new-crawl-form').isVisible()).toBe(width > 900);

    const item = dash.getByTestId('crawl-item').last();
    const name = await item.getByTestId('crawl-select').innerText();
    await item.getByTestId('crawl-select').click();
    await expect.poll(() => dash.getByTestId('detail-name').innerText()).toBe(name);
    await expect.poll(() => placeOf(dash, 'detail-name')).toMatchObject({ inView: true, focused: true });

    // "New crawl" opens the form (on one column right after the list) with its first field focused.
    await dash.getByTestId('new-crawl-toggle').click();
    expect(await dash.getByTestId('form-name').isVisible()).toBe(true);
    await expect.poll(() => placeOf(dash, 'form-name')).toMatchObject({ inView: true, focused: true });
    if (width < 900) {
      expect((await placeOf(dash, 'form-panel')).top).toBeLessThan((await placeOf(dash, 'crawl-detail')).top);
      // Pressed again, it folds the form away.
      await dash.getByTestId('new-crawl-toggle').click();
      expect(await dash.getByTestId('form-name').isVisible()).toBe(false);
    }
    expect(errors).toEqual([]);
    if (width < 900) {
      // Opened on a crawl (the popup's link), the page starts at that crawl's detail, not at the list.
      await dash.goto(dash.url().replace(/\?.*$/, '?crawl=8'));
      await expect.poll(() => dash.getByTestId('detail-name').innerText()).toBe('Lichens');
      await expect.poll(() => placeOf(dash, 'detail-name')).toMatchObject({ inView: true });
    }
    await dash.close();
  });
}
