// Topics, labels and models through the service's protocol handlers, on the demo site over real HTTP.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { nextUp } from '../../lib/ui/queries';
import { realClock } from '../../lib/net/fetcher';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';

let site: DemoServer;
beforeAll(async () => {
  site = await startDemoServer();
});
afterAll(() => site.close());

function fresh() {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: (u, i) => fetch(u, i), clock: realClock });
  return { store, service, h: service.handlers };
}

const link = (url: string, anchor: string, context = '') => ({ url, anchor, context });

describe('labeling through the service', () => {
  it('scores a link alike to one labeled on topic higher, and lower after it is relabeled off topic', async () => {
    const { h } = fresh();
    const topic = await h.createTopic({ name: 'Chess', keywords: ['chess'] });
    const alike = link('http://x.test/b', 'sicilian defence lines');
    const before = (await h.scoreLinks({ topicId: topic.id, links: [alike] })).scores[0];
    const { label } = await h.labelLink({ topicId: topic.id!, ...link('http://x.test/a#frag', 'sicilian defence'), label: 1 });
    expect(label!.url).toBe('http://x.test/a'); // normalized like a frontier URL
    const after = await h.scoreLinks({ topicId: topic.id, links: [alike, link('http://x.test/a', 'sicilian defence')] });
    expect(after.scores[0]).toBeGreaterThan(before);
    expect(after.labels).toEqual([null, 1]);
    // One user label per URL: labeling again replaces it (a rebuild, as the topic's revision moves).
    await h.labelLink({ topicId: topic.id!, ...link('http://x.test/a', 'sicilian defence'), label: 0 });
    const flipped = await h.scoreLinks({ topicId: topic.id, links: [alike, link('http://x.test/a', '')] });
    expect(flipped.scores[0]).toBeLessThan(before);
    expect(flipped.labels).toEqual([null, 0]);
    await h.labelLink({ topicId: topic.id!, ...link('http://x.test/a', 'sicilian defence'), label: null });
    const cleared = await h.scoreLinks({ topicId: topic.id, links: [alike, link('http://x.test/a', '')] });
    expect(cleared.scores[0]).toBeCloseTo(before, 12);
    expect(cleared.labels).toEqual([null, null]);
  });

  it('imports CSV and JSON Lines, reporting the lines it could not read', async () => {
    const { h, store } = fresh();
    const topic = await h.createTopic({ name: 'T', keywords: [] });
    const csv = 'url,anchor,context,label\nhttp://a.test/1,"solar, roof",near the sun,on\nnot a url,x,,on\nhttp://a.test/2,bread,,maybe\nhttp://a.test/3,soup,kitchen,0\n';
    const r = await h.importLabels({ topicId: topic.id!, format: 'csv', text: csv });
    expect(r.added).toBe(2);
    expect(r.rejected.map((x) => x.line)).toEqual([3, 4]);
    expect(r.rejected[1].error).toMatch(/on\/off/);
    const j = await h.importLabels({ topicId: topic.id!, format: 'jsonl', text: '{"url":"http://a.test/4","anchor":"panel","label":1}\n{oops\n' });
    expect(j).toEqual({ added: 1, rejected: [{ line: 2, error: 'not valid JSON' }], rejectedCount: 1 });
    const rows = await store.topics.allLabels(topic.id!);
    expect(rows.map((l) => [l.anchor, l.label, l.source])).toEqual([['solar, roof', 1, 'user'], ['soup', 0, 'user'], ['panel', 1, 'user']]);
  });

  it('relabels and deletes labels, and the model forgets them', async () => {
    const { h, store } = fresh();
    const topic = await h.createTopic({ name: 'T', keywords: ['solar'] });
    await h.importLabels({ topicId: topic.id!, format: 'jsonl', text: '{"url":"http://a.test/1","anchor":"wind turbine","label":1}\n{"url":"http://a.test/2","anchor":"wind farm","label":1}\n' });
    const probe = [link('http://a.test/9', 'wind power')];
    const learned = (await h.scoreLinks({ topicId: topic.id, links: probe })).scores[0];
    const [a, b] = await store.topics.allLabels(topic.id!);
    expect((await h.relabel({ ids: [a.id!], label: 0 })).changed).toBe(1);
    expect((await h.deleteLabels({ ids: [b.id!] })).deleted).toBe(1);
    const after = (await h.scoreLinks({ topicId: topic.id, links: probe })).scores[0];
    expect(after).toBeLessThan(learned);
    expect(after).toBeLessThan(0.5);
    expect((await store.topics.allLabels(topic.id!)).map((l) => [l.label, l.source])).toEqual([[0, 'user']]);
  });

  it('exports a model with its labels and imports it as a new topic that scores the same', async () => {
    const { h } = fresh();
    const topic = await h.createTopic({ name: 'Solar', keywords: ['solar'] });
    await h.labelLink({ topicId: topic.id!, ...link('http://a.test/1', 'photovoltaic cells'), label: 1 });
    await h.labelLink({ topicId: topic.id!, ...link('http://a.test/2', 'bread recipes'), label: 0 });
    const bundle = JSON.parse(JSON.stringify(await h.exportModel({ topicId: topic.id! })));
    const { topic: copy, added, rejectedCount } = await h.importModel({ bundle });
    expect([added, rejectedCount]).toEqual([2, 0]);
    expect(copy.name).toBe('Solar (2)');
    const probe = [link('http://a.test/3', 'photovoltaic roof'), link('http://a.test/4', 'bread')];
    expect((await h.scoreLinks({ topicId: copy.id, links: probe })).scores).toEqual((await h.scoreLinks({ topicId: topic.id, links: probe })).scores);
    await expect(h.importModel({ bundle: { kind: 'something' } })).rejects.toThrow(/not a Focus model file/);
  });

  it('labels a crawled page: the judge learns it and the links to it become labeled links', async () => {
    const { h, store, service } = fresh();
    const { crawlId } = await h.start({ ...demoConfig(site.origin), budget: { maxPages: 8 }, politeness: { delayMs: 0, concurrency: 2 } });
    await service.settled(crawlId);
    const crawl = (await store.getCrawl(crawlId))!;
    const pages = await store.pages.pagesAfter(crawlId, 0, 100);
    const child = pages.find((p) => p.parentUrl !== null && !p.error)!;
    const r = await h.labelPage({ crawlId, seq: child.seq, label: 1 });
    expect(r.links).toBeGreaterThanOrEqual(1);
    const labels = (await store.topics.allLabels(crawl.topicId)).filter((l) => l.source === 'page');
    expect(labels.length).toBe(r.links);
    expect(labels.every((l) => l.url === child.url && l.label === 1)).toBe(true);
    expect((await h.retrain({ topicId: crawl.topicId })).pages).toEqual({ pos: 1, neg: 0 });
    await h.labelPage({ crawlId, seq: child.seq, label: null });
    expect((await store.topics.allLabels(crawl.topicId)).filter((l) => l.source === 'page')).toEqual([]);
    expect((await h.retrain({ topicId: crawl.topicId })).pages).toEqual({ pos: 0, neg: 0 });
  });

  it('a crawl of an existing topic learns from its labels; a topic with nothing to go on is refused', async () => {
    const { h, store, service } = fresh();
    const empty = await h.createTopic({ name: 'Empty', keywords: [] });
    await expect(h.start({ seeds: [site.origin + '/'], topic: { id: empty.id } })).rejects.toThrow(/no keywords and no labels/);
    await expect(h.start({ seeds: [site.origin + '/'], topic: { id: 999 } })).rejects.toThrow(/no topic 999/);
    await h.labelLink({ topicId: empty.id!, ...link(site.origin + '/space/', 'astronomy telescopes'), label: 1 });
    const { crawlId } = await h.start({ seeds: [site.origin + '/'], topic: { id: empty.id }, budget: { maxPages: 3 }, politeness: { delayMs: 0 } });
    await service.settled(crawlId);
    expect((await store.getCrawl(crawlId))!.topicId).toBe(empty.id);
    expect((await h.listTopics({})).length).toBe(1);
  });

  it("re-scores a running crawl's frontier after retraining, in the labels' direction", async () => {
    const { h, store } = fresh();
    const { crawlId } = await h.start({
      ...demoConfig(site.origin), budget: { maxPages: 60 }, politeness: { delayMs: 400, concurrency: 1, robots: false },
      learning: { rescoreEveryPages: 0, rescoreEveryLabels: 0 },
    });
    let queued = await nextUp(store.db, crawlId, 50);
    while (queued.length < 10) {
      await realClock.sleep(20);
      queued = await nextUp(store.db, crawlId, 50);
    }
    const topicId = (await store.getCrawl(crawlId))!.topicId;
    const bottom = queued.slice(-4), top = queued.slice(0, 4);
    for (const e of bottom) await h.labelLink({ topicId, url: e.url, anchor: e.anchor, context: e.context, label: 1 });
    for (const e of top) await h.labelLink({ topicId, url: e.url, anchor: e.anchor, context: e.context, label: 0 });
    const retrainedAt = Date.now();
    const report = await h.retrain({ topicId });
    expect(report.rescoring).toEqual([crawlId]);
    expect(report.examples).toEqual({ pos: 4, neg: 4 });
    // The answers re-scored what they reached at once, and with a model of 8 labels the class counts moved enough
    // for a full re-score too; the Retrain's re-score runs after, or joins one still running.
    while (((await store.getCrawl(crawlId))!.lastRescore?.at ?? 0) < retrainedAt) await realClock.sleep(10);
    const after = await nextUp(store.db, crawlId, 50);
    const rank = (url: string, list: typeof after) => list.findIndex((e) => e.url === url);
    // Every link labeled on topic moved up, every one labeled off topic moved down (among those still queued).
    for (const e of bottom) if (rank(e.url, after) >= 0) expect(rank(e.url, after)).toBeLessThan(rank(e.url, queued));
    for (const e of top) if (rank(e.url, after) >= 0) expect(rank(e.url, after)).toBeGreaterThan(rank(e.url, queued));
    expect(bottom.some((e) => rank(e.url, after) >= 0)).toBe(true);
    const rescore = (await store.getCrawl(crawlId))!.lastRescore!;
    expect(['retrained', 'answers moved the class counts']).toContain(rescore.why);
    await h.stop({ crawlId });
  });
});
