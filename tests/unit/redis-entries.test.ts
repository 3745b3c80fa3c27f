// How a shared crawl keeps its entries and labeled links in Redis: what a worker gets back is what the link said (its
// context as the words the classifier reads of it), and what the completion script decides of a page's links is what
// a local crawl's commit decides: a URL found again ranked by all its links (classifier.everyLink), a link to a judged
// page learned with its verdict at most `linksPerJudgedPage` times, whichever worker judged it.
// @module-tag redis
import { describe, expect, it } from 'vitest';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import type { Candidate } from '../../lib/ports';
import { emptyStats, type CrawlRecord } from '../../lib/records/rows';
import { DEFAULTS } from '../../lib/records/config';
import type { FrontierEntry } from '../../lib/records/types';
import { planUpserts } from '../../lib/run/commit-plan';
import type { SharedAck, SharedEntry } from '../../lib/store/shared/bridge';
import { decodeEntry, decodeLabel, encodeEntry, encodeLabel, urlKey } from '../../lib/store/shared/redis-entries';
import { RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import { useSharedRedis } from '../support/shared-redis';

const CONTEXT = 'Collimation aligns the mirrors of a reflecting telescope. This guide walks through the primary and secondary mirror.';

const candidate = (url: string, logOdds: number, patch: Partial<Candidate> = {}): Candidate => ({
  url, host: new URL(url).host, site: new URL(url).host, score: 0.5, priority: logOdds, logOdds, depth: 2, parentUrl: 'http://a.test/',
  anchor: `link ${logOdds}`, context: CONTEXT, ...patch,
});

describe('entries and labeled links as Redis keeps them', () => {
  it('gives back what the link said, its context as the words the classifier reads', () => {
    const e: SharedEntry = {
      url: 'https://www.example.org/guides/collimation', href: 'https://www.example.org/guides/collimation#top', host: 'www.example.org',
      site: 'example.org', score: 0.7311, priority: 1, order: -3, depth: 3, parentUrl: 'https://www.example.org/', anchor: 'How to collimate\x1fa Newtonian',
      context: CONTEXT, attempts: 0, discoveredAt: 0, updatedAt: 0, strategy: { tunnel: 2 }, parentOnTopic: true, parentHub: 4, retries: 1,
      inlinks: { n: 2, sum: 1.5, best: 1 }, revisit: '17', reason: 'asked to come back later',
    };
    const back = decodeEntry(encodeEntry(e), 1, e.parentUrl, 5);
    expect(back).toEqual({ ...e, anchor: 'How to collimate a Newtonian', context: 'collimation aligns mirrors reflecting telescope guide walks through primary secondary mirror',
      score: 0.731, order: 0, discoveredAt: 5, updatedAt: 5 });
    // A seed's entry, its empty fields at the end left out.
    const seed = encodeEntry({ url: 'http://a.test/', depth: 0, score: 1, anchor: '', context: '' });
    expect(seed).toBe(['http://a.test/', '', '', '0', '', '1'].join('\x1f'));
    expect(decodeEntry(seed, 9, null, 0)).toMatchObject({ url: 'http://a.test/', depth: 0, score: 1, anchor: '', context: '', parentUrl: null, priority: 9 });
    // The words are the features the classifier reads of the context, and of the context as kept.
    const model = new LinkClassifier(['telescope']);
    expect(model.features(back)).toEqual(model.features({ ...e, anchor: back.anchor }));
    expect(urlKey(e.url)).toMatch(/^[\w-]{11}$/);
  });

  it('gives back a labeled link as it was made', () => {
    const label = { url: 'http://a.test/x', anchor: 'Comets', context: 'comet tails', label: 1 as const, source: 'verdict' as const, createdAt: 42,
      pageUrl: 'http://a.test/', parentOnTopic: false, parentHub: 0 };
    expect(decodeLabel(encodeLabel(label))).toEqual(label);
  });
});

describe("the completion script's decisions on a page's links", () => {
  const shared = useSharedRedis();
  let n = 0;
  const params = (p: Partial<CrawlParams> = {}): CrawlParams => ({ maxPages: 100, perHost: 9, delayMs: 0, leaseMs: 10_000, ...p });
  const ack = (url: string, fence: number, children: Candidate[], more: Partial<SharedAck> = {}): SharedAck => ({
    url, fence, priority: 0, stats: { fetched: 1 }, children, aliases: [], labels: [], ...more,
  });

  it('ranks a URL found again by all its links, as a local commit does', async () => {
    const f = new RedisFrontier(shared.redis, `every link ${++n}`);
    await f.join('{}', [], [], { everyLink: 'logodds' });
    const p = params();
    const found = [1.5, -0.5, 3.25, 0.75];
    for (const [i, lo] of found.entries()) await f.ack('w1', [ack(`http://p${i}.test/`, 0, [candidate('http://b.test/x', lo)])], p);
    // A local crawl: the same links, one page after another, through the commit planner.
    const crawl = { id: 1, stats: emptyStats(), nextOrder: 1, config: DEFAULTS } as unknown as CrawlRecord;
    let row: FrontierEntry | undefined;
    for (const lo of found) {
      const puts: FrontierEntry[] = [];
      planUpserts(crawl, [candidate('http://b.test/x', lo)], [row], 0, puts, (_e, x) => x);
      row = puts[0] ?? row;
    }
    const key = urlKey('http://b.test/x');
    expect(Number(await shared.redis.zscore(f.key('q'), key))).toBeCloseTo(row!.priority, 4);
    const kept = decodeEntry((await shared.redis.hget(f.key('e'), key))!, 0, null, 0);
    expect(kept.inlinks!.n).toBe(4);
    expect(kept.inlinks!.sum).toBeCloseTo(row!.inlinks!.sum, 4);
    expect(kept.anchor).toBe(row!.anchor); // the best link's text: what learning and re-scoring read
    // With every link counted off, a better link raises it and a worse one leaves it.
    const g = new RedisFrontier(shared.redis, `best link ${n}`);
    await g.join('{}', []);
    for (const [i, lo] of found.entries()) await g.ack('w1', [ack(`http://p${i}.test/`, 0, [candidate('http://b.test/x', lo)])], params());
    expect(Number(await shared.redis.zscore(g.key('q'), key))).toBe(3.25);
  });

  it("turns links to a judged page into labeled links with its verdict, whichever worker judged it, at most N times", async () => {
    const f = new RedisFrontier(shared.redis, `judged ${++n}`);
    await f.join('{}', [{ ...candidate('http://a.test/', 9), parentUrl: null, order: 0, attempts: 0, discoveredAt: 0, updatedAt: 0 }], [], { judged: 2 });
    const p = params();
    const [a] = (await f.take('w1', 1, p)).taken;
    await f.ack('w1', [ack(a!.url, a!.fence, [], { verdict: 0 })], p); // worker one judged a.test off topic
    for (const [i, w] of ['w2', 'w3', 'w2'].entries()) {
      await f.ack(w, [ack(`http://p${i}.test/`, 0, [candidate('http://a.test/', 1, { anchor: `home ${i}`, parentOnTopic: true })])], p);
    }
    const { labels } = await f.labelsAfter('w2', 0);
    expect(labels.map((l) => [l.url, l.anchor, l.label, l.source, l.pageUrl, l.parentOnTopic])).toEqual([
      ['http://a.test/', 'home 0', 0, 'verdict', 'http://p0.test/', true],
      ['http://a.test/', 'home 1', 0, 'verdict', 'http://p1.test/', true],
    ]);
    expect((await f.labelsAfter('w1', 0)).labels).toHaveLength(2); // the crawl's own: every worker learns them
  });
});
