// The on-page labeler in real Chromium: switched on by the same `setLabeler` message the popup sends, it marks
// every link of a page that has its own aggressive CSS without moving anything, labels links with the anchor
// and context the crawler extracts, makes alike links score higher, and leaves the page as it found it.
// @module-tag chromium
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseHtml } from '../../lib/parse/html';
import { join } from 'node:path';
import { ensureBuilt, launchWithExtension, ROOT, send, type Launched } from '../../scripts/lib/browser';
import { ALIKE_ANCHOR, LabelerView, linkTextBoxes, NIGHT_SKY_HTML, pageBoxes, startNightSkySite, userLabels as userLabelsOf } from './labeler-page';
import { TopicsPage } from './topics-page';
import type { Topic } from '../../lib/records/types';

let site: Awaited<ReturnType<typeof startNightSkySite>>;
let browser: Launched;

beforeAll(async () => {
  ensureBuilt();
  site = await startNightSkySite();
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The id of the tab showing `url`, as the popup would find it (the control page speaks for the popup). */
async function tabIdOf(url: string): Promise<number> {
  const tabs = (await browser.page.evaluate(() =>
    (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).chrome.tabs.query({}),
  )) as { id?: number; url?: string }[];
  const tab = tabs.find((t) => t.url === url);
  if (tab?.id === undefined) throw new Error(`no tab shows ${url}`);
  return tab.id;
}

const setLabeler = async (tabId: number, on: boolean) => send<{ on: boolean }>(browser.page, 'setLabeler', { tabId, on });

const userLabels = () => userLabelsOf(browser.page);

/** Opens the test page in a new tab; `query` tells the tab apart from those of earlier tests that may be closing. */
async function openNightSky(query = ''): Promise<{ page: Page; view: LabelerView; tabId: number }> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1100, height: 700 });
  await page.goto(site.url + query);
  return { page, view: await LabelerView.attach(page), tabId: await tabIdOf(site.url + query) };
}

const outerHtml = (page: Page) => page.evaluate(() => document.documentElement.outerHTML);

type Box = { left: number; top: number; right: number; bottom: number };
/** Whether two boxes share area (touching edges do not count). */
const overlaps = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
/** The distance from a badge to the nearest of its link's text boxes (0 when they touch). */
const gap = (a: Box, boxes: Box[]) =>
  Math.min(...boxes.map((b) => Math.hypot(Math.max(0, b.left - a.right, a.left - b.right), Math.max(0, b.top - a.bottom, a.top - b.bottom))));

