// What one page's commit does to the crawl's rows (design A.7, B.5, D.5): the frontier's upserts (dedup, a URL found
// again by a better link raised, every link counted), admission by site, a site closed by its strategy, labels
// from links to judged pages, the counters. Pure: a function of the rows the store read in its transaction, which
// returns the rows to write. The store reads, calls it and writes, all in one transaction, and holds no crawl
// policy; a shared store (many browsers) applies the same decisions to the rows it reads.
//
// A commit is planned in two steps, as its reads depend on what the first rows say:
//   1. the store reads `firstReads(c)`: the crawl row, the page's site row, the frontier at the aliases and links;
//   2. `secondReads(c, first)` names what admission needs: the new links' sites (their rows and queued counts) and,
//      when this page closes its site, that site's queued URLs; the store reads them and calls `planCommit`.
import { urlLogOdds } from '../learning/link-classifier';
import { logistic } from '../learning/naive-bayes';
import { withTaken } from '../learning/recall';
import type { Admission, Candidate, PageCommit, Rerank } from '../ports';
import type { CrawlRecord, CrawlStats, SiteStats } from '../records/rows';
import type { EntryState, FrontierEntry } from '../records/types';
import { siteOf } from '../records/url';
import { paceAfter } from '../records/pace';

/**
 * Links found again to a queued URL, counted but not yet written into its row (`classifier.everyLink`): how many, and
 * their log-odds' sum. They are held (by the store, in memory) while, with them, the URL's rank moves by at most
 * `RANK_STEP`; the row takes them with its next write. A queued row is rewritten with all its index entries, and most
 * such moves change nothing of what is fetched next (docs/benchmarks.md, "What a page commit writes").
 */
export interface HeldLinks {
  n: number;
  sum: number;
}

/**
 * The log-odds (and priority) by which links found again may move a queued URL before its row is rewritten: below
 * it, the row keeps the rank it has and the links are held. A full re-score leaves a link in place under
 * RESCORE_EPSILON (0.01, lib/learning/learner.ts); this is the same kind of bound, for what is not yet written.
 * 0.25 (odds within 1.28x): against 0.05, a third fewer priority moves written (9.1 -> 5.9 a page) and the same
 * harvest over eight Wikispeedia cases (docs/benchmarks.md, "What each table writes a page").
 */
export const RANK_STEP = 0.25;

/** URLs a store holds links for, at most (per crawl): past it, every link found again is written as before. */
export const HELD_URLS = 20_000;

/** The reason a URL of a blacklisted site is not queued (and the prefix of a closed site's dropped URLs). */
export const BLACKLISTED = 'site blacklisted';

export const emptySite = (crawlId: number, site: string): SiteStats => ({ crawlId, site, fetched: 0, relevant: 0, failed: 0 });

/** A queued URL of a site that is closed: skipped, with the blacklist's reason. */
export const blacklistedEntry = (e: FrontierEntry, why: string, now: number): FrontierEntry =>
  ({ ...e, state: 'skipped', reason: `${BLACKLISTED}: ${why}`, updatedAt: now });

/** Queued URLs dropped from the frontier: the counters move from queued to skipped, and to `dropped` by reason. */
export function countDropped(crawl: CrawlRecord, n: number): void {
  if (n === 0) return;
  crawl.stats.queued -= n;
  crawl.stats.skipped += n;
  crawl.dropped = { ...crawl.dropped, [BLACKLISTED]: (crawl.dropped?.[BLACKLISTED] ?? 0) + n };
}

/** The keys a commit's first reads need: its links (one per URL, in the order `CommitRead.links` follows) and aliases. */
export function firstReads(c: PageCommit): { links: Candidate[]; aliases: string[]; current: string | null } {
  return {
    links: bestPerUrl(c.children),
    aliases: c.aliases,
    // A URL asked again may have been named by an unsafe link while it was in flight (then it stays skipped), or fetched
  // meanwhile as another page's alias (then it stays done).
    current: c.entry && c.outcome === 'retry' ? c.entry.url : null,
  };
}

