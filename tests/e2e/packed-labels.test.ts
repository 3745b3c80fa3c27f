// The labels a crawl makes are stored a page commit's worth to a row (lib/store/label-packs.ts), in the real
// extension: the Topics view counts and lists every one of them, and one relabeled in its table keeps its place,
// becomes the user's (the labeler finds it by URL) and one deleted is gone, as for a label stored alone.
// @module-tag chromium
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { send } from '../../scripts/lib/browser';
import type { LabelPack, LabelRow } from '../../lib/store/label-packs';
import type { LabeledLink } from '../../lib/records/types';
import { crawlWithLabeledPages, useDemoBrowser } from './demo-browser';
import { openDashboard } from './page-objects';
import { TopicsPage } from './topics-page';

const env = useDemoBrowser();

/** Every row of the labels store, read from one of the extension's pages. */
const labelRows = (page: Page): Promise<LabelRow[]> => page.evaluate(() => new Promise<LabelRow[]>((resolve, reject) => {
  const open = indexedDB.open('focus');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const req = open.result.transaction('labels').objectStore('labels').getAll();
    req.onsuccess = () => (open.result.close(), resolve(req.result as LabelRow[]));
    req.onerror = () => reject(req.error);
  };
}));

it('lists, counts, relabels and deletes the labels a crawl packed', async () => {
  const { page, context, extensionId } = env.browser;
  const { crawlId, status } = await crawlWithLabeledPages(env);
  const { topicId, stats } = status.crawl;

  const { dash, errors } = await openDashboard(context, extensionId, `crawl=${crawlId}`);
  dash.on('dialog', (d) => void d.accept()); // "Delete …?"
  // Fewer rows than labels: the training reads' labels went in packs, every one counted by the crawl.
  const packs = (await labelRows(dash)).filter((r): r is LabelPack => 'pack' in r);
  const packed = packs.reduce((n, p) => n + p.pack.length, 0);
  expect(packed).toBe(stats.labels);
  expect(packs.length).toBeLessThan(packed);

  const t = await new TopicsPage(dash, extensionId).open(topicId);
  await expect.poll(() => t.text('topic-count-links')).toBe(packed.toLocaleString('en-US'));
  await expect.poll(async () => (await t.labelRows()).length).toBeGreaterThan(10);
  const before = await t.labelRows();
  // Labels of URLs listed once on the page (a link found on several training pages has a label from each).
  const once = before.filter((r) => r.source === 'auto' && before.filter((o) => o.url === r.url).length === 1);
  expect(once.length).toBeGreaterThan(1);
  const [picked, gone] = once;

  // Relabeled in the table: it stays in its row and becomes the user's.
  await t.check(picked!.url);
  await dash.getByTestId(picked!.label === 'on topic' ? 'labels-off' : 'labels-on').click();
  const flipped = picked!.label === 'on topic' ? 'off topic' : 'on topic';
  await expect.poll(async () => (await t.labelRows())[before.indexOf(picked!)]).toEqual({ url: picked!.url, label: flipped, source: 'user' });
  expect((await t.labelRows()).map((r) => r.url)).toEqual(before.map((r) => r.url));
  const answer = await send<{ labels: (0 | 1 | null)[] }>(page, 'scoreLinks', { topicId, links: [{ url: picked!.url, anchor: '', context: '' }] });
  expect(answer.labels).toEqual([flipped === 'on topic' ? 1 : 0]);

  await t.check(gone!.url);
  await dash.getByTestId('labels-delete').click();
  await expect.poll(() => t.text('topic-count-links')).toBe((packed - 1).toLocaleString('en-US'));
  // The evaluation's boxes count what each source holds now, as the topic bar does.
  await expect.poll(() => t.text('eval-count-user')).toBe(flipped === 'on topic' ? '1 on · 0 off' : '0 on · 1 off');
  const auto = (await t.text('topic-count-auto')).split(' / ');
  expect(await t.text('eval-count-auto')).toBe(`${auto[0]} on · ${auto[1]} off`);
  // The table reads again on its own, after the counts (a live view): the deleted label leaves it.
  await expect.poll(async () => (await t.labelRows()).map((r) => r.url)).not.toContain(gone!.url);
  // The relabeled label is a row of its own now, under the id it had in its pack.
  const own = (await labelRows(dash)).filter((r): r is LabeledLink => !('pack' in r) && r.url === picked!.url && r.source === 'user');
  expect(own).toHaveLength(1);
  expect(Number.isInteger(own[0]!.id)).toBe(false);
  if (process.env.FOCUS_SCREENSHOT) await dash.screenshot({ path: process.env.FOCUS_SCREENSHOT, fullPage: true });
  expect(errors).toEqual([]);
  await dash.close();
});
