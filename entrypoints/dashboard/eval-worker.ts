// A module Web Worker of the dashboard that evaluates a topic's link classifier (design A.8): it reads the
// labeled links itself and runs lib/learning/evaluate, so that 70,000 labels (several seconds of work) never
// hold up the page. It only reads the database, like the page that starts it.
import { evaluateLinks, type EvaluationReport } from '@/lib/learning/evaluate.ts';
import { CrawlerDB } from '@/lib/store/db';
import type { LabelSource } from '@/lib/records/types.ts';
import { evaluationExamples, type CountsBySource } from '@/lib/ui/queries';

export type EvalRequest =
  | { id: number; kind: 'evaluate'; topicId: number; sources: LabelSource[]; seed: number; folds: number; trainFraction: number };

export type EvalReply =
  | { id: number; ok: true; kind: 'evaluate'; report: EvaluationReport; examples: number; counts: CountsBySource; readMs: number }
  | { id: number; ok: false; error: string };

/** The worker's global scope, as much of it as this file uses (the project's TypeScript lib is the DOM's). */
interface WorkerScope {
  onmessage: ((ev: MessageEvent<EvalRequest>) => void) | null;
  postMessage(reply: EvalReply): void;
}

let db: CrawlerDB | undefined;

async function answer(req: EvalRequest): Promise<EvalReply> {
  db ??= new CrawlerDB();
  const topic = await db.topics.get(req.topicId);
  if (!topic) throw new Error(`there is no topic ${req.topicId} (deleted?)`);
  const t0 = performance.now();
  const { examples, counts } = await evaluationExamples(db, req.topicId, new Set(req.sources));
  const readMs = performance.now() - t0;
  const report = await evaluateLinks(examples, {
    keywords: topic.keywords,
    seed: req.seed,
    folds: req.folds,
    trainFraction: req.trainFraction,
    topFeatures: 12,
  });
  return { id: req.id, ok: true, kind: 'evaluate', report, examples: examples.length, counts, readMs };
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = (ev) => {
  answer(ev.data).then(
    (reply) => scope.postMessage(reply),
    (err: unknown) => scope.postMessage({ id: ev.data.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
};