it('marks every link in place, labels by click and key with the crawler’s features, and leaves nothing behind', async () => {
  const { page, view, tabId } = await openNightSky();
  // What the crawler reads from the same HTML with linkedom: the labels must carry exactly this.
  const crawled = parseHtml(NIGHT_SKY_HTML, site.url).links;
  expect(crawled.map((l) => new URL(l.url).pathname)).toEqual([
    '/', '/astronomy/', '/kitchen/', '/sports/', '/astronomy/saturn-rings', '/kitchen/lentil-soup',
    '/astronomy/galaxy-survey', '/sports/football-results', '/astronomy/planet-guide',
  ]);
  const saturn = crawled.find((l) => l.url.endsWith('/saturn-rings'))!;
  const lentil = crawled.find((l) => l.url.endsWith('/lentil-soup'))!;
  const alike = { url: `${site.origin}/astronomy/rings-tonight`, anchor: ALIKE_ANCHOR, context: 'low in the south after ten' };
  const before = await outerHtml(page);
  const boxes = await pageBoxes(page);

  expect(await setLabeler(tabId, true)).toEqual({ on: true });
  await expect.poll(async () => (await view.badges()).filter((b) => !b.hidden && b.score !== null).length).toBe(crawled.length);
  const badges = await view.badges();
  expect(badges.map((b) => b.url)).toEqual(crawled.map((l) => l.url));
  for (const b of badges) expect(b.text).toMatch(/^(<1|>99|\d{1,3})%$/);
  // Each badge sits beside its link and over no link's text, although the page makes every element position: relative.
  const texts = (await linkTextBoxes(page)).filter((t) => !t.href.startsWith('mailto:'));
  expect(texts.map((t) => t.href)).toEqual(badges.map((b) => b.url));
  badges.forEach((b, i) => {
    expect(texts.flatMap((t) => t.boxes).filter((t) => overlaps(b.box, t))).toEqual([]);
    expect(gap(b.box, texts[i]!.boxes)).toBeLessThanOrEqual(4);
  });
  expect(await pageBoxes(page)).toEqual(boxes); // no layout shift of the page's own content
  expect(await view.toolbarText()).toMatch(/My topic[\s\S]*9 links/);

  // Switching on again (a second click of the popup button) does not add a second labeler.
  expect(await setLabeler(tabId, true)).toEqual({ on: true });
  expect(await view.hosts()).toBe(1);

  const [alikeBefore] = (await send<{ scores: number[] }>(browser.page, 'scoreLinks', { links: [alike] })).scores;
  const saturnBefore = (await view.badge(saturn.url)).score!;

  // On topic with one click on the badge's card; off topic with a key while pointing at the link.
  await view.labelWithCard(saturn.url, 'on');
  await page.hover('a[href="/kitchen/lentil-soup"]');
  await page.keyboard.press('2');
  await expect.poll(async () => {
    const [s, l] = [await view.badge(saturn.url), await view.badge(lentil.url)];
    return `${s.label}${s.pending} ${l.label}${l.pending}`;
  }).toBe('1false 0false');

  const stored = await userLabels();
  expect(stored.map(({ url, anchor, context, label, pageUrl }) => ({ url, anchor, context, label, pageUrl })).sort((a, b) => a.url.localeCompare(b.url))).toEqual([
    { url: saturn.url, anchor: saturn.anchor, context: saturn.context, label: 1, pageUrl: site.url },
    { url: lentil.url, anchor: lentil.anchor, context: lentil.context, label: 0, pageUrl: site.url },
  ]);
  expect(saturn.anchor).toBe(ALIKE_ANCHOR);

  // The badges show the rescored values, and a link alike the one labeled on topic now scores higher.
  await expect.poll(async () => (await view.badge(saturn.url)).score!).toBeGreaterThan(saturnBefore);
  await expect.poll(async () => (await view.badge(lentil.url)).score!).toBeLessThan(saturnBefore);
  const [alikeAfter] = (await send<{ scores: number[] }>(browser.page, 'scoreLinks', { links: [alike] })).scores;
  expect(alikeAfter).toBeGreaterThan(alikeBefore!);
  expect(await view.toolbarText()).toMatch(/9 links · 1 ✓ · 1 ✗/);
  expect(await view.errorText()).toBe('');

  // The labels are in the dashboard's table of the topic; Retrain there rebuilds the model from them, and the
  // alike link keeps the higher score.
  const { topic } = await send<{ topic: { id: number } }>(browser.page, 'scoreLinks', { links: [] });
  const dashboard = await new TopicsPage(await browser.context.newPage(), browser.extensionId).open(topic.id);
  await dashboard.waitFor(async () => (await dashboard.labelRows()).length === 2, 'the two labels in the table');
  expect((await dashboard.labelRows()).map((r) => [r.url, r.label, r.source]).sort()).toEqual(
    [[saturn.url, 'on topic', 'user'], [lentil.url, 'off topic', 'user']].sort(),
  );
  await dashboard.page.getByTestId('model-retrain').click();
  await expect.poll(() => dashboard.page.getByTestId('model-report').innerText()).toMatch(/Retrained .* on 1 on-topic and 1 off-topic links/);
  const [alikeRetrained] = (await send<{ scores: number[] }>(browser.page, 'scoreLinks', { links: [alike] })).scores;
  expect(alikeRetrained).toBeCloseTo(alikeAfter!, 12);
  await dashboard.page.close();

  // Badges follow the page when it scrolls.
  const y = (await view.badge(saturn.url)).y;
  await page.evaluate(() => window.scrollTo(0, 60));
  await expect.poll(async () => Math.round((await view.badge(saturn.url)).y)).toBe(Math.round(y - 60));
  await page.evaluate(() => window.scrollTo(0, 0));

  // `0` clears a label.
  await page.hover('a[href="/astronomy/saturn-rings"]');
  await page.keyboard.press('0');
  await expect.poll(async () => (await userLabels()).map((l) => l.url)).toEqual([lentil.url]);
  expect((await view.badge(saturn.url)).label).toBe('');
  await page.mouse.move(5, 650);
  expect(await pageBoxes(page)).toEqual(boxes);

  // Off: the page's DOM is as it was, and its keys are its own again.
  expect(await setLabeler(tabId, false)).toEqual({ on: false });
  expect(await view.hosts()).toBe(0);
  expect(await outerHtml(page)).toBe(before);
  await page.hover('a[href="/kitchen/lentil-soup"]');
  await page.keyboard.press('1');
  await page.waitForTimeout(500);
  expect((await userLabels()).map((l) => l.label)).toEqual([0]);
  await page.close();
});

