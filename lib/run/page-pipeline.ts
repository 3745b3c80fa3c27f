// The life of one taken URL, after the crawl loop took it and reserved its host: request it through the gate
// (with its stored copy's validators, when the crawl kept one; or read the copy training kept), then either record a
// non-page (a block, a retry, a failure) or judge the page (the stored copy, after a 304) and plan its links; commit what the page changed in one transaction; then tell the learner and the strategy.
import { validatorsOf, type FetchOutcome } from '../net/fetcher';
import type { GateResult } from '../net/request-gate';
import { parseHtml } from '../parse/html';
import type { Candidate, PageCommit } from '../ports';
import type { PageRole } from '../strategies/types';
import { isFinalPage, layerOf } from '../strategies/template';
import { everyOf, specsOf } from './template-cycle';
import { planRecord } from './template-harvest';
import type { FrontierEntry, KeptByPage, PageRecord, ParsedPage, Revisit } from '../records/types';
import { bodyHtml } from '../records/page-body';
import { hostOf, siteOf } from '../records/url';
import { planChildren } from '../learning/children';
import type { RunContext } from './context';
import { commitForNonPage, type NonPage } from './outcome';
import { copyGoneCommit, pageCommit, unparsedCommit, type PageOutcome, type Recheck } from './page-commit';
import { renderStep } from './render';
import { examineContent, markVariantLinks, presumeLinks, sameAsReason, variantInFlight, type ContentFindings } from './content-step';
import { PageVariants, PRESUMED_PENALTY } from '../learning/duplicates';
import type { BlockedRequest } from '../net/render';

/**
 * While crawling, the model is saved once both this many pages and this much time have passed since it last was (and
 * always when the run ends). Saving writes the whole model, its size growing with the vocabulary; every 25 pages it
 * was a large share of the worker's IndexedDB writes at 20-40 pages/s. A worker that stops loses nothing by it: the
 * restarted crawl's model catches up from the saved one with the labels committed since (CrawlLearner).
 */
const MODEL_SAVE_EVERY = 25;
const MODEL_SAVE_EVERY_MS = 10_000;
/**
 * And saving takes at most this share of the crawl's time: the next save waits at least 1/share times as long as the
 * last one took. Saving writes the whole model, judge vocabulary and all; trained on a few thousand pages it is ~5 MiB
 * and a save takes a tenth of a second, but a topic taught pages in many languages holds many times the words, and
 * saving it every 10 s would take the worker a tenth of its time and write megabytes a second into the database.
 */
const MODEL_SAVE_SHARE = 0.02;

type Response = Extract<GateResult, { kind: 'response' }>;

/** Requests a taken URL through the gate and records what came back; `answered()` once the request is over. */
export async function processEntry(ctx: RunContext, entry: FrontierEntry, answered: () => void = () => {}): Promise<void> {
  const held: string[] = [];
  const probes: string[] = [];
  // Another spelling of it being requested right now, seen before this takes a turn to wait: else it is requested
  // (claimed at once, so that two spellings taken together do not both go).
  const inFlight = ctx.strategy.followsModel && entry.depth > 0 ? variantInFlight(ctx, entry.url) : null;
  const requesting = inFlight === null;
  if (requesting) ctx.requesting.add(entry.url);
  try {
    // Requested as the site spelled it; known by its canonical form. A seed, or a page asked for before, is expected
    // to open with the user's session (`attempts` counts this take too).
    const expectsSession = entry.depth === 0 || entry.attempts > 1;
    // A page the crawl (or the template's cycle before) kept is asked for with its validators: "send it only if changed".
    // Only an entry taken before (a list page's refresh) can have a copy in this crawl; a first take in a crawl that
    // follows no other reads nothing.
    const stored = entry.attempts > 1 || ctx.revisits.length > 1 ? await ctx.ports.store.pages.storedCopy(ctx.revisits, entry.url) : undefined;
    const validators = stored && validatorsOf({ etag: stored.etag ?? '', 'last-modified': stored.lastModified ?? '' });
    // The crawl halted since the URL was taken (the take waits behind commits, so its answer can come after a page's
    // answer ended the session): no request starts now.
    if (ctx.halted) return await giveBack(ctx, entry);
    // Queued before its host's variants were learned, and a page held by what they say: not requested. Queued before
    // the page it may be another spelling of was held: it waits behind the rest.
    if ((await skipAsVariant(ctx, entry)) || (await deferAsPresumed(ctx, entry, probes, inFlight))) return;
    const result = await ctx.gate.page(entry.href ?? entry.url, { anchor: entry.anchor, expectsSession }, (url) => claim(ctx, url, held), validators);
    // Halted while the gate read the host's robots.txt: the gate has released the slot, and nothing was requested.
    if (result === null) return await giveBack(ctx, entry, false);
    answered();
    if (result.kind === 'sessionLost') await ctx.loseSession(result);
    if (result.kind === 'notModified') await recordNotModified(ctx, entry, result, stored!);
    else if (result.kind === 'response') await recordResponse(ctx, entry, result, undefined, stored && (await recheck(ctx, result.out, stored, !!validators)));
    else await recordNonPage(ctx, entry, result);
  } finally {
    for (const url of held) ctx.claimed.delete(url);
    for (const key of probes) ctx.probing.delete(key);
    if (requesting) ctx.requesting.delete(entry.url);
  }
}

