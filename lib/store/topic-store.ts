// Topics (crawl profiles) and what they learn from: labeled links, labeled pages and the saved model.
// The service worker is the only writer; a label change that a model cannot learn incrementally (a relabel,
// a deletion, a changed or cleared page label, new keywords) bumps the topic's revision, and models older than it are rebuilt.
import Dexie from 'dexie';
import type { LabeledLink, LabelValue, PageLabel, Topic } from '../types';
import type { TopicPort } from '../ports';
import type { ModelRecord } from '../records';
import type { CrawlerDB } from './db';
import { holdsLabels, takeLabels } from './label-copies';

export type NewLabel = Omit<LabeledLink, 'id'>;

export class TopicStore implements TopicPort {
  constructor(readonly db: CrawlerDB) {}

  listTopics(): Promise<Topic[]> {
    return this.db.topics.toArray();
  }

  getTopic(id: number): Promise<Topic | undefined> {
    return this.db.topics.get(id);
  }

  async mustGetTopic(id: number): Promise<Topic> {
    const t = await this.db.topics.get(id);
    if (!t) throw new Error(`there is no topic ${id} (deleted?)`);
    return t;
  }

  async createTopic(name: string, keywords: string[], now: number): Promise<Topic> {
    const clean = name.trim();
    if (!clean) throw new Error('give the topic a name');
    const topic: Topic = { name: clean, keywords: [...keywords], revision: 0, createdAt: now, updatedAt: now };
    topic.id = (await this.db.topics.add(topic)) as number;
    return topic;
  }

  /** Renames or re-keywords a topic; new keywords invalidate its model (the revision is bumped). */
  async updateTopic(id: number, patch: { name?: string; keywords?: string[] }, now: number): Promise<Topic> {
    return this.db.transaction('rw', this.db.topics, async () => {
      const t = await this.mustGetTopic(id);
      if (patch.name !== undefined) {
        if (!patch.name.trim()) throw new Error('give the topic a name');
        t.name = patch.name.trim();
      }
      if (patch.keywords !== undefined && patch.keywords.join('\n') !== t.keywords.join('\n')) {
        t.keywords = [...patch.keywords];
        t.revision++;
      }
      t.updatedAt = now;
      await this.db.topics.put(t);
      return t;
    });
  }

  /** Deletes a topic with its labels, page labels and model (its crawls and their pages stay). */
  async deleteTopic(id: number): Promise<boolean> {
    const db = this.db;
    return db.transaction('rw', [db.topics, db.labels, db.pageLabels, db.topicModels, db.settings], async () => {
      if (!(await db.topics.get(id))) return false;
      await db.labels.where('[topicId+id]').between([id, Dexie.minKey], [id, Dexie.maxKey]).delete();
      await db.pageLabels.where('topicId').equals(id).delete();
      await db.topicModels.delete(id);
      await db.topics.delete(id);
      const active = await db.settings.get(ACTIVE_TOPIC);
      if (active?.value === id) await db.settings.delete(ACTIVE_TOPIC);
      return true;
    });
  }

  async getActiveTopicId(): Promise<number | undefined> {
    const v = (await this.db.settings.get(ACTIVE_TOPIC))?.value;
    return typeof v === 'number' ? v : undefined;
  }

  async setActiveTopicId(id: number): Promise<void> {
    await this.db.settings.put({ key: ACTIVE_TOPIC, value: id });
  }

  private async bump(topicIds: Iterable<number>, now: number): Promise<void> {
    for (const id of new Set(topicIds)) {
      await this.db.topics.where('id').equals(id).modify((t) => {
        t.revision++;
        t.updatedAt = now;
      });
    }
  }

  // ---- labeled links ----

  /** Labels after `afterId` of a topic, oldest first: what a model saved at `afterId` has not learned yet. */
  labelsAfter(topicId: number, afterId: number): Promise<LabeledLink[]> {
    return this.db.labels.where('[topicId+id]').between([topicId, afterId + 1], [topicId, Dexie.maxKey]).toArray();
  }

  /**
   * The topic and its labels after `afterId`, in one read transaction (a running crawl asks after its pages). The
   * labels this context's commits wrote are not read again: their ids are read, and their rows taken from the copies
   * kept (label-copies.ts).
   */
  changesSince(topicId: number, afterId: number): Promise<{ topic: Topic; labels: LabeledLink[] }> {
    const db = this.db;
    return db.transaction('r', db.topics, db.labels, async () => {
      if (!holdsLabels(db)) {
        const [topic, labels] = await Promise.all([this.mustGetTopic(topicId), this.labelsAfter(topicId, afterId)]);
        takeLabels(db, topicId, topic.revision, afterId, []);
        return { topic, labels };
      }
      const [topic, ids] = await Promise.all([
        this.mustGetTopic(topicId),
        db.labels.where('[topicId+id]').between([topicId, afterId + 1], [topicId, Dexie.maxKey]).primaryKeys() as Promise<number[]>,
      ]);
      const held = takeLabels(db, topicId, topic.revision, afterId, ids);
      const missing = ids.filter((_, i) => held[i] === undefined);
      const read = missing.length ? await db.labels.bulkGet(missing) : [];
      let k = 0;
      const labels = held.map((r) => r ?? read[k++]).filter((r): r is LabeledLink => r !== undefined);
      return { topic, labels };
    });
  }

