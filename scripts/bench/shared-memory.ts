// Redis memory of a shared crawl, per queued URL (docs/scale-out.md, "Memory"): a crawl shaped like a real one, run
// through the frontier's own scripts. Its pages are Wikispeedia's (their links, anchors and link contexts as the parser
// reads them), spread over many sites of web-like URLs (https://www.siteN.example.org/wiki/Article): each page fetched
// is completed with its links (each link's target on a site chosen by the link, so the crawl keeps finding new
// sites), its verdict, and its labeled link, with every link counted and links to judged pages learned; until the
// queue holds `queued` URLs. Then MEMORY USAGE of each of the crawl's keys.
//   npx tsx scripts/bench/shared-memory.ts [--queued 100000] [--path /wiki/]
// `--path` lengthens the URLs (e.g. /en/reference/encyclopedia/articles/ for about 75 characters, the web's usual).
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import type { Candidate } from '../../lib/ports';
import { KEY_NAMES } from '../../lib/store/shared/redis-scripts';
import { RedisFrontier, type CrawlParams } from '../../lib/store/shared/redis-frontier';
import { parseHtml } from '../../lib/parse/html';
import { connectRedis } from '../../lib/store/shared/redis-frontier';
import { startRedis } from '../../tests/support/redis-server';
import { loadCorpusPages } from './corpus-server';
import { DEFAULT_CORPUS } from './wikispeedia';

export interface MemoryFigures {
  queued: number;
  fetched: number;
  labels: number;
  meanUrlChars: number;
  /** Every key of the crawl, per queued URL. */
  bytesPerQueuedUrl: number;
  mibPerMillion: number;
  /** Each key's MEMORY USAGE, in bytes per queued URL. */
  byKey: Record<string, number>;
}

interface Page { links: { article: string; anchor: string; context: string }[] }

