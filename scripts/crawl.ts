// The command-line runner: drives the real extension in Chromium or Firefox through its own message protocol.
//   npm run crawl -- --config FILE --out DIR [--browser chromium|firefox] [--profile DIR] [--headed] [--host-rules RULES] [--export warc,wacz,jsonl,csv,zip]
//   npm run crawl -- --recrawl --config FILE --profile DIR --out DIR     (the next cycle of a template crawl)
//   npm run crawl -- --config FILE --out DIR --frontier redis://HOST:PORT[/DB]   (one of many workers on one crawl, docs/scale-out.md)
//   npm run crawl -- --frontier redis://HOST:PORT[/DB] --status NAME              (a shared crawl's progress, without crawling)
// A template crawl also writes records.jsonl (its records after the run) and changes.jsonl (what the run changed).
// Exit status: 0 done, 1 nothing could be fetched or an error, 2 a bad command line or config, 3 a request ended your
// session (the crawl is paused, the sentence says which URL; log in again and resume it from the dashboard).
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError } from '../lib/records/config';
import { parseConfig } from '../lib/app/parse-config';
import { FORMATS } from '../lib/export/formats';
import { pageLine } from '../lib/export/jsonl';
import { EXPORT_FORMATS, frontierSize, type ExportFormat } from '../lib/records/rows';
import { isExportFormat } from '../lib/export/selection';
import type { CrawlStatus } from '../lib/app/protocol';
import type { PageRecord } from '../lib/records/types';
import type { CrawlRecord, FieldRecord, RecallPoint, RecordChange } from '../lib/records/rows';
import { recallSentence } from '../lib/ui/format';
import { changesJsonl, recordsJsonl } from '../lib/export/records';
import type { CrawlConfig } from '../lib/records/config';
import { runPagesPerMinute } from '../lib/records/pace';
import { crawlFigures, figuresLine, figuresOf, figureValues, recordCounts, type RecordCounts } from '../lib/ui/crawl-figures';
import { duplicateCounts, learnedText, type DuplicateCounts } from '../lib/ui/duplicate-words';
import type { Launched } from './lib/browser';
import { BROWSERS, isBrowserName, openSession, waitInPage, type BrowserName, type ExtensionSession } from './lib/session';
import type { Bridge } from '../lib/store/shared/bridge-server';
import { formatStatus, FrontierError, type SharedStatus } from '../lib/store/shared/redis-frontier';
import { joinShared, serveBridge, sharedRecords, sharedStatus, type SharedJoin, type SharedOptions } from '../lib/app/shared-run';

export interface RunOptions {
  config: unknown;
  out: string;
  profileDir?: string;
  headed?: boolean;
  hostRules?: string;
  /** The browser to crawl in (default chromium). */
  browser?: BrowserName;
  /** Progress lines; the default writes to stderr. */
  log?: (line: string) => void;
  /** Called once the crawl has started, with the live browser (tests use it to stop the service worker). Chromium only. */
  onStarted?: (launched: Launched, crawlId: number) => Promise<void> | void;
  /** Formats to export into `out` once the crawl has ended (crawl.warc.gz, crawl.wacz, pages.jsonl with content, pages.csv, pages.zip). */
  exports?: ExportFormat[];
  /** Runs the next cycle of the template crawl of the config's name in the same profile (design E.6). */
  recrawl?: boolean;
  /** Called once the crawl has ended, before the browser closes (tests look at the dashboard then). Chromium only. */
  onFinished?: (launched: Launched, crawlId: number) => Promise<void> | void;
  /** Runs as one worker of the shared crawl of the config's name in Redis (docs/scale-out.md). */
  frontier?: SharedOptions;
}

