// A topic's two classifiers and their persistence: the link classifier (design A) and the page judge.
// A model is a function of the topic's keywords, labeled links and labeled pages. Adding labels is learned
// incrementally (labels newer than the model's `lastLabelId` are replayed, and the user's page labels newer than
// its `lastPageLabelId` taught to the judge); anything else that changes them
// bumps the topic's revision, and a model of an older revision is rebuilt from all of them.
import type { LinkClassifier } from './link-classifier';
import { PageJudge } from './page-judge';
import { bodyHtml } from '../records/page-body';
import { parseHtml } from '../parse/html';
import type { CrawlStorePort } from '../ports';
import type { LabeledLink, PageLabel, Topic } from '../records/types';
import { learnLabel, linkClassifierOf, usableSavedModel } from './link-model';

export interface CrawlModel {
  link: LinkClassifier;
  judge: PageJudge;
  /** Id of the newest label `link` has learned. */
  lastLabelId: number;
  /** Id of the newest page label `judge` has seen (a user's page answer is learned incrementally). */
  lastPageLabelId: number;
  /** The topic revision it was built at. */
  revision: number;
}

/** Builds a topic's model from scratch: keywords, every labeled link, every labeled page still stored. */
export async function buildModel(store: CrawlStorePort, topic: Topic, threshold = 0.5): Promise<CrawlModel> {
  const { link, lastLabelId } = await linkClassifierOf(store.topics, topic);
  const judge = topic.judgeBase ? PageJudge.fromJSON(topic.judgeBase) : new PageJudge(topic.keywords, threshold);
  const pages = await store.topics.pageLabels(topic.id!);
  // A page labeled by the user overrides the patterns' label of the same fetch.
  const byFetch = new Map<string, (typeof pages)[number]>();
  for (const p of pages) {
    const key = `${p.crawlId}:${p.seq}`;
    const prev = byFetch.get(key);
    if (!prev || p.source === 'user') byFetch.set(key, p);
  }
  const chosen = [...byFetch.values()];
  const bodies = await store.pages.bodies(chosen);
  chosen.forEach((p, i) => {
    const body = bodies[i];
    if (body) judge.learn(parseHtml(bodyHtml(body), p.url), p.label);
  });
  return { link, judge, lastLabelId, lastPageLabelId: Math.max(0, ...pages.map((p) => p.id ?? 0)), revision: topic.revision };
}

/** The topic's saved model brought up to date, or a rebuilt one when the saved one is of an older revision. */
export async function loadModel(store: CrawlStorePort, topicId: number, threshold = 0.5): Promise<CrawlModel> {
  const topic = await store.topics.mustGetTopic(topicId);
  const saved = await usableSavedModel(store.topics, topic);
  if (!saved || saved.lastPageLabelId === undefined) return buildModel(store, topic, threshold);
  const { link, lastLabelId } = await linkClassifierOf(store.topics, topic, saved);
  const model = { link, judge: PageJudge.fromJSON(saved.judge), lastLabelId, lastPageLabelId: saved.lastPageLabelId, revision: saved.revision };
  await learnPageAnswers(store, topicId, model);
  return model;
}

/**
 * Brings an in-memory model up to date with the store: learns the labels added since (returned), or, when
 * the topic's revision moved on, returns a model rebuilt from all of them.
 */
export async function catchUp(
  store: CrawlStorePort, topicId: number, model: CrawlModel, threshold = 0.5,
): Promise<{ model: CrawlModel; learned: LabeledLink[]; pages: PageLabel[]; rebuilt: boolean }> {
  const { topic, labels } = await store.topics.changesSince(topicId, model.lastLabelId);
  if (topic.revision !== model.revision) return { model: await buildModel(store, topic, threshold), learned: [], pages: [], rebuilt: true };
  learnLabels(model, labels);
  const pages = await learnPageAnswers(store, topicId, model);
  return { model, learned: labels, pages, rebuilt: false };
}

/**
 * The judge learns the pages the user judged since the model last looked (returned), as `buildModel` would. A
 * crawl's own page labels (training reads, source "auto") are taught to its judge as it reads them (training.ts).
 */
async function learnPageAnswers(store: CrawlStorePort, topicId: number, model: CrawlModel): Promise<PageLabel[]> {
  const fresh = await store.topics.pageLabelsAfter(topicId, model.lastPageLabelId);
  if (fresh.length === 0) return [];
  model.lastPageLabelId = Math.max(model.lastPageLabelId, ...fresh.map((p) => p.id ?? 0));
  const answers = fresh.filter((p) => p.source === 'user');
  if (answers.length === 0) return [];
  const bodies = await store.pages.bodies(answers);
  answers.forEach((p, i) => {
    const body = bodies[i];
    if (body) model.judge.learn(parseHtml(bodyHtml(body), p.url), p.label);
  });
  return answers;
}

function learnLabels(model: CrawlModel, labels: LabeledLink[]): void {
  for (const l of labels) {
    learnLabel(model.link, l);
    model.lastLabelId = Math.max(model.lastLabelId, l.id ?? 0);
  }
}

export async function saveModel(store: CrawlStorePort, topicId: number, model: CrawlModel, now: number): Promise<void> {
  await store.topics.saveModel({
    topicId, link: model.link.toJSON(), judge: model.judge.toJSON(), lastLabelId: model.lastLabelId, lastPageLabelId: model.lastPageLabelId, revision: model.revision, updatedAt: now,
  });
}
