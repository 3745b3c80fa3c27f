// The dashboard's Topics view in real Chromium: topics, labeled links (added by message and by file, filtered,
// relabeled, deleted, exported), the model card (retrain, export, import) and the labeling queue on a live crawl.
// @module-tag chromium
import { expect, it } from 'vitest';
import { send } from '../../scripts/lib/browser';
import type { CrawlStatus } from '../../lib/app/protocol';
import type { Topic } from '../../lib/records/types';
import { useDemoBrowser } from './demo-browser';
import { TopicsPage } from './topics-page';

const env = useDemoBrowser();

async function topicsPage(topicId?: number): Promise<TopicsPage> {
  const page = await env.browser.context.newPage();
  page.on('dialog', (d) => void d.accept()); // "Delete …?" confirmations
  return new TopicsPage(page, env.browser.extensionId).open(topicId);
}

const sky = (path: string) => `https://sky.example/${path}`;
const kitchen = (path: string) => `https://kitchen.example/${path}`;

it('manages a topic\'s labels and model: add, import, filter, relabel, delete, export, retrain, export and import the model', async () => {
  const t = await topicsPage();
  const p = t.page;
  // A fresh profile has no topic: the view says so and offers the form.
  await expect.poll(() => p.getByTestId('no-topics').isVisible()).toBe(true);
  await t.createTopic('Astronomy', 'astronomy, telescope, planet');
  const topicId = (await t.topicId())!;
  expect(topicId).toBeGreaterThan(0);
  expect(await t.text('topic-keywords')).toMatch(/astronomy, telescope, planet/);

  // Labels made elsewhere (the labeler sends these) show up live.
  const labeled: [string, string, 0 | 1][] = [
    [sky('planets'), 'The planets of our solar system', 1],
    [sky('moon'), 'Watching the Moon', 1],
    [sky('telescopes'), 'Choosing a first telescope', 1],
    [kitchen('bread'), 'Baking sourdough bread', 0],
    [kitchen('soups'), 'Winter soups', 0],
    [kitchen('cakes'), 'Celebration cakes', 0],
  ];
  for (const [url, anchor, label] of labeled) {
    await send(env.browser.page, 'labelLink', { topicId, url, anchor, context: `${anchor} and more`, label, pageUrl: 'https://library.example/' });
  }
  await expect.poll(async () => (await t.labelRows()).length).toBe(6);
  // The counts are a view of their own, read again at most twice a second while labels arrive.
  await expect.poll(() => t.text('topic-count-on')).toBe('3');
  await expect.poll(() => t.text('topic-count-user')).toBe('3 / 3');

  // Import a CSV with one bad line: the good ones are added, the bad one reported.
  const csv = [
    'url,anchor,context,label',
    `${sky('galaxies')},Galaxies beyond the Milky Way,deep sky,on`,
    `${sky('comets')},Comets and meteor showers,night sky,1`,
    `${kitchen('pasta')},Fresh pasta at home,recipes,off`,
    `${kitchen('spices')},A guide to spices,recipes,maybe`,
    `${kitchen('salads')},Summer salads,recipes,0`,
  ].join('\n');
  await t.importLabels('more-labels.csv', csv);
  await expect.poll(() => t.text('labels-report')).toMatch(/added 4, rejected 1/);
  expect(await t.text('labels-report')).toMatch(/line 5: label must be on\/off/);
  await expect.poll(async () => (await t.labelRows()).length).toBe(10);
  await expect.poll(() => t.text('topic-count-links')).toBe('10');

  // Filters: by label, by source, by site.
  await t.filter({ label: 'off' });
  await expect.poll(async () => (await t.labelRows()).map((r) => r.label)).toEqual(Array(5).fill('off topic'));
  await t.filter({ label: 'all', source: 'auto' });
  await expect.poll(async () => (await t.labelRows()).length).toBe(0);
  expect(await p.getByTestId('labels-table').innerText()).toMatch(/No labeled links match the filter/);
  await t.filter({ source: 'user', site: 'sky.example' });
  await expect.poll(async () => (await t.labelRows()).map((r) => r.url).sort()).toEqual(
    [sky('comets'), sky('galaxies'), sky('moon'), sky('planets'), sky('telescopes')],
  );
  await t.filter({ source: 'all', site: '' });
  await expect.poll(async () => (await t.labelRows()).length).toBe(10);

  // Relabel one (the table updates live), then delete another.
  await t.check(sky('moon'));
  expect(await t.text('labels-selected')).toBe('1 selected');
  await p.getByTestId('labels-off').click();
  await expect.poll(async () => (await t.labelRows()).find((r) => r.url === sky('moon'))?.label).toBe('off topic');
  await t.check(kitchen('cakes'));
  await p.getByTestId('labels-delete').click();
  await expect.poll(async () => (await t.labelRows()).map((r) => r.url)).not.toContain(kitchen('cakes'));
  await expect.poll(() => t.text('topic-count-links')).toBe('9');
  await expect.poll(() => t.text('topic-count-on')).toBe('4'); // planets, telescopes, galaxies, comets

  // Shift-click selects a range of rows.
  const urls = (await t.labelRows()).map((r) => r.url);
  await t.check(urls[1]);
  await t.check(urls[4], { shift: true });
  expect(await t.text('labels-selected')).toBe('4 selected');
  await t.check(urls[1]);
  await t.check(urls[4], { shift: true });
  expect(await t.text('labels-selected')).toBe('None selected');

  // Export CSV of the current filter: the on-topic labels only.
  await t.filter({ label: 'on' });
  await expect.poll(async () => (await t.labelRows()).length).toBe(4);
  const exported = await t.download('labels-export-csv');
  expect(exported.name).toBe('Astronomy-labels-filtered.csv');
  const lines = exported.text.trim().split(/\r?\n/);
  expect(lines[0]).toBe('url,anchor,context,label,source,createdAt,pageUrl');
  expect(lines.slice(1).map((l) => l.split(',')[0]).sort()).toEqual([sky('comets'), sky('galaxies'), sky('planets'), sky('telescopes')]);
  expect(lines.slice(1).every((l) => l.split(',')[3] === 'on')).toBe(true);
  const jsonl = await t.download('labels-export-jsonl');
  expect(jsonl.text.trim().split('\n').map((l) => JSON.parse(l).url as string).sort()).toEqual([sky('comets'), sky('galaxies'), sky('planets'), sky('telescopes')]);

  // Retrain: the report and the model card show the examples learned.
  await p.getByTestId('model-retrain').click();
  await expect.poll(() => t.text('model-report')).toMatch(/Retrained in \d+ ms on 4 on-topic and 5 off-topic links/);
  expect(await t.text('model-report')).toMatch(/No crawl of this topic is running/);
  await expect.poll(() => t.text('model-examples')).toBe('4 on topic · 5 off topic');
  expect(await t.text('model-saved')).not.toBe('never');

  // Export the model and import it back: a new topic with the same labels, selected.
  const model = await t.download('model-export');
  expect(model.name).toBe('focus-model-Astronomy.json');
  const bundle = JSON.parse(model.text) as { kind: string; labels: unknown[]; topic: { keywords: string[] } };
  expect(bundle.kind).toBe('focus-model');
  expect(bundle.labels).toHaveLength(9);
  expect(bundle.topic.keywords).toEqual(['astronomy', 'telescope', 'planet']);

  await t.importModel('not-a-model.json', '{"kind":"something else"}');
  await expect.poll(() => t.text('model-error')).toMatch(/not a Focus model file: "kind" is not "focus-model"/);
  await t.importModel('broken.json', '{"kind": ');
  await expect.poll(() => t.text('model-error')).toMatch(/not JSON/);

  await t.importModel(model.name, model.text);
  await expect.poll(() => t.selectedTopicName()).toBe('Astronomy (2)');
  const imported = (await t.topicId())!;
  expect(imported).not.toBe(topicId);
  await expect.poll(() => t.text('topic-count-links')).toBe('9');
  expect(await t.text('model-report')).toMatch(/Imported focus-model-Astronomy\.json as the topic "Astronomy \(2\)"/);
  const topics = await send<Topic[]>(env.browser.page, 'listTopics', {});
  expect(topics.map((x) => x.name)).toEqual(['Astronomy', 'Astronomy (2)']);

  // The address keeps the view and the topic: a reload (or a link from the popup) shows the same topic.
  await p.reload();
  await expect.poll(() => t.selectedTopicName()).toBe('Astronomy (2)');
  await p.getByTestId('topic-use').click();
  await expect.poll(() => p.getByTestId('topic-active').isVisible()).toBe(true);
  expect((await send<Topic>(env.browser.page, 'activeTopic', {})).id).toBe(imported);

  // Rename, then delete it: the view falls back to the other topic.
  await p.getByTestId('topic-edit').click();
  await p.getByTestId('topic-form-name').fill('Astronomy copy');
  await p.getByTestId('topic-form-save').click();
  await expect.poll(() => t.selectedTopicName()).toMatch(/^Astronomy copy/);
  await p.getByTestId('topic-delete').click();
  await expect.poll(() => t.selectedTopicName()).toBe('Astronomy');
  await p.close();
});

