// A URL's authority among the labeled pages' links (classifier/authority.ts) and its part in a crawl's ranking.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { TargetAuthority } from '../../lib/learning/authority';
import { seedCandidates } from '../../lib/learning/children';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlRunner } from '../../lib/run/runner';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { authorityText } from '../../lib/ui/format';
import { realClock } from '../../lib/net/fetcher';

const logit = (p: number) => Math.log(p / (1 - p));

describe('TargetAuthority', () => {
  it('buckets a URL by the share of its labeled in-linkers that are on topic, against the base share', () => {
    const a = new TargetAuthority(0.25);
    a.add(1, ['/x', '/y']);
    a.add(0, ['/x', '/z']);
    a.add(0, ['/x']);
    // /x: 1 of 3 on topic, 4/3 of the base (bucket 3); /y: 1 of 1, four times the base (5); /z: none on topic (0).
    expect([a.bucket('/x'), a.bucket('/y'), a.bucket('/z'), a.bucket('/never')]).toEqual([3, 5, 0, undefined]);
    expect(a.size).toBe(3);
  });

  it('fits each bucket on the labeled targets, its rate shrunk toward the overall rate', () => {
    const a = new TargetAuthority(0.5);
    // Three on-topic pages link to each other, three off-topic ones likewise.
    for (const i of [1, 2, 3]) a.add(1, [1, 2, 3].filter((j) => j !== i).map((j) => `/on/${j}`));
    for (const i of [1, 2, 3]) a.add(0, [1, 2, 3].filter((j) => j !== i).map((j) => `/off/${j}`));
    a.add(1, ['/new']);
    const fit = a.fit((url) => (url.startsWith('/on/') ? 1 : url.startsWith('/off/') ? 0 : undefined));
    expect(fit.counts[4]).toEqual([0, 3]);
    expect(fit.counts[0]).toEqual([3, 0]);
    // rate(4) = (3 + 4 * 0.5) / (3 + 4) = 5/7; the overall rate is 1/2.
    expect(fit.logOdds[4]).toBeCloseTo(logit(5 / 7), 12);
    expect(fit.logOdds[0]).toBeCloseTo(-logit(5 / 7), 12);
    // Buckets without labeled targets say nothing, and neither does a URL no labeled page links to.
    expect([fit.logOdds[1], fit.logOdds[2], fit.logOdds[3], fit.logOdds[5]]).toEqual([0, 0, 0, 0]);
    expect(a.logOdds('/new')).toBeCloseTo(logit(5 / 7), 12); // linked by one on-topic page: twice the base, bucket 4
    expect(a.logOdds('/unlinked')).toBe(0);
  });

  it('gives an empty bucket nothing on a small topic, where add-one smoothing per class would lift it', () => {
    const a = new TargetAuthority(12 / 1012);
    // 12 on-topic targets, all linked from on-topic pages only; 1,000 off-topic ones, from off-topic pages only.
    for (let i = 0; i < 12; i++) a.add(1, [`/on/${(i + 1) % 12}`]);
    for (let i = 0; i < 1000; i++) a.add(0, [`/off/${(i + 1) % 1000}`]);
    const fit = a.fit((url) => (url.startsWith('/on/') ? 1 : url.startsWith('/off/') ? 0 : undefined));
    // No labeled target falls in buckets 1-4: add-one per class would give each log((1/18)/(1/1006)) = +4.0.
    expect(fit.logOdds.slice(1, 5)).toEqual([0, 0, 0, 0]);
    expect(fit.logOdds[5]).toBeGreaterThan(3);
    expect(fit.logOdds[0]).toBeLessThan(0);
  });

  it('says nothing before it is fitted, after pages are added to it, or when labeled targets are of one class', () => {
    const a = new TargetAuthority(0.5);
    a.add(1, ['/on/1', '/x']);
    a.add(0, ['/off/1']);
    const label = (url: string) => (url.startsWith('/on/') ? 1 : url.startsWith('/off/') ? 0 : undefined);
    expect(a.logOdds('/x')).toBe(0);
    a.fit(label);
    expect(a.logOdds('/x')).not.toBe(0);
    a.add(1, ['/y']);
    expect(a.lastFit).toBeNull();
    expect(a.logOdds('/x')).toBe(0);
    expect(a.fit((url) => (url.startsWith('/on/') ? 1 : undefined)).logOdds).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

it('says in the crawl\'s details why a crawl has no URL authority', () => {
  const config = parseConfig({ seeds: ['https://example.org/'], topic: { keywords: ['art'] } });
  expect(authorityText({ state: 'running', config })).toMatch(/^none: it needs training.positive, training.negative/);
  const trained = parseConfig({ ...config, training: { linkSources: ['https://example.org/a'], positive: ['https://example.org/a'], negative: ['https://example.org/b'] } });
  expect(authorityText({ state: 'training', config: trained })).toBe('fitted when training ends');
  expect(authorityText({ state: 'running', config: { ...trained, classifier: { ...trained.classifier, targetAuthority: false } } })).toBe('off');
});

describe('a crawl ranks a URL by its authority among the labeled pages (classifier.targetAuthority)', () => {
  const o = 'http://sky.test';
  const page = (title: string, links: string[]) =>
    `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${links.map((l) => `<p><a href="${l}">Next</a></p>`).join('')}</body></html>`;
  // Three on-topic pages link to each other and to /a; three off-topic ones to each other and to /b. The crawl
  // meets /b and /a on one page, with the same link text: only their in-links tell them apart.
  const SITE: Record<string, string> = {
    '/start': page('Start', ['/mid']),
    '/mid': page('Middle', ['/b', '/a']),
    '/a': page('A', []),
    '/b': page('B', []),
  };
  for (const i of [1, 2, 3]) {
    SITE[`/pos/${i}`] = page(`Astronomy ${i}`, [...[1, 2, 3].filter((j) => j !== i).map((j) => `/pos/${j}`), '/a']);
    SITE[`/neg/${i}`] = page(`Parking ${i}`, [...[1, 2, 3].filter((j) => j !== i).map((j) => `/neg/${j}`), '/b']);
  }
  const sources = [1, 2, 3].flatMap((i) => [`${o}/pos/${i}`, `${o}/neg/${i}`]);

  /** A crawl on a fresh store; `haltAt` halts the first worker when it requests that path (a stopped worker). */
  async function crawl(opts: { targetAuthority?: boolean; haltAt?: string; rescoreEveryPages?: number; concurrency?: number } = {}) {
    const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
    const config = parseConfig({
      name: 'sky', seeds: [`${o}/start`], topic: { keywords: ['astronomy'] },
      training: { linkSources: sources, positive: [`${o}/pos/*`], negative: [`${o}/neg/*`] },
      budget: { maxPages: 3 }, politeness: { delayMs: 0, concurrency: opts.concurrency ?? 1, perHost: opts.concurrency ?? 1, robots: false },
      classifier: { targetAuthority: opts.targetAuthority ?? true },
      learning: opts.rescoreEveryPages ? { fromVerdicts: false, rescoreEveryPages: opts.rescoreEveryPages } : {},
    });
    const topic = await store.topics.createTopic('sky', ['astronomy'], Date.now());
    const crawlId = await store.createCrawl(config, topic.id!, Date.now());
    await store.frontier.enqueue(crawlId, seedCandidates(config), Date.now());
    const requested: string[] = [];
    let halt: (() => void) | null = null;
    const fetch = async (url: string) => {
      const path = new URL(url).pathname;
      requested.push(path);
      if (path === opts.haltAt) halt?.();
      // With several workers, answers arrive in a random order, as from a real server.
      if (opts.concurrency) await new Promise((r) => setTimeout(r, Math.random() * 15));
      const html = SITE[path];
      return html === undefined ? new Response('no', { status: 404 }) : new Response(html, { status: 200, headers: { 'content-type': 'text/html' } });
    };
    const ports = { store, fetch, clock: realClock };
    const first = new CrawlRunner(ports, crawlId);
    halt = () => first.requestHalt('paused', 'the worker stopped');
    let end = await first.run();
    if (opts.haltAt) {
      // A new worker, as after the browser stopped the old one: nothing of the first runner's memory is left.
      expect(end.state).toBe('paused');
      halt = null;
      await store.updateCrawl(crawlId, { state: end.stats.trainPages < sources.length ? 'training' : 'running' });
      end = await new CrawlRunner(ports, crawlId).run();
    }
    expect(end.state).toBe('finished');
    const entry = async (path: string) => (await store.frontier.getEntry(crawlId, `${o}${path}`))!;
    return {
      requested: requested.filter((p) => !p.startsWith('/pos/') && !p.startsWith('/neg/')), a: await entry('/a'), b: await entry('/b'),
      crawl: (await store.getCrawl(crawlId))!, store, crawlId,
    };
  }

  it('fetches the URL on-topic labeled pages link to first, and without it the one found first', async () => {
    const on = await crawl();
    expect(on.requested).toEqual(['/start', '/mid', '/a']);
    // Each of /a and /b is in bucket 4 or 0, fitted on the six labeled pages: +-logit(5/7) around the same link score.
    expect(logit(on.a.score) - logit(on.b.score)).toBeCloseTo(2 * logit(5 / 7), 9);
    // The crawl row keeps what was fitted, and the dashboard says it in a sentence.
    expect(on.crawl.authority).toEqual({ urls: 8, labeled: 6, logOdds: [-logit(5 / 7), 0, 0, 0, logit(5 / 7), 0].map((x) => expect.closeTo(x, 12)) });
    expect(authorityText(on.crawl)).toBe('8 URLs that labeled pages link to (6 of them labeled, which it learned from): their odds ×0.40 to ×2.5, by how many of the labeled pages linking to them are on topic');
    // The labeled pages' links are stored apart from the crawled graph that a strategy such as HITS reads.
    expect((await on.store.labeledOutlinks(on.crawlId)).map((r) => r.label).sort()).toEqual([0, 0, 0, 1, 1, 1]);
    expect((await on.store.strategyMemory(on.crawlId)).graph).toEqual([]);
    const off = await crawl({ targetAuthority: false });
    expect(await off.store.labeledOutlinks(off.crawlId)).toEqual([]);
    expect(authorityText(off.crawl)).toBe('off');
    expect(off.requested).toEqual(['/start', '/mid', '/b']);
    expect(off.a.score).toBeCloseTo(off.b.score, 12);
  });

  it('keeps the authority when it re-scores the queue', async () => {
    // Nothing is learned during the crawl, so a re-score that adds the same authority moves no link.
    const { crawl: c, b } = await crawl({ rescoreEveryPages: 1 });
    expect(c.lastRescore?.scanned).toBeGreaterThan(0);
    expect(c.lastRescore?.changed).toBe(0);
    expect(b.state).toBe('queued');
  });

  it('ranks the same when four workers read the labeled pages at once, in any order', async () => {
    const whole = await crawl();
    for (let run = 0; run < 5; run++) {
      const together = await crawl({ concurrency: 4 });
      expect(together.requested.slice(-2)).toEqual(['/mid', '/a']);
      expect(together.a.score).toBeCloseTo(whole.a.score, 12);
      expect(together.b.score).toBeCloseTo(whole.b.score, 12);
      expect(together.crawl.authority).toEqual(whole.crawl.authority);
    }
  });

  it('ranks the same after the worker stopped during training or after it: the labeled pages\' links are stored', async () => {
    const whole = await crawl();
    for (const haltAt of ['/neg/2', '/start']) {
      const resumed = await crawl({ haltAt });
      expect(resumed.requested.slice(-2), haltAt).toEqual(['/mid', '/a']);
      expect(resumed.a.score, haltAt).toBeCloseTo(whole.a.score, 12);
      expect(resumed.b.score, haltAt).toBeCloseTo(whole.b.score, 12);
    }
  });
});
