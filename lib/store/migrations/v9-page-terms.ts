// Schema v9: page rows carry the words of their URL and title (lib/store/page-keys.ts), so a Pages-table search
// reads the few rows with its words through the *terms index instead of every row of the crawl.
import type { Transaction } from 'dexie';
import type { PageRecord } from '../../records/types';
import { pageTerms } from '../page-keys';

export async function addPageTerms(tx: Transaction): Promise<void> {
  await tx
    .table<PageRecord>('pages')
    .toCollection()
    .modify((p) => {
      p.terms = pageTerms(p);
    });
}
