// The crawl's two classifiers and their persistence: the link classifier (SPEC A) and the page judge.
// The model row is saved every few pages; labels newer than the saved row are replayed on load, so a
// stopped service worker loses no learning.
import { LinkClassifier } from '../classifier/link-classifier';
import { PageJudge } from '../classifier/page-judge';
import type { CrawlStore } from '../store/crawl-store';
import type { CrawlConfig } from './config';

export interface CrawlModel {
  link: LinkClassifier;
  judge: PageJudge;
  /** Id of the newest label already learned by `link`. */
  lastLabelId: number;
}

export async function loadModel(store: CrawlStore, crawlId: number, config: CrawlConfig): Promise<CrawlModel> {
  const saved = await store.getModel(crawlId);
  const model: CrawlModel = saved
    ? {
        link: LinkClassifier.fromJSON(saved.link),
        judge: PageJudge.fromJSON(saved.judge),
        lastLabelId: saved.lastLabelId,
      }
    : { link: new LinkClassifier(config.topic.keywords), judge: new PageJudge(config.topic.keywords, config.judge.threshold), lastLabelId: 0 };
  for (const label of await store.labelsAfter(crawlId, model.lastLabelId)) {
    model.link.learn(label, label.label);
    model.lastLabelId = Math.max(model.lastLabelId, label.id ?? 0);
  }
  return model;
}

export async function saveModel(store: CrawlStore, crawlId: number, model: CrawlModel, now: number): Promise<void> {
  // Labels committed since the last load are already learned in memory; record the newest id they reached.
  const newer = await store.labelsAfter(crawlId, model.lastLabelId);
  for (const l of newer) model.lastLabelId = Math.max(model.lastLabelId, l.id ?? 0);
  await store.saveModel({ crawlId, link: model.link.toJSON(), judge: model.judge.toJSON(), lastLabelId: model.lastLabelId, updatedAt: now });
}
