// The commit a fetched page makes, built in one place: from what the page pipeline found out about the page (a
// `PageOutcome`) and the run's terms, everything the store writes in one transaction: the page row and its body,
// the entry's new state, the candidates, the redirect aliases, the labels its verdict teaches, the counters.
// Results that are not a page to judge (blocks, retries, failures) have theirs made in outcome.ts. Pure.
import type { FetchOutcome } from '../net/fetcher';
import type { Hop } from '../net/request-gate';
import type { Candidate, PageCommit } from '../ports';
import type { PageRole, Strategy } from '../strategies/types';
import { MAX_KEPT_ON_ROW, type FrontierEntry, type KeptByPage, type LabeledLink, type PageResource, type ParsedPage, type RenderNote, type Revisit } from '../records/types';
import { storedBody } from '../records/page-body';
import { siteOf } from '../records/url';
import { DEFAULTS, type CrawlConfig } from '../records/config';
import type { CrawlStats } from '../records/rows';
import { pageRow, takenFrom, type PageRow } from './outcome';
import { contentParts, type ContentFindings } from './content-step';

export type NewLinkLabel = Omit<LabeledLink, 'id' | 'crawlId' | 'topicId'>;

/** The page judge's verdict on a page, with the crawl's threshold applied. */
export interface Verdict {
  relevance: number;
  relevant: boolean;
  by: 'model' | 'keywords';
}

/** What the page pipeline found out about a fetched (or stored) page it parsed: what its commit is made from. */
export interface PageOutcome {
  entry: FrontierEntry;
  out: FetchOutcome;
  chain: Hop[];
  parsed: ParsedPage;
  /** What the strategy said the page is (design D.1), when it tells pages apart. */
  role?: PageRole;
  /** Null for a list page, which is mined for links, neither judged nor counted as content. */
  verdict: Verdict | null;
  children: Candidate[];
  /** Links the strategy dropped, counted by reason. */
  dropped: Record<string, number>;
  /** The page's links kept from requesting, each with the link that named it unsafe. */
  kept?: KeptByPage[];
  /** The URLs of the redirect chain after the first, and the final one, canonical: this page, never fetched again. */
  aliases: string[];
  /** The training read the page was judged from, when no request was made for it. */
  copy?: { seq: number; fetchedAt: number };
  /** The page was asked for again, against a stored copy: what that found. */
  recheck?: Recheck;
  /** How `fetch.render` treated the page, and the DOM it was read from when rendered. */
  render?: { note: RenderNote; html?: string; resources?: PageResource[] };
  /** What its content said: its sketch, the held page it duplicates, its canonical URL (content-step.ts). */
  content?: ContentFindings;
}

/**
 * A page asked for again against its stored copy: whether the request carried the copy's validators, the revisit
 * when it was found unchanged (absent: changed), and the bytes a 304 saved.
 */
export interface Recheck {
  conditional: boolean;
  revisit?: Revisit;
  savedBytes: number;
}

/** A recheck's counters: conditional requests, 304s, changed or unchanged pages and bytes saved. */
function recheckStats(r: Recheck | undefined): Partial<CrawlStats> {
  if (!r) return {};
  const notModified = r.revisit?.profile === 'server-not-modified';
  return {
    ...(r.conditional ? { conditional: 1 } : {}), ...(notModified ? { notModified: 1, bytesSaved: r.savedBytes } : {}),
    ...(r.revisit ? { unchanged: 1 } : { changed: 1 }),
  };
}

/** What a page's commit takes from the run. */
export interface CommitTerms {
  crawlId: number;
  config: CrawlConfig;
  strategy: Strategy;
  admission: PageCommit['admission'];
  now: number;
  activeMs: number;
  /** The strategy's live report, written with every commit when it has one. */
  strategyReport?: Record<string, unknown>;
}

