// How a gated request's result becomes a page commit: what the frontier entry becomes, the page row the user
// sees, and what the counters say. Pure; a page that was judged has its commit made in page-commit.ts.
import type { GateResult, Hop } from '../net/request-gate';
import { validatorsOf, type FetchOutcome } from '../net/fetcher';
import type { Candidate, PageCommit } from '../ports';
import type { FrontierEntry } from '../records/types';
import { hostOf, siteOf } from '../records/url';

/** A Retry-After longer than this is shortened to it: a crawl does not park a URL for a day. */
export const RETRY_AFTER_CAP_MS = 3_600_000;

export type PageRow = NonNullable<PageCommit['page']>;
type Taken = Pick<PageRow, 'phase' | 'depth' | 'parentUrl' | 'score' | 'priority' | 'urlClass'>;

export const takenFrom = (entry: FrontierEntry): Taken => ({
  phase: 'crawl', depth: entry.depth, parentUrl: entry.parentUrl, score: entry.score, priority: entry.priority,
  ...(entry.strategy?.urlClass ? { urlClass: entry.strategy.urlClass } : {}),
});

/** A page row for an answer (or for none: `out` absent), fetched `durationMs` before `now`. */
export function pageRow(url: string, taken: Taken, now: number, out: FetchOutcome | null, chain: Hop[], extra: Partial<PageRow>): PageRow {
  return {
    ...taken, url, finalUrl: out?.finalUrl ?? chain.at(-1)?.url ?? url, status: out?.status ?? chain.at(-1)?.status ?? 0,
    relevant: null, relevance: null, title: '', textLength: 0, contentType: out?.contentType ?? '', bytes: out?.bytes ?? 0,
    truncated: out?.truncated ?? false, linkCount: 0, fetchedAt: now - (out?.durationMs ?? 0), durationMs: out?.durationMs ?? 0,
    ...(chain.length ? { redirects: chain } : {}),
    ...(out ? validatorsOf(out.headers) : {}),
    ...extra,
  };
}

type SessionLost = Extract<GateResult, { kind: 'sessionLost' }>;
/** A gated request's result that is no page to judge. */
export type NonPage = Exclude<GateResult, { kind: 'response' | 'notModified' }>;

/**
 * The sentence a crawl pauses with when a request ended the user's session: which URL, how the session ended, what
 * to do. Shown in the popup, the dashboard and the command line.
 */
export function sessionLostMessage(lost: SessionLost): string {
  const host = hostOf(lost.url);
  switch (lost.loss.by) {
    case 'cookie':
      return `paused: requesting ${lost.url} ended your session on ${host} (the site cleared the cookie "${lost.loss.what}"). ` +
        `Log in to ${host} again in this browser, then resume: that URL will not be requested again`;
    case 'login':
      return `paused: ${lost.url}, which opened with your session before, now sends you to the login page ${lost.loss.what}: ` +
        `your session on ${host} has ended. Log in to ${host} again in this browser, then resume`;
    case 'signs':
      return `paused: your session on ${host} has ended after ${lost.loss.after}, the last page that showed you logged in: ` +
        `${lost.url} came back as a visitor who is not logged in sees it (no sign-out link, no menu of yours, ${lost.loss.what}). ` +
        `Log in to ${host} again in this browser, then resume`;
  }
}

/** The reason on the entry of a URL whose request cleared the session cookie: listed as kept from requesting. */
export function sessionEndedReason(lost: SessionLost): string {
  return `unsafe link (ended your session "${lost.loss.what}"): requesting it cleared your session cookie, so it is never requested again`;
}

export interface RetryPolicy {
  /** Re-queues after a passing fault before the URL is failed. */
  retries: number;
  /** First backoff when the server gave no Retry-After; doubled on each retry. */
  retryBaseMs: number;
}

/**
 * The commit for a result that is not a page to judge: a block, a retry, a failure for good. `requested`:
 * whether a request of the page was made (the budget counts those). Returns the commit, and for a retry the
 * time until the URL may be taken again (the host waits as long).
 */
