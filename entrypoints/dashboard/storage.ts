// "Storage": what the selected crawl keeps (the page bodies it received) and how much of the browser's quota
// the extension uses (navigator.storage.estimate), so a user sees what deleting a crawl would free.
import { byId } from '@/lib/platform/dom';
import type { CrawlRecord } from '@/lib/records/rows.ts';
import { formatBytes } from '@/lib/ui/format';

let asked = 0;

export function showStorage(crawl: CrawlRecord | undefined): void {
  const el = byId('storage-line');
  if (!crawl) {
    el.textContent = '';
    return;
  }
  const own = `This crawl keeps ${formatBytes(crawl.stats.bytes)} of pages as received`;
  el.textContent = `${own}.`;
  // The estimate is a little costly and moves slowly: at most every 10 s.
  if (Date.now() - asked < 10_000 && el.dataset.quota) {
    el.textContent = `${own}; ${el.dataset.quota}.`;
    return;
  }
  asked = Date.now();
  void navigator.storage?.estimate?.().then(({ usage, quota }) => {
    if (usage === undefined || !quota) return;
    el.dataset.quota = `Focus uses ${formatBytes(usage)} of the ${formatBytes(quota)} this browser allows it (deleting a crawl frees its part)`;
    el.textContent = `${own}; ${el.dataset.quota}.`;
  });
}
