// Training (design A.6), before the crawl loop: the link-source pages are read through the gate and their links to
// the user's labeled pages become labeled links; a link source that is itself a labeled page teaches the page
// judge. With both training lists, the links of labeled pages fit the URL authority. The pages read are kept:
// the crawl judges its stored copy when it reaches one, without a request.
import type { FetchOutcome } from '../net/fetcher';
import { hubBuckets } from '../learning/link-features';
import { TargetAuthority } from '../learning/authority';
import { termFrequencies } from '../learning/page-judge';
import { parseHtml } from '../parse/html';
import { hostOf, requestUrl } from '../records/url';
import type { LabeledPages } from '../learning/children';
import type { TrainingShare } from '../ports';
import type { RunContext } from './context';
import { sessionLostMessage } from './outcome';
import { trainingReadCommit, type NewLinkLabel } from './page-commit';

/** How often a worker of a shared crawl asks again while other workers read the last link sources. */
const CLAIM_POLL_MS = 500;

/** Reads the link sources not read yet (by `concurrency` workers), then fits the authority and brings the model up to date. */
export async function train(ctx: RunContext): Promise<void> {
  const done = await ctx.ports.store.pages.trainedUrls(ctx.crawlId);
  const todo = ctx.config.training.linkSources.filter((u) => !done.has(u));
  const share = ctx.ports.store.training;
  let next = 0;
  const worker = async () => {
    while (!ctx.halted && next < todo.length) {
      const url = todo[next++];
      await ctx.waitForHost(hostOf(url));
      await trainOn(ctx, url);
    }
  };
  // A crawl shared by several browsers reads each link source once: a worker reads those it claims, waits while
  // others read theirs, then learns the labeled links they published.
  const sharedWorker = async (s: TrainingShare) => {
    while (!ctx.halted) {
      const { url, done: all } = await s.claim(ctx.config.training.linkSources);
      if (all) return;
      if (url === null) await ctx.ports.clock.sleep(CLAIM_POLL_MS);
      else {
        await ctx.waitForHost(hostOf(url));
        await trainOn(ctx, url);
      }
    }
  };
  await Promise.all(Array.from({ length: ctx.config.politeness.concurrency }, () => (share ? sharedWorker(share) : worker())));
  if (ctx.halted) return;
  if (share) {
    await share.catchUp(ctx.crawlId, ctx.ports.clock.now());
    // The authority counts every labeled link source's out-links, and the judge learns every labeled link source,
    // whichever worker read it.
    ctx.authority = await loadAuthority(ctx);
    for (const { label, terms } of await share.judgeLessons(ctx.crawlId)) ctx.learner.model.judge.learnTerms(terms, label);
  }
  await fitAuthority(ctx);
  await ctx.learner.requestSync();
  // The judge learns training pages as they arrive; if an earlier worker read some of them, their lessons
  // are in the store only, so the model is rebuilt from it (exact, and costs one parse per training page).
  if (done.size > 0) await ctx.learner.rebuild();
  await ctx.learner.save();
}

