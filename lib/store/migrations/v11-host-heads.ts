// Schema v11: each host's best queued position (lib/store/host-heads.ts), built from the queued frontier rows of
// every crawl in one pass over the table.
import type { Transaction } from 'dexie';
import type { FrontierEntry } from '../../records/types';
import type { HostHead } from '../../records/rows';

export async function addHostHeads(tx: Transaction): Promise<void> {
  const heads = new Map<string, HostHead>();
  await tx.table<FrontierEntry>('frontier').each((e) => {
    if (e.state !== 'queued' || e.site === undefined) return;
    const k = `${e.crawlId} ${e.site} ${e.host}`;
    const h = heads.get(k);
    if (!h || e.priority > h.priority || (e.priority === h.priority && e.order > h.order)) {
      heads.set(k, { crawlId: e.crawlId, site: e.site, host: e.host, priority: e.priority, order: e.order });
    }
  });
  await tx.table<HostHead>('hostHeads').bulkPut([...heads.values()]);
}
