// The labels a crawl's page commits make, stored a batch of commits' worth to a row.
//
// A crawl that learns from its judge's verdicts and from links to judged pages makes about six labeled links a page,
// and a training read one per link of the page. Written one row each (with their `[topicId+id]` and `[topicId+url]`
// entries), they were the largest write a page cost the browser's storage. A batch of page commits (one transaction)
// now writes them as one row of the same table: `{ topicId, crawlId, pack }`, keyed like any label, in the
// `[topicId+id]` index (so a topic's labels are still read in the order they were made, and the model's `lastLabelId`
// still says what it has learned) and not in `[topicId+url]` (it has no `url`: only the user's labels and the links to
// a page they judged are looked up by URL, and those are never packed).
//
// Each label in a pack has an id of its own: the pack's key plus its slot over PACK_SLOTS (the first slot is 1, so no
// packed label shares its pack's key). Ids stay in the order the labels were made, and a label's id never changes:
// a label deleted from a pack leaves a hole (null), and one the user relabels leaves a hole and is written as a row
// of its own under the same id (keys need not be integers). Every reader of the table reads labels through
// `unpack`; only the store's writers (crawl-store.ts, topic-store.ts) and the learner's copies (label-copies.ts) see
// packs.
import type { LabeledLink } from '../records/types';

/** Slots a pack's key is split into: a label's id is `key + slot / PACK_SLOTS`, exact below 2^37 keys. */
export const PACK_SLOTS = 65_536;

/**
 * What a pack holds at most, in bytes as estimated by `bytesOf`: the estimate is above what a label serializes to, so a
 * pack stays under the 64 KB past which Chromium writes a value to a file of its own. A training read of a page with
 * many links makes several.
 */
export const PACK_BYTES = 48_000;

/**
 * A label's serialized size, over-estimated: two bytes a character of its text (a string outside Latin-1 takes two),
 * and 128 for the rest (the serializer writes every property's name with each object: about 110 bytes with the
 * values of the fields that are not text).
 */
const bytesOf = (l: PackedLabel): number => 2 * (l.url.length + l.anchor.length + l.context.length + (l.pageUrl?.length ?? 0)) + 128;

/** A packed label: a labeled link without what its pack says for all of them. */
export type PackedLabel = Omit<LabeledLink, 'id' | 'topicId' | 'crawlId'>;

export interface LabelPack {
  id?: number;
  topicId: number;
  crawlId: number;
  /** In the order made; null where a label was deleted or relabeled (moved to a row of its own). */
  pack: (PackedLabel | null)[];
}

/** A row of the labels table. */
export type LabelRow = LabeledLink | LabelPack;

export const isPack = (row: LabelRow): row is LabelPack => 'pack' in row;

/** The id of a pack's label in `slot` (from 0). */
export const packedId = (key: number, slot: number): number => key + (slot + 1) / PACK_SLOTS;

/** The key of the row that holds (or held) the label `id`: a packed label's pack, or its own. */
export const rowKeyOf = (id: number): number => Math.floor(id);

/** The slot a packed label's id names in its pack, or undefined for the id of a row of its own. */
export function slotOf(id: number): number | undefined {
  const slot = Math.round((id - Math.floor(id)) * PACK_SLOTS) - 1;
  return slot >= 0 ? slot : undefined;
}

/** A row's labels, each with its id, in the order made. */
export function unpack(row: LabelRow): LabeledLink[] {
  if (!isPack(row)) return [row];
  const out: LabeledLink[] = [];
  row.pack.forEach((l, slot) => {
    if (l) out.push({ ...l, id: packedId(row.id!, slot), topicId: row.topicId, crawlId: row.crawlId });
  });
  return out;
}

/** How many labels a row holds. */
export const labelsIn = (row: LabelRow): number => (isPack(row) ? row.pack.reduce((n, l) => n + (l ? 1 : 0), 0) : 1);

/** A crawl's new labels of a topic as packs to add (no label is split; a pack holds at least one). */
export function packLabels(topicId: number, crawlId: number, labels: readonly Omit<LabeledLink, 'id'>[]): LabelPack[] {
  const packs: LabelPack[] = [];
  let pack: PackedLabel[] = [];
  let bytes = 0;
  for (const { topicId: _t, crawlId: _c, ...l } of labels) {
    const n = bytesOf(l);
    if (pack.length > 0 && (bytes + n > PACK_BYTES || pack.length >= PACK_SLOTS - 1)) {
      packs.push({ topicId, crawlId, pack });
      [pack, bytes] = [[], 0];
    }
    pack.push(l);
    bytes += n;
  }
  if (pack.length) packs.push({ topicId, crawlId, pack });
  return packs;
}

/** Labels of `rows` with ids strictly between `after` and `before`, in id order (or the reverse). */
export function labelsOfRows(rows: readonly LabelRow[], after = -Infinity, before = Infinity, reverse = false): LabeledLink[] {
  const out = rows.flatMap(unpack).filter((l) => l.id! > after && l.id! < before);
  return out.sort(reverse ? (a, b) => b.id! - a.id! : (a, b) => a.id! - b.id!);
}

/** The rows found by URL (`[topicId+url]`) are never packs: this only says so to the type. */
export const urlRows = (rows: readonly LabelRow[]): LabeledLink[] => rows.filter((r): r is LabeledLink => !isPack(r));