export interface Summary {
  name: string;
  crawlId: number;
  state: string;
  message: string | null;
  /**
   * The figures that measure the crawl, by its strategy (lib/ui/crawl-figures.ts), as the dashboard and the popup show
   * them: fetched, relevant and harvestRate for a topic crawl; fetched, records, recordsPerPage and sitesWithRecord for
   * a template; fetched, contentPages, listPages and queues for a multi-queue crawl. Rates as fractions.
   */
  figures: Record<string, number | null>;
  fetched: number;
  /** Pages judged relevant; not for a template crawl, whose keyword judge calls every page relevant. */
  relevant?: number;
  /** Requests made in the crawl phase: what the budget counts. */
  requests: number;
  failed: number;
  skipped: number;
  trainPages: number;
  /** List pages fetched and mined for links (multi-queue, design D.1): not content, so not in `fetched`. */
  listPages?: number;
  frontierLeft: number;
  /** Sites the crawl would not enter (closed by its strategy, by the user, or in the config's siteBlacklist). */
  blacklistedSites: number;
  /** Links kept out of the frontier by the strategy, by reason. */
  dropped: Record<string, number>;
  durationSeconds: number;
  /** Pages a minute from the first page to the last (lib/records/pace.ts); null for a run too short to tell. */
  pagesPerMinute: number | null;
  /**
   * How much of the topic the crawl holds (docs/recall.md): the newest estimate and its interval (null, with the
   * note saying why, when there is none) and every estimate made, one every hundred pages fetched.
   */
  recall?: { estimate: number | null; low: number | null; high: number | null; note?: string; history: RecallPoint[] };
  /** What the crawl's strategy reported of itself (e.g. HITS rounds and their cost), when it reports. */
  strategyReport?: Record<string, unknown>;
  /** Set when a request ended the user's session and the crawl paused for it: the URL, and how. */
  sessionLost?: { url: string; by: 'cookie' | 'login' | 'signs'; what: string; after?: string };
  /**
   * Pages the crawl had a stored copy of (a template's recrawl, a list page's refresh): requests made, those asked
   * with validators, 304s, pages found changed and unchanged, body bytes downloaded, and bytes the 304s saved.
   */
  recheck?: { requests: number; conditional: number; notModified: number; changed: number; unchanged: number; bytesDownloaded: number; bytesSaved: number };
  /**
   * Spent on new content (docs/duplicates.md): duplicates fetched, URLs not requested by a learned rule or a canonical
   * link, sitemap files read and the URLs they queued and fetched; and what was learned of each host's URLs.
   */
  duplicates?: DuplicateCounts & { learned: string[] };
  /** A template crawl: its cycle, records after the run, and what the run changed. */
  template?: { cycle: number; searchResults: number; seedsCrawled: number; records: number; changes: Record<string, number> | null; nextRecrawl: string | null };
  /**
   * A shared crawl: the counts above are the whole crawl's, read from Redis; this worker's name there, the pages it
   * fetched (its pages.jsonl), the pages each worker committed, and what is left.
   */
  shared?: { worker: string; fetchedHere: number; byWorker: Record<string, number>; workersAlive: number; requests: number; queued: number };
}

const FINAL = new Set(['finished', 'stopped', 'paused', 'failed']);
/** Page rows the runner asks for at a time, as it writes them to pages.jsonl. */
export const PAGES_A_READ = 1000;

/**
 * Reads the pages committed after `afterSeq`, `PAGES_A_READ` at a time, hands each read to `write`, and returns the
 * last seq read. A short read means none were left then: the next look is the caller's next tick. (Reading again
 * until a read came back empty, a fast crawl's few new pages each time kept the runner asking without a pause, each
 * ask a message through the browser's main thread and a transaction.)
 */
export async function readNewPages(
  read: (afterSeq: number, limit: number) => Promise<PageRecord[]>, afterSeq: number, write: (rows: PageRecord[]) => void,
): Promise<number> {
  for (;;) {
    const rows = await read(afterSeq, PAGES_A_READ);
    if (rows.length === 0) return afterSeq;
    write(rows);
    afterSeq = rows[rows.length - 1]!.seq;
    if (rows.length < PAGES_A_READ) return afterSeq;
  }
}

