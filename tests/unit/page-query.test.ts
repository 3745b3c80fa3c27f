// The Pages table's reads: every filter and order gives exactly the pages a user would pick out by hand, and
// paging through windows visits each of them once, in order.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { CrawlerDB } from '../../lib/store/db';
import type { PageRecord } from '../../lib/records/types';
import { ALL_PAGES, busiestSites, keyOf, matchingCount, pageSites, pageWindow, type PageCursor, type PageQuery } from '../../lib/ui/page-query';
import { crawlOf, realisticPages, sitesOf } from '../e2e/pages-fixture';
import { sampleFixture } from '../e2e/ui-fixtures';
import { splitUrl } from '../../lib/ui/format';
import { withListKeys } from '../../lib/store/page-keys';

const seqs = (rows: PageRecord[]) => rows.map((p) => p.seq);
const N = 1200;

/** Every page the query shows, window after window from the start (following Next), and the windows' sizes. */
async function pageThrough(db: CrawlerDB, q: PageQuery, size: number): Promise<PageRecord[]> {
  const all: PageRecord[] = [];
  let cursor: PageCursor = { at: 'start' };
  for (let i = 0; i < 1000; i++) {
    const w = await pageWindow(db, 1, q, cursor, size);
    all.push(...w.rows);
    if (!w.hasNext) return all;
    cursor = { after: keyOf(w.rows.at(-1)!, q.sort) };
  }
  throw new Error('never reached the last window');
}

