// The protocol's topic, label and model requests. Platform-free, like the crawl service it belongs to: it
// reads the live runners of a topic through `runnersOf`, so a label made while a crawl runs reaches it.
import type { LinkToScore, ProtocolMap, Request, RetrainReport } from './protocol';
import { bodyHtml } from '../records/page-body';
import { parseHtml } from '../parse/html';
import { parseLabels } from '../export/labels';
import { readBundle, toBundle } from '../export/model-bundle';
import type { Clock } from '../net/fetcher';
import type { CrawlStore } from '../store/crawl-store';
import type { LabeledLink, Topic } from '../records/types';
import type { AnswerEffect } from '../records/rows';
import { normalizeUrl } from '../records/url';
import { checkLabel, checkUrlLength, MAX_SCORE_BATCH, must, readLinkText, readUrl } from '../export/label-input';
import type { CrawlRunner } from '../run/runner';
import { buildModel, catchUp, loadModel, saveModel, type CrawlModel } from '../learning/model';
import { rowKeyOf } from '../store/label-packs';

type TopicRequest = Exclude<
  keyof ProtocolMap,
  'start' | 'pause' | 'resume' | 'stop' | 'status' | 'fetchingNow' | 'pages' | 'recallHistory' | 'deleteCrawl' | 'markExported' | 'setSiteBlacklisted' | 'allowKept' | 'setLabeler' | 'startShared' | 'recrawl' | 'records' | 'recordChanges'
>;
export type TopicHandlers = { [K in TopicRequest]: (data: Request<K>) => Promise<ReturnType<ProtocolMap[K]>> };

/** Rejected lines an import reports one by one; the rest are only counted. */
const REPORTED_REJECTIONS = 20;

export class TopicService {
  /** Models of topics with no crawl running here, kept for the labeler's many score requests. */
  private readonly idle = new Map<number, CrawlModel>();

  constructor(
    private readonly store: CrawlStore,
    private readonly clock: Clock,
    private readonly runnersOf: (topicId: number) => CrawlRunner[],
  ) {}

  /** The topic's current model, caught up with its labels: a running crawl's own, or one kept here. */
  async modelOf(topicId: number): Promise<CrawlModel> {
    const runner = this.runnersOf(topicId)[0];
    if (runner) {
      await runner.requestSync();
      return runner.currentModel();
    }
    const kept = this.idle.get(topicId);
    const model = kept ? (await catchUp(this.store, topicId, kept)).model : await loadModel(this.store, topicId);
    this.idle.set(topicId, model);
    return model;
  }

  private async activeTopic(topicId?: number): Promise<Topic> {
    const topics = this.store.topics;
    if (topicId !== undefined) {
      const t = await topics.mustGetTopic(topicId);
      await topics.setActiveTopicId(topicId);
      return t;
    }
    const saved = await topics.getActiveTopicId();
    const t = saved === undefined ? undefined : await topics.getTopic(saved);
    if (t) return t;
    // No choice yet: the newest crawl's topic, else a new one.
    const all = await topics.listTopics();
    const chosen = all.at(-1) ?? (await topics.createTopic('My topic', [], this.clock.now()));
    await topics.setActiveTopicId(chosen.id!);
    return chosen;
  }

  /** Every link known to point at `url` in a crawl: the link it was found by, and each link to it on its parent page. */
  private async linksTo(crawlId: number, url: string): Promise<{ anchor: string; context: string; pageUrl?: string }[]> {
    const out = new Map<string, { anchor: string; context: string; pageUrl?: string }>();
    const add = (anchor: string, context: string, pageUrl?: string) => {
      if (anchor.trim() || context.trim()) out.set(`${anchor}\u0000${context}`, { anchor, context, ...(pageUrl ? { pageUrl } : {}) });
    };
    const entry = await this.store.frontier.getEntry(crawlId, url);
    if (!entry?.parentUrl) return [...out.values()];
    add(entry.anchor, entry.context, entry.parentUrl);
    const parent = await this.store.pages.pageByUrl(crawlId, entry.parentUrl);
    const [body] = parent ? await this.store.pages.bodies([{ crawlId, seq: parent.seq }]) : [undefined];
    if (parent && body) {
      for (const link of parseHtml(bodyHtml(body), parent.finalUrl).links) {
        if (normalizeUrl(link.url) === url) add(link.anchor, link.context, parent.url);
      }
    }
    return [...out.values()];
  }