/**
 * A URL taken but not requested, back in the queue as it was before the take: its host's slot is freed, and neither
 * the budget nor its attempts count the take (a page asked for before is expected to open with the user's session,
 * so a counted take would make a login redirect on resume look like a lost session).
 */
async function giveBack(ctx: RunContext, entry: FrontierEntry, slotHeld = true): Promise<void> {
  if (slotHeld) ctx.politeness.end(entry.host, ctx.ports.clock.now());
  ctx.reserved--;
  await ctx.commits.submit({
    crawlId: ctx.crawlId, entry: { ...entry, attempts: entry.attempts - 1 }, outcome: 'retry', aliases: [], labels: [], children: [],
    site: siteOf(entry.url), stats: {}, activeMs: ctx.activeMs(),
  });
}

/**
 * A URL its host's learned variants make a page held (docs/duplicates.md): recorded as skipped, with the page it is,
 * without a request (the budget does not count it, and its host's slot is freed at once). Never a seed.
 */
async function skipAsVariant(ctx: RunContext, entry: FrontierEntry): Promise<boolean> {
  // A seed is requested whatever was learned: the user named it (a list of URLs one parameter apart is theirs to give).
  if (entry.depth === 0) return false;
  const same = ctx.duplicates.sameAs(entry.url, entry.anchor);
  if (!same) return false;
  ctx.politeness.end(entry.host, ctx.ports.clock.now());
  ctx.reserved--;
  await ctx.commits.submit({
    crawlId: ctx.crawlId, entry: { ...entry, reason: sameAsReason(same) }, outcome: 'skipped', aliases: [], labels: [], children: [],
    site: siteOf(entry.url), stats: { skipped: 1 }, variantSkip: same.host, activeMs: ctx.activeMs(),
  });
  return true;
}

/**
 * A URL queued as new-looking that the pages held since make look like another spelling of one of them
 * (docs/duplicates.md): back in the queue without a request, behind every new-looking URL, as it would have been queued
 * had that page been held then. One already presumed has waited its turn and is requested, as a probe of its rule: one
 * probe of a rule at a time on a host, so that what the first shows decides for the rest (learned: not requested).
 * Held: the probe's key, released when its page is recorded. `inFlight`: another spelling being requested, which it
 * waits for a moment.
 */
