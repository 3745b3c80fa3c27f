// "Export JSON Lines": every page row of the crawl, read from Dexie in chunks, downloaded as one file.
import { pagesToJsonl } from '@/lib/export/jsonl';
import type { CrawlerDB, CrawlRecord } from '@/lib/store/db';
import { downloadFile } from '@/lib/platform/actions';
import { errorText } from '@/lib/platform/dom';
import { forEachPageChunk } from '@/lib/ui/queries';

const CHUNK = 2000;

/** Characters file systems refuse in a file name. */
const fileName = (crawlName: string): string => `${crawlName.replace(/[\\/:*?"<>|\x00-\x1f]+/g, '-').trim() || 'crawl'}-pages.jsonl`;

export function setupExport(
  db: CrawlerDB,
  button: HTMLButtonElement,
  selected: () => CrawlRecord | undefined,
  report: (error: string | null) => void,
): void {
  const label = button.textContent ?? '';
  button.addEventListener('click', () => {
    const crawl = selected();
    if (!crawl) return;
    button.disabled = true;
    report(null);
    // One string per chunk: the Blob joins them without building one huge string first.
    const parts: string[] = [];
    forEachPageChunk(db, crawl.id!, CHUNK, (rows) => {
      parts.push(pagesToJsonl(rows));
      button.textContent = `Exporting… ${parts.length * CHUNK}`;
    })
      .then(() => downloadFile(parts, fileName(crawl.name)))
      .catch((err: unknown) => report(`Could not export the pages: ${errorText(err)}`))
      .finally(() => {
        button.disabled = false;
        button.textContent = label;
      });
  });
}