/** What the store read for one commit, before it writes anything. */
export interface CommitRead {
  crawl: CrawlRecord;
  /** The committing page's site row; absent until a page of it is committed. */
  site: SiteStats | undefined;
  /** `firstReads(c).links`, and the frontier's row for each (absent: a URL the crawl has not seen). */
  links: Candidate[];
  known: (FrontierEntry | undefined)[];
  /** The frontier's row for each of `c.aliases`. */
  aliases: (FrontierEntry | undefined)[];
  /** The fetched entry as it stands, read for a retry (`firstReads(c).current`). */
  current?: FrontierEntry;
  /** The rows and queued counts of the sites `secondReads` names (`queued` is 0 unless it asked to count). */
  sites?: Map<string, { row: SiteStats | undefined; queued: number }>;
  /** The queued URLs of the page's site, read when `secondReads` says this page closes it. */
  siteQueue?: FrontierEntry[];
  /** Links the store holds for each of `links` (absent: none), and room for how many more URLs: a store that holds none passes neither. */
  held?: (HeldLinks | undefined)[];
  holdRoom?: number;
  /**
   * How many labels links to a judged URL have already taught the crawl, as far as the store knows (it counts them in
   * memory, lib/store/taught-counts.ts): with `learnLinksToJudged`, a URL taught that many times teaches no more.
   */
  taught?: (url: string) => number;
}

/** The page's site row as this commit leaves its counters (before any closing). */
function siteAfter(c: PageCommit, site: SiteStats | undefined): SiteStats {
  const row = { ...(site ?? emptySite(c.crawlId, c.site)) };
  row.fetched += c.stats.fetched ?? 0;
  row.relevant += c.stats.relevant ?? 0;
  row.failed += c.stats.failed ?? 0;
  return row;
}

/** design B.5: why the strategy closes the page's site now that this page is counted, or null. */
function closingReason(row: SiteStats, admission: Admission | undefined): string | null {
  if (!admission?.strategy.judgeSite || row.blacklisted) return null;
  return admission.strategy.judgeSite({ site: row.site, fetched: row.fetched, relevant: row.relevant, queued: 0 }) || null;
}

/** The links not yet in the frontier, with their sites. */
const freshLinks = (read: Pick<CommitRead, 'links' | 'known'>): Candidate[] =>
  read.links.filter((_, i) => !read.known[i]).map((ch) => ({ ...ch, site: ch.site ?? siteOf(ch.url) }));

/**
 * What admission reads once the first rows are in: the new links' sites (their rows and, when the strategy
 * admits by counts, their queued URLs) and whether this page closes its own site (then its queued URLs).
 */
export function secondReads(c: PageCommit, first: Pick<CommitRead, 'site' | 'links' | 'known'>): { sites: string[]; countQueued: boolean; siteQueue: boolean } {
  if (!c.admission) return { sites: [], countQueued: false, siteQueue: false };
  const sites = [...new Set(freshLinks(first).filter((ch) => !ch.skip).map((ch) => ch.site!))];
  return { sites, countQueued: !!c.admission.strategy.admit && sites.length > 0, siteQueue: closingReason(siteAfter(c, first.site), c.admission) !== null };
}

/** The rows one commit writes. */
export interface CommitPlan {
  /** The page row's seq (0: no page row). */
  seq: number;
  /** The crawl row to put: counters, next seq and order, dropped links, the strategy's report. */
  crawl: CrawlRecord;
  site: SiteStats;
  /** Frontier rows to put, and what each was before (absent: a URL new to the crawl). */
  frontier: FrontierEntry[];
  was: (FrontierEntry | undefined)[];
  /** Labeled links to add: the commit's own and those from links to judged pages. */
  labels: PageCommit['labels'];
  /** What the store holds for a URL from now on (null: nothing, its links written into its row or no longer needed). */
  held: Map<string, HeldLinks | null>;
  /** The judged URLs that links of this page taught (one label each), for the store's count (`CommitRead.taught`). */
  taught: string[];
}

