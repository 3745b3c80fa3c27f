// A page answer acts like a link answer. A first verdict on a page is learned incrementally (no model
// rebuild, no whole-frontier re-score): its queued children are re-ranked with the verdict as their parent's, to the
// scores a full re-score gives, and the links found elsewhere keep theirs.
import { describe, expect, it } from 'vitest';
import type { FrontierEntry } from '../../lib/records/types';
import { heldService, queuedEntries } from '../support/held-crawl';

const O = 'http://tudor.test';
// Each page's text is its title only: the links found on the hub share no word with the link to it.
const page = (title: string, links: [string, string][]) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1><ul>${links
    .map(([href, anchor]) => `<li><a href="${href}">${anchor}</a></li>`).join('')}</ul></body></html>`;

const HUB = ['Tudor rose', 'Tudor court', 'Walrus', 'Quartz'];
const ROOT = ['Harbour', 'Bread', 'Cheese'];
const SITE: Record<string, string> = {
  '/': page('Start', [['/history', 'ZEBRA'], ...ROOT.map((n, i) => [`/r${i}`, n] as [string, string])]),
  '/history': page('Chronicle', HUB.map((n, i) => [`/h${i}`, n] as [string, string])),
};

async function heldCrawl() {
  const { store, service, h, release, holding } = heldService((path) =>
    new Response(SITE[path] ?? page(path, []), { status: 200, headers: { 'content-type': 'text/html' } }));
  const topic = await h.createTopic({ name: 'tudors', keywords: ['history'] });
  // What a crawl learns from its verdicts: links on on-topic pages lead to on-topic pages more often.
  await store.topics.addLabels(Array.from({ length: 3000 }, (_, i) => ({
    topicId: topic.id!, crawlId: null, url: `http://other.test/${i}`, anchor: `w${i % 997} v${i % 13}`, context: '', parentOnTopic: i % 2 === 0,
    label: (i % 5 === 0 ? 1 - (i % 2) : i % 2 === 0 ? 1 : 0) as 0 | 1, source: 'verdict' as const, createdAt: 0,
  })));
  const { crawlId } = await h.start({
    name: 'tudors', seeds: [`${O}/`], topic: { id: topic.id, keywords: ['history'] }, budget: { maxPages: 20 },
    politeness: { delayMs: 0, concurrency: 1, perHost: 1, robots: false },
    classifier: { parentHub: false },
    learning: { fromVerdicts: false, linksToJudged: false, rescoreEveryLabels: 0, rescoreEveryPages: 0 },
  });
  await holding;
  return { store, service, h, crawlId, topicId: topic.id!, release };
}

const queued = queuedEntries;

describe('a page answer re-scores where it reaches', () => {
  it("re-ranks the judged page's queued children at once, as a full re-score would, without rebuilding the model", async () => {
    const { store, h, crawlId, topicId, release, service } = await heldCrawl();
    const revision = (await store.topics.mustGetTopic(topicId)).revision;
    const before = await queued(store, crawlId);
    const children = HUB.map((_, i) => `${O}/h${i}`).filter((u) => before.has(u));
    expect(children).toHaveLength(4);
    expect(before.has(`${O}/r2`)).toBe(true);
    for (const u of children) expect(before.get(u)!.parentOnTopic).toBe(false); // the judge took the hub for off topic
    const hub = (await store.pages.pagesAfter(crawlId, 0, 100)).find((p) => p.url === `${O}/history`)!;

    const { effect } = await h.labelPage({ crawlId, seq: hub.seq, label: 1, wait: true });
    const after = await queued(store, crawlId);
    // The user says the hub is on topic: its children rise; a root link sharing no word with the hub's link stays.
    for (const u of children) expect(after.get(u)!.priority).toBeGreaterThan(before.get(u)!.priority + 0.01);
    expect(after.get(`${O}/r2`)!.priority).toBe(before.get(`${O}/r2`)!.priority);
    expect(effect!.changed).toBeGreaterThanOrEqual(children.length);
    expect(effect!.reached).toBeLessThan(after.size);
    // Learned, not rebuilt: the topic's revision did not move and no full re-score ran.
    expect((await store.topics.mustGetTopic(topicId)).revision).toBe(revision);
    expect((await store.getCrawl(crawlId))!.lastRescore).toBeUndefined();
    // The partial re-score left nothing a full re-score with the same model would move.
    const runner = service.runnersOf(topicId)[0]!;
    const { learner } = (runner as unknown as { ctx: { learner: { rankEntry(e: FrontierEntry): { score: number; priority: number } | null } } }).ctx;
    const full = await store.frontier.rescoreQueued(crawlId, (e) => learner.rankEntry(e), Date.now(), { epsilon: 0.01 });
    expect(full.changed).toBe(0);
    release();
    await service.settled(crawlId);
  });

  it('finds the children through the reach index once it is built', async () => {
    const { store, h, crawlId, topicId, release, service } = await heldCrawl();
    const runner = service.runnersOf(topicId)[0]!;
    const { learner } = (runner as unknown as { ctx: { learner: { reachIndexReady: boolean; rankEntry(e: FrontierEntry): { score: number; priority: number } | null } } }).ctx;
    // A first answer starts the index.
    await h.labelLink({ topicId, url: `${O}/r2`, anchor: 'Cheese', context: '', label: 0, wait: true });
    await expect.poll(() => learner.reachIndexReady, { timeout: 10_000 }).toBe(true);
    const before = await queued(store, crawlId);
    const hub = (await store.pages.pagesAfter(crawlId, 0, 100)).find((p) => p.url === `${O}/history`)!;
    const { effect } = await h.labelPage({ crawlId, seq: hub.seq, label: 1, wait: true });
    const after = await queued(store, crawlId);
    for (const u of HUB.map((_, i) => `${O}/h${i}`)) expect(after.get(u)!.priority).toBeGreaterThan(before.get(u)!.priority + 0.01);
    // Moved by the answer's own partial re-score, not a later full one.
    expect(effect!.changed).toBeGreaterThanOrEqual(HUB.length);
    const full = await store.frontier.rescoreQueued(crawlId, (e) => learner.rankEntry(e), Date.now(), { epsilon: 0.01 });
    expect(full.changed).toBe(0);
    release();
    await service.settled(crawlId);
  });

  it('a changed verdict is not incremental: the model is rebuilt', async () => {
    const { store, h, crawlId, topicId, release, service } = await heldCrawl();
    const hub = (await store.pages.pagesAfter(crawlId, 0, 100)).find((p) => p.url === `${O}/history`)!;
    await h.labelPage({ crawlId, seq: hub.seq, label: 0, wait: true });
    const revision = (await store.topics.mustGetTopic(topicId)).revision;
    await h.labelPage({ crawlId, seq: hub.seq, label: 1, wait: true });
    expect((await store.topics.mustGetTopic(topicId)).revision).toBeGreaterThan(revision);
    release();
    await service.settled(crawlId);
  });
});
