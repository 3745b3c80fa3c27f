// The demo site crawled in Node through the crawl core, for the export tests, and an export of it read whole.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { CrawlService } from '../../lib/app/service';
import { exportCrawl, type ExportRequest } from '../../lib/export/export-crawl';
import { realClock } from '../../lib/net/fetcher';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { demoConfig, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';

/** Serves the demo site and crawls it to the end with the demo's config, `extra(origin)` on top. */
export async function crawlDemo(extra: (origin: string) => Record<string, unknown> = () => ({})): Promise<{ site: DemoServer; store: CrawlStore; crawlId: number }> {
  const site = await startDemoServer();
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: (u, i) => fetch(u, i), clock: realClock });
  const { crawlId } = await service.handlers.start({ ...demoConfig(site.origin), politeness: { delayMs: 0, concurrency: 2 }, ...extra(site.origin) });
  await service.settled(crawlId);
  return { site, store, crawlId };
}

/** An export of the crawl, in small chunks as the dashboard streams it, joined. */
export async function exportBytes(store: CrawlStore, crawlId: number, req: ExportRequest): Promise<Buffer> {
  const crawl = (await store.getCrawl(crawlId))!;
  const out = await exportCrawl(store.db, crawl, req, { now: Date.parse('2026-11-24T10:00:00Z'), chunk: 7 });
  const parts: Uint8Array[] = [];
  for await (const c of out.chunks) parts.push(c);
  return Buffer.concat(parts);
}
