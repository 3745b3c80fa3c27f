// Schema v7: page rows carry the Pages table's filter keys (kind and site, lib/store/page-keys.ts), so the
// table filters and sorts a 100,000-page crawl through indexes instead of reading every row.
import type { Transaction } from 'dexie';
import type { PageRecord } from '../../records/types';
import { withListKeys } from '../page-keys';

export async function addPageListKeys(tx: Transaction): Promise<void> {
  await tx
    .table<PageRecord>('pages')
    .toCollection()
    .modify((p) => {
      const keyed = withListKeys(p);
      p.kind = keyed.kind;
      p.site = keyed.site;
    });
}