it('asks about the links and pages of a running crawl\'s frontier, answered with the keyboard', async () => {
  const { page } = env.browser;
  const topic = await send<Topic>(page, 'createTopic', { name: 'Sky watching', keywords: ['astronomy', 'telescope'] });
  const { crawlId } = await send<{ crawlId: number }>(page, 'start', {
    name: 'queue test', seeds: [`${env.site.origin}/`], topic: { keywords: [], id: topic.id },
    budget: { maxPages: 40 }, politeness: { delayMs: 1500, concurrency: 1, robots: false },
  });
  // A couple of pages in, the slow crawl holds a queued frontier.
  for (let i = 0; ; i++) {
    const status = await send<CrawlStatus>(page, 'status', { crawlId });
    if (status.crawl.stats.fetched >= 2 && status.crawl.stats.queued >= 10) break;
    if (i > 300) throw new Error(`the crawl never queued links: ${JSON.stringify(status.crawl.stats)}`);
    await page.waitForTimeout(100);
  }

  const t = await topicsPage(topic.id);
  const p = t.page;
  await expect.poll(() => t.queueItems().count()).toBeGreaterThan(2);
  // Each question says whether it is about a link or a page.
  const kinds = await p.getByTestId('queue-kind').allInnerTexts();
  expect(kinds.length).toBe(await t.queueItems().count());
  expect(kinds.every((k) => /^(link|page)$/i.test(k))).toBe(true);

  // The keys work anywhere in the view, with nothing clicked first: j down, k up.
  await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const focusedUrl = () => p.locator('[data-testid=queue-item].focused').getAttribute('data-url');
  const urls = await t.queueItems().evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.url!));
  expect(await focusedUrl()).toBe(urls[0]);
  await p.keyboard.press('j');
  expect(await focusedUrl()).toBe(urls[1]);
  await p.keyboard.press('k');
  expect(await focusedUrl()).toBe(urls[0]);
  // Typed into a text field, the same keys are text: nothing moves, nothing is labeled.
  await p.getByTestId('labels-site').fill('');
  await p.getByTestId('labels-site').press('j');
  await p.getByTestId('labels-site').press('1');
  expect(await p.getByTestId('labels-site').inputValue()).toBe('j1');
  expect(await focusedUrl()).toBe(urls[0]);
  expect(await t.queueItems().count()).toBe(urls.length);
  await p.getByTestId('labels-site').fill('');
  await p.getByTestId('model-retrain').focus(); // a button has the focus: the keys still answer the queue
  // The view says so.
  expect(await p.getByTestId('queue-keys').innerText()).toMatch(/anywhere in this view, unless you are typing in a text field/);

  // "1" labels the first link on topic: it leaves the queue and is stored as the user's label.
  await p.keyboard.press('1');
  await expect.poll(() => p.locator(`[data-testid=queue-item][data-url="${urls[0]}"]`).count()).toBe(0);
  await expect.poll(async () => (await t.labelRows()).find((r) => r.url === urls[0])).toEqual({ url: urls[0], label: 'on topic', source: 'user' });
  const scored = await send<{ labels: (0 | 1 | null)[] }>(page, 'scoreLinks', { topicId: topic.id, links: [{ url: urls[0], anchor: '', context: '' }] });
  expect(scored.labels).toEqual([1]);
  // The running crawl took the answer in before the reply, and the view says what it changed.
  await expect.poll(() => t.text('queue-effect')).toMatch(/^Your answer re-scored \d+ queued links?; \d+ moved into the next 100\.$/);
  expect(Number(/re-scored (\d+)/.exec(await t.text('queue-effect'))![1])).toBeGreaterThan(0);
  // The next one is focused; "x" labels it off topic, "s" skips the one after without a label.
  const second = (await focusedUrl())!;
  expect(second).not.toBe(urls[0]);
  await p.keyboard.press('x');
  await expect.poll(async () => (await t.labelRows()).find((r) => r.url === second)?.label).toBe('off topic');
  await expect.poll(() => t.text('queue-effect')).toMatch(/1 taken out of the queue/);
  const third = (await focusedUrl())!;
  await p.keyboard.press('s');
  await expect.poll(() => p.locator(`[data-testid=queue-item][data-url="${third}"]`).count()).toBe(0);
  expect((await t.labelRows()).map((r) => r.url)).not.toContain(third);
  expect(await t.text('queue-status')).toMatch(/2 labeled/);

  // Labels made elsewhere (another tab, the labeler) say the first queued link's anchor is off topic. The running
  // crawl learns them and re-scores its frontier (at once, or after the Retrain), and the queue follows without a
  // Refresh: that link's score falls, or it leaves the queue.
  const first = t.queueItems().and(p.locator('[data-kind=link]')).first();
  const target = (await first.getAttribute('data-url'))!;
  const anchor = (await first.locator('.queue-anchor').innerText()).replace(/×\d+$/, '').trim();
  const before = Number(await first.getByTestId('queue-score').innerText());
  for (let i = 0; i < 6; i++) {
    await send(page, 'labelLink', { topicId: topic.id, url: `${env.site.origin}/elsewhere/${i}`, anchor, context: '', label: 0 });
  }
  await p.getByTestId('model-retrain').click();
  await expect.poll(async () => {
    const row = p.locator(`[data-testid=queue-item][data-url="${target}"]`);
    return (await row.count()) === 0 ? 0 : Number(await row.getByTestId('queue-score').innerText());
  }).toBeLessThan(before);

  // The topic cannot be deleted while its crawl runs: the worker's sentence is shown.
  await p.getByTestId('topic-delete').click();
  await expect.poll(() => t.text('topic-error')).toMatch(/a crawl of this topic is running: stop it first/);
  await send(page, 'stop', { crawlId });
  await p.close();
});
