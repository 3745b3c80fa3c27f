// The schedule of template recrawls in the extension (design E.6): one alarm per template due, at the time its
// newest cycle set, registered again from the database after an update cleared them; a firing alarm recrawls.
import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CrawlService } from '../../lib/app/service';

vi.mock('wxt/browser', () => ({ browser: fakeBrowser }));
const { registerRecrawls, setupRecrawlAlarms } = await import('../../lib/platform/recrawl-alarms');

const DAY = 86_400_000;
function fakeService(due: { name: string; at: number }[]) {
  const recrawled: string[] = [];
  const service = {
    recrawlsDue: async () => due,
    recrawl: async (name: string) => {
      recrawled.push(name);
      return { crawlId: 7 };
    },
  } as unknown as CrawlService;
  return { service, recrawled };
}

beforeEach(() => fakeBrowser.reset());

describe('recrawl alarms', () => {
  it('arm one alarm per template due, and drop those of templates no longer due', async () => {
    const at = Date.now() + DAY;
    await fakeBrowser.alarms.create('focus-recrawl:gone', { when: at });
    await fakeBrowser.alarms.create('focus-resume', { periodInMinutes: 0.5 });
    expect(await registerRecrawls(fakeService([{ name: 'telescope shops', at }, { name: 'overdue', at: 0 }]).service)).toBe(2);
    const alarms = Object.fromEntries((await fakeBrowser.alarms.getAll()).map((a) => [a.name, a.scheduledTime]));
    expect(Object.keys(alarms).sort()).toEqual(['focus-recrawl:overdue', 'focus-recrawl:telescope shops', 'focus-resume']);
    expect(alarms['focus-recrawl:telescope shops']).toBe(at);
    expect(alarms['focus-recrawl:overdue']).toBeGreaterThan(Date.now()); // Chrome's soonest, not the past
  });

  it('come back after an update cleared them, and a firing one recrawls its template', async () => {
    const { service, recrawled } = fakeService([{ name: 'telescope shops', at: Date.now() + DAY }]);
    const started: number[] = [];
    setupRecrawlAlarms(service, (id) => started.push(id));
    await fakeBrowser.alarms.clearAll();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'update', previousVersion: '0.0.9' });
    await vi.waitFor(async () => expect((await fakeBrowser.alarms.getAll()).map((a) => a.name)).toEqual(['focus-recrawl:telescope shops']));
    await fakeBrowser.alarms.onAlarm.trigger({ name: 'focus-recrawl:telescope shops', scheduledTime: Date.now(), persistAcrossSessions: false });
    await vi.waitFor(() => expect(started).toEqual([7]));
    expect(recrawled).toEqual(['telescope shops']);
  });
});
