// URL authority in the real extension: a crawl with labeled training pages keeps their links in IndexedDB,
// fits the authority when training ends, and the dashboard's crawl details say what it learned.
import { expect, it } from 'vitest';
import { send } from '../../scripts/lib/browser';
import { demoConfig, ON_TOPIC_PATHS } from '../fixtures/sites/demo-site';
import type { CrawlStatus } from '../../lib/protocol';
import { useDemoBrowser } from './demo-browser';
import { openDashboard } from './page-objects';

const env = useDemoBrowser();

it('fits the authority on the labeled pages\' links and shows it in the crawl\'s details', async () => {
  const { page, context, extensionId } = env.browser;
  const origin = env.site.origin;
  const positives = ON_TOPIC_PATHS.filter((p) => p !== '/space/').slice(0, 4);
  const negatives = ['/news/quiz-night', '/news/film-club', '/news/craft-fair'];
  const { crawlId } = await send<{ crawlId: number }>(page, 'start', {
    ...demoConfig(origin), name: 'Sky with labeled pages', budget: { maxPages: 8 }, politeness: { delayMs: 0, concurrency: 2, robots: true },
    training: { linkSources: [...positives, ...negatives].map((p) => origin + p), positive: [`${origin}/space/*`], negative: [`${origin}/news/*`] },
  });
  let status: CrawlStatus | null = null;
  await expect.poll(async () => (status = await send<CrawlStatus>(page, 'status', { crawlId }))?.crawl.state, { timeout: 60_000, interval: 200 })
    .toBe('finished');
  const authority = status!.crawl.authority!;
  expect(authority.urls).toBeGreaterThan(positives.length);
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
