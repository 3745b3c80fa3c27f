// A page that tries to steer Focus, in real Chromium. Its own script forges the labeler's input (a
// `mouseover` and a `keydown` "1" on its link to https://victim.example/vote?...): nothing is labeled, while
// the user's real pointer and keys still label. And the labeler's content script, which runs inside that
// page, may ask the worker for what labeling needs and nothing else (no `start`, `pages`, `exportModel`).
// A page that moves focus itself (`link.focus()` when a key goes down, from a timer, on a mouseover) does not
// choose the link the user's key labels either.
// @module-tag chromium
import { createServer } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import { LabelerView, userLabels as userLabelsOf } from './labeler-page';

const VICTIM = 'https://victim.example/vote?choice=yes&poll=7';

/** A page whose script forges, on demand, the events that label the link under the pointer. */
const FORGING_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Free telescopes</title></head>
<body style="font: 20px sans-serif; padding: 30px">
<p>Win a <a id="victim" href="${VICTIM}">free telescope for stargazing</a> today, or read our
<a id="honest" href="/astronomy/saturn">guide to Saturn rings through a small telescope</a> first.</p>
<p style="height: 400px">Nothing to see here.</p>
<script>
  const victim = document.getElementById('victim');
  // What the page would do to make the user's labeler vote for it: point at its link, press 1.
  window.forgePointer = () => victim.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, composed: true }));
  window.forgeFocus = () => victim.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true }));
  window.forgeKey = () => {
    for (const target of [victim, document.body, document, window]) {
      target.dispatchEvent(new KeyboardEvent('keydown', { key: '1', code: 'Digit1', bubbles: true, composed: true, cancelable: true }));
    }
  };
</script>
</body></html>`;

type Steer = 'keydown' | 'timer' | 'mouseover';

/**
 * A page whose script moves focus to its own link, as `?steer=` says: on every key but Tab (its listener,
 * added at load on window's capture phase, runs before the labeler's), 100 ms after the user focuses the
 * other link, or when the pointer passes over its banner. Browsers mark the focus events this causes as trusted.
 */
const steeringHtml = (steer: Steer) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Star charts</title></head>
<body style="font: 20px sans-serif; padding: 30px">
<p>Read the <a id="chosen" href="/astronomy/${steer}/saturn">guide to Saturn rings through a small telescope</a>, or
<a id="steered" href="${steeredUrl(steer)}">vote for the free telescope</a>.</p>
<div id="banner" style="height: 120px; background: #fde">Sponsored: telescopes at half price</div>
<p style="height: 300px">Nothing to see here.</p>
<script>
  const chosen = document.getElementById('chosen');
  const steered = document.getElementById('steered');
  const steer = ${JSON.stringify(steer)};
  chosen.addEventListener('click', (e) => e.preventDefault()); // the page handles its links' clicks itself
  if (steer === 'keydown') window.addEventListener('keydown', (e) => { if (e.key !== 'Tab') steered.focus(); }, true);
  if (steer === 'timer') chosen.addEventListener('focus', () => setTimeout(() => steered.focus(), 100));
  if (steer === 'mouseover') document.getElementById('banner').addEventListener('mouseover', () => steered.focus());
</script>
</body></html>`;

const steeredUrl = (steer: Steer) => `https://victim.example/vote?choice=yes&poll=${steer}`;

let site: { origin: string; close(): Promise<void> };
let browser: Launched;

beforeAll(async () => {
  ensureBuilt();
  site = await listenOnLoopback(
    createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const steer = new URL(req.url ?? '/', 'http://x').searchParams.get('steer');
      if (steer === 'keydown' || steer === 'timer' || steer === 'mouseover') res.end(steeringHtml(steer));
      else res.end(req.url === '/prize' ? FORGING_HTML : '<!doctype html><title>other</title>');
    }),
  );
  browser = await launchWithExtension();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const userLabels = () => userLabelsOf(browser.page);

async function tabIdOf(url: string): Promise<number> {
  const tabs = (await browser.page.evaluate(() =>
    (globalThis as unknown as { chrome: { tabs: { query(q: object): Promise<{ id?: number; url?: string }[]> } } }).chrome.tabs.query({}),
  )) as { id?: number; url?: string }[];
  const id = tabs.find((t) => t.url === url)?.id;
  if (id === undefined) throw new Error(`no tab shows ${url}`);
  return id;
}

