// Builds the crawl service for the extension's service worker and connects it to messages and alarms.
import { CrawlService } from '../app/service';
import { realClock } from '../net/fetcher';
import { CrawlStore } from '../store/crawl-store';
import { CrawlerDB } from '../store/db';
import { paceChangeSignals } from '../store/change-signal';
import { makeCrawlIdentity } from './crawl-identity';
import { makeExtensionFetch } from './extension-fetch';
import { requireHostAccess } from './host-access';
import { armResumeAlarm, disarmResumeAlarm, onResumeAlarm, touchExtensionApi } from './keep-alive';
import { setupLabeler } from './labeler';
import { onMessages } from './messaging';
import { registerRecrawls, setupRecrawlAlarms } from './recrawl-alarms';
import { debuggerGuard } from './debugger-guard';
import { SharedCrawls } from './shared-bridge';
import { parseConfig } from '../app/parse-config';
import { makeTabRender } from './tab-render';
import { webRequestGuard } from './web-request-guard';

export function setupCrawler(): CrawlService {
  const db = new CrawlerDB();
  // The popup and the dashboard hear of the crawl's writes a few times a second, not once a transaction.
  paceChangeSignals(db);
  const store = new CrawlStore(db);
  const log = (line: string) => console.info(`[focus] ${line}`);
  // Crawls the command-line runner starts on a shared frontier (docs/scale-out.md).
  const shared = new SharedCrawls(store, log);
  const service = new CrawlService({
    store,
    runStoreFor: (crawl) => shared.storeFor(crawl),
    fetch: makeExtensionFetch(),
    // Pages render in a tab whose requests Chrome guards through the debugger, Firefox through blocking webRequest.
    render: makeTabRender(import.meta.env.FIREFOX ? webRequestGuard() : debuggerGuard()),
    identity: makeCrawlIdentity(),
    clock: realClock,
    keepAlive: touchExtensionApi,
    log,
  });
  // When a crawl ends, a template's next recrawl is due at the time it set: the alarms follow the database.
  const watch = (crawlId: number) => void service.settled(crawlId).then(() => registerRecrawls(service)).catch(() => undefined);
  const wake = async () => {
    const resumed = await service.resumeUnfinished();
    resumed.forEach(watch);
    if (resumed.length) console.info(`[focus] resumed crawl(s) ${resumed.join(', ')}`);
    // The alarm stays armed only while a crawl is unfinished, so an idle extension costs nothing.
    await (service.isRunning() ? armResumeAlarm() : disarmResumeAlarm());
  };
  // The labeler's triggers (shortcut, context menu) are registered here, synchronously at worker start.
  const handlers = {
    ...service.handlers, ...setupLabeler(),
    // The command-line runner starts a crawl on its bridge to a shared frontier; `start` below is the wrapped one.
    startShared: async ({ config, bridge }: { config: unknown; bridge: { url: string; token: string; worker: string } }) => {
      const { name } = parseConfig(config);
      // A worker started again on its profile: the labeled links its earlier crawl read are in the topic already.
      const before = (await store.db.crawls.filter((c) => c.name === name && c.shared !== undefined).toArray()).at(-1);
      const read = { labelsCursor: before?.shared?.labelsCursor ?? 0, lessonsCursor: before?.shared?.lessonsCursor ?? 0 };
      shared.expect(name, { ...bridge, ...read });
      const r = await handlers.start(config);
      await store.updateCrawl(r.crawlId, { shared: { worker: bridge.worker, ...read } });
      return r;
    },
  };
  const start = handlers.start;
  handlers.start = async (config) => {
    const r = await start(config);
    await armResumeAlarm();
    return r;
  };
  const recrawl = handlers.recrawl;
  handlers.recrawl = async (req) => {
    const r = await recrawl(req);
    await armResumeAlarm();
    watch(r.crawlId);
    return r;
  };
  const started = handlers.start;
  handlers.start = async (config) => {
    const r = await started(config);
    watch(r.crawlId);
    return r;
  };
  const resume = handlers.resume;
  handlers.resume = async (req) => {
    const r = await resume(req);
    await armResumeAlarm();
    watch(req.crawlId);
    return r;
  };
  requireHostAccess(handlers, ['start', 'resume', 'recrawl']);
  onMessages(handlers);
  onResumeAlarm(() => void wake());
  setupRecrawlAlarms(service, (crawlId) => {
    void armResumeAlarm();
    watch(crawlId);
  });
  void wake();
  void registerRecrawls(service);
  return service;
}
