// A template's records (design E.5) and what each cycle changed (design E.6). Records are keyed by the crawl's
// name and the URL, so every cycle of a template keeps the same records current.
import Dexie from 'dexie';
import type { FieldRecord, RecordChange, RecordChangeKind } from '../records/rows';
import type { RecordPort, RecordWrite } from '../ports';
import type { CrawlerDB } from './db';


export class RecordStore implements RecordPort {
  constructor(private readonly db: CrawlerDB) {}

  get(crawlName: string, url: string): Promise<FieldRecord | undefined> {
    return this.db.records.get([crawlName, url]);
  }

  /** A template's records in URL order. */
  list(crawlName: string): Promise<FieldRecord[]> {
    return this.db.records.where('[crawlName+url]').between([crawlName, Dexie.minKey], [crawlName, Dexie.maxKey]).toArray();
  }

  /** Writes a record (or deletes it) with the change it is, in one transaction. */
  async apply(w: RecordWrite): Promise<void> {
    const db = this.db;
    await db.transaction('rw', [db.records, db.recordChanges], () => this.write(w));
  }

  /** The same inside the caller's transaction (a page commit), which must hold records and recordChanges. */
  async write(w: RecordWrite): Promise<void> {
    if (w.record) await this.db.records.put(w.record);
    else await this.db.records.delete([w.crawlName, w.url]);
    await this.db.recordChanges.put(w.change);
  }

  /** Deletes a template's records (its last crawl was deleted). */
  async deleteAll(crawlName: string): Promise<number> {
    return this.db.records.where('crawlName').equals(crawlName).delete();
  }

  /** What a cycle (crawl) changed, in URL order. */
  changes(crawlId: number): Promise<RecordChange[]> {
    return this.db.recordChanges.where('[crawlId+url]').between([crawlId, Dexie.minKey], [crawlId, Dexie.maxKey]).toArray();
  }

  async countChanges(crawlId: number): Promise<Record<RecordChangeKind, number>> {
    const counts: Record<RecordChangeKind, number> = { new: 0, changed: 0, unchanged: 0, deleted: 0 };
    for (const c of await this.changes(crawlId)) counts[c.change]++;
    return counts;
  }
}
