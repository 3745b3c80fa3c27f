// Crawl storage on Dexie: the frontier (best-first, persisted), page rows, bodies, labels and counters.
// Every page's outcome is committed in one transaction, so a stopped service worker loses nothing and
// a page is recorded exactly once: an entry is either still `inflight` (reclaimed on resume) or `done`.
import Dexie from 'dexie';
import type { CrawlConfig } from '../records/config';
import type { FrontierEntry, LabeledLink, PageBody, PageRecord } from '../records/types';
import { emptyStats, exportMarkKey, exportMarkPrefix, type CrawlRecord, type CrawlState, type ExportFormat, type RecallPoint, type RecallRow, type SketchRow } from '../records/rows';
import { firstReads, planCommit, secondReads } from '../run/commit-plan';
import { crawlRow, type CrawlerDB } from './db';
import { countWrites } from './fifo-queues';
import { FrontierStore } from './frontier-store';
import { readEntries, writeEntries } from './frontier-rows';
import { HeldLinkBook, type HeldChanges } from './held-links';
import { TaughtBook, type TaughtChanges } from './taught-counts';
import { bodyRows } from './body-packs';
import { keepLabels } from './label-copies';
import { type LabelPack, packLabels } from './label-packs';
import { candidateKeys, dropHeadList, headKey, readHeads, writeWithHeads, type HostHead } from './host-heads';
import { PageLog } from './page-log';
import { dropRows } from './row-cache';
import { deleteSeedLists } from './seed-lists';
import { withListKeys } from './page-keys';
import { blacklistedSites, queuedIn, queuedOf, setSiteBlacklisted, sitesOf } from './site-book';
import { TopicStore } from './topic-store';
import { allowKept, type Allowing } from './kept-allow';
import { RecordStore } from './record-store';
import type { CrawlStorePort, PageCommit } from '../ports';
import { siteOf } from '../records/url';


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
  /** Template records (design E.5), kept across the cycles of a template: deleting one crawl keeps them. */
  readonly records: RecordStore;
  /** Links found again to queued URLs, not yet written into their rows (held-links.ts). */
  readonly held = new HeldLinkBook();
  private readonly taught = new TaughtBook();

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
    const held = this.held.begin();
    const taught = this.taught.begin();
    const labels: LabelPack[] = [];
    const seqs = await db.transaction('rw', [db.frontier, db.hostHeads, db.crawls, db.pages, db.bodies, db.labels, db.pageLabels, db.sites, db.graph, db.records, db.recordChanges, db.sketches], async () => {
      const seqs: number[] = [];
      // Pages of one crawl are planned together (a batch is one crawl's in practice); another crawl's start a new run.
      for (let i = 0; i < commits.length;) {
        let j = i + 1;
        while (j < commits.length && commits[j]!.crawlId === commits[i]!.crawlId) j++;
        seqs.push(...(await this.applyCommits(commits.slice(i, j), now, { held, taught }, labels)));
        i = j;
      }
      for (const c of commits) if (c.record) await this.records.write(c.record);
      return seqs;
    });
    held.keep();
    taught.keep();
    // Committed: the learner's catch-up takes these from memory instead of reading them back (label-copies.ts).
    keepLabels(db, labels);
    return seqs;
  }

  /**
   * Pages of one crawl, inside the caller's transaction, in order. What to write is decided by `planCommit`
   * (lib/run/commit-plan.ts) page by page from the rows read here; this only reads, asks, and writes. Every page's
   * reads are issued at once, before any page is planned (IndexedDB pipelines them; one round trip to the browser's
   * storage a step costs the crawl more than the requests do), and every page's writes at once after the last is
   * planned. A page is planned from the rows as the pages before it leave them: those are held here, not read back.
   * Only admission by counts of queued URLs (design B.4) and a site closing (design B.5) read what the pages before
   * wrote: the writes planned so far are issued first.
   */
  private async applyCommits(
    commits: readonly PageCommit[], now: number, { held: holding, taught }: { held: HeldChanges; taught: TaughtChanges }, wrote: LabelPack[],
  ): Promise<number[]> {
    const db = this.db;
    const crawlId = commits[0]!.crawlId;
    const keys = commits.map(firstReads);
    const urls = [...new Set(keys.flatMap((k) => [...k.aliases, ...k.links.map((ch) => ch.url), ...(k.current === null ? [] : [k.current])]))];
    const siteKeys = [...new Set(commits.flatMap((c, i) => [c.site, ...keys[i]!.links.map((ch) => ch.site ?? siteOf(ch.url))]))];
    const headKeys = commits.flatMap((c, i) => [...candidateKeys(keys[i]!.links, siteOf), ...(c.entry ? [headKey(c.entry.site ?? '', c.entry.host)] : [])]);
    const [crawl0, siteRows, rows, heads0] = await Promise.all([
      crawlRow(db, crawlId),
      db.sites.bulkGet(siteKeys.map((s) => [crawlId, s] as [number, string])),
      readEntries(db, crawlId, urls),
      // The heads of the hosts these pages may queue into, read with the rest (host-heads.ts).
      readHeads(db, crawlId, headKeys),
    ]);
    /** Rows as the pages planned so far leave them. */
    const rowOf = new Map(urls.map((u, i) => [u, rows[i]]));
    const siteOfName = new Map(siteKeys.map((s, i) => [s, siteRows[i]]));
    let crawl = crawl0;
    let heads: Map<string, HostHead | undefined> = heads0;
    // What is planned and not yet written.
    let frontier: FrontierEntry[] = [];
    let was: (FrontierEntry | undefined)[] = [];
    let adds: (() => Promise<unknown>)[] = [];
    const sitesChanged = new Set<string>();
    const flush = async () => {
      if (frontier.length === 0 && adds.length === 0 && sitesChanged.size === 0) return;
      const [rowsNow, wasNow, addsNow, sitesNow, crawlNow] = [frontier, was, adds, [...sitesChanged].map((s) => siteOfName.get(s)!), crawl];
      [frontier, was, adds] = [[], [], []];
      sitesChanged.clear();
      await writeWithHeads(db, crawlId, rowsNow, wasNow, heads, () => Promise.all([
        ...addsNow.map((add) => add()), writeEntries(db, rowsNow), db.crawls.put(crawlNow), db.sites.bulkPut(sitesNow),
      ]));
      heads = new Map(); // heads are read again (from memory, as a rule) for what follows
    };
    const seqs: number[] = [];
    /** The labels the pages make, written as packs with the last of their writes. */
    const made: Omit<LabeledLink, 'id'>[] = [];
    const bodies: PageBody[] = [];
    for (const [i, c] of commits.entries()) {
      const { links, aliases } = keys[i]!;
      const known = links.map((ch) => rowOf.get(ch.url));
      const site = siteOfName.get(c.site);
      const more = secondReads(c, { site, links, known });
      let queued: number[] = [];
      let siteQueue: FrontierEntry[] | undefined;
      if (more.countQueued || more.siteQueue) {
        await flush();
        [queued, siteQueue] = await Promise.all([
          more.countQueued ? Promise.all(more.sites.map((s) => queuedOf(db, crawlId, s))) : [],
          more.siteQueue ? queuedIn(db, crawlId, c.site) : undefined,
        ]);
      }
      const sites = new Map(more.sites.map((s, k) => [s, { row: siteOfName.get(s), queued: queued[k] ?? 0 }]));
      const held = c.everyLink ? holding.read(crawlId, links.map((ch) => ch.url)) : undefined;
      const plan = planCommit(c, {
        crawl, site, links, known, aliases: aliases.map((a) => rowOf.get(a)), current: keys[i]!.current === null ? undefined : rowOf.get(keys[i]!.current!),
        sites, siteQueue, ...(held ? { held: held.held, holdRoom: held.room } : {}),
        ...(c.learnLinksToJudged ? { taught: (url: string) => taught.count(crawlId, url) } : {}),
      }, now);
      holding.apply(crawlId, plan.held);
      taught.add(crawlId, plan.taught);
      // The queues' counters follow every frontier write (the store's own bookkeeping).
      countWrites(plan.crawl, plan.frontier, (k) => plan.was[k]);
      crawl = plan.crawl;
      siteOfName.set(plan.site.site, plan.site);
      sitesChanged.add(plan.site.site);
      for (const e of plan.frontier) rowOf.set(e.url, e);
      frontier.push(...plan.frontier);
      was.push(...plan.was);
      const seq = plan.seq;
      seqs.push(seq);
      const topicId = crawl.topicId;
      if (c.body) bodies.push({ ...c.body, crawlId, seq });
      for (const l of plan.labels) made.push({ ...l, crawlId, topicId });
      adds.push(() => Promise.all([
        c.page ? db.pages.add(withListKeys({ ...c.page, outcome: c.page.outcome ?? pageOutcome(c.outcome), crawlId, seq }, c.site)) : undefined,
        c.outlinks && c.page
          ? db.graph.add({ crawlId, seq, url: c.page.url, links: c.outlinks, ...(c.pageLabel === undefined ? {} : { label: c.pageLabel }) })
          : undefined,
        c.pageLabel !== undefined && c.page
          ? db.pageLabels.add({ topicId, crawlId, seq, url: c.page.url, label: c.pageLabel, source: 'auto', createdAt: now })
          : undefined,
        c.sketch && c.page ? db.sketches.add({ ...c.sketch, crawlId, seq }) : undefined,
      ]));
    }
    if (made.length) adds.push(() => addLabels(db, packLabels(crawl.topicId, crawlId, made), wrote));
    // The pages' bodies, two or three to a row (body-packs.ts), with the last of their writes.
    if (bodies.length) adds.push(() => db.bodies.bulkAdd(bodyRows(bodies)));
    await flush();
    return seqs;
  }

  /** The content sketches of a crawl's pages, in fetch order. */
  sketches(crawlId: number): Promise<SketchRow[]> {
    return this.db.sketches.where('[crawlId+seq]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
  }

  /**
   * The crawl's newest recall estimate, or why there is none, on its row; an estimate is also added to its history.
   * Only the `recall` field is written: the counters the commits keep are not touched.
   */
  async saveRecall(crawlId: number, recall: RecallPoint | { note: string }, now: number): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.crawls, db.recallHistory, async () => {
      await db.crawls.update(crawlId, { recall, updatedAt: now });
      if ('estimate' in recall) await db.recallHistory.put({ crawlId, ...recall });
    });
  }

  /** A crawl's recall estimates, in the order of pages fetched. */
  recallHistory(crawlId: number): Promise<RecallRow[]> {
    return this.db.recallHistory.where('[crawlId+fetched]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
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

  /** The user allows links the guard kept: recorded, and the links queued again at `priority` (kept-allow.ts). */
  allowKept(crawlId: number, allowing: Allowing, priority: number, now: number) {
    return allowKept(this.db, crawlId, allowing, priority, now);
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
    return db.transaction('rw', [db.crawls, db.frontier, db.hostHeads, db.pages, db.bodies, db.pageLabels, db.sites, db.graph, db.strategyStates, db.settings, db.recordChanges, db.seedLists, db.sketches, db.recallHistory], async () => {
      if (!(await db.crawls.get(crawlId))) return false;
      const lo = [crawlId, Dexie.minKey], hi = [crawlId, Dexie.maxKey];
      dropRows(db, crawlId);
      await db.frontier.where('[crawlId+url]').between(lo, hi).delete();
      await db.hostHeads.where('[crawlId+site+host]').between([crawlId, Dexie.minKey, Dexie.minKey], [crawlId, Dexie.maxKey, Dexie.maxKey]).delete();
      dropHeadList(db, crawlId);
      await deleteSeedLists(db, crawlId);
      await db.pages.where('[crawlId+seq]').between(lo, hi).delete();
      await db.bodies.where('[crawlId+seq]').between(lo, hi).delete();
      await db.sites.where('[crawlId+site]').between(lo, hi).delete();
      await db.pageLabels.where('[crawlId+seq]').between(lo, hi).delete();
      await db.graph.where('[crawlId+seq]').between(lo, hi).delete();
      await db.sketches.where('[crawlId+seq]').between(lo, hi).delete();
      await db.strategyStates.delete(crawlId);
      await db.recordChanges.where('[crawlId+url]').between(lo, hi).delete();
      await db.recallHistory.where('[crawlId+fetched]').between(lo, hi).delete();
      await db.settings.where('key').startsWith(exportMarkPrefix(crawlId)).delete();
      await db.crawls.delete(crawlId);
      this.held.forget(crawlId);
      this.taught.forget(crawlId);
      return true;
    });
  }
}

const pageOutcome = (o: PageCommit['outcome']): PageRecord['outcome'] => (o === 'retry' ? 'failed' : o);

/** Adds the labels a run of pages made, packed (label-packs.ts), and gives the packs with their keys to `wrote`. */
async function addLabels(db: CrawlerDB, packs: LabelPack[], wrote: LabelPack[]): Promise<void> {
  const keys = (await db.labels.bulkAdd(packs, { allKeys: true })) as number[];
  packs.forEach((p, i) => wrote.push({ ...p, id: keys[i]! }));
}