export async function runCrawl(opts: RunOptions): Promise<Summary> {
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const parsed = parseConfig(opts.config); // one clear line before a browser starts
  if (opts.recrawl && (!opts.profileDir || !parsed.template)) {
    throw new ConfigError(opts.profileDir ? '--recrawl needs a config with a template' : '--recrawl needs --profile: the profile that holds the template\'s records');
  }
  // Redis first: an unreachable server, a refused password or another config of the same name stop here. A recrawl on a
  // shared frontier is the crawl's next cycle there (or the cycle under way, joined).
  const joined = opts.frontier ? await joinShared(parsed, { ...opts.frontier, recrawl: opts.recrawl }) : undefined;
  if (joined) log(`joined the shared crawl "${parsed.name}" as ${joined.worker}${joined.ended ? ` (it has ended: ${joined.ended})` : ''}`);
  mkdirSync(opts.out, { recursive: true });
  const pagesFile = join(opts.out, 'pages.jsonl');
  writeFileSync(pagesFile, '');
  const browser = opts.browser ?? 'chromium';
  if (browser !== 'chromium' && (opts.onStarted || opts.onFinished)) throw new Error('onStarted and onFinished are given the Chromium launch: not in Firefox');
  let bridge: Bridge | undefined;
  let session: ExtensionSession;
  try {
    bridge = joined && !joined.ended ? await serveBridge(joined, log) : undefined;
    session = await openSession(browser, { profileDir: opts.profileDir, headed: opts.headed, hostRules: opts.hostRules }, log);
  } catch (err) {
    await bridge?.close();
    joined?.redis.disconnect();
    throw err;
  }
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSigint);
  try {
    const send = session.send;
    // A worker that comes back to a shared crawl that has ended writes what its profile fetched of it, and crawls nothing.
    const previous = joined?.ended ? await send<CrawlStatus | null>('status', {}) : null;
    if (joined?.ended && previous?.crawl.name !== parsed.name) {
      return await endedWithoutPages(parsed, joined.frontier.status(), joined.worker, opts.out);
    }
    const { crawlId } = previous
      ? { crawlId: previous.crawl.id! }
      : bridge
        ? await send<{ crawlId: number }>('startShared', { config: opts.config, bridge: { url: bridge.url, token: bridge.token, worker: bridge.worker } })
        : opts.recrawl
          ? await send<{ crawlId: number }>('recrawl', { name: parsed.name, config: opts.config })
          : await send<{ crawlId: number }>('start', opts.config);
    if (!previous) log(`crawl ${crawlId} started in the extension ${session.extensionId} (${browser})`);
    if (session.chromium) await opts.onStarted?.(session.chromium, crawlId);
    let afterSeq = 0;
    let status: CrawlStatus | null = null;
    let lastLine = 0;
    const drainPages = async () => {
      afterSeq = await readNewPages((after, limit) => send<PageRecord[]>('pages', { crawlId, afterSeq: after, limit }), afterSeq,
        (rows) => appendFileSync(pagesFile, rows.map((p) => pageLine(p)).join('\n') + '\n'));
    };
    for (;;) {
      if (interrupted) {
        log('interrupted: pausing the crawl (resume it from the dashboard)');
        await send('pause', { crawlId });
        interrupted = false;
      }
      status = await send<CrawlStatus | null>('status', { crawlId });
      await drainPages();
      if (!status) throw new Error(`crawl ${crawlId} disappeared`);
      const now = Date.now();
      if (now - lastLine > (process.stderr.isTTY ? 1000 : 5000)) {
        lastLine = now;
        log(progressLine(status));
      }
      if (FINAL.has(status.crawl.state) || previous) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await drainPages();
    if (opts.exports?.length) await exportInto(session, crawlId, opts.exports, opts.out, log);
    const written = parsed.template ? await writeRecords(session, parsed.name, crawlId, opts.out, joined) : undefined;
    if (session.chromium) await opts.onFinished?.(session.chromium, crawlId);
    const recall = status.crawl.recall ? recallSummary(status.crawl.recall, await send<RecallPoint[]>('recallHistory', { crawlId })) : undefined;
    const local = { ...summarize(status, crawlId, written?.counts), ...(recall ? { recall } : {}), ...(written ? { template: written.template } : {}) };
    const summary = joined ? withShared(local, status.crawl, await joined.frontier.status(), joined.worker) : local;
    writeFileSync(join(opts.out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    return summary;
  } finally {
    process.off('SIGINT', onSigint);
    await session.close();
    await bridge?.close();
    joined?.redis.disconnect();
  }
}

/** A shared crawl's summary: the crawl's totals from Redis, with this worker's own share. */
function withShared(local: Summary, crawl: Pick<CrawlRecord, 'config' | 'stats' | 'queues'>, s: SharedStatus, worker: string): Summary {
  const totals = { ...crawl, stats: { ...crawl.stats, fetched: s.fetched, relevant: s.relevant, failed: s.failed } };
  return {
    ...local, figures: figureValues(crawlFigures(totals)), fetched: s.fetched, failed: s.failed,
    ...(local.relevant === undefined ? {} : { relevant: s.relevant }),
    frontierLeft: s.queued, state: s.ended ? 'finished' : local.state, message: s.ended ?? local.message, dropped: s.dropped,
    blacklistedSites: s.blacklistedSites,
    shared: { worker, fetchedHere: local.fetched, byWorker: s.byWorker, workersAlive: s.workersAlive, requests: s.requests, queued: s.queued },
  };
}

/** A worker that joined an ended shared crawl from a profile without pages of it: the crawl's totals, and no pages. */
async function endedWithoutPages(config: CrawlConfig, status: Promise<SharedStatus>, worker: string, out: string): Promise<Summary> {
  const s = await status;
  const none = { attempts: 0, fetched: 0, relevant: 0, failed: 0, skipped: 0, queued: 0, trainPages: 0, labels: 0, bytes: 0 };
  const empty: Summary = {
    name: s.name, crawlId: 0, state: 'finished', message: s.ended, figures: {}, fetched: 0, relevant: 0, requests: 0, failed: 0, skipped: 0, trainPages: 0,
    frontierLeft: 0, blacklistedSites: 0, dropped: {}, durationSeconds: 0, pagesPerMinute: null,
  };
  const summary = withShared(empty, { config, stats: none }, s, worker);
  writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  return summary;
}

/**
 * Exports through the dashboard's own export code: its page reads IndexedDB and hands the file over a chunk
 * (about 1 MiB) at a time, appended here, so neither side holds the crawl. `pages.jsonl` is then the full
 * export (text and labels), replacing the metadata lines written while crawling.
 */
async function exportInto(session: ExtensionSession, crawlId: number, formats: ExportFormat[], out: string, log: (line: string) => void): Promise<void> {
  const page = await session.openExtensionPage(`dashboard.html?crawl=${crawlId}`);
  try {
    await waitInPage(page, () => 'focusExport' in globalThis);
    for (const format of formats) {
      const file = join(out, FORMATS[format].fileName);
      const started = Date.now();
      const { id } = await page.evaluate(([c, f]) => (globalThis as unknown as ExportHook).focusExport.open(c, { format: f }), [crawlId, format] as const);
      writeFileSync(file, '');
      let bytes = 0;
      for (;;) {
        const chunk = await page.evaluate((i) => (globalThis as unknown as ExportHook).focusExport.next(i), id);
        if (chunk === null) break;
        const buf = Buffer.from(chunk, 'base64');
        appendFileSync(file, buf);
        bytes += buf.length;
      }
      log(`exported ${file} (${(bytes / 1024).toFixed(0)} KiB in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await page.close();
  }
}

/**
 * records.jsonl (the template's records now) and changes.jsonl (what this run changed), and their counts: a shared
 * crawl's, as the whole crawl wrote them in Redis.
 */
async function writeRecords(session: ExtensionSession, name: string, crawlId: number, out: string, joined?: SharedJoin): Promise<{ template: Summary['template']; counts: RecordCounts }> {
  const { records, changes } = joined
    ? await sharedRecords(joined)
    : { records: await session.send<FieldRecord[]>('records', { name }), changes: await session.send<RecordChange[]>('recordChanges', { crawlId }) };
  writeFileSync(join(out, 'records.jsonl'), recordsJsonl(records));
  writeFileSync(join(out, 'changes.jsonl'), changesJsonl(changes));
  const run = (await session.send<CrawlStatus | null>('status', { crawlId }))?.crawl.templateRun;
  const template = {
    cycle: run?.cycle ?? 1, searchResults: run?.results.length ?? 0, seedsCrawled: (run?.results.length ?? 0) - (run?.skipped.length ?? 0),
    records: records.length, changes: run?.changes ?? null, nextRecrawl: run?.nextAt ? new Date(run.nextAt).toISOString() : null,
  };
  return { template, counts: recordCounts(records, crawlId) };
}

type ExportHook = { focusExport: { open(crawlId: number, req: { format: ExportFormat }): Promise<{ id: number }>; next(id: number): Promise<string | null> } };

/**
 * A line while the crawl runs: its state, its figures as the popup shows them (a template's records are counted at
 * the end), failures, the frontier and its pages a minute.
 */
function progressLine(s: CrawlStatus): string {
  const c = s.crawl;
  const st = c.stats;
  const phase = c.state === 'training' ? `training ${st.trainPages}/${c.config.training.linkSources.length}` : c.state;
  const figures = crawlFigures(c).filter((f) => f.value !== null);
  return `[${phase}] ${figuresLine(figures, '  ')}  failed ${st.failed}  frontier ${frontierSize(st)}  ` +
    `${s.pagesPerMinute === null ? '—' : s.pagesPerMinute.toFixed(0)} pages/min` +
    (s.inFlight.length ? `  now: ${s.inFlight[0]}` : '');
}

function summarize(s: CrawlStatus, crawlId: number, records: RecordCounts | undefined): Summary {
  const c = s.crawl;
  const rate = runPagesPerMinute(c);
  return {
    name: c.name, crawlId, state: c.state, message: c.message ?? null,
    figures: figureValues(crawlFigures(c, records)),
    fetched: c.stats.fetched, ...(c.config.template ? {} : { relevant: c.stats.relevant }), requests: c.stats.attempts,
    failed: c.stats.failed, skipped: c.stats.skipped, trainPages: c.stats.trainPages, frontierLeft: frontierSize(c.stats),
    ...(c.stats.listPages ? { listPages: c.stats.listPages } : {}),
    blacklistedSites: s.blacklistedSites ?? 0, dropped: c.dropped ?? {},
    durationSeconds: round(c.activeMs / 1000), pagesPerMinute: rate === null ? null : round(rate),
    ...(c.strategyReport ? { strategyReport: c.strategyReport } : {}),
    ...((c.stats.changed ?? 0) + (c.stats.unchanged ?? 0) > 0
      ? { recheck: {
        requests: c.stats.attempts, conditional: c.stats.conditional ?? 0, notModified: c.stats.notModified ?? 0,
        changed: c.stats.changed ?? 0, unchanged: c.stats.unchanged ?? 0, bytesDownloaded: c.stats.bytes, bytesSaved: c.stats.bytesSaved ?? 0,
      } }
      : {}),
    ...(c.sessionLost ? { sessionLost: { url: c.sessionLost.url, by: c.sessionLost.by, what: c.sessionLost.what, ...(c.sessionLost.after ? { after: c.sessionLost.after } : {}) } } : {}),
    ...(c.config.template ? {} : { duplicates: { ...duplicateCounts(c.stats), learned: learnedText(c.variants) } }),
  };
}

/** summary.json's `recall`: the newest estimate (or why there is none) and the history. */
function recallSummary(latest: NonNullable<CrawlRecord['recall']>, history: RecallPoint[]): NonNullable<Summary['recall']> {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  const points = history.map((p) => ({ fetched: p.fetched, estimate: r(p.estimate), low: r(p.low), high: r(p.high) }));
  return 'note' in latest
    ? { estimate: null, low: null, high: null, note: latest.note, history: points }
    : { estimate: r(latest.estimate), low: r(latest.low), high: r(latest.high), history: points };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

export function formatSummary(s: Summary): string {
  return [
    `${s.name}: ${s.state}${s.message ? ` (${s.message})` : ''}`,
    // The figures of the crawl's strategy, as the dashboard and the popup show them (lib/ui/crawl-figures.ts).
    `  ${figuresLine(figuresOf(s.figures), ', ')}`,
    `  ${s.requests} requests, failed ${s.failed}, skipped ${s.skipped}, training pages ${s.trainPages}, frontier left ${s.frontierLeft}`,
    ...(s.recall ? [`  recall: ${s.recall.estimate === null ? s.recall.note : recallSentence({ fetched: 0, estimate: s.recall.estimate, low: s.recall.low!, high: s.recall.high! })}`] : []),
    ...(s.blacklistedSites || Object.keys(s.dropped).length
      ? [`  blacklisted sites ${s.blacklistedSites}; links dropped: ${Object.entries(s.dropped).map(([why, n]) => `${why} ${n}`).join(', ') || 'none'}`]
      : []),
    `  ${s.durationSeconds.toFixed(1)} s, ${s.pagesPerMinute === null ? 'too short for a rate of pages a minute' : `${s.pagesPerMinute.toFixed(0)} pages/minute`}`,
    ...(s.recheck
      ? [`  asked again: ${s.recheck.requests} requests, ${s.recheck.conditional} conditional, ${s.recheck.notModified} not modified (304); ` +
        `${s.recheck.changed} changed, ${s.recheck.unchanged} unchanged; ${kb(s.recheck.bytesDownloaded)} downloaded, ${kb(s.recheck.bytesSaved)} saved`]
      : []),
    ...(s.duplicates
      ? [`  duplicates fetched ${s.duplicates.duplicates}; not requested: ${s.duplicates.notRequestedByRule} by a learned rule, ${s.duplicates.notRequestedByCanonical} by a canonical link` +
        (s.duplicates.sitemapFiles ? `; sitemaps: ${s.duplicates.sitemapFiles} files, ${s.duplicates.sitemapQueued} URLs queued, ${s.duplicates.sitemapFetched} fetched` : ''),
        ...s.duplicates.learned.map((l) => `  ${l}`)]
      : []),
    ...(s.template
      ? [`  template cycle ${s.template.cycle}: ${s.template.searchResults} search results, ${s.template.seedsCrawled} crawled, ${s.template.records} records` +
        (s.template.changes ? ` (${Object.entries(s.template.changes).map(([k, n]) => `${n} ${k}`).join(', ')})` : '') +
        (s.template.nextRecrawl ? `; due again ${s.template.nextRecrawl}` : '')]
      : []),
  ].join('\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' }, out: { type: 'string' }, profile: { type: 'string' },
      headed: { type: 'boolean', default: false }, 'host-rules': { type: 'string' }, help: { type: 'boolean', short: 'h' },
      export: { type: 'string' }, recrawl: { type: 'boolean', default: false }, browser: { type: 'string', default: 'chromium' },
      frontier: { type: 'string' }, status: { type: 'string' }, 'lease-seconds': { type: 'string' }, worker: { type: 'string' },
    },
  });
  if (values.frontier && values.status !== undefined) {
    console.log(formatStatus(await sharedStatus(values.frontier, values.status)));
    return 0;
  }
  if (values.help || !values.config || !values.out) {
    console.error([
      'usage: npm run crawl -- [--recrawl] --config FILE --out DIR [--browser chromium|firefox] [--profile DIR] [--headed] [--host-rules RULES] [--export warc,wacz,jsonl,csv,zip]',
      '         [--frontier redis://HOST:PORT[/DB] [--worker NAME] [--lease-seconds N]]   one of many workers on the crawl of the config\'s name',
      '       npm run crawl -- --frontier redis://HOST:PORT[/DB] --status NAME           that crawl\'s progress, without crawling',
    ].join('\n'));
    return values.help ? 0 : 2;
  }
  const leaseSeconds = values['lease-seconds'] === undefined ? 30 : Number(values['lease-seconds']);
  if (!(leaseSeconds >= 1)) {
    console.error(`focus: --lease-seconds: "${values['lease-seconds']}" is not a number of seconds (at least 1)`);
    return 2;
  }
  if (!isBrowserName(values.browser)) {
    console.error(`focus: --browser: "${values.browser}" is not a browser (the browsers are ${BROWSERS.join(', ')})`);
    return 2;
  }
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(values.config, 'utf8'));
  } catch (err) {
    console.error(`focus: cannot read the config ${values.config}: ${err instanceof Error ? err.message : err}`);
    return 2;
  }
  const exports = (values.export ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = exports.find((f) => !isExportFormat(f));
  if (unknown !== undefined) {
    console.error(`focus: --export: "${unknown}" is not a format (the formats are ${EXPORT_FORMATS.join(', ')})`);
    return 2;
  }
  const summary = await runCrawl({
    config, out: values.out, profileDir: values.profile, headed: values.headed, hostRules: values['host-rules'], exports: exports as ExportFormat[],
    recrawl: values.recrawl, browser: values.browser,
    ...(values.frontier ? { frontier: { url: values.frontier, leaseMs: leaseSeconds * 1000, ...(values.worker ? { worker: values.worker } : {}) } } : {}),
  });
  console.log(formatSummary(summary));
  console.log(`  pages: ${join(values.out, 'pages.jsonl')}  summary: ${join(values.out, 'summary.json')}`);
  if (summary.template) console.log(`  records: ${join(values.out, 'records.jsonl')}  changes: ${join(values.out, 'changes.jsonl')}`);
  if (summary.shared) console.log(`  shared crawl: this worker (${summary.shared.worker}) fetched ${summary.shared.fetchedHere} of the ${summary.fetched} pages`);
  if (summary.sessionLost) {
    // The crawl paused because a request ended the user's session: nothing after it would be worth having.
    console.error(`focus: ${summary.message}`);
    return 3;
  }
  if (summary.fetched === 0) {
    const lines = readFileSync(join(values.out, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean);
    const seeds = lines.map((l) => JSON.parse(l) as { url: string; depth: number; error?: string }).filter((p) => p.depth === 0 && p.error);
    const why = seeds.map((p) => `${p.url}: ${p.error}`).join('; ');
    console.error(`focus: no page could be fetched${why ? ` (${why})` : ''}: check the seed URLs`);
    return 1;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(`focus: ${err instanceof ConfigError ? 'bad config: ' : ''}${err instanceof Error ? err.message : err}`);
      process.exit(err instanceof ConfigError || err instanceof FrontierError ? 2 : 1);
    },
  );
}
