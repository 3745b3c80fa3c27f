// Crawl rows, pages and frontier entries written straight into the extension's 'focus' database, so the
// popup and the dashboard can be looked at (and tested) with populated views without running a crawl.
import type { Page } from 'playwright-core';
import type { CrawlRecord, CrawlStats } from '../../lib/records/rows';
import type { FrontierEntry, PageRecord, Topic } from '../../lib/records/types';
import { DEFAULTS } from '../../lib/records/config';
import { withListKeys } from '../../lib/store/page-keys';

export interface UiFixture {
  crawls: CrawlRecord[];
  pages: PageRecord[];
  frontier: FrontierEntry[];
  /** The crawls' topics, so the detail names each crawl's topic (without them it shows the topic's id). */
  topics?: Topic[];
}

/** A title that must show up as text, never as markup. */
export const HOSTILE_TITLE = '<img src=x onerror="document.title=\'pwned\'"> Solar <b>roof</b> guide';

const stats = (s: Partial<CrawlStats>): CrawlStats => ({
  attempts: 0, fetched: 0, relevant: 0, failed: 0, skipped: 0, queued: 0, trainPages: 0, labels: 0, bytes: 0, ...s,
});

function crawl(id: number, name: string, over: Partial<CrawlRecord>, now: number): CrawlRecord {
  return {
    id,
    topicId: id,
    name,
    config: { ...structuredClone(DEFAULTS), name, seeds: [`https://${name.toLowerCase().replace(/\W+/g, '-')}.example/`], topic: { keywords: [name.toLowerCase()] } } as CrawlRecord['config'],
    state: 'running',
    stats: stats({}),
    nextSeq: 0,
    nextOrder: 0,
    createdAt: now,
    updatedAt: now,
    activeMs: 0,
    ...over,
  };
}

const ERRORS = ['HTTP 404 Not Found', 'timed out after 30 s', 'not HTML (application/pdf)', 'HTTP 503 Service Unavailable', 'connection refused'];

/** Pages of crawl `crawlId`: `train` training pages, then crawl pages, every `failEvery`-th one failed. */
function pages(crawlId: number, host: string, count: number, train: number, failEvery: number, start: number): PageRecord[] {
  const out: PageRecord[] = [];
  let x = crawlId * 7919;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let seq = 0; seq < count; seq++) {
    const failed = seq >= train && seq % failEvery === failEvery - 1;
    const error = failed ? ERRORS[Math.floor(seq / failEvery) % ERRORS.length] : undefined;
    const relevance = rand();
    const url = `https://${host}/articles/${seq}-${relevance > 0.5 ? 'solar-panels-and-inverters' : 'misc'}?ref=${seq % 3}`;
    out.push(withListKeys({
      crawlId,
      seq,
      url,
      finalUrl: url,
      status: error ? Number(/HTTP (\d+)/.exec(error)?.[1] ?? 0) : 200,
      phase: seq < train ? 'train' : 'crawl',
      depth: Math.min(5, Math.floor(seq / 40)),
      parentUrl: seq === 0 ? null : `https://${host}/`,
      score: failed ? 0.4 : Math.max(0, 1 - seq / (count * 1.2)),
      relevant: failed ? null : relevance >= 0.5,
      relevance: failed ? null : relevance,
      title: failed ? '' : seq === 3 ? HOSTILE_TITLE : `Article ${seq}: ${relevance >= 0.5 ? 'solar power at home' : 'something else'}`,
      textLength: failed ? 0 : 2000 + seq,
      contentType: failed ? '' : 'text/html',
      bytes: failed ? 0 : 15_000,
      truncated: false,
      linkCount: failed ? 0 : 40,
      fetchedAt: start + seq * 4000,
      durationMs: 300,
      ...(error ? { error } : {}),
    }));
  }
  return out;
}

function entry(crawlId: number, url: string, state: FrontierEntry['state'], score: number, now: number): FrontierEntry {
  return {
    crawlId, url, host: new URL(url).host, state, score, priority: score, order: 0, depth: 2, parentUrl: null,
    anchor: '', context: '', attempts: state === 'inflight' ? 1 : 0, discoveredAt: now, updatedAt: now,
  };
}

/** Three crawls: a running one with 260 pages and two fetches in flight, a paused one, a finished one. */
export function sampleFixture(now = Date.now()): UiFixture {
  const hour = 3_600_000;
  const solarPages = pages(1, 'energy.example', 260, 8, 20, now - hour);
  const solarCrawl = solarPages.filter((p) => p.phase === 'crawl');
  const solar = crawl(1, 'Solar power', {
    state: 'running',
    createdAt: now - hour,
    activeMs: 52 * 60_000,
    nextSeq: 260,
    stats: stats({
      attempts: solarCrawl.length,
      fetched: solarCrawl.filter((p) => !p.error).length,
      relevant: solarCrawl.filter((p) => p.relevant).length,
      failed: solarCrawl.filter((p) => p.error).length,
      skipped: 31,
      queued: 1830,
      trainPages: 8,
      labels: 412,
      bytes: 3_700_000,
    }),
  }, now);
  solar.config.budget.maxPages = 500;
  const birdPages = pages(2, 'birds.example', 40, 4, 15, now - 5 * hour);
  const birds = crawl(2, 'Garden birds', {
    state: 'paused', createdAt: now - 5 * hour, activeMs: 9 * 60_000, nextSeq: 40,
    message: 'Paused by you.',
    stats: stats({ attempts: 36, fetched: 34, relevant: 12, failed: 2, queued: 220, trainPages: 4, labels: 90 }),
  }, now);
  const rust = crawl(3, 'Rust async runtimes', {
    state: 'finished', createdAt: now - 30 * hour, activeMs: 20 * 60_000, nextSeq: 0, finishedAt: now - 29 * hour,
    message: 'Reached the page budget (100 pages).',
    stats: stats({ attempts: 100, fetched: 97, relevant: 61, failed: 3, queued: 640 }),
  }, now);
  const topic = (id: number, name: string, keywords: string[]): Topic => ({ id, name, keywords, revision: 0, createdAt: now - 30 * hour, updatedAt: now - hour });
  return {
    topics: [topic(1, 'Solar power', ['solar power', 'photovoltaic']), topic(2, 'Garden birds', ['birds']), topic(3, 'Rust async runtimes', ['rust', 'async'])],
    crawls: [rust, birds, solar],
    pages: [...solarPages, ...birdPages],
    frontier: [
      entry(1, 'https://energy.example/articles/how-inverters-work', 'inflight', 0.91, now),
      entry(1, 'https://news.example/2024/solar-tariffs-explained-for-homeowners-and-small-businesses', 'inflight', 0.84, now),
      entry(1, 'https://energy.example/articles/next', 'queued', 0.8, now),
    ],
  };
}

/**
 * Writes the fixture into the 'focus' database from an extension page that has already opened it (the
 * popup or the dashboard create it on load), then reloads the page so its live queries read the rows.
 */
export async function seedDatabase(page: Page, fixture: UiFixture): Promise<void> {
  await page.evaluate(async (f) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('focus');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    if (!db.objectStoreNames.contains('crawls')) throw new Error('open the popup or dashboard first: the focus database has no tables yet');
    const tx = db.transaction(['crawls', 'pages', 'frontier', 'topics'], 'readwrite');
    for (const t of f.topics ?? []) tx.objectStore('topics').put(t);
    for (const c of f.crawls) tx.objectStore('crawls').put(c);
    for (const p of f.pages) tx.objectStore('pages').put(p);
    for (const e of f.frontier) tx.objectStore('frontier').put(e);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, fixture);
  await page.reload();
}
