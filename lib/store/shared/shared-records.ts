// A template's records on a shared crawl (design E.5, E.6; docs/scale-out.md): the whole crawl's, in Redis, through the
// runner's bridge. A record names the cycle that last reached it by a crawl id; in Redis that is the shared cycle (its
// number, negated), which each worker reads as its own crawl of the cycle: a record reached by another worker in this
// cycle is reached, and the end of the cycle deletes only what no worker reached.
import type { RecordPort, RecordWrite } from '../../ports';
import type { FieldRecord, RecordChange, RecordChangeKind } from '../../records/rows';
import type { SharedBridge } from './bridge';

/** This worker's crawl of the shared cycle under way. */
export interface CycleOf {
  crawlId: number;
  cycle: number;
}

export class SharedRecords implements RecordPort {
  constructor(private readonly bridge: SharedBridge, private readonly now: () => CycleOf | null) {}

  private local = <T extends { lastCrawlId?: number; crawlId?: number }>(r: T, key: 'lastCrawlId' | 'crawlId'): T => {
    const c = this.now();
    return c && r[key] === -c.cycle ? { ...r, [key]: c.crawlId } : r;
  };

  private shared = <T extends { lastCrawlId?: number; crawlId?: number }>(r: T, key: 'lastCrawlId' | 'crawlId'): T => {
    const c = this.now();
    return c && r[key] === c.crawlId ? { ...r, [key]: -c.cycle } : r;
  };

  /** A write as Redis keeps it: this worker's crawl of the cycle named as the cycle. */
  sharedWrite(w: RecordWrite): RecordWrite {
    return { ...w, record: w.record ? this.shared(w.record, 'lastCrawlId') : null, change: this.shared(w.change, 'crawlId') };
  }

  async get(crawlName: string, url: string): Promise<FieldRecord | undefined> {
    const { record } = await this.bridge.record({ url });
    return record && record.crawlName === crawlName ? this.local(record, 'lastCrawlId') : undefined;
  }

  async list(crawlName: string): Promise<FieldRecord[]> {
    const { records } = await this.bridge.records({});
    return records.filter((r) => r.crawlName === crawlName).map((r) => this.local(r, 'lastCrawlId'));
  }

  async apply(w: RecordWrite): Promise<void> {
    await this.bridge.recordApply({ write: this.sharedWrite(w) });
  }

  /** What this cycle changed, whichever worker changed it. */
  async changes(): Promise<RecordChange[]> {
    return (await this.bridge.records({})).changes.map((c) => this.local(c, 'crawlId'));
  }

  async countChanges(): Promise<Record<RecordChangeKind, number>> {
    const counts: Record<RecordChangeKind, number> = { new: 0, changed: 0, unchanged: 0, deleted: 0 };
    for (const c of await this.changes()) counts[c.change]++;
    return counts;
  }
}
