// The New crawl form refuses everything wrong at once, each refusal beside its own field in the words of its
// label, every bad line of a field of URLs or patterns read as the crawl reads it, the focus on the first field in
// error; an empty number field is refused unless the form shows its default. Nothing is started until the form is
// right, and once started the form is cleared, so a second click starts nothing.
// @module-tag chromium
import { expect, it } from 'vitest';
import { useDemoBrowser } from './demo-browser';
import { DashboardPage } from './page-objects';
import { send } from '../../scripts/lib/browser';

const env = useDemoBrowser();

it('shows every refusal at once, each beside its field, and starts once they are fixed', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  const p = dashboard.page;
  await p.getByTestId('form-seeds').fill('example.org');
  await p.getByTestId('form-keywords').fill('astronomy');
  await p.getByTestId('form-link-sources').fill(`library.example/sky\n${env.site.origin}/space/\n\nftp://example.org/list`);
  await p.getByTestId('form-positive').fill(`${env.site.origin}/space/*\n[[[not a pattern`);
  await p.getByTestId('form-max-pages').fill('');
  await p.getByTestId('form-concurrency').fill('99');
  await p.getByTestId('start').click();

  await expect.poll(() => p.getByTestId('field-error').count()).toBe(6);
  expect(await dashboard.fieldError('form-seeds')).toEqual({ text: 'Seeds, line 1: "example.org" is not a URL (write it in full, e.g. https://example.org/)', marked: true });
  // Every bad line of the link sources, numbered as the field shows them (the blank line counts).
  expect(await dashboard.fieldError('form-link-sources')).toEqual({
    text: 'Link sources, line 1: "library.example/sky" is not a URL (write it in full, e.g. https://example.org/)\n' +
      'Link sources, line 4: "ftp://example.org/list" is not an http(s) URL.',
    marked: true,
  });
  // The focus is on the first field in error, the form's first: the seeds.
  expect(await p.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('seeds');
  expect(await dashboard.fieldError('form-positive')).toEqual({
    text: 'Positive patterns, line 2: "[[[not a pattern" is not a pattern: write a URL such as https://example.org/page, a URL with * wildcards such as https://example.org/wiki/*, or site:example.org.',
    marked: true,
  });
  expect(await dashboard.fieldError('form-max-pages')).toEqual({ text: "Max pages is empty: write a number; the crawl's default is 100.", marked: true });
  expect(await dashboard.fieldError('form-concurrency')).toEqual({ text: 'Concurrency must be a whole number from 1 to 64 (you wrote 99)', marked: true });
  // Each refusal sits right after its own field.
  const placed = await p.getByTestId('field-error').evaluateAll((notes) => notes.map((n) => {
    let field = n.previousElementSibling;
    while (field?.classList.contains('field-error')) field = field.previousElementSibling;
    return `${field?.getAttribute('name')}: ${n.getAttribute('data-for')}`;
  }));
  expect(placed).toEqual(['seeds: seeds', 'linkSources: linkSources', 'linkSources: linkSources', 'positive: positive', 'maxPages: maxPages', 'concurrency: concurrency']);
  expect(await p.getByTestId('form-error').isHidden()).toBe(true);
  expect(await p.getByTestId('crawl-item').count()).toBe(0);

  // Typing in a refused field takes its refusal away, and only its own.
  await p.getByTestId('form-concurrency').fill('2');
  expect(await dashboard.fieldError('form-concurrency')).toEqual({ text: '', marked: false });
  expect(await p.getByTestId('field-error').count()).toBe(5);

  // Fixed, with a strategy parameter left empty: its placeholder shows the default, which it means.
  await p.getByTestId('form-seeds').fill(`${env.site.origin}/`);
  await p.getByTestId('form-link-sources').fill('');
  await p.getByTestId('form-positive').fill(`${env.site.origin}/space/*`);
  await p.getByTestId('form-max-pages').fill('3');
  await p.getByTestId('form-delay').fill('0');
  await p.getByTestId('form-strategy').selectOption('sparse-tunneling');
  expect(await p.getByTestId('form-strategy-maxTunnel').inputValue()).toBe('');
  await p.getByTestId('start').click();
  await expect.poll(() => p.getByTestId('crawl-item').count()).toBe(1);
  expect(await p.getByTestId('field-error').count()).toBe(0);
  await expect.poll(() => p.locator('#detail-config').innerText()).toMatch(/sparse-tunneling \(longest tunnel \d+/);

  // Started, the form is cleared: a second click asks for seeds again and starts no second crawl.
  expect(await p.getByTestId('form-note').innerText()).toMatch(/^Started crawl #\d+/);
  expect(await p.getByTestId('form-seeds').inputValue()).toBe('');
  expect(await p.getByTestId('form-keywords').inputValue()).toBe('');
  await p.getByTestId('new-crawl-toggle').click().catch(() => undefined); // the form folds once a crawl starts, on one column
  await p.getByTestId('start').click();
  await expect.poll(() => dashboard.fieldError('form-seeds')).toMatchObject({ marked: true });
  await p.waitForTimeout(1000);
  expect(await p.getByTestId('crawl-item').count()).toBe(1);
});

it('carries the caps on a growing page to the crawl, and refuses one out of range beside its field', async () => {
  const dashboard = await new DashboardPage(await env.browser.context.newPage(), env.browser.extensionId).open();
  const p = dashboard.page;
  expect([await p.getByTestId('form-render-grow-ms').inputValue(), await p.getByTestId('form-render-grow-links').inputValue()]).toEqual(['30000', '1000']);
  await p.getByTestId('form-seeds').fill(`${env.site.origin}/`);
  await p.getByTestId('form-keywords').fill('astronomy');
  await p.getByTestId('form-max-pages').fill('2');
  await p.getByTestId('form-render-grow-ms').fill('900000');
  await p.getByTestId('start').click();
  await expect.poll(() => p.getByTestId('field-error').count()).toBe(1);
  expect(await dashboard.fieldError('form-render-grow-ms')).toEqual({ text: 'Time to grow (ms) must be a whole number from 0 to 600,000 (you wrote 900000)', marked: true });

  const before = await p.getByTestId('crawl-item').count();
  await p.getByTestId('form-render-grow-ms').fill('8000');
  await p.getByTestId('form-render-grow-links').fill('300');
  await p.getByTestId('start').click();
  await expect.poll(() => p.getByTestId('crawl-item').count(), { timeout: 15_000 }).toBe(before + 1);
  const crawls = await send<{ crawl: { config: { fetch: Record<string, unknown> } } }>(env.browser.page, 'status', {});
  expect(crawls.crawl.config.fetch).toMatchObject({ renderGrowMs: 8000, renderGrowLinks: 300 });
});