/** One page's decisions, from the rows the store read (`read`, not changed). */
export function planCommit(c: PageCommit, read: CommitRead, now: number): CommitPlan {
  const crawl: CrawlRecord = { ...read.crawl, stats: { ...read.crawl.stats }, dropped: { ...read.crawl.dropped } };
  const seq = c.page ? crawl.nextSeq++ : 0;
  const puts: FrontierEntry[] = [];
  const current = read.current;
  if (c.entry && c.outcome === 'retry' && (current?.state === 'skipped' || current?.state === 'done')) {
    // Counted as skipped when the unsafe link was met, or fetched meanwhile as another page's other URL (its canonical
    // URL, a redirect's target): nothing to write.
  } else if (c.entry && c.outcome === 'retry') {
    puts.push({ ...c.entry, state: 'queued', updatedAt: now });
    crawl.stats.queued++;
  } else if (c.entry && c.outcome === 'done' && c.requeueAt !== undefined) {
    // Back at the end of its queue, not to be taken before its refresh is due.
    puts.push({ ...c.entry, state: 'queued', order: -crawl.nextOrder++, notBefore: c.requeueAt, retries: 0, reason: 'due for a refresh', updatedAt: now });
    crawl.stats.queued++;
  } else if (c.entry) puts.push({ ...c.entry, state: c.outcome as EntryState, updatedAt: now, ...(c.verdict === undefined ? {} : { verdict: c.verdict }) });
  c.aliases.forEach((alias, i) => {
    const known = read.aliases[i];
    const base = known ?? c.entry;
    if (known?.state === 'queued') crawl.stats.queued -= 1;
    // One in flight is this page too: its own commit will say so, or, when it was only taken to wait, it stays done.
    if (base && (!known || known.state === 'queued' || known.state === 'inflight')) {
      const page = c.entry?.url ?? c.page?.url;
      const canonical = alias === c.canonicalAlias;
      // A canonical URL not fetched yet is known by the page that named it: never requested (counted).
      if (canonical) crawl.stats.canonicalSkips = (crawl.stats.canonicalSkips ?? 0) + 1;
      puts.push({ ...base, url: alias, state: 'done', reason: canonical ? `the canonical URL of ${page}, fetched as that page` : `same page as ${page}`, updatedAt: now });
    }
  });
  const s = crawl.stats;
  for (const [k, v] of Object.entries(c.stats) as [keyof CrawlStats, number][]) s[k] = (s[k] ?? 0) + v;
  const site = siteAfter(c, read.site);
  const dropped = crawl.dropped!;
  for (const [why, n] of Object.entries(c.dropped ?? {})) dropped[why] = (dropped[why] ?? 0) + n;
  // Design B.5 first: a site this page tips over is closed before its new links are admitted.
  const why = closingReason(site, c.admission);
  if (why) site.blacklisted = why;
  const closed = why ? (read.siteQueue ?? []).map((e) => blacklistedEntry(e, why, now)) : [];
  let fresh = freshLinks(read);
  if (c.admission && fresh.length) {
    const refused = refusedLinks(fresh, c.admission, site, read.sites ?? new Map(), dropped);
    fresh = fresh.filter((ch) => !refused.has(ch.url));
  }
  const admitted = new Set(fresh.map((ch) => ch.url));
  const keptAt = read.links.flatMap((ch, i) => (read.known[i] || admitted.has(ch.url) ? [i] : []));
  const held = new Map<string, HeldLinks | null>();
  // A page fetched (not to be asked again) needs no links held for it.
  if (c.entry && c.outcome !== 'retry') held.set(c.entry.url, null);
  const hold = read.held ? { held: keptAt.map((i) => read.held![i]), room: read.holdRoom ?? 0, out: held } : undefined;
  const delta = planUpserts(crawl, keptAt.map((i) => read.links[i]!), keptAt.map((i) => read.known[i]), now, puts, c.everyLink, hold);
  const judged = c.learnLinksToJudged ? linksToJudged(read.links, read.known, c.page?.url, now, c.learnLinksToJudged, read.taught) : [];
  const labels = judged.length ? [...c.labels, ...judged] : c.labels;
  const closedUrls = new Set(closed.map((e) => e.url));
  const frontier = [...puts.filter((e) => !(e.state === 'queued' && closedUrls.has(e.url))), ...closed];
  // What each written row was: in flight (the entry fetched), as found, or new.
  const before = new Map<string, FrontierEntry>([
    ...read.known.flatMap((k) => (k ? [[k.url, k] as const] : [])),
    ...read.aliases.flatMap((k) => (k ? [[k.url, k] as const] : [])),
    ...(read.siteQueue && why ? read.siteQueue.map((e) => [e.url, e] as const) : []),
    ...(c.entry ? [[c.entry.url, { ...c.entry, state: 'inflight' as const }] as const] : []),
  ]);
  if (c.strategyReport) crawl.strategyReport = c.strategyReport;
  s.queued += delta.queued;
  s.skipped += delta.skipped;
  noteVariants(crawl, c, delta.variantOf);
  if (delta.sitemap) s.sitemapQueued = (s.sitemapQueued ?? 0) + delta.sitemap;
  if (c.sitemaps?.length) crawl.sitemaps = [...(crawl.sitemaps ?? []), ...c.sitemaps];
  s.labels += labels.length;
  if (c.takenAt !== undefined) crawl.recallTaken = withTaken(crawl.recallTaken ?? {}, c.takenAt, (c.stats.relevant ?? 0) > 0);
  countDropped(crawl, closed.length);
  const pace = paceAfter(crawl.pace, c.stats.fetched ?? 0, c.activeMs);
  return {
    seq, crawl: { ...crawl, activeMs: c.activeMs, updatedAt: now, ...(pace ? { pace } : {}) }, site, frontier, was: frontier.map((e) => before.get(e.url)), labels, held,
    taught: judged.map((l) => l.url),
  };
}