  readonly handlers: TopicHandlers = {
    listTopics: () => this.store.topics.listTopics(),
    createTopic: ({ name, keywords }) => this.store.topics.createTopic(name, keywords, this.clock.now()),
    updateTopic: async ({ topicId, name, keywords }) => {
      const t = await this.store.topics.updateTopic(topicId, { name, keywords }, this.clock.now());
      if (keywords !== undefined) for (const r of this.runnersOf(topicId)) void r.requestSync();
      return t;
    },
    deleteTopic: async ({ topicId }) => {
      if (this.runnersOf(topicId).length) throw new Error('a crawl of this topic is running: stop it first');
      this.idle.delete(topicId);
      return { deleted: await this.store.topics.deleteTopic(topicId) };
    },
    activeTopic: ({ topicId }) => this.activeTopic(topicId),
    scoreLinks: async ({ topicId, links: raw }) => {
      if (!Array.isArray(raw)) throw new Error('links is not a list');
      if (raw.length > MAX_SCORE_BATCH) throw new Error(`send at most ${MAX_SCORE_BATCH} links at a time`);
      // The labeler's links come from a page: text past the extractor's caps did not come from the extractor.
      const links = raw.map((l: Partial<LinkToScore> | null) => ({
        url: typeof l?.url === 'string' ? must(checkUrlLength(l.url)) : '',
        anchor: must(readLinkText(l?.anchor, 'anchor')),
        context: must(readLinkText(l?.context, 'context')),
      }));
      const topic = topicId === undefined ? await this.activeTopic() : await this.store.topics.mustGetTopic(topicId);
      const model = await this.modelOf(topic.id!);
      const urls = links.map((l) => normalizeUrl(l.url) ?? l.url);
      return {
        topic,
        scores: links.map((l) => model.link.score(l)),
        labels: await this.store.topics.userLabels(topic.id!, urls),
      };
    },
    labelLink: async (req) => {
      const { topicId } = req;
      const label = checkLabel(req.label, true);
      const url = readUrl(req.url, 'the link');
      if (url instanceof Error) throw new Error(`${url.message}: only http(s) links can be crawled`);
      const anchor = must(readLinkText(req.anchor, 'anchor'));
      const context = must(readLinkText(req.context, 'context'));
      // Labels made on a file:// page (the labeler runs there too) keep no page address rather than fail.
      const pageUrl = req.pageUrl ? readUrl(req.pageUrl, 'the page') : undefined;
      const row = await this.store.topics.setUserLabel(
        { topicId, crawlId: null, url, anchor, context, createdAt: this.clock.now(), ...(typeof pageUrl === 'string' ? { pageUrl } : {}) },
        label,
      );
      if (!req.wait) {
        this.syncRunners(topicId);
        return { label: row };
      }
      // The labeling queue waits for the running crawls to take the answer in (a partial re-score), so its next
      // question is asked of the frontier the answer changed, and it can say what changed.
      const effect = await this.answerTaken(topicId);
      return { label: row, ...(effect ? { effect } : {}) };
    },
    relabel: async ({ ids, label: raw }) => {
      const label = checkLabel(raw);
      const topicIds = await this.topicsOfLabels(ids);
      const changed = await this.store.topics.relabel(ids, label, this.clock.now());
      topicIds.forEach((t) => this.syncRunners(t));
      return { changed };
    },
    deleteLabels: async ({ ids }) => {
      const topicIds = await this.topicsOfLabels(ids);
      const deleted = await this.store.topics.deleteLabels(ids, this.clock.now());
      topicIds.forEach((t) => this.syncRunners(t));
      return { deleted };
    },
    importLabels: async ({ topicId, format, text }) => {
      await this.store.topics.mustGetTopic(topicId);
      if (typeof text !== 'string') throw new Error('the file is not text');
      const { labels, rejected } = parseLabels(format, text, this.clock.now());
      const added = await this.store.topics.addLabels(labels.map((l) => ({ ...l, topicId, crawlId: null, source: 'user' as const })));
      this.syncRunners(topicId);
      return { added, rejected: rejected.slice(0, REPORTED_REJECTIONS), rejectedCount: rejected.length };
    },
    labelPage: async ({ crawlId, seq, label: raw, wait }) => {
      const label = checkLabel(raw, true);
      const crawl = await this.store.getCrawl(crawlId);
      if (!crawl) throw new Error(`there is no crawl ${crawlId}`);
      const page = await this.store.pages.getPage(crawlId, seq);
      if (!page) throw new Error(`crawl ${crawlId} has no page ${seq}`);
      if (page.error) throw new Error('this fetch failed: there is no page to label');
      const [body] = await this.store.pages.bodies([{ crawlId, seq }]);
      if (!body) throw new Error('this page was not stored, so it cannot teach the page judge');
      const now = this.clock.now();
      const links = (await this.linksTo(crawlId, page.url)).map((l) => ({ ...l, topicId: crawl.topicId, crawlId, url: page.url, createdAt: now }));
      const n = await this.store.topics.setPageLabel({ topicId: crawl.topicId, crawlId, seq, url: page.url }, label, links, now);
      if (!wait) {
        this.syncRunners(crawl.topicId);
        return { links: n };
      }
      // As a link answer: a first verdict on a page is learned at once and re-scores only what it reaches.
      const effect = await this.answerTaken(crawl.topicId);
      return { links: n, ...(effect ? { effect } : {}) };
    },
    retrain: async ({ topicId }) => {
      const started = this.clock.now();
      const runners = this.runnersOf(topicId);
      let model: CrawlModel;
      if (runners.length) {
        const models = await Promise.all(runners.map((r) => r.retrain()));
        model = models[0];
      } else {
        model = await buildModel(this.store, await this.store.topics.mustGetTopic(topicId));
        await saveModel(this.store, topicId, model, this.clock.now());
        this.idle.set(topicId, model);
      }
      const report: RetrainReport = {
        examples: model.link.examples, pages: model.judge.examples, ms: this.clock.now() - started,
        rescoring: runners.map((r) => r.crawlId),
      };
      return report;
    },
    exportModel: async ({ topicId }) => {
      const topic = await this.store.topics.mustGetTopic(topicId);
      const model = await this.modelOf(topicId);
      return toBundle(topic, model, await this.store.topics.allLabels(topicId), this.clock.now());
    },
    importModel: async ({ bundle, name }) => {
      const now = this.clock.now();
      const b = readBundle(bundle, now);
      const topics = this.store.topics;
      const existing = new Set((await topics.listTopics()).map((t) => t.name));
      let topicName = (name ?? b.topic.name).trim() || 'Imported topic';
      for (let i = 2; existing.has(topicName); i++) topicName = `${(name ?? b.topic.name).trim()} (${i})`;
      const topic = await topics.createTopic(topicName, b.topic.keywords, now);
      // The judge as read, not the object sent: whatever else the file carried is not stored.
      await this.store.db.topics.update(topic.id!, { judgeBase: b.judge.toJSON() });
      const added = await topics.addLabels(b.labels.map((l): Omit<LabeledLink, 'id'> => ({ ...l, topicId: topic.id!, crawlId: null })));
      return {
        topic: await topics.mustGetTopic(topic.id!),
        added, rejected: b.rejected.slice(0, REPORTED_REJECTIONS), rejectedCount: b.rejected.length,
      };
    },
  };

