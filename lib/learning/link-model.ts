// The link classifier a topic's labels make: from a saved model plus the labels added since, or from the
// keywords and every label. Kept apart from model.ts (which also builds the page judge from stored HTML, and
// so needs the parser) because the dashboard scores its labeling queue with it.
import { LinkClassifier } from './link-classifier';
import type { ModelRecord } from '../records/rows';
import type { TopicPort } from '../ports';
import type { LabeledLink, Topic } from '../records/types';

/**
 * Learns one stored label into `link`. The user's (the labeler's, the dashboard's, the links to a page they judged)
 * are answers: the link model weighs their words by its answer policy (classifier/answer-evidence.ts).
 */
export function learnLabel(link: LinkClassifier, l: LabeledLink): void {
  if (l.source === 'user' || l.source === 'page') link.learnAnswer(l, l.label);
  else link.learn(l, l.label);
}

export interface TopicLinkClassifier {
  link: LinkClassifier;
  /** Id of the newest label it has learned. */
  lastLabelId: number;
}

/** `from` a saved model of the topic's current revision, or (without one) from scratch. */
export async function linkClassifierOf(topics: TopicPort, topic: Topic, from?: ModelRecord): Promise<TopicLinkClassifier> {
  const link = from ? LinkClassifier.fromJSON(from.link) : new LinkClassifier(topic.keywords);
  let lastLabelId = from?.lastLabelId ?? 0;
  for (const l of await topics.labelsAfter(topic.id!, lastLabelId)) {
    learnLabel(link, l);
    lastLabelId = Math.max(lastLabelId, l.id ?? 0);
  }
  return { link, lastLabelId };
}

/** The topic's saved model if it is of the topic's revision (else it must be rebuilt), or undefined. */
export async function usableSavedModel(topics: TopicPort, topic: Topic): Promise<ModelRecord | undefined> {
  const saved = await topics.getModel(topic.id!);
  return saved && saved.revision === topic.revision ? saved : undefined;
}

/** The topic's link classifier as a crawl of it would load it now. */
export async function loadLinkClassifier(topics: TopicPort, topic: Topic): Promise<LinkClassifier> {
  return (await linkClassifierOf(topics, topic, await usableSavedModel(topics, topic))).link;
}