async function deferAsPresumed(ctx: RunContext, entry: FrontierEntry, held: string[], inFlight: string | null): Promise<boolean> {
  if (entry.depth === 0 || !ctx.strategy.followsModel) return false;
  const now = ctx.ports.clock.now();
  // Another spelling of it is being requested right now: it waits for that answer.
  let why = inFlight;
  let notBefore = inFlight === null ? undefined : now + PROBE_WAIT_MS;
  if (!why && entry.presumed === undefined) why = ctx.duplicates.presume({ url: entry.url, anchor: entry.anchor }, NO_PAGE)?.why ?? null;
  else if (!why) {
    const probe = ctx.duplicates.presume({ url: entry.url, anchor: entry.anchor }, NO_PAGE);
    // A parameter is probed as one, whatever its value (`?view=list` and `?view=grid` wait for each other).
    const key = probe && `${probe.host} ${probe.rule.replace(/=.*$/, '')}`;
    if (!key) return false;
    if (!ctx.probing.has(key)) {
      ctx.probing.add(key);
      held.push(key);
      return false;
    }
    why = entry.presumed!;
    notBefore = now + PROBE_WAIT_MS;
  }
  if (!why) return false;
  ctx.politeness.end(entry.host, now);
  ctx.reserved--;
  const priority = entry.presumed === undefined ? entry.priority - PRESUMED_PENALTY : entry.priority;
  await ctx.commits.submit({
    crawlId: ctx.crawlId, entry: { ...entry, attempts: entry.attempts - 1, presumed: why, priority, ...(notBefore === undefined ? {} : { notBefore }) },
    outcome: 'retry', aliases: [], labels: [], children: [], site: siteOf(entry.url), stats: {}, activeMs: ctx.activeMs(),
  });
  return true;
}

/** How long a presumed URL waits while a probe of its rule is in flight. */
const PROBE_WAIT_MS = 250;

const NO_PAGE = new PageVariants([]);

/**
 * A page training already read: judged and planned from the stored copy, as if it had just been fetched, without a
 * request (the budget does not count it). Its row points at the training read it was judged from.
 */
export async function processCopy(ctx: RunContext, entry: FrontierEntry, seq: number): Promise<void> {
  const { pages } = ctx.ports.store;
  const [row, [body]] = await Promise.all([pages.getPage(ctx.crawlId, seq), pages.bodies([{ crawlId: ctx.crawlId, seq }])]);
  if (!row || !body) {
    // The copy is gone (the crawl's pages were cleared): the URL is taken again and requested like any other.
    ctx.copies.delete(entry.url);
    await ctx.commits.submit(copyGoneCommit(ctx.crawlId, entry, ctx.activeMs()));
    return;
  }
  const out: FetchOutcome = {
    url: row.url, finalUrl: row.finalUrl, status: row.status, contentType: row.contentType, headers: body.headers, html: bodyHtml(body),
    payload: body.payload ?? null, charset: body.charset ?? null, bytes: row.bytes, truncated: row.truncated, durationMs: 0,
  };
  await recordResponse(ctx, entry, { kind: 'response', out, chain: [] }, { seq, fetchedAt: row.fetchedAt });
}

/**
 * A 304 to the stored copy's validators: the page is that copy, judged and planned from it as if it had just been
 * fetched (its links are the same, and a template's record is found unchanged by its hash), with no body downloaded.
 */
async function recordNotModified(ctx: RunContext, entry: FrontierEntry, result: Extract<GateResult, { kind: 'notModified' }>, stored: PageRecord): Promise<void> {
  const [body] = await ctx.ports.store.pages.bodies([{ crawlId: stored.crawlId, seq: stored.seq }]);
  if (!body) {
    const out = { ...result.out, error: 'HTTP 304, and the stored copy it refers to is gone' };
    await ctx.commits.submit(unparsedCommit(ctx.crawlId, entry, out, result.chain, out.error, ctx.ports.clock.now(), ctx.activeMs()));
    return;
  }
  // The 304 may carry new validators; the next request asks with those.
  const fresh = validatorsOf(result.out.headers);
  const headers = { ...body.headers, ...(fresh?.etag ? { etag: fresh.etag } : {}), ...(fresh?.lastModified ? { 'last-modified': fresh.lastModified } : {}) };
  const out: FetchOutcome = {
    ...result.out, contentType: stored.contentType, headers, html: bodyHtml(body), payload: body.payload ?? null, charset: body.charset ?? null, bytes: stored.bytes, truncated: stored.truncated,
  };
  const revisit: Revisit = { profile: 'server-not-modified', ...capturedAs(stored), headers: result.out.headers };
  await recordResponse(ctx, entry, { kind: 'response', out, chain: result.chain }, undefined, { conditional: true, revisit, savedBytes: stored.bytes });
}

