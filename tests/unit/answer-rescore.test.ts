// An answer from the labeling queue acts at once. A running crawl re-scores the queued links the
// answer reaches (not the whole frontier), to the same scores a full re-score gives, before labelLink returns.
import { describe, expect, it } from 'vitest';
import type { FrontierEntry } from '../../lib/records/types';
import { heldService, queuedEntries } from '../support/held-crawl';
import { answerRescore } from '../../lib/learning/learner';

const O = 'http://tudor.test';
const page = (title: string, links: [string, string][]) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>A page about ${title}.</p><ul>${links
    .map(([href, anchor]) => `<li><a href="${href}">${anchor}</a></li>`).join('')}</ul></body></html>`;

// The seed links to many pages; several share the name "Tudor", the rest share nothing with it.
const NAMES = ['Tudor rose', 'Tudor court', 'Tudor navy', 'Tudor music', 'Tudor dress', 'Bread', 'Cheese', 'Harbour', 'Walrus', 'Quartz'];
const SITE: Record<string, string> = {
  '/': page('History hub', [['/history', 'History of England']]),
  '/history': page('History of England', NAMES.map((n, i) => [`/p${i}`, n] as [string, string])),
};
NAMES.forEach((n, i) => (SITE[`/p${i}`] = page(n, [])));

async function heldCrawl(opts = { labels: 3000 }) {
  const { store, service, h, release, holding } = heldService((path) => {
    const html = SITE[path];
    return html === undefined ? new Response('no', { status: 404 }) : new Response(html, { status: 200, headers: { 'content-type': 'text/html' } });
  });
  // A topic with thousands of labeled links, as a crawl's training gives one: one answer moves the class counts
  // by a fraction of a thousandth, and the answer's own words by much more.
  const topic = await h.createTopic({ name: 'tudors', keywords: ['history'] });
  const lines = Array.from({ length: opts.labels }, (_, i) => JSON.stringify({ url: `http://other.test/${i}`, anchor: `w${i % 997} v${i % 13}`, label: i % 2 }));
  if (lines.length) await h.importLabels({ topicId: topic.id!, format: 'jsonl', text: lines.join('\n') });
  const { crawlId } = await h.start({
    name: 'tudors', seeds: [`${O}/`], topic: { id: topic.id, keywords: ['history'] }, budget: { maxPages: 20 },
    politeness: { delayMs: 0, concurrency: 1, perHost: 1, robots: false },
    // Only the answers teach here: the crawl's own verdicts would move the model too.
    learning: { fromVerdicts: false, linksToJudged: false, rescoreEveryLabels: 0, rescoreEveryPages: 0 },
  });
  await holding;
  const crawl = (await store.getCrawl(crawlId))!;
  return { store, service, h, crawlId, topicId: crawl.topicId, release };
}

const queued = queuedEntries;