/**
 * Design B.4, B.5: the new links whose site is blacklisted (by the strategy, the user or the config) or whose
 * strategy refuses them, each counted by reason into `dropped`. `site` is the committing page's site row as this
 * commit leaves it (it may have just been closed), ahead of the row read for it.
 */
function refusedLinks(
  fresh: Candidate[], admission: Admission, site: SiteStats, sites: NonNullable<CommitRead['sites']>, dropped: Record<string, number>,
): Set<string> {
  const refused = new Set<string>();
  const views = new Map<string, { row: SiteStats | undefined; view: { site: string; fetched: number; relevant: number; queued: number } }>();
  for (const ch of fresh) {
    if (ch.skip) continue;
    let seen = views.get(ch.site!);
    if (!seen) {
      const read = sites.get(ch.site!);
      const row = ch.site === site.site ? site : read?.row;
      seen = { row, view: { site: ch.site!, fetched: row?.fetched ?? 0, relevant: row?.relevant ?? 0, queued: read?.queued ?? 0 } };
      views.set(ch.site!, seen);
    }
    const { row, view } = seen;
    const reason = row?.blacklisted || admission.siteBlacklist.includes(view.site) ? BLACKLISTED : admission.strategy.admit?.(view) ?? null;
    if (reason) {
      refused.add(ch.url);
      dropped[reason] = (dropped[reason] ?? 0) + 1;
    } else view.queued++;
  }
  return refused;
}

/**
 * The page's links to pages already judged, as labeled links with their verdicts (`learning.linksToJudged`), but none
 * to a page that links have taught `limit` times (`learning.linksPerJudgedPage`): a page linked from everywhere
 * (a site's navigation) would otherwise teach the same anchor again from every page.
 */
function linksToJudged(
  links: Candidate[], known: (FrontierEntry | undefined)[], pageUrl: string | undefined, now: number, limit: number, taught?: (url: string) => number,
): PageCommit['labels'] {
  return links.flatMap((ch, i) => {
    const target = known[i];
    if (ch.skip || target?.state !== 'done' || target.verdict === undefined) return [];
    if (taught && taught(ch.url) >= limit) return [];
    return [{ url: ch.url, anchor: ch.anchor, context: ch.context, label: target.verdict, source: 'verdict' as const, createdAt: now,
      ...(pageUrl ? { pageUrl } : {}), ...(ch.parentOnTopic === undefined ? {} : { parentOnTopic: ch.parentOnTopic }),
      ...(ch.parentHub === undefined ? {} : { parentHub: ch.parentHub }) }];
  });
}

/**
 * What a commit says of its hosts' URL variants, on the crawl row: a page's host's rules as they stand now, the fetched
 * entry not requested because of them, and its links not requested because of them, by host.
 */