/** A full answer for a page with a stored copy: unchanged when it brought the same bytes (WARC's identical payload). */
async function recheck(ctx: RunContext, out: FetchOutcome, stored: PageRecord, conditional: boolean): Promise<Recheck> {
  if (out.error || !out.payload) return { conditional, savedBytes: 0 };
  const [body] = await ctx.ports.store.pages.bodies([{ crawlId: stored.crawlId, seq: stored.seq }]);
  const same = body?.payload !== undefined && sameBytes(body.payload, out.payload);
  return { conditional, savedBytes: 0, ...(same ? { revisit: { profile: 'identical-payload-digest', ...capturedAs(stored) } } : {}) };
}

/** The capture that holds a stored copy's full answer: the copy itself, or the one it was a revisit of. */
const capturedAs = (stored: PageRecord): { url: string; date: number } =>
  stored.revisit ? { url: stored.revisit.url, date: stored.revisit.date } : { url: stored.finalUrl, date: stored.fetchedAt };

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Dedup of a redirect target met under another entry: null when it may be requested now (and is held). */
async function claim(ctx: RunContext, url: string, held: string[]): Promise<string | null> {
  if (ctx.claimed.has(url) || ctx.active.has(url)) return 'the target is being fetched right now';
  ctx.claimed.add(url); // before the read, so two chains cannot both claim it
  const known = await ctx.ports.store.frontier.getEntry(ctx.crawlId, url);
  if (known && known.state !== 'queued') {
    ctx.claimed.delete(url);
    return known.state === 'done' ? 'the target was already fetched' : `the target is already known (${known.state})`;
  }
  held.push(url);
  return null;
}

/** A block, a retry or a failure for good: nothing to judge. */
async function recordNonPage(ctx: RunContext, entry: FrontierEntry, result: NonPage): Promise<void> {
  const { clock } = ctx.ports;
  const { commit, requested, retryInMs } = commitForNonPage(ctx.crawlId, entry, result, clock.now(), ctx.config.fetch, ctx.activeMs());
  if (!requested) ctx.reserved--; // the budget counts requests made
  const report = ctx.liveReport();
  if (report) commit.strategyReport = report;
  if (retryInMs !== undefined) {
    if (requested) ctx.reserved--; // the URL is asked again: counted then
    const host = result.kind === 'retry' && result.out ? hostOf(result.out.url) : entry.host;
    ctx.politeness.backOff(host, clock.now() + retryInMs, commit.entry!.reason);
    ctx.ports.log?.(`${entry.url}: ${commit.entry!.reason}`);
  }
  await ctx.commits.submit(commit);
}

/**
 * Parse, judge, plan, commit, then learn. `copy`: the training read the page was judged from, when no request was made;
 * `rechecked`: what asking again for a page the crawl had a stored copy of found.
 */
