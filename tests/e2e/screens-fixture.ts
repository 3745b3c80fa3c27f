// The rows the screenshots show: the sample's three topic crawls (ui-fixtures.ts), the running one with its recall
// estimates and duplicates, a finished template crawl with its records and sites, and a running multi-queue crawl of a
// forum with its queues. Written straight into the
// extension's database, in Chromium or Firefox alike (the writer runs in the page).
import type { CrawlRecord, FieldRecord, SiteStats } from '../../lib/records/rows';
import type { PageRecord } from '../../lib/records/types';
import { parseConfig } from '../../lib/app/parse-config';
import { withListKeys } from '../../lib/store/page-keys';
import { companyConfig } from '../fixtures/sites/company-sites';
import { forumConfig } from '../fixtures/sites/forum-site';
import { sampleFixture } from './ui-fixtures';

/** Rows by the name of the table they go into. */
export type Tables = Record<string, unknown[]>;

const page = (crawlId: number, seq: number, url: string, over: Partial<PageRecord>, at: number): PageRecord => withListKeys({
  crawlId, seq, url, finalUrl: url, status: 200, phase: 'crawl', depth: 1, parentUrl: null, score: 0.5, relevant: true, relevance: 0.9,
  title: '', textLength: 1800, contentType: 'text/html', bytes: 14_000, truncated: false, linkCount: 20, fetchedAt: at + seq * 3000, durationMs: 240,
  outcome: 'done', ...over,
});

function templateCrawl(now: number): { crawl: CrawlRecord; pages: PageRecord[]; records: FieldRecord[]; sites: SiteStats[] } {
  const config = parseConfig(companyConfig('Telescope shops'));
  const shops = Array.from({ length: 8 }, (_, i) => `shop${String(i + 1).padStart(2, '0')}.test`);
  const pages: PageRecord[] = [];
  const records: FieldRecord[] = [];
  const sites: SiteStats[] = [];
  let seq = 1;
  for (const [i, shop] of shops.entries()) {
    const paths = ['/', '/about', '/contact', ...(i % 3 === 0 ? ['/contact/branches'] : [])];
    for (const path of paths) {
      const url = `http://${shop}${path}`;
      pages.push(page(10, seq++, url, { title: `Telescope Shop ${i + 1}${path === '/' ? '' : ` - ${path.slice(1)}`}`, depth: path === '/' ? 0 : 1 }, now - 7_200_000));
      if (i !== 0 && path.startsWith('/contact')) {
        records.push({
          crawlName: 'Telescope shops', url, site: shop, fields: { email: `sales@${shop}`, phone: `+44 20 7946 ${1000 + i}` }, hash: `h${seq}`,
          firstSeen: now - 7_000_000, lastChanged: now - 7_000_000, lastChecked: now - 7_000_000, lastCrawlId: 10, intervalMs: 86_400_000,
        });
      }
    }
    sites.push({ crawlId: 10, site: shop, fetched: paths.length, relevant: paths.length, failed: 0 });
  }
  const crawl: CrawlRecord = {
    id: 10, topicId: 10, name: 'Telescope shops', config: { ...config, seeds: shops.map((s) => `http://${s}/`) }, state: 'finished',
    stats: { attempts: pages.length + 1, fetched: pages.length, relevant: pages.length, failed: 0, skipped: 0, queued: 0, trainPages: 0, labels: 0, bytes: pages.length * 14_000 },
    nextSeq: seq, nextOrder: seq, createdAt: now - 7_300_000, updatedAt: now - 7_000_000, finishedAt: now - 7_000_000, activeMs: 95_000,
    message: 'Every page the template leads to was fetched.',
    templateRun: { cycle: 1, seeded: true, results: shops.map((s) => `http://${s}/`), skipped: [], owed: [], tried: [], searchPages: 1, searchErrors: [] },
  };
  return { crawl, pages, records, sites };
}