function noteVariants(crawl: CrawlRecord, c: PageCommit, linksOf: Map<string, number>): void {
  if (!c.variantRules && !c.variantSkip && linksOf.size === 0) return;
  const book = { ...crawl.variants };
  if (c.variantRules) book[c.variantRules.host] = { notRequested: book[c.variantRules.host]?.notRequested ?? 0, rules: c.variantRules.rules };
  const count = (host: string, n: number) => {
    book[host] = { rules: book[host]?.rules ?? {}, notRequested: (book[host]?.notRequested ?? 0) + n };
    crawl.stats.variantSkips = (crawl.stats.variantSkips ?? 0) + n;
  };
  if (c.variantSkip) count(c.variantSkip, 1);
  for (const [host, n] of linksOf) count(host, n);
  crawl.variants = book;
}

/**
 * One candidate per URL: the one with the highest priority (a page often links the same URL twice), except that a
 * link kept from requesting wins over any other to the same URL: one link naming it "Sign out" makes the URL unsafe
 * however innocently another names it.
 */
export function bestPerUrl(candidates: Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const c of candidates) {
    const prev = best.get(c.url);
    if (!prev || (prev.skip === undefined && (c.skip !== undefined || c.priority > prev.priority))) best.set(c.url, c);
  }
  return [...best.values()];
}

/**
 * What a queued entry keeps of the link it is (best) found by: learning and the parent-page features read them.
 * `parentHub` is written even when the new link has none, so that it never keeps another page's bucket.
 */
function foundBy(c: Candidate): Pick<FrontierEntry, 'href' | 'parentUrl' | 'anchor' | 'context' | 'strategy' | 'parentOnTopic' | 'parentHub' | 'presumed'> {
  return { href: c.href, parentUrl: c.parentUrl, anchor: c.anchor, context: c.context, ...(c.strategy ? { strategy: c.strategy } : {}),
    ...(c.parentOnTopic === undefined ? {} : { parentOnTopic: c.parentOnTopic }), parentHub: c.parentHub, presumed: c.presumed };
}

/**
 * New URLs are queued (or recorded as skipped); a queued URL found again by a better link is raised
 * (design A.7); others stay. With `everyLink` (the strategy's rerank, when the crawl ranks a URL by all the links
 * found to it), every link found again counts: the entry keeps their count, sum and best log-odds, and its
 * priority is the strategy's for `urlLogOdds` of them. Appends the rows to write to `puts` and returns the
 * counter changes. With `hold` (a store that keeps links in memory), a link found again that would move its URL, with
 * the links held for it, by at most RANK_STEP is held instead of written (`hold.out`), and the next write of the row
 * takes every link held for it.
 */