async function recordResponse(ctx: RunContext, entry: FrontierEntry, result: Response, copy?: PageOutcome['copy'], rechecked?: Recheck): Promise<void> {
  const { out, chain } = result;
  // The gate parsed a page it read the session's signs in; any other is parsed here.
  const parsed = out.html !== null && !out.error ? (ctx.parsedAnswers.get(out) ?? safeParse(out.html, out.finalUrl)) : null;
  if (!parsed || 'error' in parsed) {
    const error = out.error ?? (parsed && 'error' in parsed ? parsed.error : 'no HTML body');
    await ctx.commits.submit(unparsedCommit(ctx.crawlId, entry, out, chain, error, ctx.ports.clock.now(), ctx.activeMs()));
    return;
  }
  // A copy is judged as training read it, and a page found unchanged as it was stored; any other page may be rendered
  // first (fetch.render).
  const shown = copy || rechecked?.revisit ? { parsed, blocked: [] } : await renderStep(ctx.renderRun(), out, parsed);
  const content = examineContent(ctx, entry, out, shown.parsed);
  const page = judgeAndPlan(ctx, entry, result, shown.parsed, copy, content);
  if (content?.held) content.held.relevant = page.verdict?.relevant ?? null;
  if (rechecked) page.recheck = rechecked;
  if ('note' in shown && shown.note) {
    page.render = { note: shown.note, ...(shown.html !== undefined ? { html: shown.html } : {}), ...(shown.resources ? { resources: shown.resources } : {}) };
  }
  page.children.push(...keptFromRendering(ctx, entry, shown.blocked, page.children));
  const commit = pageCommit(page, {
    crawlId: ctx.crawlId, config: ctx.config, strategy: ctx.strategy, admission: ctx.admission,
    now: ctx.ports.clock.now(), activeMs: ctx.activeMs(), strategyReport: ctx.liveReport(),
  });
  await withRecord(ctx, commit, page);
  await ctx.commits.submit(commit);
  ctx.recall.committed(commit.stats.fetched ?? 0);
  // With links to judged pages learned, the store may have added labels of its own.
  ctx.learner.pageDone(commit.labels.length + (commit.learnLinksToJudged ? 1 : 0), commit.children);
  // A duplicate is no new page to the strategy: the original was told.
  if (!content?.duplicate) tellStrategy(ctx, entry.url, page.parsed.text, page.verdict?.relevant ?? false, page.children, page.role);
  const now = ctx.ports.clock.now();
  if (++ctx.sinceSave >= MODEL_SAVE_EVERY && now - ctx.modelSavedAt >= Math.max(MODEL_SAVE_EVERY_MS, ctx.modelSaveMs / MODEL_SAVE_SHARE)) {
    ctx.sinceSave = 0;
    ctx.modelSavedAt = now;
    await ctx.learner.save();
    // Wall time, so a save queued behind page commits counts as longer than it is: saves come a little rarer, never more often.
    ctx.modelSaveMs = ctx.ports.clock.now() - now;
  }
}

/**
 * design D.1: a list page is mined for links, neither judged nor counted as content; a duplicate of content held is not
 * judged again (its links are planned with the original's verdict); any other page gets the judge's verdict.
 */
function judgeAndPlan(
  ctx: RunContext, entry: FrontierEntry, { out, chain }: Response, parsed: ParsedPage, copy?: PageOutcome['copy'], content?: ContentFindings | null,
): PageOutcome {
  const { strategy, config } = ctx;
  const { judge, link } = ctx.learner.model;
  const role = strategy.pageRole?.(entry, out.finalUrl);
  const duplicate = content?.duplicate;
  const judged = role?.listing || duplicate ? null : judge.judge(parsed, config.judge.smoothing);
  const verdict = judged && { ...judged, relevant: judged.relevance >= config.judge.threshold };
  const relevant = duplicate ? duplicate.held.relevant ?? false : verdict?.relevant ?? false;
  const dropped: Record<string, number> = {};
  const kept: KeptByPage[] = [];
  // Every URL of the redirect chain after the first, and the final one, are this page: never fetched again; so is the
  // canonical URL it names, when that is taken as its own. The page's links to them are links to itself.
  const aliases = [...new Set([...chain.slice(1).map((h) => ctx.canonical(h.url)), ctx.canonical(out.finalUrl), content?.canonical?.taken ? content.canonical.url : null])]
    .filter((u): u is string => u !== null && u !== entry.url);
  const children = planChildren(parsed, entry, out.finalUrl, config, link, relevant, dropped, ctx.authority, { strategy, rules: ctx.rules }, kept)
    .filter((c) => !aliases.includes(c.url));
  markVariantLinks(ctx, children);
  presumeLinks(ctx, [entry.url, ...aliases], children, parsed);
  return { entry, out, chain, parsed, ...(role ? { role } : {}), verdict, children, dropped, aliases, kept, ...(copy ? { copy } : {}), ...(content ? { content } : {}) };
}

