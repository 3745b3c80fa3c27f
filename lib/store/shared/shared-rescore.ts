// A worker's part in the crawl-wide re-score of a shared frontier (docs/scale-out.md, "The shared queue learns"):
// it leads the open pass when no live worker does, a slice at a time. Each slice is read from Redis with the cursor
// the pass is at, ranked here with this worker's model (the same counts as every worker's, within a couple of
// seconds), and written back with the next cursor under the lead's fence; between slices the crawl gets as much time
// as the slice took, as a local re-score gives it. A slice whose write is refused was taken over by another worker.
import type { CrawlStorePort } from '../../ports';
import type { FrontierEntry } from '../../records/types';
import type { RescoreMove, SharedBridge } from './bridge';

type Rescore = CrawlStorePort['frontier']['rescoreQueued'];
type Rank = Parameters<Rescore>[1];
type Options = NonNullable<Parameters<Rescore>[3]>;

export async function rescoreShared(bridge: SharedBridge, crawlId: number, rank: Rank, opts: Options): ReturnType<Rescore> {
  const { lead, leader } = await bridge.rescoreLead({ why: opts.why ?? '' });
  if (!lead) return { scanned: 0, changed: 0, complete: true, ledElsewhere: leader ?? '' };
  const count = opts.chunk ?? 500, epsilon = opts.epsilon ?? 0;
  let cursor = lead.cursor;
  let scanned = 0, changed = 0;
  for (;;) {
    const started = Date.now();
    const slice = await bridge.rescoreSlice({ cursor, count });
    const moves: RescoreMove[] = [];
    for (const { key, priority, entry } of slice.entries) {
      const e: FrontierEntry = { ...entry, crawlId, state: 'queued' };
      const r = rank(e);
      if (!r || Math.abs(r.priority - e.priority) <= epsilon) continue;
      moves.push({ key, from: priority, to: r.priority, ...(r.inlinks ? { inlinks: r.inlinks } : {}) });
    }
    const w = await bridge.rescoreWrite({ fence: lead.fence, from: cursor, next: slice.next, scanned: slice.entries.length, moves });
    if (w.state === 'lost') return { scanned, changed, complete: false, ledElsewhere: 'another worker' };
    ({ scanned, changed } = w);
    if (w.state === 'done') return { scanned, changed, complete: true };
    cursor = slice.next;
    if ((await opts.pause?.(Date.now() - started)) === false) {
      await bridge.rescoreLeave({ fence: lead.fence });
      return { scanned, changed, complete: false };
    }
  }
}
