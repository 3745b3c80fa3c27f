// Design E.6 on a schedule: one alarm per template with a recrawl period, at the time its newest cycle set
// (lib/strategies/template/schedule.ts). Chrome clears alarms when the extension is updated and they may be lost when the
// browser restarts, so they are registered again from the database at every worker start-up, after an install
// or update, and whenever a template crawl ends.
import { browser } from 'wxt/browser';
import type { CrawlService } from '../app/service';

const PREFIX = 'focus-recrawl:';
/** Chrome fires an alarm no sooner than 30 s from now; an overdue template runs then. */
const SOONEST_MS = 30_000;

/** Makes the alarms match the templates due; returns how many are armed. */
export async function registerRecrawls(service: CrawlService): Promise<number> {
  const due = await service.recrawlsDue();
  const names = new Set(due.map((d) => PREFIX + d.name));
  for (const alarm of await browser.alarms.getAll()) {
    if (alarm.name.startsWith(PREFIX) && !names.has(alarm.name)) await browser.alarms.clear(alarm.name);
  }
  for (const { name, at } of due) await browser.alarms.create(PREFIX + name, { when: Math.max(at, Date.now() + SOONEST_MS) });
  return due.length;
}

/** Recrawls a template when its alarm fires; `started` is told the new crawl (to re-register when it ends). */
export function setupRecrawlAlarms(service: CrawlService, started: (crawlId: number) => void): void {
  browser.alarms.onAlarm.addListener((alarm) => {
    if (!alarm.name.startsWith(PREFIX)) return;
    const name = alarm.name.slice(PREFIX.length);
    service.recrawl(name).then(
      ({ crawlId }) => started(crawlId),
      (err: unknown) => console.warn(`[focus] scheduled recrawl of "${name}" did not start: ${err instanceof Error ? err.message : err}`),
    );
  });
  // An update clears every alarm.
  browser.runtime.onInstalled.addListener(() => void registerRecrawls(service));
}
