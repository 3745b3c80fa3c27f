// A page that tries to steer Focus, in real Chromium. Its own script forges the labeler's input (a
// `mouseover` and a `keydown` "1" on its link to https://victim.example/vote?...): nothing is labeled, while
// the user's real pointer and keys still label. And the labeler's content script, which runs inside that
// page, may ask the worker for what labeling needs and nothing else (no `start`, `pages`, `exportModel`).
import { createServer } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import { listenOnLoopback } from '../../scripts/lib/loopback';
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

let site: { origin: string; close(): Promise<void> };
let browser: Launched;

beforeAll(async () => {
  ensureBuilt();
  site = await listenOnLoopback(
    createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.url === '/prize' ? FORGING_HTML : '<!doctype html><title>other</title>');
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
  await expect.poll(async () => (await view.badges()).filter((b) => b.score !== null).map((b) => b.url), { timeout: 15_000 }).toEqual([VICTIM, honest]);

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
