// The best-first take by host heads. Hosts are walked best head first; a host that is not ready is
// passed at its head, in one step, and a ready one gives its queued URLs in order through the host index while they
// rank above the next host's head, so a host allowed two fetches gives its second-best URL before a worse host's
// best. What is taken is what a walk of every queued URL best first would take, asking `reserve` of each in turn,
// when `reserve` answers for a host (politeness): a URL due later (`notBefore`) is passed alone, its host's next URL
// asked next.
import type { FrontierEntry } from '../records/types';
import type { CrawlerDB } from './db';
import { above, hostQueue, type HeadList, type HeldQueue, type Position } from './host-heads';
import { QUEUE_AHEAD } from './head-list';

export interface HeadsTake {
  entries: FrontierEntry[];
  waitMs: number;
  waitingOn?: FrontierEntry;
  /** The new heads of the hosts this take took from (null: nothing left queued), where it read them. */
  heads: Map<string, Position | null>;
  /** Hosts whose head named nothing queued at or below it: read again from the index. */
  recompute: string[];
  /** How many hosts' queues the take read: the next take of the crawl reads as many ahead at once. */
  opened: number;
  /** For the hosts this take took from: their queued rows it read and left queued, best first (the list keeps them). */
  queues: Map<string, HeldQueue>;
}

/** A head as the take walks it. */
interface Head {
  key: string;
  site: string;
  host: string;
  pos: Position;
}

/** One host in the walk: its queued URLs read so far, best first, and how far the take has gone in them. */
interface HostWalk {
  head: Head;
  rows: FrontierEntry[];
  at: number;
  /** The host's queue ends with `rows` (the last read returned fewer than it asked for). */
  ended: boolean;
  took: number;
  /** The first URL the take passed and left queued: the host's new head. */
  left?: FrontierEntry;
  closed: boolean;
  /** Its queued rows were the ones the list held: no read. */
  kept: boolean;
  /** The rows of `rows` taken. */
  taken: Set<FrontierEntry>;
}

const posOf = (e: { priority: number; order: number }): Position => [e.priority, e.order];

/**
 * Inside a read-write transaction over frontier and hostHeads: up to `max` of the best ready queued entries (not yet
 * marked in flight), walking `list` (the crawl's heads, best first). `scanLimit` bounds the entries asked about, a busy
 * host counting as one.
 */
export async function takeByHeads(
  db: CrawlerDB, crawlId: number, list: HeadList, reserve: (e: FrontierEntry) => number, now: number, max: number, scanLimit: number, readAhead = 2,
): Promise<HeadsTake> {
  const out: HeadsTake = { entries: [], waitMs: Infinity, heads: new Map(), recompute: [], opened: 0, queues: new Map() };
  const want = () => max - out.entries.length;
  // The queues of the next few hosts are read ahead in the same round trip (as many as the crawl's last take read,
  // `readAhead`, and more each time a host is passed), as a take past busy hosts reads one host after the other: each
  // round trip to the browser's database costs about as much as the read itself. Each read asks for a host's best
  // QUEUE_AHEAD rows, which the list keeps: the next takes from that host, or past it, read nothing.
  const heads: Head[] = [];
  const headAt = (i: number): Head | undefined => {
    while (heads.length <= i && heads.length < list.size) {
      const h = list.at(heads.length)!;
      const cut = h.key.indexOf(' ');
      heads.push({ key: h.key, site: h.key.slice(0, cut), host: h.key.slice(cut + 1), pos: h.pos });
    }
    return heads[i];
  };
  let ahead = Math.max(2, Math.min(64, readAhead));
  const reads = new Map<number, { limit: number; rows: Promise<FrontierEntry[]> }>();
  const queueOf = (i: number) => {
    for (let j = i; j < Math.min(list.size, i + ahead); j++) {
      const limit = j === 0 ? Math.max(QUEUE_AHEAD, want() + 1) : QUEUE_AHEAD;
      const h = headAt(j)!;
      if (reads.has(j) || list.queue(h.key)) continue;
      const rows = hostQueue(db, crawlId, h.site, h.host, h.pos, true, limit).then((rs) => {
        list.keepQueue(h.key, rs, rs.length < limit);
        return rs;
      });
      reads.set(j, { limit, rows });
    }
    return reads.get(i)!;
  };
  let next = 0;
  /** Hosts whose queues the take read (not those whose head row the list held). */
  let opened = 0;
  const open: HostWalk[] = [];
  const walks: HostWalk[] = [];
  let asked = 0;
  while (want() > 0 && asked < scanLimit) {
    const head = headAt(next);
    let best: HostWalk | undefined;
    for (const w of open) if (!best || above(posOf(w.rows[w.at]!), posOf(best.rows[best.at]!))) best = w;
    if (!head && !best) break;
    if (head && (!best || above(head.pos, posOf(best.rows[best.at]!)))) {
      // Rows the list holds: a busy host is passed, and a ready one taken from, without a read (copies: the take marks
      // the rows it takes).
      const kept = list.queue(head.key);
      if (kept) next++;
      else opened++;
      const read = kept ? undefined : queueOf(next++);
      const rows = read ? [...(await read.rows)] : kept!.rows.map((e) => ({ ...e }));
      const ended = read ? rows.length < read.limit : kept!.whole;
      const walk: HostWalk = { head, rows, at: 0, ended, took: 0, closed: false, kept: !read, taken: new Set() };
      walks.push(walk);
      if (rows.length) open.push(walk);
      else walk.closed = true; // a head with nothing queued under it: set right below
      continue;
    }
    const walk = best!;
    const e = walk.rows[walk.at]!;
    asked++;
    const due = e.notBefore !== undefined && e.notBefore > now;
    const w = due ? e.notBefore! - now : reserve(e);
    if (w === 0) {
      out.entries.push(e);
      walk.took++;
      walk.taken.add(e);
    } else {
      if (w < out.waitMs) out.waitingOn = e;
      out.waitMs = Math.min(out.waitMs, w);
      walk.left ??= e;
      if (!due) {
        walk.closed = true; // the host is not ready: its other URLs wait with it
        if (!walk.kept) ahead = Math.min(64, Math.max(ahead, 2 * opened)); // read ahead as many hosts again as were read
      }
    }
    walk.at++;
    if (!walk.closed && walk.at >= walk.rows.length) {
      if (walk.ended) walk.closed = true;
      else {
        const limit = Math.max(QUEUE_AHEAD, want() + 1);
        const more = await hostQueue(db, crawlId, walk.head.site, walk.head.host, posOf(walk.rows.at(-1)!), false, limit);
        walk.rows.push(...more);
        walk.ended = more.length < limit;
        if (!more.length) walk.closed = true;
      }
    }
    if (walk.closed) open.splice(open.indexOf(walk), 1);
  }
  out.opened = opened;
  for (const walk of walks) {
    const k = walk.head.key;
    if (walk.rows.length === 0) out.recompute.push(k); // heal a head that named nothing queued
    if (walk.took === 0) continue;
    // What the walk read and did not take is still queued, best first, and the host's queue starts with it.
    const left = walk.rows.filter((e) => !walk.taken.has(e));
    if (left.length) out.queues.set(k, { rows: left, whole: walk.ended });
    const nextLeft = walk.left ?? walk.rows[walk.at];
    if (nextLeft) out.heads.set(k, posOf(nextLeft));
    else if (walk.ended) out.heads.set(k, null);
    // else: unknown here; the write recomputes it from the index.
  }
  return out;
}
