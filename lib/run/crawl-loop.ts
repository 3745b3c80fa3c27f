// The crawl loop (design A.7): while the budget allows, take the best ready URLs (the strategy's order, politeness
// slots reserved in the same transaction) so that `concurrency` requests are in flight, hand each to the page
// pipeline, and end when the frontier is empty, the budget spent, or the run was asked to halt.
//
// `concurrency` counts requests, as its setting says ("requests in flight overall"): a page whose response is in is
// parsed, judged and committed while the next URL's request goes out, so a slow server does not hold the slots of
// pages being written. (On loopback the service worker's CPU per page, not the slots, sets the pace either way:
// docs/benchmarks.md, "Crawl throughput".) Pages past their request are bounded by `concurrency` too, so a slow
// store holds the crawl back instead of piling up pages in memory.
import type { CrawlState } from '../records/rows';
import type { FrontierEntry } from '../records/types';
import { describeFatal, type RunContext } from './context';
import { processCopy, processEntry } from './page-pipeline';

export async function crawlLoop(ctx: RunContext): Promise<{ state: CrawlState; message: string }> {
  const { clock } = ctx.ports;
  const { maxPages } = ctx.config.budget;
  const noteWaiting = waitingNoter(ctx);
  const requests = new RequestSlots();
  let recounted = false;
  for (;;) {
    ctx.tick();
    if (ctx.halted) break;
    let waitMs = 0;
    let waitingOn: FrontierEntry | undefined;
    for (;;) {
      // Read again when the take runs (it waits behind the commits before it): slots freed meanwhile are filled too,
      // and a take that runs after the crawl was halted (a page's answer ended the session meanwhile) takes nothing.
      const want = () => {
        if (ctx.halted) return 0;
        const { concurrency } = ctx.config.politeness;
        return Math.min(concurrency - requests.size, 2 * concurrency - ctx.active.size, maxPages - ctx.reserved);
      };
      if (want() <= 0) break;
      const taken = await takeBatch(ctx, want);
      for (const entry of taken.entries) launch(ctx, entry, requests);
      if (taken.waitMs > 0) {
        // Fewer ready than wanted (waitMs is 0 when the take filled every slot).
        waitMs = taken.waitMs;
        waitingOn = taken.waitingOn;
        break;
      }
    }
    // Nothing in flight and a wait ahead: say what for (the popup's "Fetching now" shows it).
    await noteWaiting(ctx.active.size === 0 && waitMs > 0 && waitMs !== Infinity ? waitingOn : undefined, waitMs);
    if (ctx.active.size === 0) {
      if (ctx.reserved >= maxPages) return ending(ctx, `page budget reached (${maxPages} page${maxPages === 1 ? '' : 's'})`);
      if (waitMs === Infinity) {
        // "Empty" is told only when no URL is queued: counted, not inferred from what a take saw.
        const left = await ctx.ports.store.frontier.countByState(ctx.crawlId, 'queued');
        if (left === 0) return ending(ctx, 'frontier empty: every reachable page in scope was fetched');
        if (recounted) throw new Error(`${left} queued URL(s) could not be taken`);
        recounted = true;
        ctx.ports.log?.(`a take found nothing while ${left} URL(s) are queued: scanning the frontier again from its top`);
        ctx.ports.store.frontier.forgetBound(ctx.crawlId);
        continue;
      }
    }
    recounted = false;
    const sleep = waitMs === Infinity ? [] : [clock.sleep(Math.max(5, Math.min(waitMs, 1000)))];
    await Promise.race([...ctx.active.values(), requests.freed(), ...sleep]);
  }
  await Promise.allSettled(ctx.active.values());
  return { state: ctx.halt.reason!.as, message: ctx.halt.reason!.message };
}

