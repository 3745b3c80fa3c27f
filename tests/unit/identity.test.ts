// The crawl's User-Agent: the setting, the plan that turns the running crawls' choices into one browser rule,
// and the service applying it before a crawl's first request and after its end.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, type CrawlConfig } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { domainsOf, identityPlan, productToken, type IdentityPlan } from '../../lib/app/identity';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { configToForm, defaultFormValues, formToConfig, identityText } from '../../lib/ui/config-form';
import { formErrorOf } from '../../lib/ui/form-problems';
import { realClock } from '../../lib/net/fetcher';

const config = (over: Record<string, unknown> = {}): CrawlConfig =>
  parseConfig({ seeds: ['https://www.a.example/wiki/'], topic: { keywords: ['moss'] }, ...over });

describe('politeness.identify', () => {
  it('is on unless the config turns it off, and must be true or false', () => {
    expect(DEFAULTS.politeness.identify).toBe(true);
    expect(config().politeness.identify).toBe(true);
    expect(config({ politeness: { identify: false } }).politeness.identify).toBe(false);
    expect(() => config({ politeness: { identify: 'no' } })).toThrow(/^politeness\.identify must be true or false$/);
    expect(formErrorOf('politeness.identify must be true or false').field).toBe('identify');
  });

  it('goes through the new-crawl form both ways', () => {
    const v = { ...defaultFormValues(), seeds: 'https://a.example/', keywords: 'moss' };
    expect(v.identify).toBe(true);
    expect(parseConfig(formToConfig({ ...v, identify: false })).politeness.identify).toBe(false);
    expect(configToForm({ politeness: { identify: false } }, v).identify).toBe(false);
    expect(configToForm({ politeness: { delayMs: 5 } }, v).identify).toBe(true);
  });

  it('is shown in the crawl details; a crawl stored before the setting existed identifies', () => {
    const old = config();
    delete (old.politeness as Partial<CrawlConfig['politeness']>).identify;
    expect(identityText(old)).toMatch(/FocusCrawler/);
    expect(identityText(config({ politeness: { identify: false } }))).toMatch(/does not name itself/);
    expect(identityPlan([old])).toEqual({ identify: true, exceptDomains: [] });
  });
});

describe('the identity plan of the crawls running at once', () => {
  const quiet = (over: Record<string, unknown> = {}) => config({ politeness: { identify: false }, ...over });

  it('names the token with the version and, when there is one, the homepage', () => {
    expect(productToken('0.1.0')).toBe('FocusCrawler/0.1.0');
    expect(productToken('0.1.0', 'https://focus.example/')).toBe('FocusCrawler/0.1.0 (+https://focus.example/)');
  });

  it('is off with no crawl running or none identifying, on with no exception for crawls that all identify', () => {
    expect(identityPlan([])).toEqual({ identify: false });
    expect(identityPlan([quiet()])).toEqual({ identify: false });
    expect(identityPlan([config(), config({ seeds: ['https://b.example/'] })])).toEqual({ identify: true, exceptDomains: [] });
  });

  it("leaves out every host an opted-out crawl may request, so its choice holds beside a crawl that identifies", () => {
    const q = quiet({ seeds: ['https://www.moss.example/', 'http://ferns.example:8080/x'], training: { linkSources: ['https://lists.example/links'] } });
    expect(domainsOf(q)).toEqual(['ferns.example', 'lists.example', 'moss.example']);
    expect(identityPlan([config(), q])).toEqual({ identify: true, exceptDomains: ['ferns.example', 'lists.example', 'moss.example'] });
    // Sites: the registrable domain covers every subdomain the crawl may enter.
    expect(domainsOf(quiet({ seeds: ['https://docs.moss.example/'], scope: { mode: 'seed-sites' } }))).toEqual(['docs.moss.example', 'moss.example']);
    expect(domainsOf(quiet({ scope: { mode: 'listed-sites', sites: ['ferns.example'] } }))).toEqual(['a.example', 'ferns.example']);
  });

  it('turns off while an opted-out crawl may go anywhere: its hosts cannot be listed', () => {
    expect(domainsOf(quiet({ scope: { mode: 'anywhere' } }))).toBeNull();
    expect(identityPlan([config(), quiet({ scope: { mode: 'anywhere' } })])).toEqual({ identify: false });
  });
});

describe('the service', () => {
  const store = () => new CrawlStore(new CrawlerDB(`id${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const page = '<html><head><title>Moss</title></head><body><p>moss grows on stones</p><a href="/next">moss</a></body></html>';

  function recorder() {
    const events: string[] = [];
    const identity = { apply: async (plan: IdentityPlan) => void events.push(plan.identify ? `on except [${plan.exceptDomains}]` : 'off') };
    const fetch = async (url: string) => {
      events.push(`GET ${new URL(url).pathname}`);
      return url.endsWith('/robots.txt')
        ? new Response('', { status: 404 })
        : new Response(page, { status: 200, headers: { 'content-type': 'text/html' } });
    };
    return { events, identity, fetch };
  }

  it('applies the plan before the first request (a training read, robots.txt) and removes it when the crawl ends', async () => {
    const r = recorder();
    const service = new CrawlService({ store: store(), fetch: r.fetch, clock: realClock, identity: r.identity });
    const { crawlId } = await service.handlers.start({
      seeds: ['http://moss.test/'], topic: { keywords: ['moss'] }, training: { linkSources: ['http://moss.test/links'] },
      budget: { maxPages: 2 }, politeness: { delayMs: 0 },
    });
    await service.settled(crawlId);
    expect(r.events[0]).toBe('on except []');
    expect(r.events.slice(1, 3)).toEqual(['GET /robots.txt', 'GET /links']);
    expect(r.events.at(-1)).toBe('off');
    expect(r.events.filter((e) => e.startsWith('GET')).length).toBeGreaterThanOrEqual(3);
  });

  it('follows two crawls with different choices, and a worker start clears a rule left with nothing running', async () => {
    const r = recorder();
    const s = store();
    const service = new CrawlService({ store: s, fetch: r.fetch, clock: realClock, identity: r.identity });
    const a = await service.handlers.start({ seeds: ['http://moss.test/'], topic: { keywords: ['moss'] }, budget: { maxPages: 2 }, politeness: { delayMs: 0 } });
    const b = await service.handlers.start({
      seeds: ['http://ferns.test/'], topic: { keywords: ['moss'] }, budget: { maxPages: 2 }, politeness: { delayMs: 0, identify: false },
    });
    await Promise.all([service.settled(a.crawlId), service.settled(b.crawlId)]);
    const plans = r.events.filter((e) => !e.startsWith('GET'));
    expect(plans.slice(0, 2)).toEqual(['on except []', 'on except [ferns.test]']);
    expect(plans.at(-1)).toBe('off');
    const restarted = new CrawlService({ store: s, fetch: r.fetch, clock: realClock, identity: r.identity });
    r.events.length = 0;
    expect(await restarted.resumeUnfinished()).toEqual([]);
    expect(r.events).toEqual(['off']);
  });
});