it('follows links the page adds, survives a second injection, and switches off from its toolbar', async () => {
  const { page, view, tabId } = await openNightSky('?again');
  const before = await outerHtml(page);
  expect(await setLabeler(tabId, true)).toEqual({ on: true });
  await expect.poll(async () => (await view.badges()).length).toBe(9);

  await page.evaluate(() => {
    const p = document.createElement('p');
    p.innerHTML = 'New tonight: <a href="/astronomy/comet">a bright comet in the west</a>.';
    document.querySelector('.spacer')!.before(p);
  });
  await expect.poll(async () => (await view.badges()).find((b) => b.url.endsWith('/astronomy/comet'))?.score ?? null).not.toBeNull();
  await page.evaluate(() => document.querySelector('a[href="/astronomy/comet"]')!.closest('p')!.remove());
  await expect.poll(async () => (await view.badges()).length).toBe(9);

  // The script injected again by hand (not through setLabeler, which checks first): still one labeler at most.
  const inject = () =>
    browser.page.evaluate((id) => (globalThis as unknown as { chrome: { scripting: { executeScript(o: object): Promise<unknown> } } }).chrome.scripting.executeScript({ target: { tabId: id }, files: ['/content-scripts/label.js'] }), tabId);
  await inject();
  await inject();
  expect(await view.hosts()).toBeLessThanOrEqual(1);
  expect(await setLabeler(tabId, true)).toEqual({ on: true });
  expect(await view.hosts()).toBe(1);
  await expect.poll(async () => (await view.badges()).filter((b) => b.score !== null).length).toBe(9);

  await view.clickClose();
  await expect.poll(() => view.hosts()).toBe(0);
  expect(await outerHtml(page)).toBe(before);
  // Closed from its toolbar, it reports off, and comes back on when asked.
  expect(await setLabeler(tabId, false)).toEqual({ on: false });
  expect(await setLabeler(tabId, true)).toEqual({ on: true });
  expect(await view.hosts()).toBe(1);
  expect(await setLabeler(tabId, false)).toEqual({ on: false });
  expect(await outerHtml(page)).toBe(before);
  await page.close();
});

it('tells the user to use the toolbar button when the popup is open as a tab', async () => {
  const popup = await browser.context.newPage();
  await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
  await popup.getByTestId('label-page').click();
  await expect.poll(() => popup.getByTestId('label-page-message').innerText()).toMatch(/toolbar button/);
  expect(await popup.getByTestId('open-dashboard').isVisible()).toBe(true);
  await popup.close();
});

