// The dashboard's Topics view (?view=topics&topic=ID): a topic's bar, model card, labeling queue, labeled
// links and evaluation. It starts reading the database the first time it is shown.
import type { CrawlerDB } from '@/lib/store/db';
import type { Topic } from '@/lib/records/types.ts';
import { byId, errorText } from '@/lib/platform/dom';
import { activeTopicId, allTopics } from '@/lib/ui/label-queries';
import { watch } from '@/lib/ui/queries';
import { EvaluationPanel } from './evaluation-panel';
import { LabelQueue } from './label-queue';
import { LabelsTable } from './labels-table';
import { ModelCard } from './model-card';
import { TopicBar } from './topic-bar';
import { showNotice } from './topic-ui';

export class TopicsView {
  private topics: Topic[] = [];
  private activeId: number | undefined;
  /** The topic shown: from ?topic=ID, a pick, or the labeler's (else the newest) topic. */
  private selectedId: number | undefined;
  /** A topic just created or imported: selected before its row reaches this page's list. */
  private justAdded: number | undefined;
  private shownId: number | undefined | null = null;
  private started = false;
  private readonly bar: TopicBar;
  private readonly card: ModelCard;
  private readonly queue: LabelQueue;
  private readonly table: LabelsTable;
  private readonly evaluation: EvaluationPanel;

  constructor(private readonly db: CrawlerDB) {
    this.table = new LabelsTable(db);
    this.bar = new TopicBar(db, {
      select: (id) => this.added(id),
      counted: (topicId, counts) => {
        this.table.setCounts(counts);
        this.evaluation.setCounts(topicId, counts.links);
      },
    });
    this.card = new ModelCard(db, { imported: (id) => this.added(id) });
    this.queue = new LabelQueue(db);
    this.evaluation = new EvaluationPanel(db, byId('evaluation'));
  }

  /** Shows the view, with `topicId` selected when given; the first call starts the live reads. */
  open(topicId: number | undefined): void {
    if (topicId !== undefined) this.selectedId = topicId;
    if (this.started) return this.render();
    this.started = true;
    watch(
      async () => ({ topics: await allTopics(this.db), activeId: await activeTopicId(this.db) }),
      ({ topics, activeId }) => {
        this.topics = topics;
        this.activeId = activeId;
        this.render();
      },
      (err) => showNotice(byId('topic-error'), `Could not read the topics: ${errorText(err)}`),
    );
  }

  private added(topicId: number | undefined): void {
    this.justAdded = topicId;
    this.select(topicId);
  }

  select(topicId: number | undefined): void {
    this.selectedId = topicId;
    const url = new URL(location.href);
    if (topicId === undefined) url.searchParams.delete('topic');
    else url.searchParams.set('topic', String(topicId));
    history.replaceState(null, '', url);
    this.render();
  }

  private render(): void {
    const { topics } = this;
    if (topics.some((t) => t.id === this.justAdded)) this.justAdded = undefined;
    // Keep what is shown until the new topic's row arrives.
    if (this.justAdded !== undefined && this.selectedId === this.justAdded) return;
    // A topic that is gone (deleted, or a stale ?topic=ID) gives way to the labeler's topic, else the newest.
    if (!topics.some((t) => t.id === this.selectedId)) {
      const fallback = (topics.some((t) => t.id === this.activeId) ? this.activeId : topics.at(-1)?.id) ?? undefined;
      if (fallback !== this.selectedId) return this.select(fallback);
    }
    const topic = topics.find((t) => t.id === this.selectedId);
    this.bar.render(topics, topic, this.activeId);
    byId('no-topics').hidden = topics.length > 0;
    byId('topic-body').hidden = !topic;
    byId('labels-panel').hidden = !topic;
    byId('evaluation').hidden = !topic;
    this.table.show(topic);
    if (topic?.id === this.shownId) return;
    this.shownId = topic?.id;
    this.card.show(topic?.id);
    this.queue.show(topic?.id);
    this.evaluation.show(topic?.id);
  }
}