const forge = (page: Page, what: 'forgePointer' | 'forgeFocus' | 'forgeKey') =>
  page.evaluate((name) => (window as unknown as Record<string, () => void>)[name]!(), what);

it('labels nothing on events the page forges, and still labels on the user’s real pointer and keys', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1000, height: 600 });
  await page.goto(`${site.origin}/prize`);
  const view = await LabelerView.attach(page);
  const honest = `${site.origin}/astronomy/saturn`;
  await send(browser.page, 'setLabeler', { tabId: await tabIdOf(`${site.origin}/prize`), on: true });
  await expect.poll(async () => (await view.badges()).filter((b) => b.score !== null).map((b) => b.url)).toEqual([VICTIM, honest]);

  // 1. All forged: pointer, focus and key.
  await page.mouse.move(5, 560); // the real pointer rests on no link
  await forge(page, 'forgePointer');
  await forge(page, 'forgeFocus');
  await forge(page, 'forgeKey');
  // 2. A forged pointer and focus, then a real key: the key finds no link to label.
  await page.keyboard.press('1');
  // 3. The real pointer on the page's link, a forged key: the key is not the user's.
  await page.hover('#victim');
  await forge(page, 'forgeKey');

  // 4. The user points at the other link and presses 1 for real: that labels it. Labels go to the worker in
  // order, so once this one is stored any label the forgeries had made would be stored too.
  await page.hover('#honest');
  await page.keyboard.press('1');
  await expect.poll(async () => (await userLabels()).map((l) => [l.url, l.label])).toEqual([[honest, 1]]);
  expect((await view.badge(VICTIM)).label).toBe('');
  expect((await view.badge(honest)).label).toBe('1');
  expect(await view.errorText()).toBe('');
  await page.close();
});

/** Opens the steering page with the labeler on; returns the page and the URL of the link the user means. */
async function openSteering(steer: Steer): Promise<{ page: Page; view: LabelerView; chosen: string }> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1000, height: 600 });
  const url = `${site.origin}/charts?steer=${steer}`;
  await page.goto(url);
  const view = await LabelerView.attach(page);
  const chosen = `${site.origin}/astronomy/${steer}/saturn`;
  await send(browser.page, 'setLabeler', { tabId: await tabIdOf(url), on: true });
  await expect.poll(async () => (await view.badges()).filter((b) => b.score !== null).map((b) => b.url)).toEqual([chosen, steeredUrl(steer)]);
  await page.mouse.move(5, 590); // the pointer rests on no link
  return { page, view, chosen };
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** The user's labels stored for the links of one steering page. */
const labelsOf = async (steer: Steer) =>
  (await userLabels()).filter((l) => l.url === steeredUrl(steer) || l.url.includes(`/astronomy/${steer}/`)).map((l) => [l.url, l.label]);

it('labels the link the user tabbed to or clicked when the page moves focus to its own link as the key goes down', async () => {
  const { page, chosen } = await openSteering('keydown');
  await page.keyboard.press('Tab');
  expect(await focusedId(page)).toBe('chosen');
  await page.keyboard.press('1');
  expect(await focusedId(page)).toBe('steered'); // the page did move focus, within the key's own dispatch
  await expect.poll(() => labelsOf('keydown')).toEqual([[chosen, 1]]);
  // Focus the user's click put on the link counts too, once the pointer has moved off it.
  await page.click('#chosen');
  await page.mouse.move(5, 590);
  expect(await focusedId(page)).toBe('chosen');
  await page.keyboard.press('2');
  expect(await focusedId(page)).toBe('steered');
  await expect.poll(() => labelsOf('keydown')).toEqual([[chosen, 0]]);
  await page.waitForTimeout(300);
  expect(await labelsOf('keydown')).toEqual([[chosen, 0]]);
  await page.close();
});