it('keeps every badge of a dense list off all link text, at the end of its own line, and outlines the link it belongs to', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1100, height: 1000 });
  await page.goto(site.denseUrl);
  const view = await LabelerView.attach(page);
  const tabId = await tabIdOf(site.denseUrl);
  const boxes = await pageBoxes(page);
  expect(await setLabeler(tabId, true)).toEqual({ on: true });
  await expect.poll(async () => (await view.badges()).filter((b) => b.score !== null).length).toBe(64);
  const badges = await view.badges();
  const texts = await linkTextBoxes(page);
  expect(texts.map((t) => t.href)).toEqual(badges.map((b) => b.url));
  // Lines 14 px apart: each text box is about as tall as its line, so a badge has no slack to spare.
  const list = texts.filter((t) => t.href.includes('/log/'));
  expect(list).toHaveLength(60);
  expect(list[1]!.boxes[0]!.top - list[0]!.boxes[0]!.top).toBe(14);
  const shown = badges.filter((b) => !b.hidden);
  expect(shown).toHaveLength(64);
  const allText = texts.flatMap((t) => t.boxes);
  for (const b of shown) expect(allText.filter((t) => overlaps(b.box, t)), b.url).toEqual([]);
  shown.forEach((a, i) => shown.forEach((b, j) => i < j && expect(overlaps(a.box, b.box), `${a.url} ${b.url}`).toBe(false)));
  // Each list badge follows its own link's text on the same line; the tags' badges touch their own tag.
  badges.forEach((b, i) => {
    const own = texts[i]!.boxes;
    if (!b.url.includes('/log/')) return expect(gap(b.box, own), b.url).toBeLessThanOrEqual(4);
    const line = own[own.length - 1]!;
    expect(b.box.left - line.right, b.url).toBeGreaterThanOrEqual(0);
    expect(b.box.left - line.right, b.url).toBeLessThanOrEqual(4);
    expect(b.box.top, b.url).toBeGreaterThanOrEqual(line.top);
    expect(b.box.bottom, b.url).toBeLessThanOrEqual(line.bottom);
  });

  // Pointing at a badge outlines its link's text (and only that link's).
  const target = badges.findIndex((b) => b.url.endsWith('/log/17'));
  await page.mouse.move(badges[target]!.x, badges[target]!.y);
  await expect.poll(() => view.outlineBoxes()).toHaveLength(texts[target]!.boxes.length);
  const outlined = await view.outlineBoxes();
  outlined.forEach((o, k) => {
    const t = texts[target]!.boxes[k]!;
    expect(o.left <= t.left && o.right >= t.right && o.top <= t.top && o.bottom >= t.bottom).toBe(true);
    expect(o.right - o.left - (t.right - t.left)).toBeLessThanOrEqual(6);
  });
  // Pointing at a link outlines it too; pointing at nothing clears the outline.
  await page.hover('a[href="/log/40"]');
  await expect.poll(async () => (await view.outlineBoxes())[0]?.top).toBeCloseTo(list[40]!.boxes[0]!.top - 1, 0);
  await page.mouse.move(1000, 990);
  await expect.poll(() => view.outlineBoxes()).toEqual([]);
  expect(await pageBoxes(page)).toEqual(boxes); // nothing on the page moved
  if (process.env.FOCUS_SCREENSHOTS) {
    await page.mouse.move(badges[target]!.x, badges[target]!.y);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ROOT, 'results', '2026-11-24', 'ui', 'labeler-dense-list.png'), clip: { x: 0, y: 0, width: 700, height: 560 } });
  }
  expect(await setLabeler(tabId, false)).toEqual({ on: false });
  await page.close();
});

/** The ringed-planets topic (made once), which is sure of every link of the edge page. */
let ringedTopic: Topic | undefined;
async function ringed(): Promise<Topic> {
  ringedTopic ??= await send<Topic>(browser.page, 'createTopic', { name: 'Ringed planets', keywords: ['saturn', 'rings', 'telescope', 'planet', 'moons'] });
  return ringedTopic;
}

/** Opens the edge page in a new tab at 1100x700 and switches the labeler on; every badge scored. */
async function openEdge(query: string): Promise<{ page: Page; view: LabelerView; tabId: number }> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1100, height: 700 });
  await page.goto(site.edgeUrl + query);
  const view = await LabelerView.attach(page);
  const tabId = await tabIdOf(site.edgeUrl + query);
  expect(await setLabeler(tabId, true)).toEqual({ on: true });
  await expect.poll(async () => (await view.badges()).filter((b) => b.score !== null).length).toBe(3);
  return { page, view, tabId };
}

