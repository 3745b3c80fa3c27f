// Design E.5 and E.6 on the final pages of a template crawl: a page's fields become its record; on a recrawl a
// known page is re-extracted only when its content hash changed; when a cycle finishes, the records of pages it
// no longer reached are deleted. The content hash is a WebCrypto SHA-256 digest of the page's visible text
// (not of its HTML, so a rotating token in a script or an ad slot does not count as a change); WebCrypto is in
// the service worker and in Node alike, and the patent's MD5 brings nothing SHA-256 does not.
import type { RecordPort, RecordWrite } from '../ports';
import type { FieldRecord, RecordChangeKind } from '../records/rows';
import { siteOf } from '../records/url';
import { extractFields, type FieldSpec } from '../strategies/template/extract';
import { nextInterval } from '../strategies/template/schedule';

export async function contentHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface FinalPage {
  crawlName: string;
  crawlId: number;
  url: string;
  html: string;
  /** Visible text: what the hash is taken of. */
  text: string;
  now: number;
}

/**
 * What a final page holds, as a write for its page commit (so a page and its record are committed together,
 * and a worker stopped in between loses neither); null when the page holds no field and had no record.
 */
export async function planRecord(records: RecordPort, specs: FieldSpec[], everyMs: number, page: FinalPage): Promise<RecordWrite | null> {
  const { crawlName, crawlId, url, now } = page;
  const hash = await contentHash(page.text);
  const known = await records.get(crawlName, url);
  if (known && known.lastCrawlId === crawlId) return null; // reached twice in one cycle (an alias): counted once
  const write = (record: FieldRecord | null, change: RecordChangeKind, fields?: Record<string, string>): RecordWrite =>
    ({ crawlName, url, record, change: { crawlId, url, change, at: now, ...(fields ? { fields } : {}) } });
  if (known && known.hash === hash) {
    return write({ ...known, lastChecked: now, lastCrawlId: crawlId, intervalMs: nextInterval(known.intervalMs, false, everyMs) }, 'unchanged', known.fields);
  }
  const fields = extractFields(page.html, specs);
  // A page that no longer holds any field: its record goes.
  if (Object.keys(fields).length === 0) return known ? write(null, 'deleted') : null;
  const record: FieldRecord = {
    crawlName, url, site: siteOf(url), fields, hash,
    firstSeen: known?.firstSeen ?? now, lastChanged: now, lastChecked: now, lastCrawlId: crawlId,
    intervalMs: known ? nextInterval(known.intervalMs, true, everyMs) : everyMs,
  };
  return write(record, known ? 'changed' : 'new', fields);
}

/**
 * After a cycle that finished (its frontier ran empty): the records it did not reach are deleted, except those
 * of sites whose seed the sampling skipped this time (not looked at, so not known to be gone).
 */
export async function deleteVanished(records: RecordPort, crawlName: string, crawlId: number, skippedSeeds: string[], now: number): Promise<number> {
  const spared = new Set(skippedSeeds.map(siteOf));
  let deleted = 0;
  for (const r of await records.list(crawlName)) {
    if (r.lastCrawlId === crawlId || spared.has(r.site)) continue;
    await records.apply({ crawlName, url: r.url, record: null, change: { crawlId, url: r.url, change: 'deleted', at: now, fields: r.fields } });
    deleted++;
  }
  return deleted;
}
