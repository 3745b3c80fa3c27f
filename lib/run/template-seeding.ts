// Template seeding (design E.2, E.3), before the crawl loop: the search engine's result pages are read through the
// crawl's gate, sampled, and queued as the crawl's seeds, which its scope then follows.
import type { ReadPage } from '../strategies/template/search';
import { firstRun, seedCycle } from './template-cycle';
import { seedCandidates } from '../learning/children';
import type { CrawlConfig } from '../records/config';
import type { CrawlRecord } from '../records/rows';
import type { TemplateShare } from '../ports';
import { hostOf } from '../records/url';
import type { RunContext } from './context';
import { sessionLostMessage } from './outcome';

export async function seedFromSearch(ctx: RunContext): Promise<void> {
  const share = ctx.ports.store.template;
  const config = share ? await sharedCycle(ctx, share) : await searchHere(ctx, await ctx.mustGet());
  ctx.learner.queuedElsewhere();
  if (config) ctx.reseed(config);
}

function searchHere(ctx: RunContext, crawl: CrawlRecord): Promise<CrawlConfig | null> {
  return seedCycle({
    store: ctx.ports.store, crawl, config: ctx.config, strategy: ctx.strategy, read: searchPageReader(ctx),
    halted: () => ctx.halted, now: () => ctx.ports.clock.now(), log: ctx.ports.log,
  });
}

/** How often a worker of a shared crawl asks again while another worker runs the cycle's search. */
const SEARCH_POLL_MS = 500;

/**
 * A shared crawl's cycle (docs/scale-out.md): one worker runs the search and its sample, from the cycle before's run;
 * the others wait for it and take its seeds as their crawl's (their scope follows them).
 */
async function sharedCycle(ctx: RunContext, share: TemplateShare): Promise<CrawlConfig | null> {
  const { store, clock } = ctx.ports;
  while (!ctx.halted) {
    const s = await share.search();
    if (s.state === 'wait') {
      await clock.sleep(SEARCH_POLL_MS);
      continue;
    }
    if (s.state === 'seeded') {
      const config: CrawlConfig = { ...ctx.config, seeds: s.seeds };
      await store.updateCrawl(ctx.crawlId, { config, templateRun: s.run });
      return config;
    }
    const crawl = await ctx.mustGet();
    const templateRun = s.previous
      ? { ...firstRun(), cycle: s.cycle, owed: s.previous.run.skipped, tried: s.previous.seeds }
      : { ...firstRun(), cycle: s.cycle };
    await store.updateCrawl(ctx.crawlId, { templateRun });
    const config = await searchHere(ctx, { ...crawl, templateRun });
    if (!config) return null;
    const run = (await ctx.mustGet()).templateRun!;
    if ((await share.searched(run, seedCandidates(config, ctx.strategy))) === 'dup') ctx.ports.log?.('the cycle\'s search was also run by another worker: its seeds are queued once');
    return config;
  }
  return null;
}

/** A result page, through the gate like every request, in the user's browser session. */
function searchPageReader(ctx: RunContext): ReadPage {
  return async (url) => {
    await ctx.waitForHost(hostOf(url));
    const result = await ctx.gate.page(url, undefined, async () => null);
    if (result === null) return { error: 'the crawl halted before the result page was requested' };
    if (result.kind === 'sessionLost') {
      await ctx.loseSession(result);
      return { error: sessionLostMessage(result) };
    }
    if (result.kind !== 'response') return { error: result.reason };
    const { out } = result;
    if (out.error || out.html === null) return { error: out.error ?? 'no HTML body' };
    return { html: out.html, url: out.finalUrl };
  };
}