export function planUpserts(
  crawl: CrawlRecord, unique: Candidate[], known: (FrontierEntry | undefined)[], now: number, puts: FrontierEntry[], everyLink?: Rerank,
  hold?: { held: (HeldLinks | undefined)[]; room: number; out: Map<string, HeldLinks | null> },
) {
  const delta = { queued: 0, skipped: 0, sitemap: 0, variantOf: new Map<string, number>() };
  /** A URL not requested because of its host's learned variants, counted for that host. */
  const variantSkip = (c: Candidate) => {
    if (c.variantOf !== undefined) delta.variantOf.set(c.variantOf, (delta.variantOf.get(c.variantOf) ?? 0) + 1);
  };
  unique.forEach((c, i) => {
    const old = known[i];
    const held = hold?.held[i];
    // Links held for a URL no longer queued are not needed: it is fetched or never will be.
    if (held && old?.state !== 'queued') hold!.out.set(c.url, null);
    if (old && c.skip !== undefined && (old.state === 'queued' || old.state === 'inflight')) {
      // A link kept from requesting names a URL queued by another link: the URL is never requested, whichever came
      // first. One in flight cannot be called back, but it is not asked again (a retry keeps it skipped).
      if (old.state === 'queued') delta.queued--;
      if (held) hold!.out.set(c.url, null);
      delta.skipped++;
      variantSkip(c);
      puts.push({ ...old, state: 'skipped', reason: c.skip, ...foundBy(c), notBefore: undefined, updatedAt: now });
      return;
    }
    if (old) {
      const shownAnew = !c.skip && c.revisit !== undefined && c.revisit !== old.revisit;
      if (shownAnew && old.state === 'done' && old.revisit !== undefined) {
        // Design D.5: a page fetched before whose link now shows another version (a thread's new replies) is
        // queued again, at the back of its queue.
        delta.queued++;
        puts.push({ ...old, state: 'queued', score: c.score, priority: c.priority, order: -crawl.nextOrder++, revisit: c.revisit,
          href: c.href, parentUrl: c.parentUrl, anchor: c.anchor, context: c.context, retries: 0, notBefore: undefined, updatedAt: now,
          ...(c.strategy ? { strategy: c.strategy } : {}) });
      } else if (everyLink && old.state === 'queued' && !c.skip && old.inlinks && c.logOdds !== undefined) {
        const inlinks = { n: old.inlinks.n + (held?.n ?? 0) + 1, sum: old.inlinks.sum + (held?.sum ?? 0) + c.logOdds, best: Math.max(old.inlinks.best, c.logOdds) };
        const better = c.logOdds > old.inlinks.best;
        const logOdds = urlLogOdds(inlinks);
        // Its score is the URL's, as it is ranked: what the dashboard's next links show in their order.
        const next: FrontierEntry = { ...old, ...(better ? foundBy(c) : {}), inlinks, score: logistic(logOdds), depth: Math.min(old.depth, c.depth),
          updatedAt: now, ...(shownAnew ? { revisit: c.revisit } : {}) };
        next.priority = everyLink(next, logOdds) ?? (better ? c.priority : old.priority);
        // Held when only the count moves, and the rank by no more than a step: no better link, depth or version to keep.
        const small = !better && !shownAnew && next.depth === old.depth && Math.abs(next.priority - old.priority) <= RANK_STEP
          && Math.abs(logOdds - urlLogOdds(old.inlinks)) <= RANK_STEP;
        if (hold && small && (held || hold.room > 0)) {
          if (!held) hold.room--;
          hold.out.set(c.url, { n: inlinks.n - old.inlinks.n, sum: inlinks.sum - old.inlinks.sum });
        } else {
          puts.push(next);
          if (held) hold!.out.set(c.url, null);
        }
      } else if (old.state === 'queued' && !c.skip && c.priority > old.priority) {
        puts.push({ ...old, score: c.score, priority: c.priority, depth: Math.min(old.depth, c.depth), ...foundBy(c), updatedAt: now,
          ...(shownAnew ? { revisit: c.revisit } : {}) });
      } else if (shownAnew) {
        puts.push({ ...old, revisit: c.revisit, updatedAt: now }); // the version it shows now, to compare with next time
      } else if (c.sitemap && !old.sitemap && old.state === 'queued') {
        puts.push({ ...old, sitemap: c.sitemap, updatedAt: now }); // linked before, listed now: its lastmod is kept
      }
      return;
    }
    const state: EntryState = c.skip ? 'skipped' : 'queued';
    if (c.skip) {
      delta.skipped++;
      variantSkip(c);
    } else {
      delta.queued++;
      if (c.sitemap) delta.sitemap++;
    }
    puts.push({
      crawlId: crawl.id!, url: c.url, ...(c.href === undefined ? {} : { href: c.href }), host: c.host, site: c.site ?? siteOf(c.url), state, score: c.score, priority: c.priority,
      order: -crawl.nextOrder++, depth: c.depth, parentUrl: c.parentUrl, anchor: c.anchor, context: c.context,
      reason: c.skip, attempts: 0, discoveredAt: now, updatedAt: now, ...(c.strategy ? { strategy: c.strategy } : {}),
      ...(c.revisit !== undefined ? { revisit: c.revisit } : {}),
      ...(c.parentOnTopic === undefined ? {} : { parentOnTopic: c.parentOnTopic }),
      ...(c.parentHub === undefined ? {} : { parentHub: c.parentHub }),
      ...(everyLink && c.logOdds !== undefined && !c.skip ? { inlinks: { n: 1, sum: c.logOdds, best: c.logOdds } } : {}),
      ...(c.sitemap ? { sitemap: c.sitemap } : {}),
      ...(c.presumed ? { presumed: c.presumed } : {}),
    });
  });
  return delta;
}
