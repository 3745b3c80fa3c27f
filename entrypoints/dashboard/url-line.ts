// A crawled URL as people read one: the host small and dim, then the whole path and query, wrapping anywhere
// rather than cut short (a table column of URLs otherwise reads "http://127.0.0.1:876…" on every row).
import { h } from '@/lib/platform/dom';
import { splitUrl } from '@/lib/ui/format';
import './url-line.css';

/** A URL as its host (small, dim) then its path and query (readable, wrapping anywhere), linked when http(s). */
export function urlLine(url: string, testid: string): HTMLElement {
  const { host, rest } = splitUrl(url);
  return h('a', { href: isHttp(url) ? url : null, target: '_blank', rel: 'noopener noreferrer', class: 'page-url', title: url, 'data-testid': testid },
    h('span', { class: 'host' }, host),
    h('span', { class: 'path' }, rest));
}

/** Only http(s) URLs become links (a crawled string is never trusted to be a safe href). */
const isHttp = (url: string): boolean => /^https?:\/\//i.test(url);
