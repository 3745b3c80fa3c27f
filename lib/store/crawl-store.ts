// Crawl storage on Dexie: the frontier (best-first, persisted), page rows, bodies, labels and counters.
// Every page's outcome is committed in one transaction, so a stopped service worker loses nothing and
// a page is recorded exactly once: an entry is either still `inflight` (reclaimed on resume) or `done`.
import Dexie from 'dexie';
import type { CrawlConfig } from '../crawl/config';
import type { EntryState, FrontierEntry, PageRecord } from '../types';
import { exportMarkKey, exportMarkPrefix, type ExportFormat } from '../records';
import { siteOf } from '../url';
import { crawlRow, type CrawlerDB } from './db';
import { emptyStats, type CrawlRecord, type CrawlState, type CrawlStats } from '../records';
import { countWrites } from './fifo-queues';
import { FrontierStore, bestPerUrl, planUpserts } from './frontier-store';
import { PageLog } from './page-log';
import { withListKeys } from './page-keys';
import { admit, blacklistedSites, countDropped, emptySite, judgeSite, setSiteBlacklisted, sitesOf } from './site-book';
import { TopicStore } from './topic-store';
import { RecordStore } from './record-store';
import type { Candidate, CrawlStorePort, PageCommit } from '../ports';


/**
 * Crawl storage: crawl rows and the page commit, which writes the frontier, the page log, bodies, labels and
 * site counters in one transaction, so a stopped service worker loses nothing and a page is recorded exactly
 * once. The parts are reached as `frontier`, `pages`, `topics`.
 */
export class CrawlStore implements CrawlStorePort {
  /** The topics the crawls run for: their labels, page labels and models. */
  readonly topics: TopicStore;
  readonly frontier: FrontierStore;
  readonly pages: PageLog;
  /** Template records (SPEC E.5), kept across the cycles of a template: deleting one crawl keeps them. */
  readonly records: RecordStore;

  constructor(readonly db: CrawlerDB) {
    this.records = new RecordStore(db);
    this.topics = new TopicStore(db);
    this.frontier = new FrontierStore(db);
    this.pages = new PageLog(db);
  }

  async createCrawl(config: CrawlConfig, topicId: number, now: number): Promise<number> {
    const state: CrawlState = config.training.linkSources.length > 0 ? 'training' : 'running';
    return (await this.db.crawls.add({
      topicId, name: config.name, config: { ...config, topic: { ...config.topic, id: topicId } }, state, stats: emptyStats(), nextSeq: 1, nextOrder: 1,
      createdAt: now, updatedAt: now, activeMs: 0,
    })) as number;
  }

  getCrawl(id: number): Promise<CrawlRecord | undefined> {
    return this.db.crawls.get(id);
  }

  async newestCrawl(): Promise<CrawlRecord | undefined> {
    return this.db.crawls.orderBy('createdAt').last();
  }

  async crawlsInState(states: CrawlState[]): Promise<CrawlRecord[]> {
    return (await this.db.crawls.toArray()).filter((c) => states.includes(c.state));
  }

  async updateCrawl(id: number, patch: Partial<CrawlRecord>): Promise<CrawlRecord> {
    await this.db.crawls.update(id, { ...patch, updatedAt: patch.updatedAt ?? Date.now() });
    const c = await this.db.crawls.get(id);
    if (!c) throw new Error(`no crawl ${id}`);
    return c;
  }

  /** Records one fetch attempt and everything it found, in one transaction. Returns the page's seq. */
  async commitPage(c: PageCommit, now: number): Promise<number> {
    return (await this.commitPages([c], now))[0];
  }

  /**
   * Records several fetch attempts in one transaction (group commit: a transaction costs Chromium's
   * IndexedDB about as much as the pages it carries). Each page is still all-or-nothing; pages are applied
   * in order, so a link found by two of them is queued once. Returns their seqs.
   */
  async commitPages(commits: PageCommit[], now: number): Promise<number[]> {
    const db = this.db;
    return db.transaction('rw', [db.frontier, db.crawls, db.pages, db.bodies, db.labels, db.pageLabels, db.sites, db.graph, db.records, db.recordChanges], async () => {
      const seqs: number[] = [];
      for (const c of commits) {
        seqs.push(await this.applyCommit(c, now));
        if (c.record) await this.records.write(c.record);
      }
      return seqs;
    });
  }

