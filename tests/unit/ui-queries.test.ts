import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import type { FrontierEntry, LabeledLink, PageRecord } from '../../lib/records/types';
import {
  evaluationExamples,
  forEachPageChunk,
  HarvestCurve,
  harvestStepAfter,
  keptFromRequesting,
  nextUp,
  pageCount,
  pageLabelsBetween,
  recentErrors,
  sampleCurves,
} from '../../lib/ui/queries';
import { sampleFixture } from '../e2e/ui-fixtures';
import { describeBlock } from '../../lib/policy/safety';

const seqs = (rows: PageRecord[]) => rows.map((p) => p.seq);

describe('dashboard page queries', () => {
  let db: CrawlerDB;
  beforeEach(async () => {
    db = new CrawlerDB('ui', { indexedDB: new IDBFactory(), IDBKeyRange });
    const f = sampleFixture(1_700_000_000_000);
    await db.crawls.bulkPut(f.crawls);
    await db.pages.bulkPut(f.pages); // crawl 1: seq 0..259; crawl 2: seq 0..39
  });

  it('lists the newest failures first and counts pages per crawl', async () => {
    const crawl = (await db.crawls.get(1))!;
    const errors = await recentErrors(db, crawl, 5);
    expect(errors).toHaveLength(5);
    expect(seqs(errors)).toEqual([259, 239, 219, 199, 179]);
    expect(await pageCount(db, 1)).toBe(260);
    expect(await pageCount(db, 2)).toBe(40);
  });

  it('finds the recent errors among the last 5,000 pages by reading the failed rows only', async () => {
    const big = new CrawlerDB('ui-errors', { indexedDB: new IDBFactory(), IDBKeyRange });
    let read = 0;
    // Counts the page rows every query and cursor hands back: the popup and the runner ask twice a second.
    big.use({
      stack: 'dbcore', name: 'count-page-reads',
      create: (down) => ({
        ...down,
        table: (name) => {
          const t = down.table(name);
          if (name !== 'pages') return t;
          return {
            ...t,
            query: async (req) => {
              const r = await t.query(req);
              read += r.result.length;
              return r;
            },
            openCursor: async (req) => {
              const c = await t.openCursor(req);
              if (!c) return c;
              return new Proxy(c, {
                get: (target, key) => key === 'start'
                  ? (onNext: () => void) => target.start(() => {
                    read++;
                    onNext();
                  })
                  : Reflect.get(target, key, target),
              });
            },
          };
        },
      }),
    });
    const f = sampleFixture(1_700_000_000_000);
    const crawl = { ...f.crawls.find((c) => c.id === 1)!, nextSeq: 8001 };
    await big.crawls.put(crawl);
    const template = f.pages.find((p) => p.crawlId === crawl.id && p.kind !== 'failed')!;
    const failed = f.pages.find((p) => p.crawlId === crawl.id && p.kind === 'failed')!;
    await big.pages.bulkPut(Array.from({ length: 8000 }, (_, i) => ({ ...([100, 4000, 7000].includes(i + 1) ? failed : template), seq: i + 1, url: `http://x.test/${i + 1}` })));
    read = 0;
    const errors = await recentErrors(big, crawl, 5);
    expect(seqs(errors)).toEqual([7000, 4000]);
    expect(read).toBeLessThanOrEqual(2);
  });

  it('reads every page of a crawl in chunks, in seq order', async () => {
    const chunks: number[][] = [];
    const total = await forEachPageChunk(db, 1, 64, (rows) => chunks.push(seqs(rows)));
    expect(total).toBe(260);
    expect(chunks.map((c) => c.length)).toEqual([64, 64, 64, 64, 4]);
    expect(chunks.flat()).toEqual([...Array(260).keys()]);
  });
});