/** The commit of a page that was parsed: judged (or listed, or found a duplicate of content held), its links planned. */
export function pageCommit(page: PageOutcome, run: CommitTerms): PageCommit {
  const { entry, out, chain, parsed, role, verdict, children, copy, recheck } = page;
  const { config, strategy, now } = run;
  const relevant = verdict?.relevant ?? false;
  const duplicate = page.content?.duplicate ?? null;
  const { fromVerdicts, linksToJudged, linksPerJudgedPage } = config.learning;
  const teaches = verdict !== null && fromVerdicts && learnable(verdict);
  // A duplicate's links are the original's: they teach nothing and count as no new link to a URL.
  const learns = !duplicate;
  const content = contentParts(page.content ?? null, entry.url, verdict ? verdict.relevant : null);
  const outlinks = strategy.keepsGraph && relevant ? children.filter((c) => !c.skip).map((c) => c.url) : undefined;
  // A copy made no request and downloaded nothing; a 304 downloaded no body.
  const [requests, downloaded] = copy ? [0, 0] : [1, recheck?.revisit?.profile === 'server-not-modified' ? 0 : out.bytes];
  const copies = { ...(copy ? { copies: 1 } : {}), ...recheckStats(recheck) };
  return {
    crawlId: run.crawlId, entry, site: siteOf(entry.url), outcome: 'done',
    labels: teaches ? verdictLabels(entry, verdict, now) : [], children, aliases: page.aliases, dropped: page.dropped, admission: run.admission,
    ...(outlinks ? { outlinks } : {}),
    ...(teaches && linksToJudged ? { verdict: relevant ? 1 : 0 } : {}),
    // A crawl stored before the limit existed has none in its config: it learns with the default.
    ...(fromVerdicts && linksToJudged && learns ? { learnLinksToJudged: linksPerJudgedPage ?? DEFAULTS.learning.linksPerJudgedPage } : {}),
    ...(config.classifier.everyLink && strategy.followsModel && learns ? { everyLink: (e: FrontierEntry, lo: number) => strategy.rerank(e, lo) } : {}),
    ...content.commit,
    // Seeds are taken first whatever they would score: they say nothing of a log-odds.
    ...(verdict && strategy.priorityIsLogOdds && entry.parentUrl !== null ? { takenAt: entry.priority } : {}),
    // A copy's content is as fetched when training read it: it carries that time (an archive dates it so).
    page: { ...judgedRow(entry.url, out, parsed, { ...takenFrom(entry), ...(role ? { urlClass: role.urlClass } : {}) }, verdict, chain, now),
      ...(copy ? { copyOf: copy.seq, fetchedAt: copy.fetchedAt } : {}), ...(recheck?.revisit ? { revisit: recheck.revisit } : {}),
      ...(page.render ? { render: page.render.note } : {}),
      ...(page.kept?.length ? { kept: page.kept.slice(0, MAX_KEPT_ON_ROW), keptLinks: page.kept.length } : {}), ...content.page },
    // A copy keeps the body too, so a page of the crawl can be labeled and exported like any other. A rendered page
    // keeps what the server sent and, beside it, the DOM it was read from.
    body: { ...bodyOf(out), ...(page.render?.html !== undefined ? { rendered: page.render.html } : {}), ...(page.render?.resources ? { resources: page.render.resources } : {}) },
    stats: {
      ...(verdict
        ? { attempts: requests, fetched: 1, relevant: relevant ? 1 : 0, bytes: downloaded, ...(verdict.by === 'keywords' ? { keywordVerdicts: 1 } : {}),
          ...(role?.urlClass === 'content' ? { contentPages: 1 } : {}), ...copies }
        : duplicate ? { attempts: requests, duplicates: 1, bytes: downloaded, ...copies } : { attempts: requests, listPages: 1, bytes: downloaded, ...copies }),
      ...(entry.sitemap ? { sitemapFetched: 1 } : {}),
    },
    ...(role?.refreshInMs !== undefined ? { requeueAt: now + role.refreshInMs } : {}),
    ...(run.strategyReport ? { strategyReport: run.strategyReport } : {}),
    activeMs: run.activeMs,
  };
}

