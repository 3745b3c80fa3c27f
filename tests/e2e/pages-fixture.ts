// A crawl's pages as a real crawl leaves them: many hosts, long paths and queries, long titles, a share of
// failures and skips, scores falling as the crawl goes on. Deterministic, so tests can count what a filter shows.
import type { CrawlRecord } from '../../lib/records/rows';
import type { PageRecord } from '../../lib/records/types';
import { withListKeys } from '../../lib/store/page-keys';
import { DEFAULTS } from '../../lib/records/config';

const HOSTS = [
  'www.nasa.gov', 'science.nasa.gov', 'en.wikipedia.org', 'www.esa.int', 'skyandtelescope.org', 'www.space.com',
  'astronomy.stackexchange.com', 'www.bbc.co.uk', 'news.ycombinator.com', 'www.theguardian.com', 'arxiv.org',
  'www.universetoday.com', 'hubblesite.org', 'www.iau.org', 'earthsky.org', 'blogs.example-observatory.ac.uk',
];
const TOPICS = [
  ['james-webb-space-telescope-first-deep-field-image-explained', 'James Webb Space Telescope’s first deep field image, explained galaxy by galaxy'],
  ['saturn-rings-disappearing-2025-ring-plane-crossing', 'Saturn’s rings will seem to vanish in 2025: what the ring-plane crossing means for observers'],
  ['how-to-photograph-the-milky-way-with-a-phone', 'How to photograph the Milky Way with nothing but a phone and a cheap tripod'],
  ['exoplanet-atmospheres-transmission-spectroscopy', 'Reading exoplanet atmospheres with transmission spectroscopy: a primer for amateurs'],
  ['perseid-meteor-shower-peak-viewing-guide', 'Perseid meteor shower 2026: peak nights, radiant position and the best viewing hours'],
  ['local-council-budget-meeting-minutes', 'Minutes of the council budget meeting, with the library opening hours and parking changes'],
  ['best-mooncake-recipe-mid-autumn-festival', 'The best mooncake recipe for the mid-autumn festival, with lotus paste and salted yolks'],
  ['dark-matter-rotation-curves-of-spiral-galaxies', 'Why the rotation curves of spiral galaxies still point to dark matter'],
];

export interface PagesFixtureOptions {
  crawlId: number;
  count: number;
  /** Milliseconds since the epoch of the first page. */
  start: number;
}

export function realisticPages({ crawlId, count, start }: PagesFixtureOptions): PageRecord[] {
  const out: PageRecord[] = [];
  let x = 12345;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let seq = 0; seq < count; seq++) {
    const host = HOSTS[Math.floor(rand() * HOSTS.length)]!;
    const [slug, title] = TOPICS[seq % TOPICS.length]!;
    const onTopic = seq % TOPICS.length < 5 && seq % TOPICS.length !== 3 ? rand() < 0.85 : rand() < 0.1;
    const failed = seq > 10 && seq % 17 === 0;
    const skipped = !failed && seq > 10 && seq % 29 === 0;
    const train = seq < 6;
    const url = `https://${host}/${2020 + (seq % 7)}/${String(1 + (seq % 12)).padStart(2, '0')}/${slug}-${seq}${seq % 5 === 0 ? `?utm_source=newsletter&utm_medium=email&ref=${seq}` : ''}`;
    const relevance = failed || skipped ? null : onTopic ? 0.6 + rand() * 0.4 : rand() * 0.45;
    const error = failed ? (seq % 2 ? 'HTTP 404 Not Found' : 'timed out after 30 s') : skipped ? 'redirect to another site not followed' : undefined;
    out.push(withListKeys({
      crawlId, seq, url, finalUrl: url,
      status: failed ? (seq % 2 ? 404 : 0) : skipped ? 301 : 200,
      phase: train ? 'train' : 'crawl',
      depth: Math.min(6, Math.floor(seq / 50)),
      parentUrl: seq ? `https://${HOSTS[seq % HOSTS.length]}/` : null,
      // Scores fall as the crawl goes on, with noise: sorting by score is not the same as by time.
      score: Math.round(Math.max(0, Math.min(1, 0.95 - seq / (count * 1.5) + (rand() - 0.5) * 0.3)) * 1000) / 1000,
      relevant: relevance === null || train ? null : relevance >= 0.5,
      relevance: train ? null : relevance,
      title: failed || skipped ? '' : `${title} (part ${seq})`,
      textLength: failed ? 0 : 4000, contentType: failed ? '' : 'text/html', bytes: failed ? 0 : 42_000, truncated: false,
      linkCount: failed ? 0 : 80, fetchedAt: start + seq * 1500, durationMs: 400,
      ...(error ? { error, outcome: failed ? ('failed' as const) : ('skipped' as const) } : { outcome: 'done' as const }),
    }));
  }
  return out;
}

