// The Topics view's evaluation: held-out or k-fold precision, recall, F1 and confusion matrices of the two
// feature groups side by side, and the strongest features of each class. (Being built.)
import type { CrawlerDB } from '@/lib/store/db';

export class EvaluationPanel {
  constructor(private readonly db: CrawlerDB, private readonly root: HTMLElement) {}

  /** Shows the evaluation controls for a topic (nothing when undefined). */
  show(topicId: number | undefined): void {
    this.root.textContent = topicId === undefined ? '' : 'Evaluation is being built.';
    void this.db;
  }
}
