// Shared set-up of the Chromium tests on the demo site: a built extension, a fresh profile, the site on loopback.
import { afterAll, beforeAll, expect } from 'vitest';
import { ensureBuilt, launchWithExtension, send, type Launched } from '../../scripts/lib/browser';
import type { CrawlStatus } from '../../lib/app/protocol';
import { demoConfig, ON_TOPIC_PATHS, startDemoServer, type DemoServer } from '../fixtures/sites/demo-site';

export interface DemoBrowser {
  site: DemoServer;
  browser: Launched;
}

/** Registers hooks that start the demo site and Chromium before the file's tests and close them after. */
export function useDemoBrowser(): DemoBrowser {
  const env = {} as DemoBrowser;
  beforeAll(async () => {
    ensureBuilt();
    env.site = await startDemoServer();
    env.browser = await launchWithExtension();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}

/** The astronomy pages and the news pages a crawl with labeled pages reads first (training), by path. */
export const LABELED_PAGES = {
  positives: ON_TOPIC_PATHS.filter((p) => p !== '/space/').slice(0, 4),
  negatives: ['/news/quiz-night', '/news/film-club', '/news/craft-fair'],
};

/** Runs an 8-page crawl of the demo site that first reads LABELED_PAGES (on topic under /space/, off under /news/). */
export async function crawlWithLabeledPages(env: DemoBrowser): Promise<{ crawlId: number; status: CrawlStatus }> {
  const { page } = env.browser;
  const origin = env.site.origin;
  const { crawlId } = await send<{ crawlId: number }>(page, 'start', {
    ...demoConfig(origin), name: 'Sky with labeled pages', budget: { maxPages: 8 }, politeness: { delayMs: 0, concurrency: 2, robots: true },
    training: {
      linkSources: [...LABELED_PAGES.positives, ...LABELED_PAGES.negatives].map((p) => origin + p),
      positive: [`${origin}/space/*`], negative: [`${origin}/news/*`],
    },
  });
  let status: CrawlStatus | null = null;
  await expect.poll(async () => (status = await send<CrawlStatus>(page, 'status', { crawlId }))?.crawl.state, { timeout: 60_000, interval: 200 })
    .toBe('finished');
  return { crawlId, status: status! };
}