async function trainOn(ctx: RunContext, url: string): Promise<void> {
  const { clock } = ctx.ports;
  const { labeled } = ctx.rules;
  // A link source is a page of the user's choosing: it is expected to open with their session.
  const result = await ctx.gate.page(requestUrl(url) ?? url, { expectsSession: true }, async () => null);
  // Halted before the request went out: the link source is read on resume, as one never begun.
  if (result === null) return;
  if (result.kind === 'sessionLost') await ctx.loseSession(result);
  const out: FetchOutcome | null = result.kind === 'response' || result.kind === 'sessionLost' ? result.out : result.kind === 'retry' ? result.out ?? null : null;
  const error = result.kind === 'response' ? out!.error : result.kind === 'sessionLost' ? sessionLostMessage(result) : result.reason;
  // The gate parsed a page it read the session's signs in (the run keeps it); any other is parsed here.
  const parsed = out && out.html !== null && !error ? (ctx.parsedAnswers.get(out) ?? parseHtml(out.html, out.finalUrl)) : null;
  // A link source that is itself a known positive or negative page teaches the page judge, and its links
  // the parent-page feature.
  // The page and its links as the crawl keys URLs: labels are read by those, so a link written `/a#top` or
  // `HTTP://Host/a` is the page `/a` a pattern names, as it is when the crawl meets it.
  const self = parsed ? [url, out!.finalUrl].map((u) => ctx.canonical(u)) : [];
  const linkUrls = parsed ? parsed.links.map((link) => ctx.canonical(link.url)) : [];
  const isTarget = (u: string | null): u is string => u !== null && !self.includes(u);
  const pageLabel = parsed ? pageLabelOf(self, labeled) : null;
  const parent = pageLabel === null ? {} : { parentOnTopic: pageLabel === 1 };
  // A labeled page's links count toward the authority of the URLs they lead to (each once, the page itself left
  // out; stored, so a restart reads them back).
  const outlinks = pageLabel !== null && ctx.authority ? [...new Set(linkUrls.filter(isTarget))] : undefined;
  if (outlinks) ctx.authority!.add(pageLabel!, outlinks);
  const labels: NewLinkLabel[] = [];
  if (parsed) {
    // A link to the page itself teaches nothing: the crawl never queues one.
    const known = linkUrls.map((u) => ({ url: u ?? '', label: isTarget(u) ? labeled.label(u) : undefined }));
    // Each labeled link's parent-hub bucket: how often the page's other labeled links lead on topic, as planChildren
    // measures it for crawl links.
    const hubs = labeled.base === null ? [] : hubBuckets(known, labeled.base);
    parsed.links.forEach((link, i) => {
      const { label } = known[i]!;
      const parentHub = hubs[i];
      if (label !== undefined) {
        labels.push({ url: known[i]!.url, anchor: link.anchor, context: link.context, label, source: 'auto', createdAt: clock.now(), ...parent,
          ...(parentHub === undefined ? {} : { parentHub }) });
      }
    });
  }
  // A crawl shared by several browsers hands what the judge learns of a labeled page to the other workers' judges.
  const pageTerms = pageLabel !== null && ctx.ports.store.training ? [...termFrequencies(parsed!)] : undefined;
  await ctx.commits.submit(trainingReadCommit({
    crawlId: ctx.crawlId, url, out, chain: result.chain, parsed, error, labels, pageLabel,
    ...(outlinks ? { outlinks } : {}), ...(pageTerms ? { pageTerms } : {}), now: clock.now(), activeMs: ctx.activeMs(),
  }));
  if (pageLabel !== null) ctx.learner.model.judge.learn(parsed!, pageLabel);
  void ctx.learner.requestSync();
}

/**
 * The authority of URLs among the labeled training pages' links: those read so far (a restart reads them back
 * from the store), fitted when training is over. Null when off, or without both training lists to fit it on.
 */
export async function loadAuthority(ctx: RunContext): Promise<TargetAuthority | null> {
  const { base } = ctx.rules.labeled;
  if (!ctx.config.classifier.targetAuthority || base === null) return null;
  const authority = new TargetAuthority(base);
  for (const { label, links } of await ctx.ports.store.labeledOutlinks(ctx.crawlId)) authority.add(label, links);
  return authority;
}

/** Fits the authority on the labeled pages, and keeps what it learned on the crawl row (the dashboard shows it). */
export async function fitAuthority(ctx: RunContext): Promise<void> {
  if (!ctx.authority) return;
  const { counts, logOdds } = ctx.authority.fit(ctx.rules.labeled.label);
  const summary = { urls: ctx.authority.size, labeled: counts.reduce((n, [off, on]) => n + off + on, 0), logOdds };
  ctx.ports.log?.(`URL authority: ${summary.urls} URLs linked from labeled pages, fitted on ${summary.labeled} labeled ones; ` +
    `log-odds by bucket ${logOdds.map((x) => x.toFixed(2)).join(' ')}`);
  await ctx.ports.store.updateCrawl(ctx.crawlId, { authority: summary });
}

/** The pages training read, by their normalized URL and final URL (what the context's `copies` holds). */
export async function loadCopies(ctx: RunContext): Promise<Map<string, number>> {
  const copies = new Map<string, number>();
  for (const { url, finalUrl, seq } of await ctx.ports.store.pages.trainingCopies(ctx.crawlId)) {
    for (const u of [url, finalUrl]) {
      const key = ctx.canonical(u);
      if (key && !copies.has(key)) copies.set(key, seq);
    }
  }
  return copies;
}

/** A page's label from the URLs it was asked and answered by (normalized; null: not a URL). */
function pageLabelOf(urls: (string | null)[], { positive, negative }: LabeledPages): 0 | 1 | null {
  const known = urls.filter((u): u is string => u !== null);
  if (known.some((u) => positive.matches(u))) return 1;
  if (known.some((u) => negative.matches(u))) return 0;
  return null;
}