/** Stopped requests of one rendered page listed as kept from requesting; a page that polls one gets one line. */
const MAX_KEPT_PER_PAGE = 20;

/**
 * The reads a rendered page made that its guard stopped: recorded as skipped under the page, with the reason, as an
 * unsafe link is, so they are listed as kept from requesting and never requested by the crawl either. A write (a
 * POST) was stopped for its method, not its URL, which a link may still read: it is only counted on the page row.
 */
function keptFromRendering(ctx: RunContext, entry: FrontierEntry, blocked: BlockedRequest[], children: Candidate[]): Candidate[] {
  const known = new Set(children.map((c) => c.url));
  const kept: Candidate[] = [];
  for (const b of blocked) {
    if (kept.length >= MAX_KEPT_PER_PAGE) break;
    if (b.method !== 'GET' && b.method !== 'HEAD') continue;
    const url = ctx.canonical(b.url);
    if (url === null || url === entry.url || known.has(url)) continue;
    known.add(url);
    kept.push({
      url, host: hostOf(url), score: 0, priority: -Number.MAX_VALUE, depth: entry.depth + 1, parentUrl: entry.url,
      anchor: '', context: 'a request the rendered page made by itself', skip: b.reason,
    });
  }
  return kept;
}

/** design E.5: a template's final page: its fields become a record, committed with the page. */
async function withRecord(ctx: RunContext, commit: PageCommit, page: PageOutcome): Promise<void> {
  const { entry, out, parsed, children } = page;
  const { template } = ctx.config;
  if (!template || !isFinalPage(layerOf(entry.strategy), template.filters.length, children.filter((c) => !c.skip).map((c) => layerOf(c.strategy)))) return;
  const record = await planRecord(ctx.ports.store.records, specsOf(template), everyOf(template), {
    crawlName: ctx.config.name, crawlId: ctx.crawlId, url: entry.url, html: page.render?.html ?? out.html!, text: parsed.text, now: ctx.ports.clock.now(),
  });
  if (record) commit.record = record;
}

/** The strategy sees each judged page after its commit; a HITS round (design C) asks for the queue to be re-ranked. */
function tellStrategy(ctx: RunContext, url: string, text: string, relevant: boolean, children: Candidate[], role?: PageRole): void {
  const { strategy } = ctx;
  const { store, clock } = ctx.ports;
  if (!strategy.afterPage) return;
  // A shared crawl's other workers' relevant pages first: the graph is the crawl's (their text stays in their browsers).
  const others = strategy.keepsGraph ? store.othersGraph?.() ?? [] : [];
  const theirs = others.map((g) => strategy.afterPage!({ url: g.url, text: '', relevant: true, links: g.links, byOther: true }));
  const links = children.filter((c) => !c.skip).map((c) => c.url);
  const mine = strategy.afterPage({ url, text, relevant, links, ...(role ? { role } : {}) });
  const asked = mine === 'rerank' || theirs.includes('rerank') ? 'rerank' : mine;
  if (asked === 'report') {
    const report = strategy.reportsLive ? null : strategy.report?.();
    if (report) void store.updateCrawl(ctx.crawlId, { strategyReport: report }).catch(() => undefined);
    if (strategy.save) void store.saveStrategyState(ctx.crawlId, strategy.save(), clock.now()).catch(() => undefined);
  }
  if (asked !== 'rerank') return;
  ctx.learner.scheduleRescore('the link graph was re-ranked (HITS)');
  const report = strategy.report?.();
  if (report) void store.updateCrawl(ctx.crawlId, { strategyReport: report }).catch(() => undefined);
  if (strategy.save) void store.saveStrategyState(ctx.crawlId, strategy.save(), clock.now()).catch(() => undefined);
}

function safeParse(html: string, url: string): ParsedPage | { error: string } {
  try {
    return parseHtml(html, url, { mainText: true });
  } catch (err) {
    return { error: `could not parse the page: ${err instanceof Error ? err.message : String(err)}` };
  }
}