describe('crawl detail queries', () => {
  let db: CrawlerDB;
  beforeEach(async () => {
    db = new CrawlerDB('ui', { indexedDB: new IDBFactory(), IDBKeyRange });
    const f = sampleFixture(1_700_000_000_000);
    await db.crawls.bulkPut(f.crawls);
    await db.pages.bulkPut(f.pages);
  });

  const entry = (crawlId: number, n: number, state: FrontierEntry['state'], priority: number, order: number): FrontierEntry => ({
    crawlId, url: `https://a.example/${n}`, host: 'a.example', state, score: 1 / (1 + Math.exp(-priority)), priority, order,
    depth: 1, parentUrl: 'https://a.example/', anchor: `link ${n}`, context: '', attempts: 0, discoveredAt: 0, updatedAt: 0,
  });

  it('lists the ten best queued URLs, best first, the earliest found first among equals', async () => {
    await db.frontier.bulkPut([
      ...Array.from({ length: 30 }, (_, n) => entry(1, n, 'queued', n % 15, -n)),
      entry(1, 100, 'done', 99, -100),
      entry(1, 101, 'inflight', 98, -101),
      entry(1, 102, 'failed', 97, -102),
      entry(2, 103, 'queued', 50, -103),
    ]);
    const next = await nextUp(db, 1);
    expect(next).toHaveLength(10);
    expect(next.every((e) => e.crawlId === 1 && e.state === 'queued')).toBe(true);
    // Priorities 14, 14, 13, 13, ...: n = 14 was found before n = 29.
    expect(next.map((e) => e.anchor)).toEqual(['link 14', 'link 29', 'link 13', 'link 28', 'link 12', 'link 27', 'link 11', 'link 26', 'link 10', 'link 25']);
    expect(await nextUp(db, 3)).toEqual([]);
  });

  it('builds the harvest curve from crawl-phase pages without errors, then only from new pages', async () => {
    const crawl = (await db.crawls.get(1))!;
    const curve = new HarvestCurve();
    const step = await harvestStepAfter(db, 1, curve.lastSeq, 64); // several chunks
    expect(curve.extend(step)).toBe(true);
    expect(curve.lastSeq).toBe(259);
    expect(curve.fetched).toBe(crawl.stats.fetched);
    expect(curve.rateAt(curve.fetched)).toBeCloseTo(crawl.stats.relevant / crawl.stats.fetched, 12);
    expect(curve.rateAt(0)).toBeNull();
    expect(curve.rateAt(curve.fetched + 1)).toBeNull();

    // Two new pages, one failed: the next read starts after seq 259 and adds one outcome.
    const last = (await db.pages.get([1, 259]))!;
    await db.pages.bulkPut([
      { ...last, seq: 260, error: undefined, relevant: true },
      { ...last, seq: 261, error: 'HTTP 404' },
    ]);
    const next = await harvestStepAfter(db, 1, curve.lastSeq);
    expect(next).toEqual({ afterSeq: 259, lastSeq: 261, seqs: [260], outcomes: [1] });
    expect(curve.extend(next)).toBe(true);
    expect(curve.fetched).toBe(crawl.stats.fetched + 1);
    // A read from an older position (a late liveQuery answer) is not counted twice.
    expect(curve.extend(step)).toBe(false);
    expect(curve.extend(next)).toBe(false);
    expect(curve.fetched).toBe(crawl.stats.fetched + 1);
    expect(await harvestStepAfter(db, 1, 261)).toEqual({ afterSeq: 261, lastSeq: 261, seqs: [], outcomes: [] });
  });

  it('takes in only the new part of a late read that overlaps what the curve has', () => {
    const curve = new HarvestCurve();
    curve.extend({ afterSeq: -1, lastSeq: 1, seqs: [0, 1], outcomes: [1, 1] });
    // Read from seq 0 while seq 1 was being taken in: only seqs 2 and 3 are new.
    expect(curve.extend({ afterSeq: 0, lastSeq: 3, seqs: [1, 2, 3], outcomes: [1, 0, 0] })).toBe(true);
    expect(curve.relevantAfter).toEqual([1, 2, 2, 2]);
    // A read from past the curve's end would leave a gap.
    expect(curve.extend({ afterSeq: 9, lastSeq: 10, seqs: [10], outcomes: [1] })).toBe(false);
    expect(curve.lastSeq).toBe(3);
  });

  it('samples long curves on one shared grid, every line ending at its own last fetch', async () => {
    const long = new HarvestCurve();
    long.extend({ afterSeq: -1, lastSeq: 9999, seqs: [...Array(10_000).keys()], outcomes: Array.from({ length: 10_000 }, (_, i) => (i % 4 === 0 ? 0 : 1)) });
    const short = new HarvestCurve();
    short.extend({ afterSeq: -1, lastSeq: 2, seqs: [0, 1, 2], outcomes: [1, 0, 0] });
    const [xs, ys1, ys2] = sampleCurves([long, short], 500);
    expect(xs.length).toBeLessThanOrEqual(502);
    expect(xs[0]).toBe(1);
    expect(xs.at(-1)).toBe(10_000);
    expect(xs).toContain(3);
    expect(ys1.at(-1)).toBeCloseTo(0.75, 12);
    expect(ys2[xs.indexOf(3)]).toBeCloseTo(1 / 3, 12);
    expect(ys2.at(-1)).toBeNull();
    expect(sampleCurves([])).toEqual([[]]);
  });
});

