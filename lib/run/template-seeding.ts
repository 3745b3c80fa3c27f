// Template seeding (design E.2, E.3), before the crawl loop: the search engine's result pages are read through the
// crawl's gate, sampled, and queued as the crawl's seeds, which its scope then follows.
import type { ReadPage } from '../strategies/template/search';
import { seedCycle } from './template-cycle';
import { hostOf } from '../records/url';
import type { RunContext } from './context';
import { sessionLostMessage } from './outcome';

export async function seedFromSearch(ctx: RunContext): Promise<void> {
  const config = await seedCycle({
    store: ctx.ports.store, crawl: await ctx.mustGet(), config: ctx.config, strategy: ctx.strategy, read: searchPageReader(ctx),
    halted: () => ctx.halted, now: () => ctx.ports.clock.now(), log: ctx.ports.log,
  });
  ctx.learner.queuedElsewhere();
  if (config) ctx.reseed(config);
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