/** A finished crawl row for `pages`, with counters that agree with them. */
export function crawlOf(id: number, name: string, pages: readonly PageRecord[], now: number): CrawlRecord {
  const crawl = pages.filter((p) => p.phase === 'crawl');
  const fetched = crawl.filter((p) => !p.error).length;
  return {
    id, topicId: id, name,
    config: { ...structuredClone(DEFAULTS), name, seeds: ['https://www.nasa.gov/'], topic: { keywords: ['astronomy', 'telescope'] }, budget: { ...DEFAULTS.budget, maxPages: crawl.length } } as CrawlRecord['config'],
    state: 'finished',
    stats: {
      attempts: crawl.length, fetched, relevant: crawl.filter((p) => p.relevant).length, failed: crawl.filter((p) => p.outcome === 'failed').length,
      skipped: crawl.filter((p) => p.outcome === 'skipped').length, queued: 0, trainPages: pages.length - crawl.length, labels: 0, bytes: fetched * 42_000,
    },
    nextSeq: pages.length, nextOrder: pages.length, createdAt: now - 3_600_000, updatedAt: now, activeMs: 3_000_000, finishedAt: now,
    message: 'Reached the page budget.',
  };
}

/** The per-site counters the sites panel (and the Pages table's site filter) read. */
export function sitesOf(pages: readonly PageRecord[]): { crawlId: number; site: string; fetched: number; relevant: number; failed: number }[] {
  const bySite = new Map<string, { crawlId: number; site: string; fetched: number; relevant: number; failed: number }>();
  for (const p of pages) {
    const row = bySite.get(p.site!) ?? { crawlId: p.crawlId, site: p.site!, fetched: 0, relevant: 0, failed: 0 };
    if (p.error) row.failed++;
    else row.fetched++;
    if (p.relevant) row.relevant++;
    bySite.set(p.site!, row);
  }
  return [...bySite.values()];
}

/**
 * Writes a crawl, its topic, its pages and its sites into the extension's 'focus' database from an extension page that
 * has opened it (the dashboard creates it on load), `chunk` pages per transaction.
 */
export async function seedCrawl(page: import('playwright-core').Page, crawl: CrawlRecord, pages: readonly PageRecord[], opts: { bodies?: boolean; chunk?: number; progress?: (written: number) => void } = {}): Promise<void> {
  const chunk = opts.chunk ?? 5000;
  const write = (rows: { store: string; values: unknown[] }[]) =>
    page.evaluate(async (rows) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open('focus');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const tx = db.transaction(rows.map((r) => r.store), 'readwrite');
      for (const r of rows) for (const v of r.values) tx.objectStore(r.store).put(v);
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, rows);
  const topic = { id: crawl.topicId, name: crawl.name, keywords: crawl.config.topic.keywords, revision: 0, createdAt: crawl.createdAt, updatedAt: crawl.createdAt };
  await write([{ store: 'topics', values: [topic] }, { store: 'crawls', values: [crawl] }, { store: 'sites', values: sitesOf(pages) }]);
  for (let i = 0; i < pages.length; i += chunk) {
    const slice = pages.slice(i, i + chunk);
    // A page can be labeled only with its HTML (the page judge learns from its text).
    const bodies = opts.bodies
      ? slice.filter((p) => !p.error).map((p) => ({ crawlId: p.crawlId, seq: p.seq, headers: {}, html: `<!doctype html><title>${p.title}</title><h1>${p.title}</h1><p>${p.title}</p>` }))
      : [];
    await write([{ store: 'pages', values: slice }, ...(bodies.length ? [{ store: 'bodies', values: bodies }] : [])]);
    opts.progress?.(i + slice.length);
  }
}
