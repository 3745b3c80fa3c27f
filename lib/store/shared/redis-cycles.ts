// A template crawl on a shared frontier, as the runner sees it (docs/scale-out.md): the cycle's search claimed by one
// worker and its seeds queued for all, the records the whole crawl keeps, and the next cycle once a cycle ended.
import type { CycleSearch, RecordWrite } from '../../ports';
import type { FieldRecord, RecordChange } from '../../records/rows';
import type { SharedEntry } from './bridge';
import type { RedisFrontier } from './redis-frontier';
import { encodeEntry, urlKey } from './redis-entries';

export async function searchClaim(f: RedisFrontier, run: string, leaseMs: number): Promise<CycleSearch> {
  const r = (await f.run('sclaim', [run, leaseMs])) as string[];
  if (r[0] === 'seeded') return { state: 'seeded', run: JSON.parse(r[1]!), seeds: JSON.parse(r[2]!) as string[] };
  if (r[0] === 'claimed') return { state: 'claimed', cycle: Number(r[1]), previous: r[2] ? { run: JSON.parse(r[2]), seeds: JSON.parse(r[3]!) as string[] } : null };
  return { state: 'wait' };
}

export async function searchDone(f: RedisFrontier, run: string, cycleRun: unknown, seeds: SharedEntry[]): Promise<'ok' | 'dup'> {
  const wire = seeds.map((s) => [urlKey(s.url), String(s.priority), encodeEntry(s), '', s.site ?? '']);
  return (await f.run('sdone', [run, JSON.stringify(cycleRun), JSON.stringify(seeds.map((s) => s.url)), JSON.stringify(wire)])) as 'ok' | 'dup';
}

/** The next cycle of a template crawl that ended; 'running' when it has not (the worker joins the cycle under way). */
export async function nextCycle(f: RedisFrontier): Promise<{ state: 'next' | 'running'; cycle: number }> {
  const [state, cycle] = (await f.run('nextCycle', [])) as [string, string];
  return { state: state as 'next' | 'running', cycle: Number(cycle) };
}

export async function records(f: RedisFrontier): Promise<{ records: FieldRecord[]; changes: RecordChange[] }> {
  const [rows, changes] = await Promise.all([f.redis.hvals(f.key('records')), f.redis.hvals(f.key('rchanges'))]);
  const byUrl = (a: { url: string }, b: { url: string }) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
  return { records: rows.map((r) => JSON.parse(r) as FieldRecord).sort(byUrl), changes: changes.map((c) => JSON.parse(c) as RecordChange).sort(byUrl) };
}

export async function record(f: RedisFrontier, url: string): Promise<FieldRecord | null> {
  const v = await f.redis.hget(f.key('records'), url);
  return v ? (JSON.parse(v) as FieldRecord) : null;
}

/** A record written (or deleted) outside a page's completion: the end of a cycle deletes those it no longer reached. */
export async function recordApply(f: RedisFrontier, w: RecordWrite): Promise<void> {
  const m = f.redis.multi();
  if (w.record) m.hset(f.key('records'), w.url, JSON.stringify(w.record));
  else m.hdel(f.key('records'), w.url);
  await m.hset(f.key('rchanges'), w.url, JSON.stringify(w.change)).exec();
}
