// The commit planner alone, without a database: what one page's commit writes, given the rows a store read.
import { describe, expect, it } from 'vitest';
import { logistic } from '../../lib/learning/naive-bayes';
import { urlLogOdds } from '../../lib/learning/link-classifier';
import { DEFAULTS } from '../../lib/records/config';
import type { Admission, Candidate, PageCommit } from '../../lib/ports';
import { emptyStats, type CrawlRecord, type SiteStats } from '../../lib/records/rows';
import { BLACKLISTED, firstReads, planCommit, secondReads, type CommitRead } from '../../lib/run/commit-plan';
import type { FrontierEntry } from '../../lib/records/types';

const NOW = 1_000_000;

const crawlRow = (): CrawlRecord => ({
  id: 1, topicId: 7, name: 'c', config: { ...DEFAULTS, name: 'c', seeds: ['http://a.test/'] }, state: 'running',
  stats: { ...emptyStats(), queued: 10 }, nextSeq: 5, nextOrder: 100, createdAt: 0, updatedAt: 0, activeMs: 0,
});

const entry = (url: string, patch: Partial<FrontierEntry> = {}): FrontierEntry => ({
  crawlId: 1, url, host: new URL(url).host, site: new URL(url).host, state: 'queued', score: 0.5, priority: 0.5, order: -1, depth: 1,
  parentUrl: null, anchor: '', context: '', attempts: 0, discoveredAt: 0, updatedAt: 0, ...patch,
});

const link = (url: string, patch: Partial<Candidate> = {}): Candidate => ({
  url, host: new URL(url).host, site: new URL(url).host, score: 0.5, priority: 0.5, depth: 2, parentUrl: 'http://a.test/', anchor: 'a link',
  context: 'around it', ...patch,
});

/** A page of a.test fetched and judged: done, with its links. */
const commit = (children: Candidate[], patch: Partial<PageCommit> = {}): PageCommit => ({
  crawlId: 1, entry: entry('http://a.test/', { state: 'inflight' }), outcome: 'done',
  page: { url: 'http://a.test/', status: 200, fetchedAt: NOW } as PageCommit['page'],
  children, aliases: [], labels: [], site: 'a.test', stats: { fetched: 1 }, activeMs: 42, ...patch,
});

/** What a store would read for `c`, given the frontier and the site rows as they stand. */
function reads(c: PageCommit, frontier: FrontierEntry[] = [], sites: SiteStats[] = [], crawl = crawlRow()): CommitRead {
  const keys = firstReads(c);
  const at = (url: string) => frontier.find((e) => e.url === url);
  const site = sites.find((s) => s.site === c.site);
  const known = keys.links.map((l) => at(l.url));
  const more = secondReads(c, { site, links: keys.links, known });
  const queuedOf = (s: string) => frontier.filter((e) => e.site === s && e.state === 'queued');
  return {
    crawl, site, links: keys.links, known, aliases: c.aliases.map(at), current: keys.current ? at(keys.current) : undefined,
    sites: new Map(more.sites.map((s) => [s, { row: sites.find((r) => r.site === s), queued: more.countQueued ? queuedOf(s).length : 0 }])),
    ...(more.siteQueue ? { siteQueue: queuedOf(c.site) } : {}),
  };
}

const written = (plan: { frontier: FrontierEntry[] }, url: string) => plan.frontier.find((e) => e.url === url);