/** Every article's links, as the crawler's parser reads them. */
function corpusLinks(): Map<string, Page> {
  const pages = new Map<string, Page>();
  for (const [path, html] of loadCorpusPages(DEFAULT_CORPUS)) {
    const article = /^\/wiki\/(.+)\.html$/.exec(path)?.[1];
    if (!article) continue;
    const links = parseHtml(html, `http://x.test${path}`).links.flatMap((l) => {
      const target = /\/wiki\/([^/?#]+)\.html$/.exec(l.url)?.[1];
      return target ? [{ article: target, anchor: l.anchor, context: l.context }] : [];
    });
    pages.set(article, { links });
  }
  return pages;
}

const SITES = 400;
/** A link's target site: the source's own for half the links (a site links itself), else one the link picks. */
const siteOfLink = (from: number, article: string, anchor: string): number => {
  const h = createHash('md5').update(`${from} ${article} ${anchor}`).digest();
  return h[0]! < 128 ? from : h.readUInt16BE(1) % SITES;
};
let path = '/wiki/';
const urlOf = (site: number, article: string) => `https://www.site${site}.example.org${path}${article}`;
/** The link's log-odds, as a classifier would give (a spread around 0, fixed by the link). */
const logOddsOf = (url: string, anchor: string) => (createHash('md5').update(url + anchor).digest().readUInt16BE(0) / 65535) * 8 - 4;

export async function crawlShapedMemory(redis: Redis, queued: number, log: (line: string) => void = () => {}, urlPath = '/wiki/'): Promise<MemoryFigures> {
  path = urlPath;
  const pages = corpusLinks();
  const articles = [...pages.keys()];
  const f = new RedisFrontier(redis, `memory ${Date.now()}`);
  const seeds = Array.from({ length: 20 }, (_, i) => urlOf(i, articles[(i * 97) % articles.length]!));
  await f.join('{}', seeds.map((url, i) => ({
    url, host: new URL(url).host, site: new URL(url).host, score: 1, priority: 1e9, order: -i, depth: 0, parentUrl: null, anchor: '', context: '',
    attempts: 0, discoveredAt: 0, updatedAt: 0,
  })), [], { everyLink: 'logodds', judged: 8 });
  const p: CrawlParams = { maxPages: 1e9, perHost: 1000, delayMs: 0, leaseMs: 600_000 };
  let fetched = 0, labels = 0, urlChars = 0, urls = 0;
  for (;;) {
    const s = await redis.zcard(f.key('q'));
    if (s >= queued) break;
    const t = await f.take('memory', 64, p);
    if (!t.taken.length) throw new Error('the crawl ran out of URLs before the queue was full');
    await f.ack('memory', t.taken.map((x) => {
      const m = /^https:\/\/www\.site(\d+)\.example\.org\/.*\/([^/]+)$/.exec(x.url)!;
      const site = Number(m[1]), article = m[2]!;
      const relevant = createHash('md5').update(x.url).digest()[0]! < 90;
      const children: Candidate[] = (pages.get(article)?.links ?? []).map((l) => {
        const url = urlOf(siteOfLink(site, l.article, l.anchor), l.article);
        urlChars += url.length;
        urls++;
        const logOdds = logOddsOf(url, l.anchor);
        return { url, host: new URL(url).host, score: 1 / (1 + Math.exp(-logOdds)), priority: logOdds, logOdds, depth: x.entry.depth + 1, parentUrl: x.url,
          anchor: l.anchor, context: l.context, parentOnTopic: relevant };
      });
      fetched++;
      const label = x.entry.parentUrl ? [{ url: x.url, anchor: x.entry.anchor, context: x.entry.context, label: (relevant ? 1 : 0) as 0 | 1, source: 'verdict' as const, createdAt: 0, parentOnTopic: x.entry.parentOnTopic }] : [];
      labels += label.length;
      return { url: x.url, fence: x.fence, priority: 0, stats: { fetched: 1, relevant: relevant ? 1 : 0 }, children, aliases: [], labels: label, verdict: relevant ? 1 : 0 };
    }), p);
    if (fetched % 2000 < 64) log(`${fetched} pages fetched, ${s} URLs queued`);
  }
  const byKey: Record<string, number> = {};
  let total = 0;
  const q = await redis.zcard(f.key('q'));
  for (const k of KEY_NAMES) {
    const bytes = Number((await redis.call('MEMORY', 'USAGE', f.key(k), 'SAMPLES', '0')) ?? 0);
    if (bytes) byKey[k] = bytes / q;
    total += bytes;
  }
  const labelCount = await redis.llen(f.key('labels'));
  return {
    queued: q, fetched, labels: labelCount, meanUrlChars: urlChars / urls, bytesPerQueuedUrl: total / q, mibPerMillion: (total / q) * 1e6 / 2 ** 20, byKey,
  };
}

export function formatMemory(m: MemoryFigures): string {
  const keys = Object.entries(m.byKey).sort((a, b) => b[1] - a[1]).map(([k, b]) => `\`${k}\` ${b.toFixed(0)}`).join(', ');
  return `Redis memory of a crawl shaped like a real one (${m.fetched.toLocaleString('en')} pages fetched, ${m.queued.toLocaleString('en')} URLs queued, ` +
    `${m.labels.toLocaleString('en')} labeled links; URLs of ${m.meanUrlChars.toFixed(0)} characters on average): ${m.bytesPerQueuedUrl.toFixed(0)} bytes per queued URL, ` +
    `${m.mibPerMillion.toFixed(0)} MiB per million. By key, bytes per queued URL: ${keys}.`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { queued: { type: 'string', default: '100000' }, path: { type: 'string', default: '/wiki/' } } });
  const server = await startRedis();
  const redis = await connectRedis(server.url);
  try {
    console.log(formatMemory(await crawlShapedMemory(redis, Number(values.queued), (line) => process.stderr.write(`[shared-memory] ${line}\n`), values.path)));
  } finally {
    redis.disconnect();
    await server.stop();
  }
}