  private async topicsOfLabels(ids: number[]): Promise<Set<number>> {
    // A packed label's id names its pack's row (label-packs.ts), which has its topic.
    const rows = await this.store.db.labels.bulkGet([...new Set(ids.map(rowKeyOf))]);
    return new Set(rows.flatMap((r) => (r ? [r.topicId] : [])));
  }

  /** Waits for the topic's running crawls to learn the newest labels; what the answer changed, summed over them. */
  private async answerTaken(topicId: number): Promise<AnswerEffect | null> {
    const runners = this.runnersOf(topicId);
    const since = this.clock.now();
    await Promise.all(runners.map((r) => r.requestSync()));
    const effects = runners.map((r) => r.answerEffect()).filter((e): e is AnswerEffect => e !== null && e.at >= since);
    if (effects.length === 0) return null;
    return effects.reduce((a, b) => ({
      at: Math.max(a.at, b.at), labels: Math.max(a.labels, b.labels), reached: a.reached + b.reached, changed: a.changed + b.changed,
      skipped: a.skipped + b.skipped, enteredTop: a.enteredTop + b.enteredTop, ms: Math.max(a.ms, b.ms),
    }));
  }

  private syncRunners(topicId: number): void {
    for (const r of this.runnersOf(topicId)) void r.requestSync();
  }
}