  /**
   * One page's writes, inside the caller's transaction. All reads are issued together, then all writes:
   * IndexedDB pipelines them, where one await per request made ~10 round trips to the browser's storage.
   */
  private async applyCommit(c: PageCommit, now: number): Promise<number> {
    const db = this.db;
    const crawlId = c.crawlId;
    const children = bestPerUrl(c.children);
    const [crawl, site, knownAliases, knownChildren, current] = await Promise.all([
      crawlRow(db, crawlId),
      db.sites.get([crawlId, c.site]),
      db.frontier.bulkGet(c.aliases.map((a) => [crawlId, a] as [number, string])),
      db.frontier.bulkGet(children.map((ch) => [crawlId, ch.url] as [number, string])),
      // A URL asked again may have been named by an unsafe link while it was in flight: then it stays skipped.
      c.entry && c.outcome === 'retry' ? db.frontier.get([crawlId, c.entry.url]) : undefined,
    ]);
    const seq = c.page ? crawl.nextSeq++ : 0;
    const puts: FrontierEntry[] = [];
    if (c.entry && c.outcome === 'retry' && current?.state === 'skipped') {
      // Counted as skipped when the unsafe link was met; nothing to write.
    } else if (c.entry && c.outcome === 'retry') {
      puts.push({ ...c.entry, state: 'queued', updatedAt: now });
      crawl.stats.queued++;
    } else if (c.entry && c.outcome === 'done' && c.requeueAt !== undefined) {
      // Back at the end of its queue, not to be taken before its refresh is due.
      puts.push({ ...c.entry, state: 'queued', order: -crawl.nextOrder++, notBefore: c.requeueAt, retries: 0, reason: 'due for a refresh', updatedAt: now });
      crawl.stats.queued++;
    } else if (c.entry) puts.push({ ...c.entry, state: c.outcome as EntryState, updatedAt: now, ...(c.verdict === undefined ? {} : { verdict: c.verdict }) });
    c.aliases.forEach((alias, i) => {
      const known = knownAliases[i];
      const base = known ?? c.entry;
      if (known?.state === 'queued') crawl.stats.queued -= 1;
      if (base && (!known || known.state === 'queued')) {
        puts.push({ ...base, url: alias, state: 'done', reason: `same page as ${c.entry?.url ?? c.page?.url}`, updatedAt: now });
      }
    });
    const s = crawl.stats;
    for (const [k, v] of Object.entries(c.stats) as [keyof CrawlStats, number][]) s[k] = (s[k] ?? 0) + v;
    const siteRow = site ?? emptySite(crawlId, c.site);
    siteRow.fetched += c.stats.fetched ?? 0;
    siteRow.relevant += c.stats.relevant ?? 0;
    siteRow.failed += c.stats.failed ?? 0;
    const dropped: Record<string, number> = { ...crawl.dropped };
    for (const [why, n] of Object.entries(c.dropped ?? {})) dropped[why] = (dropped[why] ?? 0) + n;
    // SPEC B.5 first: a site this page tips over is closed before its new links are admitted.
    const closed = c.admission ? (await judgeSite(db, siteRow, c.admission, now)).dropped : [];
    let fresh = children.filter((ch, i) => !knownChildren[i]).map((ch) => ({ ...ch, site: ch.site ?? siteOf(ch.url) }));
    if (c.admission && fresh.length) {
      const refused = await admit(db, crawlId, fresh, c.admission, dropped, siteRow);
      fresh = fresh.filter((ch) => !refused.has(ch.url));
    }
    const admitted = new Set(fresh.map((ch) => ch.url));
    const keptAt = children.flatMap((ch, i) => (knownChildren[i] || admitted.has(ch.url) ? [i] : []));
    const delta = planUpserts(crawl, keptAt.map((i) => children[i]!), keptAt.map((i) => knownChildren[i]), now, puts, c.everyLink);
    const labels = c.learnLinksToJudged ? [...c.labels, ...linksToJudged(children, knownChildren, c.page?.url, now)] : c.labels;
    const closedUrls = new Set(closed.map((e) => e.url));
    const writes = [...puts.filter((e) => !(e.state === 'queued' && closedUrls.has(e.url))), ...closed];
    // What each written row was, for the queues' counters: in flight (the entry fetched), as found, or new.
    const before = new Map<string, FrontierEntry>([
      ...knownChildren.flatMap((k) => (k ? [[k.url, k] as const] : [])),
      ...knownAliases.flatMap((k) => (k ? [[k.url, k] as const] : [])),
      ...closed.map((e) => [e.url, { ...e, state: 'queued' as const }] as const),
      ...(c.entry ? [[c.entry.url, { ...c.entry, state: 'inflight' as const }] as const] : []),
    ]);
    countWrites(crawl, writes, (i) => before.get(writes[i]!.url));
    if (c.strategyReport) crawl.strategyReport = c.strategyReport;
    for (const e of writes) if (e.state === 'queued') this.frontier.noteQueued(crawlId, [e.priority, e.order]);
    s.queued += delta.queued;
    s.skipped += delta.skipped;
    s.labels += labels.length;
    crawl.dropped = dropped;
    countDropped(crawl, closed.length);
    await Promise.all([
      c.page ? db.pages.add(withListKeys({ ...c.page, outcome: c.page.outcome ?? pageOutcome(c.outcome), crawlId, seq }, c.site)) : undefined,
      c.body ? db.bodies.add({ ...c.body, crawlId, seq }) : undefined,
      c.outlinks && c.page
        ? db.graph.add({ crawlId, seq, url: c.page.url, links: c.outlinks, ...(c.pageLabel === undefined ? {} : { label: c.pageLabel }) })
        : undefined,
      writes.length ? db.frontier.bulkPut(writes) : undefined,
      labels.length ? db.labels.bulkAdd(labels.map((l) => ({ ...l, crawlId, topicId: crawl.topicId }))) : undefined,
      c.pageLabel !== undefined && c.page
        ? db.pageLabels.add({ topicId: crawl.topicId, crawlId, seq, url: c.page.url, label: c.pageLabel, source: 'auto', createdAt: now })
        : undefined,
      db.crawls.put({ ...crawl, activeMs: c.activeMs, updatedAt: now }),
      db.sites.put(siteRow),
    ]);
    return seq;
  }

