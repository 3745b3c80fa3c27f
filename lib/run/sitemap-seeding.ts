// Sitemaps as seeds (docs/duplicates.md, "Sitemaps"), once per crawl before the crawl loop: for each seed's host, the
// sitemaps its robots.txt names, or its /sitemap.xml; a sitemap index's sitemaps in turn. Every file is read through
// the request gate (safety, scope, robots.txt, politeness) without the user's cookies, counts against the budget of
// requests, and the files read are at most SITEMAP_FILE_SHARE of that budget. Their URLs are queued as links scored by
// their path's words, so best-first takes them when their turn comes; each keeps its <lastmod>.
import { NotASitemap, pathWords, readSitemap, SITEMAP_MAX_BYTES, type ParsedSitemap } from '../net/sitemap';
import { planListed } from '../learning/children';
import type { Candidate } from '../ports';
import type { SitemapRead } from '../records/rows';
import { siteOf } from '../records/url';
import type { RunContext } from './context';
import { presumeLinks } from './content-step';

/**
 * The share of the budget that sitemap files may take, and the files a crawl may read whatever its budget (an index
 * and two of its sitemaps), but never the requests its seeds need.
 */
export const SITEMAP_FILE_SHARE = 0.05;
export const SITEMAP_FILES_MIN = 3;
/** Candidates queued per commit: a sitemap of 50,000 URLs is queued in steps, not in one transaction. */
const QUEUE_STEP = 2_000;

interface ToRead {
  url: string;
  from: SitemapRead['from'];
}

/** The sitemaps the crawl starts from: those robots.txt names for each seed's origin, or its /sitemap.xml. */
async function firstSitemaps(ctx: RunContext): Promise<ToRead[]> {
  const origins = [...new Set(ctx.config.seeds.map((s) => new URL(s).origin))];
  const out: ToRead[] = [];
  for (const origin of origins) {
    const named = await ctx.gate.sitemapsNamed(`${origin}/`);
    if (named.length) out.push(...named.map((url) => ({ url, from: 'robots.txt' as const })));
    else out.push({ url: `${origin}/sitemap.xml`, from: 'default' });
  }
  return out;
}

/** Reads the seeds' sitemaps and queues their URLs, once per crawl (`seeds.sitemaps`). */
export async function seedFromSitemaps(ctx: RunContext): Promise<void> {
  if (!ctx.config.seedSitemaps || ctx.config.template) return;
  const crawl = await ctx.mustGet();
  if (crawl.sitemaps !== undefined) return;
  const { maxPages } = ctx.config.budget;
  const maxFiles = Math.max(0, Math.min(maxPages - ctx.config.seeds.length, Math.max(SITEMAP_FILES_MIN, Math.ceil(maxPages * SITEMAP_FILE_SHARE))));
  const todo = await firstSitemaps(ctx);
  const seen = new Set(todo.map((t) => t.url));
  const reads: SitemapRead[] = [];
  let requests = 0, files = 0;
  while (todo.length > 0 && !ctx.halted) {
    if (files >= maxFiles || ctx.reserved >= maxPages) {
      reads.push(...todo.splice(0).map((t) => ({ ...t, listed: 0, queued: 0, error: `not read: ${files >= maxFiles ? `the crawl reads at most ${maxFiles} sitemap file${maxFiles === 1 ? '' : 's'} on a budget of ${maxPages}` : 'the budget was spent'}` })));
      break;
    }
    const next = todo.shift()!;
    ctx.reserved++;
    const got = await ctx.gate.file(next.url, SITEMAP_MAX_BYTES);
    if (got === null) {
      ctx.reserved--;
      break;
    }
    ctx.reserved += got.requests - 1;
    requests += got.requests;
    if (got.requests > 0) files++;
    if (got.kind !== 'file') {
      reads.push({ ...next, listed: 0, queued: 0, error: got.reason });
      continue;
    }
    let parsed: ParsedSitemap;
    try {
      parsed = await readSitemap(got.out.payload ?? new Uint8Array(0), { truncated: got.out.truncated });
    } catch (err) {
      reads.push({ ...next, listed: 0, queued: 0, error: err instanceof NotASitemap ? err.message : `could not be read: ${String(err)}` });
      continue;
    }
    const read: SitemapRead = { ...next, listed: parsed.entries.length, queued: 0, ...(parsed.problem ? { error: parsed.problem } : {}) };
    if (parsed.kind === 'sitemapindex') {
      for (const e of parsed.entries) {
        if (seen.has(e.loc) || !/^https?:\/\//i.test(e.loc)) continue;
        seen.add(e.loc);
        todo.push({ url: e.loc, from: 'index' });
        read.queued++;
      }
    } else read.queued = await queueListed(ctx, next.url, parsed);
    reads.push(read);
  }
  if (ctx.halted && reads.length === 0) return;
  await ctx.commits.submit({
    crawlId: ctx.crawlId, outcome: 'done', children: [], aliases: [], labels: [], site: siteOf(ctx.config.seeds[0] ?? todo[0]?.url ?? 'http://x.invalid/'),
    stats: { attempts: requests, sitemapRequests: files }, sitemaps: reads, activeMs: ctx.activeMs(),
  });
  ctx.ports.log?.(`sitemaps: ${reads.map((r) => `${r.url} ${r.listed} listed${r.error ? ` (${r.error})` : ''}`).join('; ')}`);
}

/** A sitemap's URLs planned as links and queued, a step at a time; how many candidates it gave. */
async function queueListed(ctx: RunContext, sitemapUrl: string, parsed: ParsedSitemap): Promise<number> {
  const entries = parsed.entries.filter((e) => /^https?:\/\//i.test(e.loc)).map((e) => ({ url: e.loc, anchor: pathWords(e.loc), ...(e.lastmod === undefined ? {} : { lastmod: e.lastmod }) }));
  const dropped: Record<string, number> = {};
  const planned: Candidate[] = planListed(entries, sitemapUrl, ctx.config, ctx.learner.model.link, ctx.authority, { strategy: ctx.strategy, rules: ctx.rules }, dropped);
  // A listed URL one rule from another listed one, or from a page the crawl knows, waits behind the rest like a link.
  presumeLinks(ctx, [], planned, { title: '', text: '', links: [], nofollow: false });
  for (let i = 0; i < planned.length; i += QUEUE_STEP) {
    await ctx.commits.submit({
      crawlId: ctx.crawlId, outcome: 'done', children: planned.slice(i, i + QUEUE_STEP), aliases: [], labels: [], site: siteOf(sitemapUrl), stats: {},
      ...(i === 0 ? { dropped } : {}), admission: ctx.admission, activeMs: ctx.activeMs(),
    });
  }
  return planned.length;
}