  allLabels(topicId: number): Promise<LabeledLink[]> {
    return this.labelsAfter(topicId, 0);
  }

  /** The user's labels for these URLs in a topic (null where there is none). */
  async userLabels(topicId: number, urls: string[]): Promise<(LabelValue | null)[]> {
    const rows = await this.db.labels.where('[topicId+url]').anyOf(urls.map((u) => [topicId, u])).toArray();
    const byUrl = new Map<string, LabelValue>();
    for (const r of rows) if (r.source === 'user') byUrl.set(r.url, r.label);
    return urls.map((u) => byUrl.get(u) ?? null);
  }

  /**
   * The user labels a link: one user label per URL and topic, the newest wins. Replacing or clearing one is
   * a change a model cannot learn incrementally, so it bumps the revision; a first label does not.
   */
  async setUserLabel(link: Omit<NewLabel, 'source' | 'label'>, label: LabelValue | null): Promise<LabeledLink | null> {
    const db = this.db;
    return db.transaction('rw', db.labels, db.topics, async () => {
      await this.mustGetTopic(link.topicId);
      const old = await db.labels.where('[topicId+url]').equals([link.topicId, link.url]).filter((l) => l.source === 'user').toArray();
      if (old.length) {
        const same = label !== null && old.length === 1 && old[0].label === label && old[0].anchor === link.anchor && old[0].context === link.context;
        if (same) return old[0];
        await db.labels.bulkDelete(old.map((l) => l.id!));
        await this.bump([link.topicId], link.createdAt);
      }
      if (label === null) return null;
      const row: LabeledLink = { ...link, label, source: 'user' };
      row.id = (await db.labels.add(row)) as number;
      return row;
    });
  }

  /** Adds labels (imports, a labeled page's links); adding is learnable incrementally, so no revision bump. */
  async addLabels(rows: NewLabel[]): Promise<number> {
    if (rows.length === 0) return 0;
    await this.db.labels.bulkAdd(rows);
    return rows.length;
  }

  /** Changes the label of these labeled links; they become the user's. */
  async relabel(ids: number[], label: LabelValue, now: number): Promise<number> {
    const db = this.db;
    return db.transaction('rw', db.labels, db.topics, async () => {
      const rows = (await db.labels.bulkGet(ids)).filter((r): r is LabeledLink => !!r && (r.label !== label || r.source !== 'user'));
      await db.labels.bulkPut(rows.map((r) => ({ ...r, label, source: 'user' as const })));
      await this.bump(rows.map((r) => r.topicId), now);
      return rows.length;
    });
  }

  async deleteLabels(ids: number[], now: number): Promise<number> {
    const db = this.db;
    return db.transaction('rw', db.labels, db.topics, async () => {
      const rows = (await db.labels.bulkGet(ids)).filter((r): r is LabeledLink => !!r);
      await db.labels.bulkDelete(rows.map((r) => r.id!));
      await this.bump(rows.map((r) => r.topicId), now);
      return rows.length;
    });
  }

  // ---- labeled pages ----

  /** Page labels of a topic stored after `afterId`, oldest first: what a model that has seen up to `afterId` has not. */
  pageLabelsAfter(topicId: number, afterId: number): Promise<PageLabel[]> {
    return this.db.pageLabels.where('id').above(afterId).filter((p) => p.topicId === topicId).toArray();
  }

  pageLabels(topicId: number): Promise<PageLabel[]> {
    return this.db.pageLabels.where('topicId').equals(topicId).toArray();
  }

  /**
   * The user labels a fetched page (null clears): replaces the page's labels in that crawl and the link
   * labels derived from an earlier page label, then adds `links` (every known link to the page) as labels.
   */
  async setPageLabel(
    page: { topicId: number; crawlId: number; seq: number; url: string },
    label: LabelValue | null,
    links: Omit<NewLabel, 'label' | 'source'>[],
    now: number,
  ): Promise<number> {
    const db = this.db;
    return db.transaction('rw', [db.pageLabels, db.labels, db.topics], async () => {
      await this.mustGetTopic(page.topicId);
      const replaced =
        (await db.pageLabels.where('[crawlId+seq]').equals([page.crawlId, page.seq]).delete()) +
        (await db.labels.where('[topicId+url]').equals([page.topicId, page.url]).filter((l) => l.source === 'page').delete());
      if (label !== null) {
        await db.pageLabels.add({ ...page, label, source: 'user', createdAt: now });
        await db.labels.bulkAdd(links.map((l) => ({ ...l, label, source: 'page' as const })));
      }
      // A first verdict on a page only adds (its links' labels and the page's), which a model learns incrementally
      // (model.ts, catchUp); replacing or withdrawing one takes away what models learned, so they are rebuilt.
      if (replaced > 0) await this.bump([page.topicId], now);
      return label === null ? 0 : links.length;
    });
  }

  // ---- models ----

  getModel(topicId: number): Promise<ModelRecord | undefined> {
    return this.db.topicModels.get(topicId);
  }

  async saveModel(m: ModelRecord): Promise<void> {
    await this.db.topicModels.put(m);
  }
}

const ACTIVE_TOPIC = 'activeTopic';
