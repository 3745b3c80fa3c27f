// The learner's reach index (lib/learning/reach-index.ts): the queued links an answer reaches, found without reading
// the queue's rows, the same as reading every queued link and keeping those with a moved feature.
import { describe, expect, it } from 'vitest';
import { ReachIndex, type QueuedLinks } from '../../lib/learning/reach-index';

type Row = { url: string; state: string; anchor: string };
const words = (e: Row) => e.anchor.split(' ').map((w) => `a:${w}`);

function queue(rows: Row[]) {
  const byUrl = new Map(rows.map((r) => [r.url, r]));
  let rowsRead = 0;
  const store: QueuedLinks<Row> = {
    queuedUrls: async () => [...byUrl.values()].filter((r) => r.state === 'queued').map((r) => r.url),
    entries: async (_c, urls) => urls.map((u) => (rowsRead++, byUrl.get(u))),
  };
  const scan = (moved: Set<string>) => [...byUrl.values()].filter((r) => r.state === 'queued' && words(r).some((f) => moved.has(f))).map((r) => r.url).sort();
  return { byUrl, store, scan, rowsRead: () => rowsRead };
}

describe('ReachIndex', () => {
  it('finds the queued links with a moved feature, as a scan of the whole queue does, and reads only new rows after the first answer', async () => {
    const q = queue(Array.from({ length: 200 }, (_, i) => ({ url: `u${i}`, state: 'queued', anchor: `${['Tudor', 'Stuart', 'Bread'][i % 3]} n${i}` })));
    const index = new ReachIndex(1, q.store, words);
    await index.refresh();
    const moved = new Set(['a:Tudor', 'a:n5']);
    expect(index.reached(moved).sort()).toEqual(q.scan(moved));
    expect(q.rowsRead()).toBe(200);

    // The crawl queues more links while the user answers: the next answer reaches them, reading only those.
    q.byUrl.set('late', { url: 'late', state: 'queued', anchor: 'Tudor late' });
    await index.refresh();
    expect(index.reached(new Set(['a:Tudor']))).toContain('late');
    expect(q.rowsRead()).toBe(201);
    expect(index.size).toBe(201);
  });

  it('indexes the links a committed page queued without listing the queue, each URL once', async () => {
    const q = queue([{ url: 'u0', state: 'queued', anchor: 'Bread' }]);
    const index = new ReachIndex(1, q.store, words);
    await index.refresh();
    index.noteQueued([{ url: 'p1', state: 'queued', anchor: 'Tudor kings' }, { url: 'u0', state: 'queued', anchor: 'Tudor bread' }]);
    expect(index.reached(new Set(['a:Tudor']))).toEqual(['p1']); // u0 keeps the link it was indexed with
    expect(index.size).toBe(2);
    expect(q.rowsRead()).toBe(1);
  });
});