describe('label queries', () => {
  let db: CrawlerDB;
  let id = 0;
  const label = (over: Partial<LabeledLink>): LabeledLink => ({
    id: ++id, topicId: 1, crawlId: null, url: `https://a.example/${id}`, anchor: `anchor ${id}`, context: 'ctx', label: 1, source: 'user', createdAt: 0, ...over,
  });
  beforeEach(() => {
    db = new CrawlerDB('labels', { indexedDB: new IDBFactory(), IDBKeyRange });
    id = 0;
  });

  it('counts a topic\'s labels by source and class', async () => {
    await db.labels.bulkAdd([
      label({ source: 'auto' }), label({ source: 'auto', label: 0 }), label({ source: 'auto', label: 0 }),
      label({ source: 'verdict' }), label({ source: 'page', label: 0 }), label({ source: 'user' }),
      label({ topicId: 2, source: 'user' }),
    ]);
    expect((await evaluationExamples(db, 1, new Set())).counts).toEqual({
      auto: { pos: 1, neg: 2 }, verdict: { pos: 1, neg: 0 }, user: { pos: 1, neg: 0 }, page: { pos: 0, neg: 1 },
    });
  });

  it('gives the chosen sources\' links once each, the user\'s label winning over the crawler\'s', async () => {
    const same = { url: 'https://a.example/x', anchor: 'x', context: 'c' };
    await db.labels.bulkAdd([
      label({ ...same, source: 'verdict', label: 0 }),
      label({ ...same, source: 'user', label: 1 }),
      label({ ...same, source: 'auto', label: 0 }),
      label({ source: 'verdict', label: 0 }),
      label({ source: 'page', label: 0 }),
      label({ topicId: 2 }),
    ]);
    const all = await evaluationExamples(db, 1, new Set(['auto', 'verdict', 'user', 'page']));
    expect(all.examples).toHaveLength(3);
    expect(all.examples).toContainEqual({ anchor: 'x', context: 'c', label: 1 });
    expect(all.counts).toEqual({ auto: { pos: 0, neg: 1 }, verdict: { pos: 0, neg: 2 }, user: { pos: 1, neg: 0 }, page: { pos: 0, neg: 1 } });
    const noVerdicts = await evaluationExamples(db, 1, new Set(['auto', 'page']));
    expect(noVerdicts.examples).toHaveLength(2);
    expect(noVerdicts.examples).toContainEqual({ anchor: 'x', context: 'c', label: 0 });
    expect(noVerdicts.counts.verdict).toEqual({ pos: 0, neg: 2 });
    expect((await evaluationExamples(db, 1, new Set())).examples).toEqual([]);
  });

  it('reads the page labels of the rows shown', async () => {
    await db.pageLabels.bulkAdd([
      { topicId: 1, crawlId: 1, seq: 3, url: 'https://a.example/3', label: 1, source: 'user', createdAt: 0 },
      { topicId: 1, crawlId: 1, seq: 150, url: 'https://a.example/150', label: 0, source: 'user', createdAt: 0 },
      { topicId: 1, crawlId: 2, seq: 5, url: 'https://a.example/5', label: 0, source: 'auto', createdAt: 0 },
    ]);
    const shown = await pageLabelsBetween(db, 1, 0, 99);
    expect([...shown.keys()]).toEqual([3]);
    expect(shown.get(3)!.label).toBe(1);
    expect((await pageLabelsBetween(db, 1, 100, 199)).get(150)!.label).toBe(0);
  });
});

describe('links kept from requesting', () => {
  const row = (crawlId: number, url: string, state: FrontierEntry['state'], reason?: string): FrontierEntry => ({
    crawlId, url, host: new URL(url).host, state, score: 0, priority: 0, order: 0, depth: 1, parentUrl: 'https://a.test/',
    anchor: 'a link', context: '', attempts: 0, discoveredAt: 0, updatedAt: 0, ...(reason ? { reason } : {}),
  });

  it('lists the unsafe skipped links of one crawl with their rule, the first ones and the total', async () => {
    const db = new CrawlerDB('kept', { indexedDB: new IDBFactory(), IDBKeyRange });
    const unsafe = Array.from({ length: 7 }, (_, i) => row(1, `https://a.test/p${i}/logout`, 'skipped', describeBlock({ rule: 'action verb', match: 'logout' })));
    await db.frontier.bulkPut([
      ...unsafe,
      row(1, 'https://a.test/x?token=1', 'skipped', describeBlock({ rule: 'state query key', match: 'token' })),
      row(1, 'https://a.test/staff', 'skipped', 'disallowed by robots.txt'),
      row(1, 'https://a.test/queued/logout', 'queued'),
      row(2, 'https://a.test/other/logout', 'skipped', describeBlock({ rule: 'action verb', match: 'logout' })),
    ]);
    const kept = await keptFromRequesting(db, 1, 5);
    expect(kept.total).toBe(8);
    expect(kept.links).toHaveLength(5);
    expect(kept.links[0]).toEqual({
      url: 'https://a.test/p0/logout', anchor: 'a link', rule: 'action verb', match: 'logout', reason: describeBlock({ rule: 'action verb', match: 'logout' }),
    });
    const all = await keptFromRequesting(db, 1);
    expect(all.links.map((l) => l.rule)).toContain('state query key');
    expect(all.links.some((l) => l.url.includes('staff') || l.url.includes('other') || l.url.includes('queued'))).toBe(false);
  });
});