it('labels the link pointed at for the topic just chosen in its bar, the select keeping that topic', async () => {
  const topic = await ringed();
  // A topic whose name starts with 1: the option a select jumps to on the key 1.
  await send<Topic>(browser.page, 'createTopic', { name: '1960s space race', keywords: ['apollo'] });
  const other = (await send<Topic[]>(browser.page, 'listTopics', {})).find((t) => t.id !== topic.id);
  await send<Topic>(browser.page, 'activeTopic', { topicId: other!.id });
  const { page, view, tabId } = await openEdge('?keys');
  expect(await view.selectedTopic()).not.toBe('Ringed planets');

  await view.chooseTopic('Ringed planets');
  await expect.poll(() => view.selectedTopic()).toBe('Ringed planets');
  expect(await view.selectHasFocus()).toBe(true);
  await expect.poll(async () => (await view.badges()).map((b) => b.text)).toEqual(['>99%', '>99%', '>99%']);

  // With the select still focused, 1 labels the link pointed at, for that topic, and the select stays put.
  const close = `${site.origin}/rings/close`;
  await page.hover('a[href="/rings/close"]');
  await page.keyboard.press('1');
  await expect.poll(async () => (await userLabels()).filter((l) => l.url === close).map((l) => [l.topicId, l.label])).toEqual([[topic.id, 1]]);
  await expect.poll(async () => (await view.badge(close)).text).toBe('✓ >99%');
  expect(await view.selectedTopic()).toBe('Ringed planets');
  expect((await send<Topic>(browser.page, 'activeTopic', {})).id).toBe(topic.id);
  // 2 and 0 too: off topic, then cleared.
  await page.keyboard.press('2');
  await expect.poll(async () => (await userLabels()).filter((l) => l.url === close).map((l) => l.label)).toEqual([0]);
  await page.keyboard.press('0');
  await expect.poll(async () => (await userLabels()).filter((l) => l.url === close)).toEqual([]);
  expect(await view.selectedTopic()).toBe('Ringed planets');
  expect(await setLabeler(tabId, false)).toEqual({ on: false });
  await page.close();
});

it('shows a sure score whole, inside the view, at the right and bottom edges and at each zoom', async () => {
  const topic = await ringed();
  await send<Topic>(browser.page, 'activeTopic', { topicId: topic.id });
  const { page, view, tabId } = await openEdge('?zoom');
  expect((await view.badges()).map((b) => b.text)).toEqual(['>99%', '>99%', '>99%']);
  // Zoom as CSS pixels per device pixel: a page zoom of 100%, 150% and 90% gives these.
  const cdp = await page.context().newCDPSession(page);
  for (const zoom of [1, 1.5, 0.9]) {
    await cdp.send('Emulation.setDeviceMetricsOverride', { width: Math.round(1100 / zoom), height: Math.round(700 / zoom), deviceScaleFactor: zoom, mobile: false });
    // A labeled badge is the widest: "✓ >99%".
    await page.hover('a[href="/rings/close"]');
    await page.keyboard.press('1');
    await page.mouse.move(1, 1);
    await expect.poll(async () => (await view.badge(`${site.origin}/rings/close`)).text).toBe('✓ >99%');
    // The relayout after the resize and the label, however long a busy machine takes to make it.
    const cut = async () => (await view.badgeFits()).filter((f) => f.scrollWidth > f.clientWidth).map((f) => `${f.url} "${f.text}" at zoom ${zoom}`);
    await expect.poll(cut).toEqual([]);
    expect((await view.badgeFits()).length, `zoom ${zoom}`).toBeGreaterThanOrEqual(2);
    const inner = await page.evaluate(() => ({ w: document.documentElement.clientWidth, h: document.documentElement.clientHeight }));
    for (const b of (await view.badges()).filter((v) => !v.hidden)) {
      expect(b.box.left, `${b.url} at zoom ${zoom}`).toBeGreaterThanOrEqual(0);
      expect(b.box.top, `${b.url} at zoom ${zoom}`).toBeGreaterThanOrEqual(0);
      expect(b.box.right, `${b.url} at zoom ${zoom}`).toBeLessThanOrEqual(inner.w);
      expect(b.box.bottom, `${b.url} at zoom ${zoom}`).toBeLessThanOrEqual(inner.h);
    }
  }
  await cdp.send('Emulation.clearDeviceMetricsOverride');
  await page.hover('a[href="/rings/close"]');
  await page.keyboard.press('0');
  expect(await setLabeler(tabId, false)).toEqual({ on: false });
  await page.close();
});
