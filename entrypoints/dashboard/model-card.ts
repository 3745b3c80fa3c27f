// The Topics view's model card: what the topic's saved model has learned and when, Retrain, and the model
// as a file (export, import as a new topic).
import { checkImportSize } from '@/lib/export/label-input.ts';
import { sendMessage } from '@/lib/platform/messaging';
import type { RetrainReport } from '@/lib/app/protocol.ts';
import type { CrawlerDB } from '@/lib/store/db';
import type { Topic } from '@/lib/records/types.ts';
import { downloadFile } from '@/lib/platform/actions';
import { byId, errorText, fill, h } from '@/lib/platform/dom';
import { formatCount, formatDateTime } from '@/lib/ui/format';
import { modelSummary, type ModelSummary } from '@/lib/ui/label-queries';
import { watch } from '@/lib/ui/queries';
import { busy, fileStem, rejectedText, showNotice } from './topic-ui';

export interface ModelCardEvents {
  /** A model file became a new topic. */
  imported(topicId: number): void;
}

interface CardState {
  topic: Topic;
  summary: ModelSummary;
  pages: { on: number; off: number };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

export function retrainSentence(r: RetrainReport): string {
  const pages = r.pages.pos + r.pages.neg;
  const rescoring = r.rescoring.length
    ? ` Re-scoring the queued links of ${r.rescoring.length === 1 ? 'crawl' : 'crawls'} ${r.rescoring.map((id) => `#${id}`).join(', ')}.`
    : ' No crawl of this topic is running, so no frontier is re-scored.';
  return (
    `Retrained in ${formatCount(r.ms)} ms on ${formatCount(r.examples.pos)} on-topic and ${formatCount(r.examples.neg)} off-topic links` +
    `${pages ? ` and ${plural(pages, 'labeled page')}` : ''}.${rescoring}`
  );
}

export class ModelCard {
  private topicId: number | undefined;
  private unsubscribe: (() => void) | undefined;
  /** A sentence to show once the topic it is about is shown. */
  private carry: { topicId: number; message: string } | undefined;
  private readonly report = byId('model-report');
  private readonly error = byId('model-error');

  constructor(private readonly db: CrawlerDB, private readonly events: ModelCardEvents) {
    const retrain = byId<HTMLButtonElement>('model-retrain');
    retrain.addEventListener('click', () => void this.retrain(retrain));
    const exportButton = byId<HTMLButtonElement>('model-export');
    exportButton.addEventListener('click', () => void this.exportModel(exportButton));
    const input = byId<HTMLInputElement>('model-import');
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      input.value = ''; // the same file can be chosen again
      if (file) void this.importModel(file);
    });
  }

  show(topicId: number | undefined): void {
    if (topicId === this.topicId) return;
    this.topicId = topicId;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    // The report of an import belongs to the topic it created, which is shown next.
    const carried = this.carry && this.carry.topicId === topicId ? this.carry.message : null;
    this.carry = undefined;
    showNotice(this.report, carried);
    showNotice(this.error, null);
    fill(byId('model-facts'));
    byId('model-note').hidden = true;
    for (const id of ['model-retrain', 'model-export']) byId<HTMLButtonElement>(id).disabled = topicId === undefined;
    if (topicId === undefined) return;
    this.unsubscribe = watch(
      () => this.read(topicId),
      (state) => state && this.render(state),
      (err) => showNotice(this.error, `Could not read the model: ${errorText(err)}`),
    );
  }

  private async read(topicId: number): Promise<CardState | undefined> {
    const topic = await this.db.topics.get(topicId);
    if (!topic) return undefined;
    const pages = { on: 0, off: 0 };
    await this.db.pageLabels.where('topicId').equals(topicId).each((p) => void pages[p.label === 1 ? 'on' : 'off']++);
    return { topic, summary: await modelSummary(this.db, topic), pages };
  }

  private render(state: CardState): void {
    const { summary: s, pages } = state;
    const learned = s.examples
      ? `${formatCount(s.examples.pos)} on topic · ${formatCount(s.examples.neg)} off topic`
      : 'not built yet';
    const facts: [string, string, string][] = [
      ['Links learned', learned, 'model-examples'],
      ['Labeled pages', `${formatCount(pages.on)} on topic · ${formatCount(pages.off)} off topic`, 'model-pages'],
      ['Last trained', s.savedAt === null ? 'never' : formatDateTime(s.savedAt), 'model-saved'],
    ];
    fill(byId('model-facts'), ...facts.flatMap(([k, v, testid]) => [h('dt', null, k), h('dd', { 'data-testid': testid }, v)]));
    const note = s.outdated
      ? 'Labels or keywords changed since it was saved: it is rebuilt from all the labels when next used, or now with Retrain.'
      : s.pending
        ? `${plural(s.pending, 'label')} added since it was saved: it learns them when next used.`
        : s.examples === null
          ? 'It is built from the keywords and labels when a crawl or the labeler first uses it, or now with Retrain.'
          : null;
    showNotice(byId('model-note'), note);
  }

  private async retrain(button: HTMLButtonElement): Promise<void> {
    const topicId = this.topicId;
    if (topicId === undefined) return;
    showNotice(this.error, null);
    showNotice(this.report, 'Retraining…');
    try {
      const report = await busy(button, () => sendMessage('retrain', { topicId }));
      if (topicId === this.topicId) showNotice(this.report, retrainSentence(report));
    } catch (err) {
      showNotice(this.report, null);
      showNotice(this.error, `Could not retrain: ${errorText(err)}`);
    }
  }

  private async exportModel(button: HTMLButtonElement): Promise<void> {
    const topicId = this.topicId;
    if (topicId === undefined) return;
    showNotice(this.error, null);
    try {
      const bundle = await busy(button, () => sendMessage('exportModel', { topicId }));
      downloadFile([JSON.stringify(bundle)], `focus-model-${fileStem(bundle.topic.name)}.json`, 'application/json');
    } catch (err) {
      showNotice(this.error, `Could not export the model: ${errorText(err)}`);
    }
  }

  private async importModel(file: File): Promise<void> {
    showNotice(this.error, null);
    showNotice(this.report, null);
    let bundle: unknown;
    try {
      const text = await file.text();
      checkImportSize(text.length, 'this file');
      bundle = JSON.parse(text);
    } catch (err) {
      const why = err instanceof SyntaxError ? 'it is not JSON (a model file is what "Export model" writes)' : errorText(err);
      return showNotice(this.error, `Could not import ${file.name}: ${why}.`);
    }
    try {
      const report = await sendMessage('importModel', { bundle });
      const { topic } = report;
      const skipped = report.rejectedCount ? ` Its labels: added ${formatCount(report.added)}, ${rejectedText(report, 'label')}.` : '';
      const message = `Imported ${file.name} as the topic "${topic.name}".${skipped}`;
      this.carry = { topicId: topic.id!, message };
      this.events.imported(topic.id!);
      if (this.topicId === topic.id) showNotice(this.report, message);
    } catch (err) {
      showNotice(this.error, `Could not import ${file.name}: ${errorText(err)}`);
    }
  }
}
