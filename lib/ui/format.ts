// Numbers, rates and durations as the popup and the dashboard show them. Pure: no DOM.
import type { CrawlRecord, CrawlState } from '../records/rows';

/** 12345 -> "12,345". */
export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A fraction in [0,1] as a percentage with one decimal; "—" when there is nothing to divide. */
export function formatPercent(fraction: number | null): string {
  if (fraction === null || !Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(1)}%`;
}

/** Share of crawl-phase pages judged relevant (the harvest rate), or null before the first page. */
export function harvestRate(stats: { fetched: number; relevant: number }): number | null {
  return stats.fetched > 0 ? stats.relevant / stats.fetched : null;
}

/** Pages fetched a minute over the crawl's last pages, or null until that means something (lib/records/pace.ts). */
export { pagesPerMinute } from '../records/pace';

export const formatRate = (perMinute: number | null): string =>
  perMinute === null ? '—' : perMinute >= 10 ? formatCount(perMinute) : perMinute.toFixed(1);

/** 3723000 -> "1 h 2 min", 65000 -> "1 min 5 s", 900 -> "0 s". */
export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const hours = Math.floor(m / 60);
  return `${hours} h ${m % 60} min`;
}

/** 1536 -> "1.5 KB". */
export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** A local date and time, e.g. "2025-03-04 14:05". */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const p = (x: number) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A probability or score in [0,1] with two decimals. */
/** A frontier priority: a queue's number as is, a score-like priority to two places, a seed's as "seed". */
export const priorityText = (x: number | undefined): string =>
  x === undefined ? '—' : x === Number.MAX_VALUE ? 'seed' : Number.isInteger(x) ? String(x) : x.toFixed(2);

export const formatScore = (x: number | null): string => (x === null || !Number.isFinite(x) ? '—' : x.toFixed(2));

/** Which controls a crawl in this state accepts. Stopped, finished and failed crawls are over. */
export function crawlActions(state: CrawlState): { pause: boolean; resume: boolean; stop: boolean } {
  return {
    pause: state === 'training' || state === 'running',
    resume: state === 'paused',
    stop: state === 'training' || state === 'running' || state === 'paused',
  };
}

export const isActive = (state: CrawlState): boolean => state === 'training' || state === 'running';

/** What an idle crawl waits for: a host's politeness delay, a server's Retry-After, robots.txt; or nothing. */
export function waitingText(crawl: Pick<CrawlRecord, 'state' | 'waiting'>, now = Date.now()): string {
  if ((crawl.state !== 'running' && crawl.state !== 'training') || !crawl.waiting) return 'Nothing right now.';
  const ms = crawl.waiting.until - now;
  if (ms <= 0) return `Waiting for ${crawl.waiting.text}.`;
  // Under 10 s to tenths, so a wait of "1.5 s between requests" is not said as "about 2 s more".
  const left = ms < 10_000 ? `${(Math.ceil(ms / 100) / 10).toLocaleString('en-US')} s` : formatDuration(Math.ceil(ms / 1000) * 1000);
  return `Waiting for ${crawl.waiting.text}, about ${left} more.`;
}

/**
 * The crawl's URL authority among its labeled pages (classifier/authority.ts), in a sentence: how many URLs
 * labeled pages link to, and how far it moves their odds, down and up.
 */
export function authorityText(crawl: Pick<CrawlRecord, 'state' | 'authority' | 'config'>): string {
  const { classifier, training } = crawl.config;
  if (!classifier.targetAuthority) return 'off';
  if (!training.positive.length || !training.negative.length || !training.linkSources.length) {
    return 'none: it needs training.positive, training.negative and link sources among those pages';
  }
  const a = crawl.authority;
  if (!a) return crawl.state === 'training' ? 'fitted when training ends' : 'none yet';
  const times = (logOdds: number) => {
    const x = Math.exp(logOdds);
    return `×${x >= 10 ? formatCount(x) : x >= 1 ? x.toFixed(1) : x.toFixed(2)}`;
  };
  return `${formatCount(a.urls)} URLs that labeled pages link to (${formatCount(a.labeled)} of them labeled, which it learned from): ` +
    `their odds ${times(Math.min(...a.logOdds))} to ${times(Math.max(...a.logOdds))}, by how many of the labeled pages linking to them are on topic`;
}

/** "https://www.example.org/a/b?c" as host "www.example.org" and rest "/a/b?c" (the scheme only when not http(s)). */
export function splitUrl(url: string): { host: string; rest: string } {
  const m = /^(https?:\/\/)?([^/?#]*)(.*)$/i.exec(url);
  if (!m || !m[1]) return { host: '', rest: url };
  return { host: m[2]!, rest: m[3] || '/' };
}

/** A link a page kept from requesting, as its row says it: "/u/78, named “Sign out” (anchor text), also linked as “Jo Weber”". */
export function keptText(k: { url: string; anchor: string; rule: string; alsoAs?: string[] }): string {
  const named = k.anchor.trim() ? `named “${k.anchor.trim()}”` : 'named by a link with no text';
  const also = k.alsoAs?.length ? `, also linked as ${k.alsoAs.map((a) => `“${a}”`).join(', ')}` : '';
  return `${k.url}, ${named} (${k.rule})${also}`;
}

/**
 * A reason short enough for a narrow column: its URLs taken out (the row shows the page's own) and, when it is still
 * long, its explanation after the first ": " (outside brackets) left to the full text on hover. "redirect to
 * https://x.org/a not followed: the target was already fetched" -> "redirect not followed"; at most `max`
 * characters, cut at a word.
 */
export function shortReason(text: string, max = 40): string {
  const plain = text.replace(/\s*\b(?:to|from|at)\s+[a-z][a-z0-9+.-]*:\/\/\S+/gi, '').replace(/\s*[a-z][a-z0-9+.-]*:\/\/\S+/gi, '')
    .replace(/\(\s*\)/g, '').replace(/\s+/g, ' ').trim();
  if (plain.length <= max) return plain;
  let depth = 0;
  let end = plain.length;
  for (let i = 0; i < plain.length - 1; i++) {
    const ch = plain[i]!;
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ':' && plain[i + 1] === ' ' && depth === 0) {
      end = i;
      break;
    }
  }
  const head = plain.slice(0, end);
  if (head.length <= max) return head;
  const cut = head.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`;
}

/**
 * A crawl's recall estimate as the popup, the crawl detail and the runner say it: "about 72% of the topic found
 * (65-80%)", or why there is none; null for a crawl made before estimates were kept.
 */
export function recallSentence(recall: CrawlRecord['recall']): string | null {
  if (!recall) return null;
  if ('note' in recall) return recall.note;
  const pct = (x: number) => Math.round(x * 100);
  return `about ${pct(recall.estimate)}% of the topic found (${pct(recall.low)}-${pct(recall.high)}%)`;
}