/** Records what the crawl waits for on its row when that changes (undefined: it waits for nothing). */
function waitingNoter(ctx: RunContext): (entry: FrontierEntry | undefined, waitMs: number) => Promise<void> {
  let noted: string | null = null;
  return async (entry, waitMs) => {
    const now = ctx.ports.clock.now();
    let text: string | null = null;
    if (entry) {
      text = entry.notBefore !== undefined && entry.notBefore > now
        ? `${entry.host}: ${entry.reason ?? 'asked to come back later'}`
        : ctx.politeness.waitReason(entry.host, now) ?? `${entry.host}`;
    }
    if (text === noted) return;
    noted = text;
    await ctx.ports.store.updateCrawl(ctx.crawlId, { waiting: text === null ? undefined : { text, until: now + waitMs } }).catch(() => undefined);
  };
}

/** Takes up to `want` ready URLs in one transaction, reserving their hosts' politeness slots as it goes. */
async function takeBatch(ctx: RunContext, want: () => number): Promise<{ entries: FrontierEntry[]; waitMs: number; waitingOn?: FrontierEntry }> {
  const { clock, store } = ctx.ports;
  const hosts: string[] = [];
  const reserve = (entry: FrontierEntry) => {
    if (ctx.claimed.has(entry.url)) return 50; // its page is being reached through a redirect right now
    if (ctx.copies.has(entry.url)) return 0; // read in training: judged from its copy, no request to wait for
    const w = ctx.politeness.waitFor(entry.host, clock.now());
    if (w === 0) {
      ctx.politeness.begin(entry.host);
      hosts.push(entry.host);
    }
    return w;
  };
  try {
    return await store.frontier.take(ctx.crawlId, reserve, clock.now(), want, undefined, ctx.strategy.next);
  } catch (err) {
    for (const h of hosts) ctx.politeness.end(h, clock.now()); // nothing was taken
    throw err;
  }
}

/** The requests in flight: a slot is taken at launch and freed when the page's response is in (or it made none). */
class RequestSlots {
  size = 0;
  private wake: { promise: Promise<void>; resolve: () => void } | null = null;

  take(): () => void {
    this.size++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.size--;
      this.wake?.resolve();
      this.wake = null;
    };
  }

  /** Resolves when a slot is next freed (one promise for every waiter until then). */
  freed(): Promise<void> {
    if (!this.wake) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.wake = { promise, resolve };
    }
    return this.wake.promise;
  }
}

/** Runs one taken URL in the page pipeline; its host slot is already reserved. */
function launch(ctx: RunContext, entry: FrontierEntry, requests: RequestSlots): void {
  const copy = ctx.copies.get(entry.url);
  if (copy === undefined) ctx.reserved++;
  const free = requests.take();
  if (copy !== undefined) free(); // judged from training's copy: no request
  const task = (copy === undefined ? processEntry(ctx, entry, free) : processCopy(ctx, entry, copy))
    .catch((err) => ctx.requestHalt('paused', describeFatal(err)))
    .finally(() => {
      free();
      ctx.active.delete(entry.url);
    });
  ctx.active.set(entry.url, task);
}

/**
 * How the crawl ends when it runs out of work or budget: finished when it fetched something, else failed,
 * with what went wrong with its seeds (a 404, a PDF, an unreachable host...).
 */
async function ending(ctx: RunContext, message: string): Promise<{ state: CrawlState; message: string }> {
  const crawl = await ctx.mustGet();
  if (crawl.stats.fetched > 0 || crawl.stats.trainPages > 0 || (crawl.stats.listPages ?? 0) > 0) return { state: 'finished', message };
  // A shared crawl ended by its budget or frontier: the other workers took its pages.
  if (ctx.ports.store.shared) return { state: 'finished', message };
  const run = crawl.templateRun;
  if (run && run.results.length === 0) {
    return { state: 'failed', message: `the search found no result links${run.searchErrors.length ? ` (${run.searchErrors.slice(0, 2).join('; ')})` : ''}: check template.search` };
  }
  const rows = await ctx.ports.store.pages.pagesAfter(ctx.crawlId, 0, 50);
  const why = rows.filter((p) => p.phase === 'crawl' && p.depth === 0 && p.error).map((p) => `${p.url}: ${p.error}`).slice(0, 3);
  return { state: 'failed', message: `no page could be fetched${why.length ? ` (${why.join('; ')})` : ''}: check the seed URLs` };
}
