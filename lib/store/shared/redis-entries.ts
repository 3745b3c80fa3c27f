// How a shared crawl keeps its URLs, frontier entries and labeled links in Redis: compactly, since the queue of a
// large crawl is most of what Redis holds (docs/scale-out.md, "Memory"). A URL is keyed by an 11-character digest
// of it (66 bits: two of a billion URLs collide once in about 10^2 such crawls); its entry is one string of fields
// split by US (\x1f), the link's context kept as its distinct words (what the classifier reads of it: tokenizing
// them again gives the same words, a test holds it so), numbers to three or four decimals, empty fields at the end
// left out. The first five fields are the Lua steps' (redis-scripts.ts): the URL (its host), a delayed URL's
// priority, the links found to it, its depth, and the number its parent page was given there (`pages`).
import { createHash } from 'node:crypto';
import { uniqueTokens } from '../../parse/tokenize';
import type { Candidate } from '../../ports';
import type { LabeledLink } from '../../records/types';
import { hostOf, siteOf } from '../../records/url';
import type { SharedEntry, SharedLabel } from './bridge';

export const US = '\x1f';

/** The key of a URL in every set, hash and sorted set of the crawl. */
export const urlKey = (url: string): string => createHash('sha1').update(url).digest('base64url').slice(0, 11);

/** What an entry holds besides its URL's key: a queued entry, or a link to queue (a page's child). */
export type EntryText = Pick<SharedEntry, 'url' | 'depth' | 'score' | 'anchor' | 'context'> &
  Partial<Pick<SharedEntry, 'href' | 'strategy' | 'revisit' | 'parentOnTopic' | 'parentHub' | 'inlinks' | 'retries' | 'reason' | 'parentUrl'>>;

/** Anchor text never holds the separator; a control character reads as a space to the tokenizer anyway. */
const clean = (s: string): string => (s.includes(US) || s.includes('\x1e') ? s.replace(/[\x1e\x1f]/g, ' ') : s);
/** A log-odds or a score as kept: three decimals (a thousandth of a log-odds moves no URL past another that matters). */
export const short = (x: number): string => String(Math.round(x * 1000) / 1000);
/** Links found to a URL: how many, their log-odds' sum and the best one's. */
export const inlinksField = (i: NonNullable<EntryText['inlinks']>): string => `${i.n} ${short(i.sum)} ${short(i.best)}`;

/**
 * An entry's string: `priority` only for a URL that waits in the delayed set (it is the queue's score otherwise). The
 * parent's field is left empty: the completion script writes the number it gave the page that queued the link.
 */
export function encodeEntry(e: EntryText, priority?: number): string {
  const fields = [
    e.url, priority === undefined ? '' : String(priority), e.inlinks ? inlinksField(e.inlinks) : '', String(e.depth), '', short(e.score),
    clean(e.anchor), uniqueTokens(e.context).join(' '), e.parentOnTopic === undefined ? '' : e.parentOnTopic ? '1' : '0',
    e.parentHub === undefined ? '' : String(e.parentHub), e.href ?? '', e.strategy ? JSON.stringify(e.strategy) : '', e.revisit ?? '',
    e.retries ? String(e.retries) : '', e.reason ? clean(e.reason) : '',
  ];
  let n = fields.length;
  while (n > 6 && fields[n - 1] === '') n--;
  return fields.slice(0, n).join(US);
}

/** An entry as the worker gets it back: its parent's URL (looked up by its number) and priority are given. */
export function decodeEntry(value: string, priority: number, parentUrl: string | null, now: number): SharedEntry {
  const [url, , inl, depth, , score, anchor, context, onTopic, hub, href, strategy, revisit, retries, reason] = value.split(US) as string[];
  const e: SharedEntry = {
    url: url!, host: hostOf(url!), site: siteOf(url!), score: Number(score), priority, order: 0, depth: Number(depth), parentUrl,
    anchor: anchor ?? '', context: context ?? '', attempts: 0, discoveredAt: now, updatedAt: now,
  };
  if (href) e.href = href;
  if (onTopic) e.parentOnTopic = onTopic === '1';
  if (hub) e.parentHub = Number(hub);
  if (strategy) e.strategy = JSON.parse(strategy) as SharedEntry['strategy'];
  if (revisit) e.revisit = revisit;
  if (retries) e.retries = Number(retries);
  if (reason) e.reason = reason;
  if (inl) {
    const [n, sum, best] = inl.split(' ').map(Number);
    e.inlinks = { n: n!, sum: sum!, best: best! };
  }
  return e;
}

/**
 * A link to queue as the completion script receives it: key, priority, entry, its own log-odds (every link counts),
 * site (design B.4), and what it shows of its target's version (design D.5).
 */
export type ChildWire = [key: string, priority: string, value: string, logOdds: string, site: string, revisit: string];

export function childWire(c: Candidate): ChildWire {
  return [urlKey(c.url), String(c.priority), encodeEntry(c), c.logOdds === undefined ? '' : short(c.logOdds), c.site ?? siteOf(c.url), c.revisit ?? ''];
}

/** The number the completion script gave a page whose links it queued (an entry's fifth field), or '' for a seed. */
export const parentNumber = (value: string): string => value.split(US, 5)[4] ?? '';

/**
 * A labeled link: its label, source, the page it was found on and when it was made, then the link as an entry's fields
 * (the script that turns a link to a judged page into a labeled link writes the link's entry string as it came).
 */
export function encodeLabel(l: SharedLabel): string {
  return [String(l.label), l.source, l.pageUrl ?? '', String(l.createdAt), encodeEntry({ ...l, depth: 0, score: 0 })].join(US);
}

export function decodeLabel(s: string): SharedLabel {
  const head = s.split(US, 4) as [string, LabeledLink['source'], string, string];
  const [label, source, pageUrl, createdAt] = head;
  const e = decodeEntry(s.slice(head.reduce((n, f) => n + f.length + 1, 0)), 0, null, 0);
  return {
    url: e.url, anchor: e.anchor, context: e.context, label: label === '1' ? 1 : 0, source, createdAt: Number(createdAt),
    ...(pageUrl ? { pageUrl } : {}), ...(e.parentOnTopic === undefined ? {} : { parentOnTopic: e.parentOnTopic }),
    ...(e.parentHub === undefined ? {} : { parentHub: e.parentHub }),
  };
}