describe('planCommit: admission by site (design B.4)', () => {
  // At most two queued URLs a site, as a strategy may cap them.
  const capped: Admission = { strategy: { admit: (s) => (s.queued >= 2 ? 'site has enough queued' : null) }, siteBlacklist: ['banned.test'] };

  it('queues new links until their site is full, and counts the rest by the reason the strategy gives', () => {
    const c = commit([link('http://b.test/1'), link('http://b.test/2'), link('http://b.test/3'), link('http://c.test/1')], { admission: capped });
    const frontier = [entry('http://b.test/0')]; // b.test has one queued already
    const plan = planCommit(c, reads(c, frontier), NOW);
    expect(written(plan, 'http://b.test/1')?.state).toBe('queued');
    expect(written(plan, 'http://b.test/2')).toBeUndefined();
    expect(written(plan, 'http://b.test/3')).toBeUndefined();
    expect(written(plan, 'http://c.test/1')?.state).toBe('queued');
    expect(plan.crawl.dropped).toEqual({ 'site has enough queued': 2 });
    expect(plan.crawl.stats.queued).toBe(10 + 2);
  });

  it("never queues a link into a site the config or the user blacklisted, whatever the strategy says", () => {
    const open: Admission = { strategy: {}, siteBlacklist: ['banned.test'] };
    const c = commit([link('http://banned.test/x'), link('http://closed.test/y'), link('http://fine.test/z')], { admission: open });
    const plan = planCommit(c, reads(c, [], [{ crawlId: 1, site: 'closed.test', fetched: 3, relevant: 0, failed: 0, blacklisted: 'blacklisted by you' }]), NOW);
    expect(plan.frontier.map((e) => e.url).sort()).toEqual(['http://a.test/', 'http://fine.test/z']);
    expect(plan.crawl.dropped).toEqual({ [BLACKLISTED]: 2 });
  });

  it('queues every new link when the commit carries no admission', () => {
    const c = commit([link('http://banned.test/x'), link('http://b.test/1')]);
    expect(secondReads(c, { site: undefined, links: c.children, known: [undefined, undefined] })).toEqual({ sites: [], countQueued: false, siteQueue: false });
    const plan = planCommit(c, reads(c), NOW);
    expect(plan.frontier.filter((e) => e.state === 'queued')).toHaveLength(2);
  });
});

describe('planCommit: a site closed by its strategy (design B.5)', () => {
  // A site is closed once three of its pages are fetched and none was relevant.
  const judging: Admission = { strategy: { judgeSite: (s) => (s.fetched >= 3 && s.relevant === 0 ? 'nothing relevant in 3 pages' : null) }, siteBlacklist: [] };
  const twoFetched: SiteStats = { crawlId: 1, site: 'a.test', fetched: 2, relevant: 0, failed: 0 };

  it('closes the site this page tips over: its queued URLs are skipped, its new links refused, the counters move', () => {
    const c = commit([link('http://a.test/new'), link('http://b.test/1')], { admission: judging });
    const frontier = [entry('http://a.test/q1'), entry('http://a.test/q2'), entry('http://b.test/q')];
    const first = { site: twoFetched, links: c.children, known: [undefined, undefined] };
    expect(secondReads(c, first).siteQueue).toBe(true);
    const plan = planCommit(c, reads(c, frontier, [twoFetched]), NOW);
    expect(plan.site).toMatchObject({ fetched: 3, blacklisted: 'nothing relevant in 3 pages' });
    expect(written(plan, 'http://a.test/q1')).toMatchObject({ state: 'skipped', reason: `${BLACKLISTED}: nothing relevant in 3 pages` });
    expect(written(plan, 'http://a.test/q2')?.state).toBe('skipped');
    expect(written(plan, 'http://a.test/new')).toBeUndefined();
    expect(written(plan, 'http://b.test/1')?.state).toBe('queued');
    expect(written(plan, 'http://b.test/q')).toBeUndefined();
    // 10 queued before: two dropped, one new; the closed site's queue and its refused link under the blacklist's reason.
    expect(plan.crawl.stats.queued).toBe(10 - 2 + 1);
    expect(plan.crawl.stats.skipped).toBe(2);
    expect(plan.crawl.dropped).toEqual({ [BLACKLISTED]: 3 });
    // The dropped rows were queued: the store's queue counters move them out of their queues.
    expect(plan.was[plan.frontier.findIndex((e) => e.url === 'http://a.test/q1')]?.state).toBe('queued');
  });

  it('leaves a site open while the strategy has no reason, and asks for none of its queue', () => {
    const c = commit([], { admission: judging, stats: { fetched: 1, relevant: 1 } });
    expect(secondReads(c, { site: twoFetched, links: [], known: [] }).siteQueue).toBe(false);
    const plan = planCommit(c, reads(c, [entry('http://a.test/q1')], [twoFetched]), NOW);
    expect(plan.site.blacklisted).toBeUndefined();
    expect(plan.frontier.map((e) => e.url)).toEqual(['http://a.test/']);
  });
});

