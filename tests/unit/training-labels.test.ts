// Training reads a link's label by the URL as the crawl keys it: a link written with a fragment or a session
// id leads to the page a pattern names, during training as when the crawl meets it.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { expect, it } from 'vitest';
import { seedCandidates } from '../../lib/learning/children';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlRunner } from '../../lib/run/runner';
import { PageJudge } from '../../lib/learning/page-judge';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';

const o = 'http://sky.test';
const page = (title: string, links: [string, string][]) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${links.map(([href, text]) => `<p><a href="${href}">${text}</a></p>`).join('')}</body></html>`;
const SITE: Record<string, string> = {
  '/start': page('Start', []),
  // Links to labeled pages as sites write them: a fragment, a session id, the page itself.
  '/pos/1': page('Comets', [['/pos/2#history', 'meteor showers'], ['/pos/3;jsessionid=A1B2', 'asteroid belt'], ['/neg/1#menu', 'car park'], ['/pos/1#top', 'back to top']]),
  '/pos/2': page('Meteors', [['/pos/1', 'comets']]),
  '/pos/3': page('Asteroids', [['/neg/1', 'parking fees']]),
  '/neg/1': page('Parking', [['/pos/3', 'asteroid belt']]),
};

it('labels a training page\'s links by the URL the crawl keys, not as written (fragment, session id), and not its link to itself', async () => {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const config = parseConfig({
    name: 'sky', seeds: [`${o}/start`], topic: { keywords: ['comet'] },
    // Exact URLs, as a user lists the pages they labeled.
    training: { linkSources: [`${o}/pos/1`], positive: [`${o}/pos/1`, `${o}/pos/2`, `${o}/pos/3`], negative: [`${o}/neg/1`] },
    budget: { maxPages: 1 }, politeness: { delayMs: 0, concurrency: 1, robots: false },
  });
  const topic = await store.topics.createTopic('sky', ['comet'], Date.now());
  const crawlId = await store.createCrawl(config, topic.id!, Date.now());
  await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
  const fetch = async (url: string) => {
    const html = SITE[new URL(url).pathname];
    return html === undefined ? new Response('no', { status: 404 }) : new Response(html, { status: 200, headers: { 'content-type': 'text/html' } });
  };
  const end = await new CrawlRunner({ store, fetch, clock: realClock }, crawlId).run();
  expect(end.state).toBe('finished');

  const labels = (await store.topics.allLabels(topic.id!)).filter((l) => l.source === 'auto');
  expect(labels.map((l) => [l.url, l.anchor, l.label, l.parentOnTopic]).sort()).toEqual([
    [`${o}/neg/1`, 'car park', 0, true],
    [`${o}/pos/2`, 'meteor showers', 1, true],
    [`${o}/pos/3`, 'asteroid belt', 1, true],
  ]);
  // The source page is a labeled positive: the judge learned it as one.
  expect(PageJudge.fromJSON((await store.topics.getModel(end.topicId))!.judge).examples).toEqual({ pos: 1, neg: 0 });
});
