// A topic's model as one JSON document: keywords, both classifiers and every labeled link, so that whoever
// imports it can go on labeling and retraining, not only use the model as it is.
import { LinkClassifier } from '../learning/link-classifier';
import { PageJudge } from '../learning/page-judge';
import type { LabeledLink, Topic } from '../records/types';
import type { CrawlModel } from '../learning/model';
import { checkImportRows, isLabelValue, readLinkText, readSource, readUrl } from './label-input';

/** What "export model" writes and "import model" reads. */
export interface ModelBundle {
  kind: 'focus-model';
  version: 1;
  topic: { name: string; keywords: string[] };
  link: unknown;
  judge: unknown;
  labels: Pick<LabeledLink, 'url' | 'anchor' | 'context' | 'label' | 'source' | 'createdAt' | 'pageUrl'>[];
  exportedAt: number;
}

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

/** A bundle's label as it will be stored, before it is given its new topic. */
export type BundleLabel = Pick<LabeledLink, 'url' | 'anchor' | 'context' | 'label' | 'source' | 'createdAt'> & { pageUrl?: string };

export interface ReadBundle {
  topic: { name: string; keywords: string[] };
  judge: PageJudge;
  labels: BundleLabel[];
  /** Labels skipped, by their 1-based place in the bundle's list, with why. */
  rejected: { line: number; error: string }[];
}

/** Longest topic name and keyword a bundle may bring (the dashboard shows both in one line). */
const MAX_NAME_CHARS = 200;

/**
 * Checks an imported bundle. What makes the whole file unusable (not a bundle, a broken model, too many
 * labels) throws an Error with one sentence; a label that is not one is skipped and reported, the rest kept.
 */
export function readBundle(raw: unknown, now: number): ReadBundle {
  const fail = (why: string): never => {
    throw new Error(`this is not a Focus model file: ${why}`);
  };
  if (typeof raw !== 'object' || raw === null) return fail('it is not a JSON object');
  const b = raw as Partial<ModelBundle>;
  if (b.kind !== 'focus-model') return fail('"kind" is not "focus-model"');
  if (b.version !== 1) return fail(`version ${JSON.stringify(b.version)} is not one this version of Focus reads (1)`);
  if (!b.topic || typeof b.topic.name !== 'string' || !Array.isArray(b.topic.keywords)) return fail('"topic" needs a name and keywords');
  const keywords = b.topic.keywords;
  if (b.topic.name.length > MAX_NAME_CHARS) return fail(`the topic's name is longer than ${MAX_NAME_CHARS} characters`);
  if (!keywords.every((k): k is string => typeof k === 'string' && k.length <= MAX_NAME_CHARS)) {
    return fail(`every keyword must be text of at most ${MAX_NAME_CHARS} characters`);
  }
  if (!Array.isArray(b.labels)) return fail('"labels" is not a list');
  checkImportRows(b.labels.length, 'this model file');
  let judge: PageJudge;
  try {
    LinkClassifier.fromJSON(b.link);
    judge = PageJudge.fromJSON(b.judge);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  const out: ReadBundle = { topic: { name: b.topic.name, keywords: [...keywords] }, judge, labels: [], rejected: [] };
  b.labels.forEach((l: unknown, i) => {
    const r = bundleLabel(l, now);
    if (typeof r === 'string') out.rejected.push({ line: i + 1, error: r });
    else out.labels.push(r);
  });
  return out;
}

/** One label of a bundle, or why it is not one. Bundles are written by Focus, so labels are 0 or 1 only. */
function bundleLabel(l: unknown, now: number): BundleLabel | string {
  if (typeof l !== 'object' || l === null || Array.isArray(l)) return 'not an object';
  const o = l as Record<string, unknown>;
  if (!isLabelValue(o.label)) return `label must be 0 or 1, got ${JSON.stringify(o.label ?? null)}`;
  const url = readUrl(o.url);
  if (url instanceof Error) return url.message;
  const anchor = readLinkText(o.anchor, 'anchor');
  if (anchor instanceof Error) return anchor.message;
  const context = readLinkText(o.context, 'context');
  if (context instanceof Error) return context.message;
  const source = readSource(o.source);
  if (source === null) return `source ${JSON.stringify(o.source)} is not one Focus writes`;
  const pageUrl = typeof o.pageUrl === 'string' && o.pageUrl ? readUrl(o.pageUrl, 'pageUrl') : undefined;
  if (pageUrl instanceof Error) return pageUrl.message;
  const createdAt = typeof o.createdAt === 'number' && Number.isFinite(o.createdAt) ? o.createdAt : now;
  return { url, anchor, context, label: o.label, source, createdAt, ...(pageUrl ? { pageUrl } : {}) };
}
