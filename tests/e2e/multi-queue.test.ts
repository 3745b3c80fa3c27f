// A multi-queue crawl (design D) of a loopback forum in the real extension, through the command-line runner:
// boards with paged thread lists, threads of three pages, members' profiles on a second host. Checked on the
// server's own request log: every thread page asked, each thread's next page within a few forum requests of
// the page linking it, and with perHost 1 and a delay, no host asked twice within the delay while the other
// host's URLs keep flowing. pages.jsonl and the dashboard carry each page's class and priority; the crawl
// detail shows the queues' lengths and weights while the crawl runs.
// @module-tag chromium
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrawl } from '../../scripts/crawl';
import { ensureBuilt } from '../../scripts/lib/browser';
import { forumConfig, startForumSite, type ForumSite } from '../fixtures/sites/forum-site';
import { openDashboard } from './page-objects';

let site: ForumSite;
beforeAll(async () => {
  ensureBuilt();
  site = await startForumSite();
});
afterAll(() => site.close());

const shots = join(process.cwd(), 'results', '2026-11-24', 'multi-queue');

it('crawls a forum thread by thread, boards as list pages, polite to each host without idling', { timeout: 240_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'focus-mq-'));
  // Set FOCUS_SCREENSHOTS=1 to keep the screenshots under results/ (a plain `npm test` leaves the tree as it is).
  if (process.env.FOCUS_SCREENSHOTS) mkdirSync(shots, { recursive: true });
  const delayMs = 250;
  let queuesSeen: string[] = [];
  let classesShown: string[] = [];
  const summary = await runCrawl({
    config: { ...forumConfig(), politeness: { delayMs, concurrency: 2, perHost: 1 } },
    out, hostRules: `MAP *.test 127.0.0.1:${site.port}`, log: () => {},
    onStarted: async (launched, crawlId) => {
      const { dash } = await openDashboard(launched.context, launched.extensionId, `crawl=${crawlId}`, { width: 1200, height: 1100 });
      // Live: the detail shows several queues with their lengths and weights while the crawl runs.
      await expect.poll(() => dash.getByTestId('queue-row').count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
      queuesSeen = await dash.getByTestId('queue-row').allInnerTexts();
      // The detail is redrawn on every commit: scroll by script rather than by a handle to a row.
      await dash.evaluate(() => document.querySelector('[data-testid=detail-queues]')?.scrollIntoView({ block: 'center' }));
      if (process.env.FOCUS_SCREENSHOTS) await dash.screenshot({ path: join(shots, 'crawl-detail-queues.png') });
      await dash.close();
    },
    onFinished: async (launched, crawlId) => {
      const { dash } = await openDashboard(launched.context, launched.extensionId, `crawl=${crawlId}`, { width: 1400, height: 1000 });
      await dash.getByTestId('page-row').first().waitFor();
      classesShown = await dash.getByTestId('page-class').allInnerTexts();
      await dash.evaluate(() => document.querySelector('[data-testid=pages-table]')?.scrollIntoView());
      if (process.env.FOCUS_SCREENSHOTS) await dash.screenshot({ path: join(shots, 'pages-table-classes.png') });
    },
  });
  expect(summary.state).toBe('finished');
  expect(summary.listPages).toBe(site.boardPages().length);

  const log = site.requests.filter((r) => r.path !== '/robots.txt');
  const forum = log.filter((r) => r.host === 'forum.test').map((r) => r.path);
  // Every thread page, every board page, once.
  expect(new Set(forum)).toEqual(new Set(['/', ...site.boardPages(), ...site.threadPages()]));
  expect(forum.length).toBe(new Set(forum).size);
  // A thread's page k+1 is asked within a few forum requests of page k, which links it.
  const gaps = site.threadPages().filter((p) => p.includes('page=')).map((p) => {
    const k = Number(/page=(\d+)/.exec(p)![1]);
    const prev = k === 2 ? p.replace(/\?page=\d+/, '') : p.replace(/page=\d+/, `page=${k - 1}`);
    return forum.indexOf(p) - forum.indexOf(prev);
  });
  expect(Math.max(...gaps)).toBeLessThanOrEqual(3);
  const closestOf = (host: string) => {
    const at = log.filter((r) => r.host === host).map((r) => r.at);
    return Math.min(...at.slice(1).map((t, i) => t - at[i]!));
  };

  // Politeness: never two requests to one host closer than the delay...
  for (const host of ['forum.test', 'people.test']) expect(closestOf(host), host).toBeGreaterThanOrEqual(delayMs);
  // ...and while the forum waits out its delay, members' profiles (the lowest queues) are fetched: most of
  // them before the forum's last request, not all at the end.
  const forumEnd = log.filter((r) => r.host === 'forum.test').at(-1)!.at;
  const people = log.filter((r) => r.host === 'people.test');
  expect(people.length).toBe(site.shape.members);
  expect(people.filter((r) => r.at < forumEnd).length).toBeGreaterThanOrEqual(people.length / 2);
  console.log(`forum: ${forum.length} requests, next-page gaps max ${Math.max(...gaps)} (${gaps.filter((g) => g === 1).length} of ${gaps.length} right after); ` +
    `closest requests: forum ${closestOf('forum.test')} ms, people ${closestOf('people.test')} ms (delay ${delayMs}); ` +
    `${people.filter((r) => r.at < forumEnd).length} of ${people.length} profiles before the forum's last request; ` +
    `crawl ${((log.at(-1)!.at - log[0]!.at) / 1000).toFixed(1)} s`);

  // pages.jsonl: boards are list pages (their first pages) or pagination, never judged; thread pages after
  // the first came back at the top priority as content-return links.
  const lines = readFileSync(join(out, 'pages.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const boards = lines.filter((l) => /\/board\//.test(l.url as string));
  expect(boards.map((l) => l.urlClass).sort()).toEqual(['list', 'list', 'pagination', 'pagination']);
  expect(boards.every((l) => l.relevant === null)).toBe(true);
  const later = lines.filter((l) => /\/thread\/.*page=/.test(l.url as string));
  expect(later.every((l) => l.urlClass === 'content-return' && l.priority === 5)).toBe(true);
  expect(lines.filter((l) => /people\.test/.test(l.url as string)).every((l) => typeof l.priority === 'number' && (l.priority as number) < 5)).toBe(true);

  // What the user saw: queues with weights while it ran, and the classes in the Pages table.
  expect(queuesSeen.length).toBeGreaterThanOrEqual(2);
  expect(classesShown).toEqual(expect.arrayContaining(['list', 'pagination', 'content', 'content-return', 'other']));
});
