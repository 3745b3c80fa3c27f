// Pages a minute early in a crawl, against a site served at one request a second (one host, the default politeness
// delay): the popup, the detail's tile, the command line's progress lines and summary.json never say more than the
// server saw, none says a number before it means something, and all say about 60 once it does. Crawled for real
// through the command-line runner in Chromium; what the server saw is the evidence.
// @module-tag chromium
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt } from '../../scripts/lib/browser';
import { listenOnLoopback } from '../fixtures/sites/loopback';
import { openDashboard } from './page-objects';

/** A chain of pages, each linking the next two; every request's time kept. */
async function startChainSite(): Promise<{ origin: string; times: number[]; close(): Promise<void> }> {
  const times: number[] = [];
  const server = createServer((req, res) => {
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    if (n < 0) {
      res.writeHead(404).end();
      return;
    }
    times.push(Date.now());
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Star notes ${n}</title><h1>Star notes ${n}</h1><p>Astronomy: stars and planets.</p>` +
      `<a href="/p/${n + 1}">Star notes ${n + 1}</a> <a href="/p/${n + 2}">Star notes ${n + 2}</a>`);
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, times, close };
}

let site: Awaited<ReturnType<typeof startChainSite>>;
beforeAll(async () => {
  ensureBuilt();
  site = await startChainSite();
});
afterAll(() => site?.close());

const PAGES = 24;

it('says no more pages a minute than one host at one request a second allows, and none before it means something', { timeout: 240_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'focus-pace-'));
  const readings: { popupFetched: number; popup: string; tile: string; tileFetched: number }[] = [];
  const lines: string[] = [];
  const summary = await runCrawl({
    config: { name: 'One a second', seeds: [`${site.origin}/p/0`], topic: { keywords: ['astronomy', 'stars'] }, budget: { maxPages: PAGES },
      politeness: { delayMs: 1000, concurrency: 1, robots: false } },
    out, log: (line) => lines.push(line),
    // While the crawl runs (the runner waits for this before it reads its progress), read the popup and the tile.
    onStarted: async (launched, crawlId) => {
      const popup = await launched.context.newPage();
      await popup.goto(`chrome-extension://${launched.extensionId}/popup.html?crawl=${crawlId}`);
      const { dash } = await openDashboard(launched.context, launched.extensionId, `crawl=${crawlId}`);
      const number = (text: string) => Number(text.replace(/[^\d]/g, ''));
      // Both figures of a view read in one step, as the user sees them at one instant (two reads could straddle a page).
      const both = (page: typeof popup, fetched: string, ppm: string) => page.evaluate(([f, p]) => {
        const text = (sel: string) => (document.querySelector(sel) as HTMLElement | null)?.innerText ?? '';
        return [text(f!), text(p!)];
      }, [fetched, ppm]).catch(() => ['0', '']);
      for (;;) {
        const [popupFetched, popupPpm] = await both(popup, '[data-testid=popup-crawl] [data-testid=fetched]', '[data-testid=popup-crawl] [data-testid=ppm]');
        const [tileFetched, tilePpm] = await both(dash, '[data-testid=detail-fetched]', '[data-testid=detail-ppm]');
        const reading = { popupFetched: number(popupFetched!), popup: popupPpm!, tileFetched: number(tileFetched!), tile: tilePpm! };
        readings.push(reading);
        if (reading.popupFetched >= PAGES && reading.tileFetched >= PAGES) break;
        if (readings.length > 2000) throw new Error('the crawl never reached its budget');
        await popup.waitForTimeout(150);
      }
      await popup.close();
      await dash.close();
    },
  });
  expect(summary.state).toBe('finished');

  // The server saw one request a second: never two closer than the delay.
  expect(site.times).toHaveLength(PAGES);
  const gaps = site.times.slice(1).map((t, i) => t - site.times[i]!);
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(990);
  const served = ((site.times.length - 1) * 60_000) / (site.times.at(-1)! - site.times[0]!);
  expect(served).toBeLessThanOrEqual(60.6);

  // Before ten pages, no rate; after, never more than the server allowed (60 a minute, shown rounded), and about it.
  // No figure yet (the tile not drawn) or a dash: no rate shown.
  const shown = (text: string) => (text === '—' || text === '' ? null : Number(text.replace(/,/g, '')));
  for (const r of readings) {
    if (r.popupFetched < 10) expect(shown(r.popup), JSON.stringify(r)).toBeNull();
    if (r.tileFetched < 10) expect(shown(r.tile), JSON.stringify(r)).toBeNull();
    for (const v of [shown(r.popup), shown(r.tile)]) if (v !== null) expect(v, JSON.stringify(r)).toBeLessThanOrEqual(60);
  }
  const last = readings.at(-1)!;
  expect(shown(last.popup)).toBeGreaterThanOrEqual(50);
  expect(shown(last.tile)).toBeGreaterThanOrEqual(50);
  // The command line's progress lines and summary.json say the same.
  const perMinute = lines.flatMap((l) => [.../(\S+) pages\/min/.exec(l)?.slice(1) ?? []]).map(shown).filter((v): v is number => v !== null);
  expect(perMinute.every((v) => v <= 60)).toBe(true);
  const firstShown = readings.find((r) => shown(r.popup) !== null);
  console.log(`pace: server ${served.toFixed(1)}/min over ${PAGES} requests; popup first shows a rate at ${firstShown?.popupFetched} pages ` +
    `(${firstShown?.popup}), last ${last.popup}, tile ${last.tile}; highest shown ${Math.max(...readings.flatMap((r) => [shown(r.popup) ?? 0, shown(r.tile) ?? 0]))}; ` +
    `summary.json ${summary.pagesPerMinute}`);
  expect(summary.pagesPerMinute).toBeGreaterThanOrEqual(50);
  expect(summary.pagesPerMinute).toBeLessThanOrEqual(served * 1.02);
});
