// The dashboard's labeling queue (labelQuestions) on a small hand-made crawl where the right question is known:
// it asks what changes the next fetches, not what the model is least sure of, and says whether a question is
// about a link or a page.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import { emptyStats, type CrawlRecord } from '../../lib/records/rows';
import type { FrontierEntry, LabeledLink, PageRecord, Topic } from '../../lib/records/types';
import { DEFAULTS } from '../../lib/records/config';
import { labelQuestions, type AskedQuestion } from '../../lib/ui/label-queries';

const T0 = 1_700_000_000_000;
const SITE = 'https://h.example';
const topic: Topic = { id: 1, name: 'History', keywords: ['history'], revision: 0, createdAt: T0, updatedAt: T0 };
const crawl: CrawlRecord = {
  id: 1, topicId: 1, name: 'history', config: structuredClone(DEFAULTS) as CrawlRecord['config'], state: 'running', stats: emptyStats(),
  nextSeq: 0, nextOrder: 0, createdAt: T0, updatedAt: T0, activeMs: 0,
};

/** A queued link to `path`, found on `parent`, with the score it is ranked by (priority: its log-odds). */
function queued(path: string, anchor: string, score: number, parent = '/', priority = Math.log(score / (1 - score))): FrontierEntry {
  return {
    crawlId: 1, url: `${SITE}/${path}`, host: 'h.example', state: 'queued', score, priority, order: 0, depth: 2, parentUrl: `${SITE}${parent}`,
    anchor, context: '', attempts: 0, discoveredAt: T0, updatedAt: T0,
  };
}

function fetched(seq: number, path: string, relevance: number): PageRecord {
  return {
    crawlId: 1, seq, url: `${SITE}${path}`, finalUrl: `${SITE}${path}`, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 1,
    relevant: relevance >= 0.5, relevance, title: path, textLength: 1000, contentType: 'text/html', bytes: 1000, truncated: false,
    linkCount: 50, fetchedAt: T0, durationMs: 10, outcome: 'done',
  } as PageRecord;
}

const urlOf = (q: AskedQuestion) => (q.kind === 'link' ? q.link.url : q.page.url);

let db: CrawlerDB;
beforeEach(async () => {
  db = new CrawlerDB(`questions-${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  await db.topics.put(topic);
  await db.crawls.put(crawl);
});

describe('the labeling queue (labelQuestions)', () => {
  it('asks first about the next fetch likeliest off topic, not the link the model is least sure of', async () => {
    // The crawl fetches "Main Page" next (an authority lifts it to the top though its words say 0.3): an "off
    // topic" saves that fetch. "Cheese" (0.5, the model's doubt) is far behind twelve links of 0.9: either
    // answer leaves the next twelve fetches as they are. The right first question is "Main Page".
    await db.frontier.bulkPut([
      queued('main', 'Main Page', 0.3, '/', 9),
      ...Array.from({ length: 12 }, (_, i) => queued(`king-${i}`, `Ethelred ${i}`, 0.9)),
      queued('cheese', 'Cheese', 0.5),
    ]);
    const q = await labelQuestions(db, topic);
    expect(q[0]).toMatchObject({ kind: 'link', link: { url: `${SITE}/main`, anchor: 'Main Page' } });
    expect(q.findIndex((x) => urlOf(x) === `${SITE}/cheese`)).toBeGreaterThan(0);
  });

  it('asks about a doubtful hub page whose queued links its answer settles, as a page question', async () => {
    // The judge gives the hub 0.5 and thirty queued links came from it; the page it is sure of holds as many.
    await db.pages.bulkPut([fetched(1, '/hub', 0.5), fetched(2, '/sure', 0.99)]);
    await db.frontier.bulkPut([
      ...Array.from({ length: 30 }, (_, i) => queued(`from-hub-${i}`, `Hub child ${i}`, 0.6, '/hub')),
      ...Array.from({ length: 30 }, (_, i) => queued(`from-sure-${i}`, `Sure child ${i}`, 0.6, '/sure')),
    ]);
    const q = await labelQuestions(db, topic, { perCrawl: 100, limit: 100 });
    const pages = q.filter((x) => x.kind === 'page');
    expect(pages.map(urlOf)).toEqual([`${SITE}/hub`, `${SITE}/sure`]);
    expect(q.findIndex((x) => urlOf(x) === `${SITE}/hub`)).toBeLessThan(q.findIndex((x) => urlOf(x) === `${SITE}/sure`));
    // What labelPage needs, and what the row shows.
    expect(pages[0]).toMatchObject({ page: { crawlId: 1, seq: 1, children: 30, relevance: 0.5 } });
  });

  it('does not ask again about what the user answered, here or in another tab', async () => {
    await db.frontier.bulkPut([queued('main', 'Main Page', 0.3, '/', 9), queued('other', 'Other', 0.4, '/', 8)]);
    await db.labels.add({ topicId: 1, crawlId: null, url: `${SITE}/main`, anchor: 'Main Page', context: '', label: 0, source: 'user', createdAt: T0 } as LabeledLink);
    expect((await labelQuestions(db, topic)).map(urlOf)).toEqual([`${SITE}/other`]);
    expect(await labelQuestions(db, topic, { handled: new Set([`${SITE}/other`]) })).toEqual([]);
  });
});
