// Keeps the MV3 service worker alive while a crawl runs, and wakes it to continue one after Chrome stopped it.
// Chrome stops an idle worker after ~30 s, but an extension API call resets that timer; an alarm (every 30 s,
// the minimum) starts a stopped worker again, whose startup resumes unfinished crawls.
import { browser } from 'wxt/browser';

export const RESUME_ALARM = 'focus-resume';

/** Any cheap extension API call counts as activity. */
export function touchExtensionApi(): void {
  void browser.runtime.getPlatformInfo();
}

export async function armResumeAlarm(): Promise<void> {
  const existing = await browser.alarms.get(RESUME_ALARM);
  if (!existing) await browser.alarms.create(RESUME_ALARM, { periodInMinutes: 0.5 });
}

export async function disarmResumeAlarm(): Promise<void> {
  await browser.alarms.clear(RESUME_ALARM);
}

export function onResumeAlarm(listener: () => void): void {
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === RESUME_ALARM) listener();
  });
}
