// What an export takes from a crawl: every page or only the relevant ones, some sites, only what is new.
// Pure, so that the dashboard, the command-line runner and the tests choose pages the same way.
import type { LabelValue, PageBody, PageRecord } from '../records/types';
import { siteOf } from '../records/url';
import { EXPORT_FORMATS, type ExportFormat } from '../records/rows';

// The formats and the export marks are records the store keeps (lib/records/rows.ts).

export const isExportFormat = (s: string): s is ExportFormat => (EXPORT_FORMATS as readonly string[]).includes(s);

export interface ExportSelection {
  /** Only pages the page judge found on topic (training reads included when judged so). */
  relevantOnly?: boolean;
  /** Only pages of these sites (registrable domains of the URLs requested, as `siteOf` gives them); all sites when empty or absent. */
  sites?: string[];
  /** Only pages fetched after this sequence number: "new since the last export" passes the one remembered. */
  afterSeq?: number;
}

/** One page as the writers receive it: its row, and what the format needs of its body and its user label. */
export interface ExportPage {
  page: PageRecord;
  /** Absent when the page has no stored body (failed, skipped, not HTML) or the format does not need it. */
  body?: PageBody;
  /** The user's (or a training read's) on/off-topic label of the page, when it has one. */
  label?: LabelValue;
}

/**
 * The site a page row is listed under: the site of the URL requested, kept on the row (the Pages table's site
 * filter and the export's Sites list count rows by it, so a site's export holds the rows they count).
 */
function siteOfRow(p: PageRecord): string {
  if (p.site !== undefined) return p.site;
  try {
    return siteOf(p.url);
  } catch {
    return '';
  }
}

/** Whether a page row belongs in the export. `afterSeq` is applied by the reader, as a key range. */
export function selects(sel: ExportSelection, p: PageRecord): boolean {
  if (sel.relevantOnly && p.relevant !== true) return false;
  if (sel.sites?.length && !sel.sites.includes(siteOfRow(p))) return false;
  return true;
}

/** A page that was fetched and whose body was kept: what WARC, WACZ and the HTML ZIP contain. */
export const hasBody = (x: ExportPage): x is ExportPage & { body: PageBody } => x.body !== undefined && x.page.status > 0;
