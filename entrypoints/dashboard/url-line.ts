// A crawled URL as people read one: the host small and dim, then the whole path and query, wrapping anywhere
// rather than cut short (a table column of URLs otherwise reads "http://127.0.0.1:876…" on every row).
import { h } from '@/lib/platform/dom';
import './url-line.css';

/** A URL as its host (small, dim) then its path and query (readable, wrapping anywhere), linked when http(s). */
export function urlLine(url: string, testid: string): HTMLElement {
  const { host, rest } = splitUrl(url);
  return h('a', { href: isHttp(url) ? url : null, target: '_blank', rel: 'noopener noreferrer', class: 'page-url', title: url, 'data-testid': testid },
    h('span', { class: 'host' }, host),
    h('span', { class: 'path' }, rest));
}

/** "https://www.example.org/a/b?c" as host "www.example.org" and rest "/a/b?c" (the scheme only when not http(s)). */
export function splitUrl(url: string): { host: string; rest: string } {
  const m = /^(https?:\/\/)?([^/?#]*)(.*)$/i.exec(url);
  if (!m || !m[1]) return { host: '', rest: url };
  return { host: m[2]!, rest: m[3] || '/' };
}

/** Only http(s) URLs become links (a crawled string is never trusted to be a safe href). */
const isHttp = (url: string): boolean => /^https?:\/\//i.test(url);
