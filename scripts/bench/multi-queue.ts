// The take cost of multi-queue's weighted choice (design D.3) against frontier size, in Node with fake-indexeddb
// (not Chromium: filling Chromium's IndexedDB with 1M URLs takes 6-17 minutes here, see frontier-scale.ts).
// N URLs queued over five priorities and 1,000 hosts; then takes of one URL each through the FIFO queues,
// with every host ready, and with the heaviest queue's hosts busy (the take passes over them, design D.4);
// the best-first take on the same frontier for comparison. The first queue take builds the queue counters
// and the queue heads from the index (once per crawl and worker start): timed apart.
//   npx tsx scripts/bench/multi-queue.ts [--sizes 1000,1000000] [--samples 500] [--json]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { parseConfig } from '../../lib/app/parse-config';
import { mulberry32 } from '../../lib/records/random';
import { createStrategy } from '../../lib/strategies/registry';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { FrontierEntry } from '../../lib/records/types';

export interface QueueTakeCost {
  queued: number;
  fillSeconds: number;
  /** The first take by queues, which builds the counters from the index. */
  firstTakeMs: number;
  /** Per take of one URL, in ms: p50, p95, p99. */
  ready: [number, number, number];
  busy: [number, number, number];
  bestFirst: [number, number, number];
}

const HOSTS = 1000;
/** Share of URLs per priority 1..5: most links sit low, as in a forum (members, other links). */
const SHARE = [0.3, 0.4, 0.2, 0.08, 0.02];

const quantiles = (xs: number[]): [number, number, number] => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))]! * 1000) / 1000;
  return [q(0.5), q(0.95), q(0.99)];
};

export async function measureQueueTake(size: number, samples: number): Promise<QueueTakeCost> {
  const store = new CrawlStore(new CrawlerDB(`mq-bench-${size}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const config = parseConfig({ seeds: ['https://h0.example/'], topic: { keywords: ['bench'] }, strategy: { name: 'multi-queue' } });
  const topic = await store.topics.createTopic('bench', ['bench'], 1);
  const crawlId = await store.createCrawl(config, topic.id!, 1);
  const next = createStrategy(config).next;
  const rand = mulberry32(7);
  const started = performance.now();
  for (let done = 0; done < size;) {
    const rows: FrontierEntry[] = [];
    for (const end = Math.min(size, done + 10_000); done < end; done++) {
      let r = rand(), priority = 1;
      while (priority < 5 && r > SHARE[priority - 1]!) r -= SHARE[priority++ - 1]!;
      const host = `h${Math.floor(rand() * HOSTS)}.example`;
      rows.push({ crawlId, url: `https://${host}/p/${done}`, host, site: host, state: 'queued', score: 0.5, priority, order: -(done + 1),
        depth: 2, parentUrl: null, anchor: '', context: '', attempts: 0, discoveredAt: 1, updatedAt: 1 });
    }
    await store.db.frontier.bulkAdd(rows);
  }
  const crawl = (await store.getCrawl(crawlId))!;
  await store.updateCrawl(crawlId, { nextOrder: size + 1, stats: { ...crawl.stats, queued: size } });
  const fillSeconds = (performance.now() - started) / 1000;
  process.stderr.write(`  filled in ${fillSeconds.toFixed(1)} s\n`);

  const time = async (take: () => Promise<unknown>) => {
    const t = performance.now();
    await take();
    return performance.now() - t;
  };
  const firstTakeMs = await time(() => store.frontier.take(crawlId, () => 0, 2, 1, 2000, next));
  process.stderr.write(`  first take ${firstTakeMs.toFixed(0)} ms\n`);
  const ready: number[] = [], busy: number[] = [], bestFirst: number[] = [];
  for (let i = 0; i < samples; i++) ready.push(await time(() => store.frontier.take(crawlId, () => 0, 2, 1, 2000, next)));
  // The heaviest queue is priority 2's; a tenth of all hosts busy, as when a few big hosts wait out their delay.
  const isBusy = (e: FrontierEntry) => (Number(e.host.slice(1, -8)) % 10 === 0 ? 1000 : 0);
  for (let i = 0; i < samples; i++) busy.push(await time(() => store.frontier.take(crawlId, isBusy, 2, 1, 2000, next)));
  // Rows written straight into the table have no host heads: the store builds them from the index when asked (as after
  // any writer outside it), here in one untimed take.
  store.frontier.forgetBound(crawlId);
  await store.frontier.take(crawlId, () => 0, 2, 1, 2000);
  for (let i = 0; i < samples; i++) bestFirst.push(await time(() => store.frontier.take(crawlId, () => 0, 2, 1, 2000)));
  store.db.close();
  return { queued: size, fillSeconds, firstTakeMs, ready: quantiles(ready), busy: quantiles(busy), bestFirst: quantiles(bestFirst) };
}

export function formatQueueTake(rows: QueueTakeCost[]): string {
  const ms = (q: [number, number, number]) => `${q[0]} / ${q[1]} / ${q[2]}`;
  return [
    '| queued URLs | take by queues, hosts ready (ms p50 / p95 / p99) | a tenth of hosts busy | best-first take | first take (builds counters and queue heads) | fill |',
    '|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.queued.toLocaleString('en')} | ${ms(r.ready)} | ${ms(r.busy)} | ${ms(r.bestFirst)} | ${Math.round(r.firstTakeMs)} ms | ${r.fillSeconds.toFixed(0)} s |`),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,1000000' }, samples: { type: 'string', default: '500' }, json: { type: 'boolean', default: false } } });
  const rows: QueueTakeCost[] = [];
  for (const size of values.sizes!.split(',').map(Number)) {
    process.stderr.write(`multi-queue take: ${size.toLocaleString('en')} queued URLs\n`);
    rows.push(await measureQueueTake(size, Number(values.samples)));
  }
  console.log(formatQueueTake(rows));
  if (values.json) console.log(JSON.stringify(rows));
}