describe('Pages table queries', () => {
  let db: CrawlerDB;
  let pages: PageRecord[];
  beforeEach(async () => {
    db = new CrawlerDB('pages', { indexedDB: new IDBFactory(), IDBKeyRange });
    pages = realisticPages({ crawlId: 1, count: N, start: 1_700_000_000_000 });
    await db.crawls.put(crawlOf(1, 'Sky', pages, 1_700_010_000_000));
    await db.pages.bulkPut(pages);
    await db.sites.bulkPut(sitesOf(pages));
    const other = sampleFixture(1_700_000_000_000);
    await db.pages.bulkPut(other.pages.filter((p) => p.crawlId === 2)); // another crawl's pages never show
  });

  it('pages forward, back and to the end in time order, within one crawl', async () => {
    const first = await pageWindow(db, 1, ALL_PAGES, { at: 'start' }, 100);
    expect(seqs(first.rows)).toEqual([...Array(100).keys()]);
    expect([first.hasPrev, first.hasNext, await matchingCount(db, 1, ALL_PAGES)]).toEqual([false, true, N]);
    const second = await pageWindow(db, 1, ALL_PAGES, { after: [99] }, 100);
    expect(seqs(second.rows)).toEqual([...Array(100).keys()].map((i) => i + 100));
    const last = await pageWindow(db, 1, ALL_PAGES, { at: 'end' }, 100);
    expect([last.rows[0]!.seq, last.rows.at(-1)!.seq, last.hasPrev, last.hasNext]).toEqual([N - 100, N - 1, true, false]);
    const back = await pageWindow(db, 1, ALL_PAGES, { before: [N - 100] }, 100);
    expect([back.rows[0]!.seq, back.rows.at(-1)!.seq]).toEqual([N - 200, N - 101]);
    // Paging back into the first rows shows a full first window.
    const start = await pageWindow(db, 1, ALL_PAGES, { before: [60] }, 100);
    expect([start.rows[0]!.seq, start.rows.length, start.hasPrev]).toEqual([0, 100, false]);
    const newest = await pageWindow(db, 1, { ...ALL_PAGES, sort: 'newest' }, { at: 'start' }, 100);
    expect(newest.rows[0]!.seq).toBe(N - 1);
  });

  it('filters by verdict, outcome, site, search and label, alone and together, and counts what an index can count', async () => {
    const cases: [Partial<PageQuery>, (p: PageRecord) => boolean][] = [
      [{ kind: 'relevant' }, (p) => p.relevant === true && !p.error],
      [{ kind: 'irrelevant' }, (p) => p.relevant === false && !p.error],
      [{ kind: 'failed' }, (p) => p.outcome === 'failed'],
      [{ kind: 'skipped' }, (p) => p.outcome === 'skipped'],
      [{ site: 'nasa.gov' }, (p) => /^https:\/\/(www|science)\.nasa\.gov\//.test(p.url)],
      [{ site: 'bbc.co.uk', kind: 'relevant' }, (p) => p.url.startsWith('https://www.bbc.co.uk/') && p.relevant === true],
      [{ search: 'Saturn PLANE' }, (p) => /saturn/i.test(p.title + p.url) && /plane/i.test(p.title + p.url)],
      [{ search: 'utm_source', site: 'arxiv.org' }, (p) => p.url.includes('utm_source') && p.url.startsWith('https://arxiv.org/')],
    ];
    for (const [over, expected] of cases) {
      const q = { ...ALL_PAGES, ...over };
      const want = pages.filter(expected).map((p) => p.seq);
      expect(want.length, JSON.stringify(over)).toBeGreaterThan(10);
      expect(seqs(await pageThrough(db, q, 50)), JSON.stringify(over)).toEqual(want);
      expect(await matchingCount(db, 1, q), JSON.stringify(over)).toBe(q.search ? null : want.length);
    }
  });

  it('finds pages by their newest label, and the pages no one labeled', async () => {
    await db.pageLabels.bulkAdd([
      { topicId: 1, crawlId: 1, seq: 40, url: pages[40]!.url, label: 1, source: 'user', createdAt: 1 },
      { topicId: 1, crawlId: 1, seq: 700, url: pages[700]!.url, label: 1, source: 'user', createdAt: 1 },
      { topicId: 1, crawlId: 1, seq: 3, url: pages[3]!.url, label: 0, source: 'auto', createdAt: 1 },
      { topicId: 1, crawlId: 1, seq: 3, url: pages[3]!.url, label: 1, source: 'user', createdAt: 2 },
      { topicId: 1, crawlId: 1, seq: 9, url: pages[9]!.url, label: 0, source: 'user', createdAt: 1 },
    ]);
    const on = await pageWindow(db, 1, { ...ALL_PAGES, label: 'on' }, { at: 'start' }, 100);
    expect(seqs(on.rows)).toEqual([3, 40, 700]);
    expect(on.labels.get(3)!.label).toBe(1);
    expect(seqs((await pageWindow(db, 1, { ...ALL_PAGES, label: 'on', sort: 'newest' }, { at: 'start' }, 2)).rows)).toEqual([700, 40]);
    expect(seqs((await pageWindow(db, 1, { ...ALL_PAGES, label: 'on' }, { after: [3] }, 2)).rows)).toEqual([40, 700]);
    expect(seqs((await pageWindow(db, 1, { ...ALL_PAGES, label: 'off' }, { at: 'start' }, 100)).rows)).toEqual([9]);
    const none = await pageThrough(db, { ...ALL_PAGES, label: 'none' }, 200);
    expect(none).toHaveLength(N - 4);
    expect(none.some((p) => [3, 9, 40, 700].includes(p.seq))).toBe(false);
  });

  it('orders by score both ways with ties broken by time, across windows', async () => {
    const high = await pageThrough(db, { ...ALL_PAGES, sort: 'score-high' }, 100);
    const byScore = [...pages].sort((a, b) => b.score - a.score || b.seq - a.seq);
    expect(seqs(high)).toEqual(seqs(byScore));
    const lowRelevant = await pageThrough(db, { ...ALL_PAGES, sort: 'score-low', kind: 'relevant' }, 100);
    expect(seqs(lowRelevant)).toEqual(seqs(pages.filter((p) => p.relevant === true && !p.error).sort((a, b) => a.score - b.score || a.seq - b.seq)));
    // Back from the second window returns to the first.
    const first = await pageWindow(db, 1, { ...ALL_PAGES, sort: 'score-high' }, { at: 'start' }, 100);
    const second = await pageWindow(db, 1, { ...ALL_PAGES, sort: 'score-high' }, { after: keyOf(first.rows.at(-1)!, 'score-high') }, 100);
    const again = await pageWindow(db, 1, { ...ALL_PAGES, sort: 'score-high' }, { before: keyOf(second.rows[0]!, 'score-high') }, 100);
    expect(seqs(again.rows)).toEqual(seqs(first.rows));
  });

  it('offers the crawl’s sites, most pages first', async () => {
    const sites = await pageSites(db, 1);
    expect(sites[0]!.site).toBe('nasa.gov'); // two hosts of the sixteen
    expect(sites.map((s) => s.site)).toContain('bbc.co.uk');
    expect(sites.reduce((n, s) => n + s.pages, 0)).toBe(N);
  });

  it('names the crawl’s sites in the same order from the site rows alone, before their pages are counted', async () => {
    const counted = await pageSites(db, 1);
    // The page rows gone, the names still come: they are read from the site rows, not counted from the pages.
    await db.pages.clear();
    expect(await busiestSites(db, 1)).toEqual(counted.map((s) => s.site));
    expect(await busiestSites(db, 1, 3)).toEqual(counted.slice(0, 3).map((s) => s.site));
  });
});

describe('Pages table search', () => {
  it('finds words from their start, through the words index when they are rare and by reading rows when most pages have them', async () => {
    const db = new CrawlerDB('search', { indexedDB: new IDBFactory(), IDBKeyRange });
    // More pages than a rare word may have (2,000): "https" is in every one, so it is found by reading rows.
    const pages = realisticPages({ crawlId: 1, count: 2400, start: 1_700_000_000_000 });
    pages[2301] = withListKeys({ ...pages[2301]!, title: '東京の天気予報 and a honeymoon on the Moon' });
    await db.pages.bulkPut(pages);
    await db.pages.bulkPut(sampleFixture(1_700_000_000_000).pages.filter((p) => p.crawlId === 2));
    const text = (p: PageRecord) => `${p.url}\n${p.finalUrl}\n${p.title}`.toLowerCase();
    const cases: [string, Partial<PageQuery>, (p: PageRecord) => boolean][] = [
      ['a rare word, any case', { search: 'SATURN' }, (p) => text(p).includes('saturn')],
      ['a word by its start', { search: 'milk' }, (p) => text(p).includes('milky')],
      ['a common word, by reading rows', { search: 'https', kind: 'failed' }, (p) => p.kind === 'failed'],
      ['a common and a rare word', { search: 'https ring-plane', sort: 'score-high' }, (p) => text(p).includes('ring-plane')],
      ['a URL fragment', { search: 'bbc.co.uk/2021', site: 'bbc.co.uk' }, (p) => text(p).includes('bbc.co.uk/2021')],
      ['a word inside a title without spaces', { search: '天気' }, (p) => p.seq === 2301],
      ['not the middle of a word', { search: 'oneymoon' }, () => false],
    ];
    for (const [name, over, expected] of cases) {
      const q = { ...ALL_PAGES, ...over };
      const want = pages.filter((p) => expected(p) && (!q.kind || q.kind === 'all' || p.kind === q.kind) && (!q.site || p.site === q.site));
      if (q.sort === 'score-high') want.sort((a, b) => b.score - a.score || b.seq - a.seq);
      expect(seqs(await pageThrough(db, q, 50)), name).toEqual(seqs(want));
      expect(want.length > 0, name).toBe(name !== 'not the middle of a word');
    }
  });
});

describe('a URL as host and path', () => {
  it('splits http(s) URLs at the host and keeps other strings whole', () => {
    expect(splitUrl('http://127.0.0.1:8765/space/saturn?x=1#top')).toEqual({ host: '127.0.0.1:8765', rest: '/space/saturn?x=1#top' });
    expect(splitUrl('https://www.bbc.co.uk')).toEqual({ host: 'www.bbc.co.uk', rest: '/' });
    expect(splitUrl('HTTPS://Example.org?q')).toEqual({ host: 'Example.org', rest: '?q' });
    expect(splitUrl('mailto:club@example.org')).toEqual({ host: '', rest: 'mailto:club@example.org' });
  });
});
