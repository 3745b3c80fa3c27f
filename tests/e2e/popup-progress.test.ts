// (c) A crawl set up in the dashboard shows its progress live in the popup, and obeys pause and resume there.
// @module-tag chromium
import { expect, it } from 'vitest';
import { useDemoBrowser } from './demo-browser';
import { DashboardPage, PopupPage } from './page-objects';

const env = useDemoBrowser();

it('refuses a bad seed and a fractional budget beside their fields, in the form\'s words', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  await dashboard.startCrawl({ name: 'bad', seeds: 'example.org', keywords: 'astronomy', maxPages: 5, delayMs: 0 });
  await expect.poll(() => dashboard.fieldError('form-seeds')).toEqual({ text: 'Seeds, line 1: "example.org" is not a URL (write it in full, e.g. https://example.org/)', marked: true });
  await dashboard.startCrawl({ name: 'bad', seeds: `${env.site.origin}/`, keywords: 'astronomy', maxPages: 2.5, delayMs: 0 });
  await expect.poll(() => dashboard.fieldError('form-max-pages')).toEqual({ text: 'Max pages must be a whole number from 1 to 10,000,000 (you wrote 2.5)', marked: true });
  expect((await dashboard.fieldError('form-seeds')).marked).toBe(false);
  // The refused field is in view, and nothing was started.
  expect(await dashboard.page.getByTestId('form-max-pages').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  })).toBe(true);
  expect(await dashboard.page.getByTestId('crawl-item').count()).toBe(0);
});

it('a start whose seeds all fail leaves no extra topic behind, and the form offers the existing topics first', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  for (let i = 0; i < 2; i++) {
    await dashboard.startCrawl({ name: 'Nowhere', seeds: `${env.site.origin}/space/missing-page`, keywords: 'astronomy', maxPages: 5, delayMs: 0 });
    await expect.poll(() => dashboard.page.getByTestId('detail-state').innerText(), { timeout: 30_000 }).toMatch(/failed/i);
    await expect.poll(() => dashboard.page.getByTestId('detail-message').innerText()).toMatch(/no page could be fetched.*HTTP 404/);
  }
  const choices = await dashboard.topicChoices();
  expect(choices.filter((c) => c.startsWith('Nowhere'))).toHaveLength(1);
  expect(choices.at(-1)).toBe('New topic');
  expect(choices[0]).toMatch(/^Nowhere/);
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
  expect(await popup.card().getByTestId('budget').textContent()).toBe('25 / 25');
  expect(fetched + failed).toBeGreaterThanOrEqual(23);
  expect(fetched + failed).toBeLessThanOrEqual(25);
  expect(fetched).toBeGreaterThan(pausedAt);
  expect(await popup.number('relevant')).toBeGreaterThan(0);
});
