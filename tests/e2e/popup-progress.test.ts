// (c) A crawl set up in the dashboard shows its progress live in the popup, and obeys pause and resume there.
import { expect, it } from 'vitest';
import { useDemoBrowser } from './demo-browser';
import { DashboardPage, PopupPage } from './page-objects';

const env = useDemoBrowser();

it('shows a bad seed as one sentence in the dashboard', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  await dashboard.startCrawl({ name: 'bad', seeds: 'example.org', keywords: 'astronomy', maxPages: 5, delayMs: 0 });
  await expect.poll(() => dashboard.formError()).toMatch(/not a URL/);
});

it('shows live progress of a running crawl, with pause and resume', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  await dashboard.startCrawl({ name: 'Astronomy demo', seeds: `${env.site.origin}/`, keywords: 'astronomy, planet, telescope, galaxy', maxPages: 25, delayMs: 250 });
  const popup = await new PopupPage(await env.browser.context.newPage(), env.browser.extensionId).open();

  await popup.waitFor(async () => (await popup.number('fetched')) >= 3);
  expect(await popup.state()).toMatch(/running/i);
  expect(await popup.number('frontier')).toBeGreaterThan(0);
  expect(await popup.harvest()).toMatch(/%/);
  const before = await popup.number('fetched');
  await popup.waitFor(async () => (await popup.number('fetched')) > before); // it moves without a reload

  await popup.press('pause');
  await popup.waitFor(async () => /paused/i.test(await popup.state()));
  const pausedAt = await popup.number('fetched');
  await popup.page.waitForTimeout(1500);
  expect(await popup.number('fetched')).toBe(pausedAt);

  await popup.press('resume');
  await popup.waitFor(async () => /finished/i.test(await popup.state()), 60_000);
  const fetched = await popup.number('fetched');
  const failed = await popup.number('failed');
  // The budget counts requests: pages, failures, and redirects not followed (here a moved page whose target was
  // already fetched), which are skipped, not failed.
  expect(await popup.page.getByTestId('budget').textContent()).toBe('25 / 25');
  expect(fetched + failed).toBeGreaterThanOrEqual(23);
  expect(fetched + failed).toBeLessThanOrEqual(25);
  expect(fetched).toBeGreaterThan(pausedAt);
  expect(await popup.number('relevant')).toBeGreaterThan(0);
});