function forumCrawl(now: number): { crawl: CrawlRecord; pages: PageRecord[]; sites: SiteStats[] } {
  const config = parseConfig({ ...forumConfig('http://forum.test'), name: 'Astronomy forum' });
  const pages: PageRecord[] = [];
  let seq = 1;
  const add = (url: string, urlClass: NonNullable<PageRecord['urlClass']>, priority: number, title: string, judged = true) =>
    pages.push(page(11, seq++, url, { urlClass, priority, title, ...(judged ? {} : { relevant: null, relevance: null }) }, now - 600_000));
  add('http://forum.test/', 'other', 0, 'Stargazers forum');
  for (let b = 1; b <= 2; b++) {
    add(`http://forum.test/board/${b}`, 'list', 4, `Board ${b}: ${b === 1 ? 'Telescopes' : 'Observing'}`, false);
    for (let t = 0; t < 4; t++) {
      add(`http://forum.test/thread/${b}-1-${t}`, 'content', 3, `Thread ${t + 1}: ${['Dobsonian collimation', 'First light with a 6" reflector', 'Eyepieces for planets', 'Saturn last night'][t]}`);
      add(`http://forum.test/thread/${b}-1-${t}?page=2`, 'content-return', 5, `Thread ${t + 1}, page 2`);
    }
    add(`http://forum.test/board/${b}?page=2`, 'pagination', 4, `Board ${b}, page 2`, false);
  }
  for (let m = 1; m <= 5; m++) add(`http://people.test/member/${m}`, 'other', 2, `Member ${m}`, m % 2 === 0);
  const crawlPages = pages.filter((p) => p.relevant !== null);
  const crawl: CrawlRecord = {
    id: 11, topicId: 11, name: 'Astronomy forum', config, state: 'running',
    stats: {
      attempts: pages.length, fetched: crawlPages.length, relevant: crawlPages.filter((p) => p.urlClass !== 'other').length, failed: 0, skipped: 0,
      queued: 42, trainPages: 0, labels: 0, bytes: pages.length * 14_000, listPages: pages.length - crawlPages.length,
      contentPages: pages.filter((p) => p.urlClass === 'content').length,
    },
    queues: { 5: { queued: 4, inFlight: 1 }, 4: { queued: 30, inFlight: 0 }, 3: { queued: 8, inFlight: 0 } },
    strategyReport: { iFactor: 3.2, maxPriority: 5, listReads: 4 },
    nextSeq: seq, nextOrder: seq + 42, createdAt: now - 660_000, updatedAt: now, activeMs: 600_000,
    pace: { first: 2_000, recent: Array.from({ length: 30 }, (_, i) => 560_000 + i * 1_300) },
  };
  const sites = [
    { crawlId: 11, site: 'forum.test', fetched: pages.filter((p) => p.url.includes('forum.test')).length, relevant: 14, failed: 0 },
    { crawlId: 11, site: 'people.test', fetched: 5, relevant: 0, failed: 0 },
  ];
  return { crawl, pages, sites };
}

/** What a running best-first crawl estimates of its recall, every hundred pages (docs/recall.md). */
const RECALL = [
  { fetched: 100, estimate: 0.41, low: 0.22, high: 0.63 },
  { fetched: 200, estimate: 0.66, low: 0.51, high: 0.78 },
];

/** The crawl with its newest recall estimate and the duplicates it met (docs/duplicates.md). */
const withRecall = (c: CrawlRecord): CrawlRecord => ({
  ...c, recall: RECALL.at(-1)!, stats: { ...c.stats, duplicates: 6, variantSkips: 41, canonicalSkips: 3 },
});

/** Every table's rows for the screenshots. */
export function screensFixture(now = Date.now()): Tables {
  const sample = sampleFixture(now);
  const template = templateCrawl(now);
  const forum = forumCrawl(now);
  const topic = (id: number, name: string, keywords: string[]) => ({ id, name, keywords, revision: 0, createdAt: now - 86_400_000, updatedAt: now });
  return {
    topics: [...(sample.topics ?? []), topic(10, 'Telescope shops', []), topic(11, 'Astronomy forum', ['telescope', 'mirror', 'eyepieces'])],
    crawls: [...sample.crawls.map((c) => (c.name === 'Solar power' ? withRecall(c) : c)), template.crawl, forum.crawl],
    recallHistory: sample.crawls.filter((c) => c.name === 'Solar power').flatMap((c) => RECALL.map((r) => ({ crawlId: c.id, ...r }))),
    pages: [...sample.pages, ...template.pages, ...forum.pages],
    frontier: sample.frontier,
    records: template.records,
    sites: [...template.sites, ...forum.sites],
  };
}

/** Writes `tables` into the 'focus' database; runs in an extension page that has opened it (the dashboard, the popup). */
export async function writeTables(tables: Tables): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open('focus');
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const tx = db.transaction(Object.keys(tables), 'readwrite');
  for (const [name, rows] of Object.entries(tables)) for (const row of rows) tx.objectStore(name).put(row);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}