  /** The Sites panel: every site a page was fetched from, with its counters, queue and state. */
  sites(crawlId: number) {
    return sitesOf(this.db, crawlId);
  }

  /** Every site a crawl will not enter: closed by its strategy or the user, or listed in its config. */
  async blacklistedSites(crawl: CrawlRecord): Promise<string[]> {
    return [...new Set([...(await blacklistedSites(this.db, crawl.id!)), ...(crawl.config.siteBlacklist ?? [])])];
  }

  /** The user blacklists a site (its queued URLs are dropped, a running crawl admits no more) or unblocks it. */
  setSiteBlacklisted(crawlId: number, site: string, on: boolean, now: number) {
    return setSiteBlacklisted(this.db, crawlId, site, on, now);
  }

  /** The crawled graph (relevant pages' out-links, in fetch order) and the strategy's saved state. */
  async strategyMemory(crawlId: number): Promise<{ graph: { url: string; links: string[] }[]; saved: unknown }> {
    const [graph, saved] = await Promise.all([this.graphRows(crawlId), this.db.strategyStates.get(crawlId)]);
    return { graph: graph.filter((g) => g.label === undefined).map((g) => ({ url: g.url, links: g.links })), saved: saved?.state };
  }

  /** The labeled training pages' out-links, with their labels (what a URL's authority counts). */
  async labeledOutlinks(crawlId: number): Promise<{ label: 0 | 1; links: string[] }[]> {
    return (await this.graphRows(crawlId)).flatMap((g) => (g.label === undefined ? [] : [{ label: g.label, links: g.links }]));
  }

  private graphRows(crawlId: number) {
    return this.db.graph.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
  }

  saveStrategyState(crawlId: number, state: unknown, now: number): Promise<unknown> {
    return this.db.strategyStates.put({ crawlId, state, savedAt: now });
  }

  setExportMark(crawlId: number, format: ExportFormat, seq: number): Promise<unknown> {
    return this.db.settings.put({ key: exportMarkKey(crawlId, format), value: seq });
  }

  async deleteCrawl(crawlId: number): Promise<boolean> {
    const db = this.db;
    // The crawl's labeled links stay with its topic (they are what the topic learned); its labeled pages go
    // with their bodies.
    return db.transaction('rw', [db.crawls, db.frontier, db.pages, db.bodies, db.pageLabels, db.sites, db.graph, db.strategyStates, db.settings, db.recordChanges], async () => {
      if (!(await db.crawls.get(crawlId))) return false;
      const lo = [crawlId, Dexie.minKey], hi = [crawlId, Dexie.maxKey];
      await db.frontier.where('[crawlId+url]').between(lo, hi).delete();
      await db.pages.where('[crawlId+seq]').between(lo, hi).delete();
      await db.bodies.where('[crawlId+seq]').between(lo, hi).delete();
      await db.sites.where('[crawlId+site]').between(lo, hi).delete();
      await db.pageLabels.where('[crawlId+seq]').between(lo, hi).delete();
      await db.graph.where('[crawlId+seq]').between(lo, hi).delete();
      await db.strategyStates.delete(crawlId);
      await db.recordChanges.where('[crawlId+url]').between(lo, hi).delete();
      await db.settings.where('key').startsWith(exportMarkPrefix(crawlId)).delete();
      await db.crawls.delete(crawlId);
      return true;
    });
  }
}

const pageOutcome = (o: PageCommit['outcome']): PageRecord['outcome'] => (o === 'retry' ? 'failed' : o);

/** The page's links to pages already judged, as labeled links with their verdicts (`learning.linksToJudged`). */
function linksToJudged(children: Candidate[], known: (FrontierEntry | undefined)[], pageUrl: string | undefined, now: number): PageCommit['labels'] {
  return children.flatMap((ch, i) => {
    const target = known[i];
    if (ch.skip || target?.state !== 'done' || target.verdict === undefined) return [];
    return [{ url: ch.url, anchor: ch.anchor, context: ch.context, label: target.verdict, source: 'verdict' as const, createdAt: now,
      ...(pageUrl ? { pageUrl } : {}), ...(ch.parentOnTopic === undefined ? {} : { parentOnTopic: ch.parentOnTopic }),
      ...(ch.parentHub === undefined ? {} : { parentHub: ch.parentHub }) }];
  });
}