describe('an answer re-scores where it reaches', () => {
  it('moves the links that share the answer\'s name, to the scores a full re-score gives, and no others', async () => {
    const { store, h, crawlId, topicId, release, service } = await heldCrawl();
    const before = await queued(store, crawlId);
    expect(before.size).toBeGreaterThanOrEqual(8);
    // One Tudor page is being fetched (the crawl is held on it); the others wait in the queue.
    const tudors = [0, 1, 2, 3, 4].map((i) => `${O}/p${i}`).filter((u) => before.has(u));
    const others = [5, 6, 7, 8, 9].map((i) => `${O}/p${i}`).filter((u) => before.has(u));
    expect(tudors.length + others.length).toBe(9);
    const [answered, ...alike] = tudors;
    const { effect } = await h.labelLink({ topicId, url: answered!, anchor: before.get(answered!)!.anchor, context: '', label: 1, wait: true });
    const after = await queued(store, crawlId);
    // The answered URL goes first; the other Tudor links move; Bread and Quartz do not.
    const top = [...after.values()].sort((a, b) => b.priority - a.priority)[0]!;
    expect(top.url).toBe(answered);
    for (const u of alike) expect(after.get(u)!.priority).toBeGreaterThan(before.get(u)!.priority + 0.01);
    for (const u of others) expect(after.get(u)!.priority).toBe(before.get(u)!.priority);
    expect(effect).toMatchObject({ labels: 1, changed: tudors.length });
    expect(effect!.reached).toBeLessThan(after.size);

    // A full re-score with the same model finds nothing left to move beyond its epsilon.
    const runner = service.runnersOf(topicId)[0]!;
    const { learner } = (runner as unknown as { ctx: { learner: { rankEntry(e: FrontierEntry): { score: number; priority: number } | null } } }).ctx;
    const full = await store.frontier.rescoreQueued(crawlId, (e) => learner.rankEntry(e), Date.now(), { epsilon: 0.01 });
    expect(full.changed).toBe(0);
    expect((await store.getCrawl(crawlId))!.lastRescore).toBeUndefined(); // no full re-score ran meanwhile
    release();
    await service.settled(crawlId);
  });

  it('once the reach index is built, a later answer reaches the same links and leaves nothing for a full re-score', async () => {
    const { store, h, crawlId, topicId, release, service } = await heldCrawl();
    const runner = service.runnersOf(topicId)[0]!;
    const { learner } = (runner as unknown as { ctx: { learner: { reachIndexReady: boolean; rankEntry(e: FrontierEntry): { score: number; priority: number } | null } } }).ctx;
    const before = await queued(store, crawlId);
    const tudors = [0, 1, 2, 3, 4].map((i) => `${O}/p${i}`).filter((u) => before.has(u));
    await h.labelLink({ topicId, url: tudors[0]!, anchor: before.get(tudors[0]!)!.anchor, context: '', label: 1, wait: true });
    await expect.poll(() => learner.reachIndexReady).toBe(true);
    const mid = await queued(store, crawlId);
    const { effect } = await h.labelLink({ topicId, url: tudors[1]!, anchor: mid.get(tudors[1]!)!.anchor, context: '', label: 1, wait: true });
    const after = await queued(store, crawlId);
    // The other Tudor links move again; the rest do not; no queued link is left where a full re-score would move it.
    for (const u of tudors.slice(2)) expect(after.get(u)!.priority).toBeGreaterThan(mid.get(u)!.priority + 0.01);
    for (const u of [5, 6, 7, 8, 9].map((i) => `${O}/p${i}`).filter((x) => after.has(x))) expect(after.get(u)!.priority).toBe(mid.get(u)!.priority);
    expect(effect!.reached).toBeLessThan(after.size);
    const full = await store.frontier.rescoreQueued(crawlId, (e) => learner.rankEntry(e), Date.now(), { epsilon: 0.01 });
    expect(full.changed).toBe(0);
    release();
    await service.settled(crawlId);
  });

  it('with a model of a few labels, where one answer moves every link, a full re-score follows at once', async () => {
    const { store, h, crawlId, topicId, release, service } = await heldCrawl({ labels: 0 });
    const before = await queued(store, crawlId);
    const url = [...before.keys()].find((u) => /p[0-4]$/.test(u))!;
    await h.labelLink({ topicId, url, anchor: before.get(url)!.anchor, context: '', label: 1, wait: true });
    await expect.poll(async () => (await store.getCrawl(crawlId))!.lastRescore?.why).toBe('answers moved the class counts');
    release();
    await service.settled(crawlId);
  });

  it('with the drift re-score off (the labels benchmark\'s control), answers re-score their reach and start no full re-score', async () => {
    answerRescore.drift = false;
    try {
      const { store, h, crawlId, topicId, release, service } = await heldCrawl({ labels: 0 });
      const before = await queued(store, crawlId);
      const tudors = [...before.keys()].filter((u) => /p[0-4]$/.test(u));
      const { effect } = await h.labelLink({ topicId, url: tudors[0]!, anchor: before.get(tudors[0]!)!.anchor, context: '', label: 1, wait: true });
      expect(effect!.changed).toBeGreaterThan(0);
      release();
      await service.settled(crawlId);
      // The run's periodic re-scores are off here: with the drift re-score on, this answer would have started one.
      expect((await store.getCrawl(crawlId))!.lastRescore).toBeUndefined();
    } finally {
      answerRescore.drift = true;
    }
  });

  it('takes a link the user says is off topic out of the queue', async () => {
    const { store, h, crawlId, topicId, release, service } = await heldCrawl();
    const { effect } = await h.labelLink({ topicId, url: `${O}/p6`, anchor: 'Cheese', context: '', label: 0, wait: true });
    expect(effect).toMatchObject({ skipped: 1 });
    expect((await store.frontier.getEntry(crawlId, `${O}/p6`))!).toMatchObject({ state: 'skipped', reason: 'you labeled it off topic' });
    release();
    await service.settled(crawlId);
    const fetched = (await store.pages.pagesAfter(crawlId, 0, 100)).map((p) => new URL(p.url).pathname);
    expect(fetched).not.toContain('/p6');
    expect(fetched).toContain('/p7');
  });
});