export function commitForNonPage(
  crawlId: number, entry: FrontierEntry, result: NonPage, now: number, policy: RetryPolicy, activeMs: number,
): { commit: PageCommit; requested: boolean; retryInMs?: number } {
  const base = { crawlId, aliases: [] as string[], labels: [], children: [] as Candidate[], site: siteOf(entry.url), activeMs };
  const taken = takenFrom(entry);
  const requested = result.chain.length > 0 || result.kind === 'sessionLost' || (result.kind === 'retry' && !result.robots);
  switch (result.kind) {
    case 'sessionLost': {
      if (result.loss.by !== 'cookie') {
        // The page did nothing wrong: the session had ended. It is asked again once the user has logged in and resumes.
        return { requested, commit: { ...base, entry: { ...entry, reason: 'asked again when you resume, logged in' }, outcome: 'retry', stats: {} } };
      }
      const reason = sessionEndedReason(result);
      // A redirect led to the request that did it: that URL is kept from requesting too.
      const children: Candidate[] = result.key === entry.url
        ? []
        : [{ url: result.key, host: hostOf(result.key), score: 0, priority: -Number.MAX_VALUE, depth: entry.depth + 1, parentUrl: entry.url, anchor: '', context: '', skip: reason }];
      const error = `requesting ${result.url} ended your session (the site cleared the cookie "${result.loss.what}"): never requested again`;
      return {
        requested,
        commit: {
          ...base, children, entry: { ...entry, reason }, outcome: 'skipped',
          page: pageRow(entry.url, taken, now, result.out, result.chain, { error, outcome: 'skipped' }),
          stats: { skipped: 1, attempts: 1, bytes: result.out.bytes },
        },
      };
    }
    case 'blocked': {
      const to = result.target ? ` to ${result.target}` : '';
      const error = result.chain.length === 0 ? result.reason : `redirect${to} not followed: ${result.reason}`;
      const children: Candidate[] = result.record && result.chain.length > 0
        ? [{ url: result.target, host: hostOf(result.target), score: 0, priority: -Number.MAX_VALUE, depth: entry.depth + 1, parentUrl: entry.url, anchor: '', context: '', skip: result.reason }]
        : [];
      return {
        requested,
        commit: {
          ...base, children, entry: { ...entry, reason: error }, outcome: 'skipped',
          page: pageRow(entry.url, taken, now, null, result.chain, { error, outcome: 'skipped' }),
          stats: { skipped: 1, attempts: requested ? 1 : 0, ...(result.by === 'robots' && !requested ? { robotsKept: 1 } : {}) },
        },
      };
    }
    case 'failed':
      // The gate fails a URL for good only when its host's robots.txt could not be read: it was never requested.
      return {
        requested,
        commit: {
          ...base, entry: { ...entry, reason: result.reason }, outcome: 'failed',
          page: pageRow(entry.url, taken, now, null, result.chain, { error: result.reason, outcome: 'failed' }),
          stats: { failed: 1, attempts: requested ? 1 : 0, ...(requested ? {} : { robotsKept: 1 }) },
        },
      };
    case 'retry': {
      const retries = (entry.retries ?? 0) + (result.robots ? 0 : 1);
      if (!result.robots && retries > policy.retries) {
        const made = retries - 1;
        const error = made === 0 ? result.reason : `${result.reason} (gave up after ${made} ${made === 1 ? 'retry' : 'retries'})`;
        return {
          requested,
          commit: {
            ...base, entry: { ...entry, retries, reason: error }, outcome: 'failed',
            page: pageRow(entry.url, taken, now, result.out ?? null, result.chain, { error, outcome: 'failed' }),
            stats: { failed: 1, attempts: 1, bytes: result.out?.bytes ?? 0 },
          },
        };
      }
      const wait = Math.min(result.afterMs ?? policy.retryBaseMs * 2 ** Math.max(0, retries - 1), RETRY_AFTER_CAP_MS);
      const note = result.robots ? result.reason : `${result.reason}: asked again in ${Math.ceil(wait / 1000)} s`;
      return {
        requested,
        retryInMs: wait,
        commit: { ...base, entry: { ...entry, retries, notBefore: now + wait, reason: note }, outcome: 'retry', stats: {} },
      };
    }
  }
}