/** The commit of an answer with no page to parse (an error, no HTML body, HTML that would not parse). */
export function unparsedCommit(crawlId: number, entry: FrontierEntry, out: FetchOutcome, chain: Hop[], error: string, now: number, activeMs: number): PageCommit {
  return {
    crawlId, entry: { ...entry, reason: error }, aliases: [], labels: [], children: [], site: siteOf(entry.url), outcome: 'failed',
    page: pageRow(entry.url, takenFrom(entry), now, out, chain, { error, outcome: 'failed' }),
    stats: { attempts: 1, failed: 1, bytes: out.bytes }, activeMs,
  };
}

/** The commit of an entry whose training copy is gone (the crawl's pages were cleared): it is taken again and requested. */
export function copyGoneCommit(crawlId: number, entry: FrontierEntry, activeMs: number): PageCommit {
  return { crawlId, entry, outcome: 'retry', aliases: [], labels: [], children: [], site: siteOf(entry.url), stats: {}, activeMs };
}

/**
 * The commit of a training read (design A.6): the link source's row and body, the labeled links it yielded, its own
 * label when it is a labeled page, and its out-links for the authority; `parsed` null when it could not be read.
 */
export function trainingReadCommit(read: {
  crawlId: number; url: string; out: FetchOutcome | null; chain: Hop[]; parsed: ParsedPage | null; error: string | undefined;
  labels: NewLinkLabel[]; pageLabel: 0 | 1 | null; outlinks?: string[]; pageTerms?: [string, number][]; now: number; activeMs: number;
}): PageCommit {
  const { url, out, chain, parsed, now } = read;
  const taken = { phase: 'train' as const, depth: 0, parentUrl: null, score: 0 };
  return {
    crawlId: read.crawlId, outcome: parsed ? 'done' : 'failed',
    page: parsed ? judgedRow(url, out!, parsed, taken, null, chain, now)
      : pageRow(url, taken, now, out, chain, { error: read.error ?? 'no HTML body', outcome: 'failed' }),
    body: parsed ? bodyOf(out!) : undefined,
    children: [], aliases: [], labels: read.labels, ...(read.pageLabel === null ? {} : { pageLabel: read.pageLabel }),
    ...(read.outlinks ? { outlinks: read.outlinks } : {}), ...(read.pageTerms ? { pageTerms: read.pageTerms } : {}),
    site: siteOf(url), stats: { trainPages: 1 }, activeMs: read.activeMs,
  };
}

function judgedRow(
  url: string, out: FetchOutcome, parsed: ParsedPage, taken: Parameters<typeof pageRow>[1], verdict: Verdict | null, chain: Hop[], now: number,
): PageRow {
  return pageRow(url, taken, now, out, chain, {
    relevant: verdict ? verdict.relevant : null, relevance: verdict ? verdict.relevance : null, ...(verdict ? { judgedBy: verdict.by } : {}),
    title: parsed.title, textLength: parsed.text.length, linkCount: parsed.links.length, outcome: 'done',
  });
}

/** The body stored once: its bytes and their encoding, the HTML decoded from them on read (lib/records/page-body.ts). */
const bodyOf = (out: FetchOutcome): NonNullable<PageCommit['body']> => storedBody({ ...out, html: out.html! });

/** The link that led to a judged page, labeled by the verdict (a seed has no such link). */
function verdictLabels(entry: FrontierEntry, verdict: Verdict, now: number): NewLinkLabel[] {
  if (entry.parentUrl === null) return [];
  return [{ url: entry.url, anchor: entry.anchor, context: entry.context, label: verdict.relevant ? 1 : 0, source: 'verdict', createdAt: now,
    ...(entry.parentOnTopic === undefined ? {} : { parentOnTopic: entry.parentOnTopic }),
    ...(entry.parentHub === undefined ? {} : { parentHub: entry.parentHub }) }];
}

/**
 * Verdicts worth learning from: those of a judge trained on labeled pages. The keyword judge is a bootstrap
 * heuristic; even its clearest verdicts (relevance >= 0.95) taught the link classifier navigation-bar words
 * from the few early positives, lifting every link under the same navigation: on the demo site 12 of 14
 * topic pages in 40 fetches with them, all 14 in 25 without. Verdicts of a trained judge helped on
 * Wikispeedia (+1.5 points of harvest at 1,000 fetches).
 */
function learnable(v: Verdict): boolean {
  return v.by === 'model';
}