it('labels nothing when the page moved focus on a timer, and the link under the pointer when there is one', async () => {
  const { page, chosen } = await openSteering('timer');
  await page.keyboard.press('Tab');
  await expect.poll(() => focusedId(page)).toBe('steered');
  await page.keyboard.press('1'); // focus is where the page put it, and nothing is pointed at: no label
  await page.hover('#chosen');
  await page.keyboard.press('1');
  // Labels go to the worker in order: once this one is stored, one the first key had made would be too.
  await expect.poll(() => labelsOf('timer')).toEqual([[chosen, 1]]);
  await page.close();
});

it('labels nothing when the page moved focus on a mouseover, and the link the user tabs back to', async () => {
  const { page, view, chosen } = await openSteering('mouseover');
  await page.keyboard.press('Tab');
  expect(await focusedId(page)).toBe('chosen');
  // The labeler outlines the link the user focused (the one a key labels)...
  const chosenTop = await page.evaluate(() => document.getElementById('chosen')!.getBoundingClientRect().top);
  await expect.poll(async () => (await view.outlineBoxes())[0]?.top).toBeCloseTo(chosenTop - 1, 0);
  await page.hover('#banner'); // not a link: the page moves focus to its own
  expect(await focusedId(page)).toBe('steered');
  // ...and nothing once the page has moved focus.
  await expect.poll(() => view.outlineBoxes()).toEqual([]);
  await page.keyboard.press('1');
  await page.keyboard.press('Shift+Tab'); // the user's own focus, back on the link they mean
  expect(await focusedId(page)).toBe('chosen');
  await page.keyboard.press('2');
  await expect.poll(() => labelsOf('mouseover')).toEqual([[chosen, 0]]);
  await page.close();
});

it('answers the labeler’s content script in a web page only what labeling needs', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${site.origin}/prize?ask`);
  await send(browser.page, 'setLabeler', { tabId: await tabIdOf(`${site.origin}/prize?ask`), on: true });
  const cdp = await page.context().newCDPSession(page);
  const contentScript = await contentScriptContext(cdp, browser.extensionId);
  const ask = async (type: string, data: unknown) => {
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      contextId: contentScript,
      expression: `chrome.runtime.sendMessage(${JSON.stringify({ type, data })})`,
      awaitPromise: true,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return result.value as { ok: boolean; result?: unknown; error?: string };
  };

  const topics = await ask('listTopics', {});
  expect(topics.ok).toBe(true);
  const topicId = (topics.result as { id: number }[])[0]!.id;
  expect((await ask('scoreLinks', { topicId, links: [{ url: VICTIM, anchor: 'free telescope', context: '' }] })).ok).toBe(true);
  for (const [type, data] of [
    ['start', { seeds: [`${site.origin}/`], keywords: ['telescope'] }],
    ['pages', { crawlId: 1, afterSeq: 0, limit: 100 }],
    ['exportModel', { topicId }],
    ['importModel', { bundle: {} }],
    ['deleteCrawl', { crawlId: 1 }],
    ['deleteTopic', { topicId }],
  ] as const) {
    const reply = await ask(type, data);
    expect(reply, type).toEqual({ ok: false, error: `Focus answers "${type}" only from its own pages, not from a web page (${site.origin})` });
  }
  // The refusals changed nothing: no crawl was started, the topic is still there.
  expect(await send(browser.page, 'status', {})).toBeNull();
  expect((await send<{ id: number }[]>(browser.page, 'listTopics', {})).map((t) => t.id)).toContain(topicId);
  await cdp.detach();
  await page.close();
});

/** The id of the isolated world Chromium runs this extension's content script in, on the page's main frame. */
async function contentScriptContext(cdp: CDPSession, extensionId: string): Promise<number> {
  const contexts: { id: number; origin: string; auxData?: { type?: string; isDefault?: boolean } }[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context }) => contexts.push(context as (typeof contexts)[number]));
  await cdp.send('Runtime.enable'); // reports the contexts that exist already
  for (let i = 0; i < 100; i++) {
    const found = contexts.find((c) => c.auxData?.type === 'isolated' && c.origin === `chrome-extension://${extensionId}`);
    if (found) return found.id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no content script of ${extensionId} in the page (contexts: ${JSON.stringify(contexts)})`);
}
