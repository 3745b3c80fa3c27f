// A topic's two classifiers and their persistence: the link classifier (SPEC A) and the page judge.
// A model is a function of the topic's keywords, labeled links and labeled pages. Adding labels is learned
// incrementally (labels newer than the model's `lastLabelId` are replayed); anything else that changes them
// bumps the topic's revision, and a model of an older revision is rebuilt from all of them.
import { LinkClassifier } from '../classifier/link-classifier';
import { PageJudge } from '../classifier/page-judge';
import { parseHtml } from '../parse/html';
import type { CrawlStore } from '../store/crawl-store';
import type { LabeledLink, Topic } from '../types';

export interface CrawlModel {
  link: LinkClassifier;
  judge: PageJudge;
  /** Id of the newest label `link` has learned. */
  lastLabelId: number;
  /** The topic revision it was built at. */
  revision: number;
}

/** Builds a topic's model from scratch: keywords, every labeled link, every labeled page still stored. */
export async function buildModel(store: CrawlStore, topic: Topic, threshold = 0.5): Promise<CrawlModel> {
  const topicId = topic.id!;
  const link = new LinkClassifier(topic.keywords);
  const judge = topic.judgeBase ? PageJudge.fromJSON(topic.judgeBase) : new PageJudge(topic.keywords, threshold);
  const model: CrawlModel = { link, judge, lastLabelId: 0, revision: topic.revision };
  learnLabels(model, await store.topics.allLabels(topicId));
  const pages = await store.topics.pageLabels(topicId);
  // A page labeled by the user overrides the patterns' label of the same fetch.
  const byFetch = new Map<string, (typeof pages)[number]>();
  for (const p of pages) {
    const key = `${p.crawlId}:${p.seq}`;
    const prev = byFetch.get(key);
    if (!prev || p.source === 'user') byFetch.set(key, p);
  }
  const chosen = [...byFetch.values()];
  const bodies = await store.bodies(chosen);
  chosen.forEach((p, i) => {
    const body = bodies[i];
    if (body) judge.learn(parseHtml(body.html, p.url), p.label);
  });
  return model;
}

/** The topic's saved model brought up to date, or a rebuilt one when the saved one is of an older revision. */
export async function loadModel(store: CrawlStore, topicId: number, threshold = 0.5): Promise<CrawlModel> {
  const topic = await store.topics.mustGetTopic(topicId);
  const saved = await store.topics.getModel(topicId);
  if (!saved || saved.revision !== topic.revision) return buildModel(store, topic, threshold);
  const model: CrawlModel = {
    link: LinkClassifier.fromJSON(saved.link),
    judge: PageJudge.fromJSON(saved.judge),
    lastLabelId: saved.lastLabelId,
    revision: saved.revision,
  };
  learnLabels(model, await store.topics.labelsAfter(topicId, model.lastLabelId));
  return model;
}

/**
 * Brings an in-memory model up to date with the store: learns the labels added since, or, when the topic's
 * revision moved on, returns a rebuilt model. Returns the labels learned (all of them after a rebuild).
 */
export async function catchUp(
  store: CrawlStore, topicId: number, model: CrawlModel, threshold = 0.5,
): Promise<{ model: CrawlModel; learned: LabeledLink[]; rebuilt: boolean }> {
  const topic = await store.topics.mustGetTopic(topicId);
  if (topic.revision !== model.revision) {
    const rebuilt = await buildModel(store, topic, threshold);
    return { model: rebuilt, learned: await store.topics.allLabels(topicId), rebuilt: true };
  }
  const learned = await store.topics.labelsAfter(topicId, model.lastLabelId);
  learnLabels(model, learned);
  return { model, learned, rebuilt: false };
}

function learnLabels(model: CrawlModel, labels: LabeledLink[]): void {
  for (const l of labels) {
    model.link.learn(l, l.label);
    model.lastLabelId = Math.max(model.lastLabelId, l.id ?? 0);
  }
}

export async function saveModel(store: CrawlStore, topicId: number, model: CrawlModel, now: number): Promise<void> {
  await store.topics.saveModel({
    topicId, link: model.link.toJSON(), judge: model.judge.toJSON(), lastLabelId: model.lastLabelId, revision: model.revision, updatedAt: now,
  });
}