describe('planCommit: links to judged pages (learning.linksToJudged)', () => {
  const frontier = [
    entry('http://a.test/on', { state: 'done', verdict: 1 }),
    entry('http://a.test/off', { state: 'done', verdict: 0 }),
    entry('http://a.test/unjudged', { state: 'done' }),
    entry('http://a.test/queued'),
  ];
  const links = [link('http://a.test/on', { anchor: 'stars', parentOnTopic: true }), link('http://a.test/off'), link('http://a.test/unjudged'), link('http://a.test/queued'),
    link('http://a.test/on2', { skip: 'unsafe' })];

  it("labels each link to a judged page with that page's verdict, beside the commit's own labels", () => {
    const own = { url: 'http://a.test/', anchor: 'home', context: '', label: 1 as const, source: 'verdict' as const, createdAt: NOW };
    const c = commit(links, { learnLinksToJudged: 8, labels: [own] });
    const plan = planCommit(c, reads(c, frontier), NOW);
    expect(plan.labels.map((l) => [l.url, l.label])).toEqual([['http://a.test/', 1], ['http://a.test/on', 1], ['http://a.test/off', 0]]);
    expect(plan.labels[1]).toMatchObject({ anchor: 'stars', parentOnTopic: true, pageUrl: 'http://a.test/', source: 'verdict' });
    expect(plan.crawl.stats.labels).toBe(3);
  });

  it('learns no more from a link to a page that links have taught `learnLinksToJudged` times, and says which it taught', () => {
    const c = commit(links, { learnLinksToJudged: 3 });
    const taught = (url: string) => (url === 'http://a.test/on' ? 3 : 2);
    const plan = planCommit(c, { ...reads(c, frontier), taught }, NOW);
    expect(plan.labels.map((l) => [l.url, l.label])).toEqual([['http://a.test/off', 0]]);
    expect(plan.taught).toEqual(['http://a.test/off']);
  });

  it('learns nothing from them when the crawl says not to', () => {
    const c = commit(links, {});
    expect(planCommit(c, reads(c, frontier), NOW).labels).toEqual([]);
  });
});

describe('planCommit: a URL found again (design A.7)', () => {
  it('raises a queued URL found by a better link, keeping the shallower depth and the better link', () => {
    const c = commit([link('http://a.test/x', { priority: 0.9, score: 0.9, anchor: 'better', depth: 4 })]);
    const plan = planCommit(c, reads(c, [entry('http://a.test/x', { priority: 0.2, score: 0.2, depth: 1, anchor: 'worse' })]), NOW);
    expect(written(plan, 'http://a.test/x')).toMatchObject({ state: 'queued', priority: 0.9, score: 0.9, depth: 1, anchor: 'better' });
    expect(plan.crawl.stats.queued).toBe(10); // raised, not added
  });

  it('leaves it as it is when the new link is no better, or when the URL is no longer queued', () => {
    const c = commit([link('http://a.test/x', { priority: 0.1 }), link('http://a.test/done', { priority: 0.99 })]);
    const plan = planCommit(c, reads(c, [entry('http://a.test/x', { priority: 0.2 }), entry('http://a.test/done', { state: 'done', priority: 0.1 })]), NOW);
    expect(plan.frontier.map((e) => e.url)).toEqual(['http://a.test/']);
  });

  it('with every link counted, keeps their count, sum and best, scores the URL by all of them and asks the strategy for its priority', () => {
    const everyLink = (_e: FrontierEntry, logOdds: number) => logOdds * 10;
    const c = commit([link('http://a.test/x', { logOdds: 1 })], { everyLink });
    const plan = planCommit(c, reads(c, [entry('http://a.test/x', { inlinks: { n: 1, sum: -1, best: -1 } })]), NOW);
    const inlinks = { n: 2, sum: 0, best: 1 };
    expect(written(plan, 'http://a.test/x')).toMatchObject({ inlinks, score: logistic(urlLogOdds(inlinks)), priority: urlLogOdds(inlinks) * 10 });
  });

  it('a link kept from requesting turns a queued URL skipped for good', () => {
    const c = commit([link('http://a.test/logout', { skip: 'unsafe: log out' })]);
    const plan = planCommit(c, reads(c, [entry('http://a.test/logout')]), NOW);
    expect(written(plan, 'http://a.test/logout')).toMatchObject({ state: 'skipped', reason: 'unsafe: log out' });
    expect(plan.crawl.stats).toMatchObject({ queued: 9, skipped: 1 });
  });
});

