// Topics (crawl profiles) and what they learn from: labeled links, labeled pages and the saved model.
// The service worker is the only writer; a label change that a model cannot learn incrementally (a relabel,
// a deletion, a changed or cleared page label, new keywords) bumps the topic's revision, and models older than it are rebuilt.
import Dexie, { type IndexableType } from 'dexie';
import type { LabeledLink, LabelValue, PageLabel, Topic } from '../records/types';
import type { TopicPort } from '../ports';
import type { ModelRecord } from '../records/rows';
import type { CrawlerDB } from './db';
import { holdsLabels, takeLabels } from './label-copies';
import { isPack, type LabelPack, type LabelRow, labelsIn, labelsOfRows, rowKeyOf, slotOf, urlRows } from './label-packs';

export type NewLabel = Omit<LabeledLink, 'id'>;

const PACKED_IN = Symbol('pack');
/** A label found by id: the pack it is in, when it is packed (the pack row as read, changed in place). */
type FoundLabel = LabeledLink & { [PACKED_IN]?: LabelPack };

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

  /** Labels after `afterId` of a topic, in id order: what a model saved at `afterId` has not learned yet. */
  async labelsAfter(topicId: number, afterId: number): Promise<LabeledLink[]> {
    const rows = await this.db.labels.where('[topicId+id]').between([topicId, rowKeyOf(afterId)], [topicId, Dexie.maxKey]).toArray();
    return labelsOfRows(rows, afterId);
  }

  /**
   * The topic and its labels after `afterId`, in one read transaction (a running crawl asks after its pages). The
   * labels this context's commits wrote are not read again: their rows' keys are read, and the labels taken from the
   * copies kept (label-copies.ts).
   */
  changesSince(topicId: number, afterId: number): Promise<{ topic: Topic; labels: LabeledLink[] }> {
    const db = this.db;
    return db.transaction('r', db.topics, db.labels, async () => {
      if (!holdsLabels(db)) {
        const [topic, labels] = await Promise.all([this.mustGetTopic(topicId), this.labelsAfter(topicId, afterId)]);
        takeLabels(db, topicId, topic.revision, afterId, []);
        return { topic, labels };
      }
      const [topic, keys] = await Promise.all([
        this.mustGetTopic(topicId),
        db.labels.where('[topicId+id]').between([topicId, rowKeyOf(afterId)], [topicId, Dexie.maxKey]).primaryKeys() as Promise<number[]>,
      ]);
      const held = takeLabels(db, topicId, topic.revision, afterId, keys);
      const missing = keys.filter((_, i) => held[i] === undefined);
      const read = missing.length ? await db.labels.bulkGet(missing) : [];
      const rows = read.filter((r): r is LabelRow => r !== undefined);
      const labels = [...held.flatMap((h) => h ?? []), ...labelsOfRows(rows)].filter((l) => l.id! > afterId).sort((a, b) => a.id! - b.id!);
      return { topic, labels };
    });
  }

  async hasLabels(topicId: number): Promise<boolean> {
    // Every row holds a label: a pack left empty is deleted (takeOutOfPacks).
    return (await this.db.labels.where('[topicId+id]').between([topicId, Dexie.minKey], [topicId, Dexie.maxKey]).first()) !== undefined;
  }

  allLabels(topicId: number): Promise<LabeledLink[]> {
    return this.labelsAfter(topicId, 0);
  }

  /** The user's labels for these URLs in a topic (null where there is none). */
  async userLabels(topicId: number, urls: string[]): Promise<(LabelValue | null)[]> {
    const rows = urlRows(await this.db.labels.where('[topicId+url]').anyOf(urls.map((u) => [topicId, u])).toArray());
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
      const old = urlRows(await db.labels.where('[topicId+url]').equals([link.topicId, link.url]).toArray()).filter((l) => l.source === 'user');
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

  /**
   * Changes the label of these labeled links; they become the user's. A packed label moves to a row of its own under
   * its id (label-packs.ts), where the user's labels are found by URL.
   */
  async relabel(ids: number[], label: LabelValue, now: number): Promise<number> {
    const db = this.db;
    return db.transaction('rw', db.labels, db.topics, async () => {
      const found = (await this.findLabels(ids)).filter((r) => r.label !== label || r.source !== 'user');
      await this.takeOutOfPacks(found);
      await db.labels.bulkPut(found.map((r) => ({ ...r, label, source: 'user' as const })));
      await this.bump(found.map((r) => r.topicId), now);
      return found.length;
    });
  }

  async deleteLabels(ids: number[], now: number): Promise<number> {
    const db = this.db;
    return db.transaction('rw', db.labels, db.topics, async () => {
      const found = await this.findLabels(ids);
      const own = found.filter((l) => !l[PACKED_IN]).map((l) => l.id!);
      await this.takeOutOfPacks(found);
      await db.labels.bulkDelete(own);
      await this.bump(found.map((r) => r.topicId), now);
      return found.length;
    });
  }

  /** The labels with these ids that exist, each marked with the pack it is in, if any (inside a transaction). */
  private async findLabels(ids: number[]): Promise<FoundLabel[]> {
    const wanted = [...new Set(ids)];
    const keys = [...new Set(wanted.flatMap((id) => [id, rowKeyOf(id)]))];
    const rows = new Map<number, LabelRow>();
    (await this.db.labels.bulkGet(keys)).forEach((r, i) => r && rows.set(keys[i]!, r));
    return wanted.flatMap((id): FoundLabel[] => {
      const own = rows.get(id);
      if (own && !isPack(own)) return [own];
      const pack = rows.get(rowKeyOf(id));
      const slot = slotOf(id);
      if (!pack || !isPack(pack) || slot === undefined || !pack.pack[slot]) return [];
      return [{ ...pack.pack[slot]!, id, topicId: pack.topicId, crawlId: pack.crawlId, [PACKED_IN]: pack }];
    });
  }

  /** Leaves holes where these labels were in their packs, and writes the packs back (or deletes an empty one). */
  private async takeOutOfPacks(found: FoundLabel[]): Promise<void> {
    const packs = new Set<LabelPack>();
    for (const l of found) {
      const pack = l[PACKED_IN];
      if (!pack) continue;
      pack.pack[slotOf(l.id!)!] = null;
      packs.add(pack);
      delete l[PACKED_IN];
    }
    const emptied = [...packs].filter((p) => labelsIn(p) === 0);
    await this.db.labels.bulkDelete(emptied.map((p) => p.id!));
    await this.db.labels.bulkPut([...packs].filter((p) => labelsIn(p) > 0));
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
      const derived = urlRows(await db.labels.where('[topicId+url]').equals([page.topicId, page.url]).toArray()).filter((l) => l.source === 'page');
      await db.labels.bulkDelete(derived.map((l) => l.id!));
      const replaced = (await db.pageLabels.where('[crawlId+seq]').equals([page.crawlId, page.seq]).delete()) + derived.length;
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

/**
 * A topic's labels with ids strictly between `after` and `before`, in id order (newest first with `reverse`), `chunk`
 * rows read at a time (`firstChunk` first, four times more each read after). A pack and the labels moved out of it
 * (keys from its own up to the next integer) are always read in one chunk, so the order holds across chunks. Each
 * chunk is its own read.
 */
export async function* labelChunks(
  db: CrawlerDB, topicId: number, opts: { after?: number; before?: number; reverse?: boolean; chunk: number; firstChunk?: number },
): AsyncGenerator<LabeledLink[]> {
  const after = opts.after ?? -Infinity;
  const before = opts.before ?? Infinity;
  const reverse = opts.reverse ?? false;
  const index = db.labels.where('[topicId+id]');
  const key = (k: number): IndexableType => (Number.isFinite(k) ? k : k < 0 ? Dexie.minKey : Dexie.maxKey);
  // The pack of `after` holds labels after it: its row is read from its key.
  let lo: IndexableType = key(rowKeyOf(after));
  let loOpen = false;
  let hi: IndexableType = key(before);
  let hiOpen = before !== Infinity;
  // A reader that wants a few labels starts small (a pack holds dozens) and reads four times more each time.
  let chunk = Math.min(opts.chunk, opts.firstChunk ?? opts.chunk);
  for (;;) {
    const range = index.between([topicId, lo], [topicId, hi], !loOpen, !hiOpen);
    const rows = await (reverse ? range.reverse() : range).limit(chunk).toArray();
    if (rows.length === 0) return;
    const edge = rows[rows.length - 1]!.id!;
    const full = rows.length === chunk;
    chunk = Math.min(opts.chunk, chunk * 4);
    if (full && !reverse) {
      // Labels moved out of the last pack read sort among its own: read them now.
      rows.push(...(await index.between([topicId, edge], [topicId, Math.floor(edge) + 1], false, false).toArray()));
    } else if (full && reverse && !Number.isInteger(edge)) {
      // Read down to a moved-out label: its pack (and the labels moved out below it) come with it.
      rows.push(...(await index.between([topicId, Math.floor(edge)], [topicId, edge], true, false).reverse().toArray()));
    }
    const labels = labelsOfRows(rows, after, before, reverse);
    if (labels.length) yield labels;
    if (!full) return;
    const last = rows[rows.length - 1]!.id!;
    if (reverse) [hi, hiOpen] = [last, true];
    else [lo, loOpen] = [last, true];
  }
}
