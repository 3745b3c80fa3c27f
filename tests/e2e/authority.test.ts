// URL authority in the real extension: a crawl with labeled training pages keeps their links in IndexedDB,
// fits the authority when training ends, and the dashboard's crawl details say what it learned.
// @module-tag chromium
import { expect, it } from 'vitest';
import { crawlWithLabeledPages, LABELED_PAGES, useDemoBrowser } from './demo-browser';
import { openDashboard } from './page-objects';

const env = useDemoBrowser();

it('fits the authority on the labeled pages\' links and shows it in the crawl\'s details', async () => {
  const { context, extensionId } = env.browser;
  const { crawlId, status } = await crawlWithLabeledPages(env);
  const authority = status.crawl.authority!;
  expect(authority.urls).toBeGreaterThan(LABELED_PAGES.positives.length);
  expect(authority.labeled).toBeGreaterThan(0);
  expect(authority.logOdds).toHaveLength(6);

  const { dash, errors } = await openDashboard(context, extensionId, `crawl=${crawlId}`);
  const row = dash.getByTestId('detail-authority');
  await expect.poll(() => row.textContent()).toMatch(
    new RegExp(`^${authority.urls} URLs that labeled pages link to \\(${authority.labeled} of them labeled, which it learned from\\): their odds ×[\\d.]+ to ×[\\d.,]+`),
  );
  if (process.env.FOCUS_SCREENSHOT) await dash.screenshot({ path: process.env.FOCUS_SCREENSHOT, fullPage: true });
  expect(errors).toEqual([]);
  await dash.close();
});
