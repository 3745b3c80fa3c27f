// The dashboard at 800 px: the New crawl form folds behind a button, so the selected crawl comes right after
// the list, and a click on a crawl brings its detail into view with the focus on its heading.
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

async function screenshot(page: Page, file: string): Promise<void> {
  if (!process.env.FOCUS_SCREENSHOTS) return;
  mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
  await page.screenshot({ path: join(ROOT, 'docs', 'images', file) });
}

for (const width of [800, 1280]) {
  it(`at ${width} px, a click on a crawl in the list brings its detail into view`, async () => {
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
    await screenshot(dash, `dashboard-${width}.png`);

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
    await dash.close();
  });
}
