import { describe, expect, it } from 'vitest';
import { CommitQueue } from '../../lib/run/commit-queue';
import type { CrawlStore } from '../../lib/store/crawl-store';
import type { PageCommit } from '../../lib/ports';

/** A store whose transactions take a little time and record what each one carried. */
function slowStore(fail?: (batch: number) => boolean) {
  const batches: number[][] = [];
  let seq = 0;
  let calls = 0;
  const store = {
    async commitPages(cs: PageCommit[]) {
      await new Promise((r) => setTimeout(r, 10));
      if (fail?.(calls++)) throw new Error('quota');
      batches.push(cs.map((c) => Number(c.page!.url)));
      return cs.map(() => ++seq);
    },
  } as unknown as CrawlStore;
  return { store, batches };
}
const commit = (n: number) => ({ page: { url: String(n) } }) as unknown as PageCommit;

describe('CommitQueue', () => {
  it('groups commits that arrive while a transaction runs, in order', async () => {
    const { store, batches } = slowStore();
    const q = new CommitQueue(store, () => 0);
    const first = q.submit(commit(1));
    const rest = [q.submit(commit(2)), q.submit(commit(3)), q.submit(commit(4))];
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4]);
    // The first starts a transaction alone; the three that arrive meanwhile share the next one.
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('rejects every commit of a failed transaction and goes on with the next', async () => {
    const { store } = slowStore((n) => n === 0);
    const q = new CommitQueue(store, () => 0);
    const a = q.submit(commit(1));
    await expect(a).rejects.toThrow('quota');
    await expect(q.submit(commit(2))).resolves.toBe(1);
  });
});
