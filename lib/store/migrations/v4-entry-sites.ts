// v3 -> v4: every frontier entry gets its site (registrable domain), which the new [crawlId+site+state] index
// counts per site for strategies that cap or close sites (design B.4, B.5). Strategy state starts empty: every
// entry older than this version was found by a best-first or breadth-first crawl, which keep none.
import type { Transaction } from 'dexie';
import { siteOf } from '../../records/url';

export async function addEntrySites(tx: Transaction): Promise<void> {
  await tx.table('frontier').toCollection().modify((e: { url: string; site?: string }) => {
    e.site = siteOf(e.url);
  });
}