describe('planCommit: the page itself', () => {
  it('marks the entry done with its verdict, takes the next seq and leaves the rows it read as they were', () => {
    const c = commit([link('http://b.test/1')], { verdict: 1 });
    const read = reads(c);
    const before = structuredClone(read.crawl);
    const plan = planCommit(c, read, NOW);
    expect(plan.seq).toBe(5);
    expect(plan.crawl).toMatchObject({ nextSeq: 6, nextOrder: 101, activeMs: 42, updatedAt: NOW });
    expect(written(plan, 'http://a.test/')).toMatchObject({ state: 'done', verdict: 1 });
    expect(written(plan, 'http://b.test/1')).toMatchObject({ state: 'queued', order: -100 });
    expect(read.crawl).toEqual(before);
  });

  it('queues a retried URL again, unless an unsafe link made it skipped while it was in flight', () => {
    const retry = commit([], { outcome: 'retry', page: undefined, stats: {} });
    expect(written(planCommit(retry, reads(retry), NOW), 'http://a.test/')?.state).toBe('queued');
    const plan = planCommit(retry, reads(retry, [entry('http://a.test/', { state: 'skipped', reason: 'unsafe' })]), NOW);
    expect(plan.frontier).toEqual([]);
    expect(plan.seq).toBe(0);
  });

  it('records a redirect target known only as queued as the same page, done', () => {
    const c = commit([], { aliases: ['http://a.test/final'] });
    const plan = planCommit(c, reads(c, [entry('http://a.test/final')]), NOW);
    expect(written(plan, 'http://a.test/final')).toMatchObject({ state: 'done', reason: 'same page as http://a.test/' });
    expect(plan.crawl.stats.queued).toBe(9);
  });
});

describe('planCommit: the recall calibration', () => {
  it('counts a judged page, and whether it was relevant, in the bin of the log-odds it was taken at', () => {
    const on = commit([], { takenAt: 2.2, stats: { fetched: 1, relevant: 1 } });
    const first = planCommit(on, reads(on), NOW).crawl;
    expect(first.recallTaken).toEqual({ 4: [1, 1] });
    const off = commit([], { takenAt: 2.4, stats: { fetched: 1, relevant: 0 } });
    const second = planCommit(off, reads(off, [], [], first), NOW).crawl;
    expect(second.recallTaken).toEqual({ 4: [2, 1] });
    // The row read is not changed: the store may read it again for the next page of its batch.
    expect(first.recallTaken).toEqual({ 4: [1, 1] });
  });

  it('counts nothing for a page with no log-odds to learn from (a seed, a strategy not ordered by them)', () => {
    const seed = commit([], { stats: { fetched: 1, relevant: 1 } });
    expect(planCommit(seed, reads(seed), NOW).crawl.recallTaken).toBeUndefined();
  });
});
