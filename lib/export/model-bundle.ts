// A topic's model as one JSON document: keywords, both classifiers and every labeled link, so that whoever
// imports it can go on labeling and retraining, not only use the model as it is.
import { LinkClassifier } from '../classifier/link-classifier';
import { PageJudge } from '../classifier/page-judge';
import type { ModelBundle } from '../protocol';
import type { LabeledLink, Topic } from '../types';
import type { CrawlModel } from '../crawl/model';

export function toBundle(topic: Topic, model: CrawlModel, labels: LabeledLink[], now: number): ModelBundle {
  return {
    kind: 'focus-model',
    version: 1,
    topic: { name: topic.name, keywords: [...topic.keywords] },
    link: model.link.toJSON(),
    judge: model.judge.toJSON(),
    labels: labels.map((l) => ({
      url: l.url, anchor: l.anchor, context: l.context, label: l.label, source: l.source, createdAt: l.createdAt,
      ...(l.pageUrl ? { pageUrl: l.pageUrl } : {}),
    })),
    exportedAt: now,
  };
}

/** Checks an imported bundle; throws an Error with one sentence saying what is wrong. */
export function readBundle(raw: unknown): ModelBundle & { parsed: { link: LinkClassifier; judge: PageJudge } } {
  const fail = (why: string): never => {
    throw new Error(`this is not a Focus model file: ${why}`);
  };
  if (typeof raw !== 'object' || raw === null) return fail('it is not a JSON object');
  const b = raw as Partial<ModelBundle>;
  if (b.kind !== 'focus-model') return fail('"kind" is not "focus-model"');
  if (b.version !== 1) return fail(`version ${JSON.stringify(b.version)} is not one this version of Focus reads (1)`);
  if (!b.topic || typeof b.topic.name !== 'string' || !Array.isArray(b.topic.keywords)) return fail('"topic" needs a name and keywords');
  if (!Array.isArray(b.labels)) return fail('"labels" is not a list');
  let link: LinkClassifier, judge: PageJudge;
  try {
    link = LinkClassifier.fromJSON(b.link);
    judge = PageJudge.fromJSON(b.judge);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  b.labels.forEach((l, i) => {
    if (typeof l?.url !== 'string' || (l.label !== 0 && l.label !== 1) || typeof l.anchor !== 'string' || typeof l.context !== 'string') {
      fail(`label ${i + 1} needs url, anchor, context and a label of 0 or 1`);
    }
  });
  return { ...(b as ModelBundle), parsed: { link, judge } };
}
