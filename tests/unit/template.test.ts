// The parts of template crawling one by one (design E): the template block of a config, result links of a search
// page, seed sampling, filter layers and the adaptive recrawl interval.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { scopeReason } from '../../lib/policy/scope';
import { decodeHtml } from '../../lib/net/decode';
import { mulberry32 } from '../../lib/records/random';
import { createStrategy as strategyOf } from '../../lib/strategies/registry';
import { isFinalPage, isNextPage } from '../../lib/strategies/template';
import { searchUrl } from '../../lib/records/template-config';
import { extractFields, fieldSpecs } from '../../lib/strategies/template/extract';
import { sampleSeeds, takeChance } from '../../lib/strategies/template/sampling';
import { nextInterval, nextRecrawlAt } from '../../lib/strategies/template/schedule';
import { resultLinks } from '../../lib/strategies/template/search';
import type { FrontierEntry } from '../../lib/records/types';
import type { FieldRecord } from '../../lib/records/rows';
import { companyTemplate } from '../fixtures/sites/company-sites';

const refusal = (config: unknown): string => {
  try {
    parseConfig(config);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return 'accepted';
};

describe('the template block of a config', () => {
  it('needs neither seeds nor topic keywords: the search keywords say what the topic is', () => {
    const c = parseConfig({ template: companyTemplate() });
    expect(c.seeds).toEqual([]);
    expect(c.topic.keywords).toEqual(['telescope shop']);
    expect(c.name).toBe('telescope shop');
    expect(c.strategy.name).toBe('template');
    // What is stored parses again to the same config (export, then import).
    expect(parseConfig(JSON.parse(JSON.stringify(c)))).toEqual(c);
  });

  it('refuses each bad field with one sentence naming it', () => {
    const t = companyTemplate();
    expect(refusal({ template: { ...t, search: { ...t.search, url: 'http://engine.test/search?q=x' } } })).toMatch(/^template\.search\.url must contain \{query\}/);
    expect(refusal({ template: { ...t, search: { ...t.search, keywords: [] } } })).toMatch(/^template\.search\.keywords must name at least one/);
    expect(refusal({ template: { ...t, filters: [['contact'], []] } })).toMatch(/^template\.filters\[1\] must name at least one/);
    expect(refusal({ template: { ...t, fields: {} } })).toMatch(/^template\.fields must name at least one field/);
    expect(refusal({ template: { ...t, recrawl: { every: 'daily' } } })).toMatch(/^template\.recrawl\.every must be a period/);
    expect(refusal({ template: { ...t, search: { ...t.search, selector: 'ol > li[' } } })).toMatch(/^template\.search\.selector: "ol > li\[" is not a CSS selector/);
    expect(refusal({ template: { ...t, search: { ...t.search, selector: '#results h2 > a' } } })).toBe('accepted');
    expect(refusal({ template: { ...t, serach: {} } })).toMatch(/^template\.serach is not a template setting/);
    expect(refusal({ template: t, strategy: { name: 'best-first' } })).toMatch(/^strategy\.name must be "template"/);
    expect(refusal({ seeds: ['http://a.test/'], topic: { keywords: ['x'] }, strategy: { name: 'template' } })).toMatch(/needs a template block/);
    expect(refusal({})).toMatch(/^seeds: .*or a template/);
  });

  it('puts the engine in the scope next to the seeds the search finds', () => {
    const c = parseConfig({ template: companyTemplate() });
    expect(scopeReason(c)('http://engine.test/search?q=x')).toBeNull();
    expect(scopeReason(c)('http://shop01.test/')).not.toBeNull();
    expect(scopeReason({ ...c, seeds: ['http://shop01.test/'] })('http://shop01.test/contact')).toBeNull();
  });

  it('fills the query and the offset of each result page', () => {
    const { search } = parseConfig({ template: companyTemplate() }).template!;
    expect(searchUrl(search, 'telescope shop', 2)).toBe('http://engine.test/search?q=telescope+shop&first=10');
    expect(searchUrl({ ...search, url: 'https://e.test/?q={query}&p={page}' }, '望远镜', 0)).toBe('https://e.test/?q=%E6%9C%9B%E8%BF%9C%E9%95%9C&p=1');
  });
});

describe('result links of a search page (design E.2)', () => {
  const page = `<header><a href="/">Engine</a><a href="http://account.test/">Sign in</a></header>
    <div id="b_ad_top" class="b_ad"><a href="http://sponsor.test/">Deal</a></div>
    <ol><li><a href="http://b.test/x">B</a> <a href="/cache?u=b">Cached</a></li>
    <li><a href="http://a.test/">A</a></li><li><a href="http://b.test/x#top">B again</a></li>
    <li><a rel="sponsored" href="http://paid.test/">Paid</a></li><li><a href="https://maps.engine.test/a">Map</a></li></ol>
    <div role="navigation"><a href="http://other.test/">Other</a></div><footer><a href="http://legal.test/">Legal</a></footer>`;

  it('keeps links leaving the engine, minus its ads and navigation, deduped, in page order', () => {
    expect(resultLinks(page, 'http://www.engine.test/search?q=x')).toEqual(['http://b.test/x', 'http://a.test/']);
  });

  it('takes what a CSS selector picks when one is given', () => {
    expect(resultLinks(page, 'http://www.engine.test/search?q=x', 'header a')).toEqual(['http://account.test/']);
  });
});

describe('seed sampling (design E.3)', () => {
  it('gives the worked example: 95%, 90%, ... 65% for the first seven of ten', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((s) => Math.round(takeChance(s, 10, 0) * 100))).toEqual([95, 90, 85, 80, 75, 70, 65]);
    expect(takeChance(3, 10, 2)).toBeCloseTo(0.75);
  });

  it('samples the same way for the same seed, skips later seeds more often, and takes owed seeds for sure', () => {
    const seeds = Array.from({ length: 40 }, (_, i) => `http://s${i}.test/`);
    const run = (seed: number, owed: string[] = []) => sampleSeeds({ seeds, rand: mulberry32(seed), barren: new Set(), owed: new Set(owed) });
    expect(run(7)).toEqual(run(7));
    const early = new Array(20).fill(0), late = new Array(20).fill(0);
    for (let seed = 0; seed < 200; seed++) {
      const { taken } = run(seed);
      for (const u of taken) {
        const i = seeds.indexOf(u);
        if (i < 20) early[i]++;
        else late[i - 20]++;
      }
    }
    const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
    expect(sum(early)).toBeGreaterThan(sum(late) * 1.3);
    const skipped = run(3).skipped;
    expect(skipped.length).toBeGreaterThan(0);
    expect(run(3, skipped).skipped.filter((u) => skipped.includes(u))).toEqual([]);
  });

  it('lowers the chances after seeds that yielded nothing', () => {
    const seeds = Array.from({ length: 10 }, (_, i) => `http://s${i}.test/`);
    const always = () => 0.6; // taken while P > 0.6
    expect(sampleSeeds({ seeds, rand: always, barren: new Set(), owed: new Set() }).taken).toHaveLength(7);
    expect(sampleSeeds({ seeds, rand: always, barren: new Set(seeds.slice(0, 3)), owed: new Set() }).taken).toHaveLength(4);
  });
});

describe('filter layers (design E.4)', () => {
  const config = parseConfig({ template: companyTemplate() });
  const strategy = strategyOf(config);
  const entry = (layer: number) => ({ url: 'http://a.test/x', strategy: { layer } }) as FrontierEntry;
  const plan = (anchor: string, layer: number, url = 'http://a.test/y') =>
    strategy.plan({ url, anchor, logOdds: 0, score: 0.5, depth: 1 }, { entry: entry(layer), relevant: false, url: 'http://a.test/x', text: '' });

  it('follows layer 1 keywords from a seed, layer 2 from there, next pages on a layer, and nothing off the site', () => {
    expect(plan('Contact-Us', 0)).toEqual({ priority: 1, state: { layer: 1 } });
    expect(plan('联系 我们', 0)).toEqual({ priority: 1, state: { layer: 1 } });
    expect(plan('联系方式', 1)).toEqual({ priority: 2, state: { layer: 2 } });
    expect(plan('Products', 0)).toEqual({ drop: 'no filter keyword in its text' });
    expect(plan('Contact us on Social', 0, 'http://social.test/a')).toEqual({ drop: 'leaves the seed site' });
    expect(plan('Next page', 2)).toEqual({ priority: 2, state: { layer: 2 } });
    expect(plan('Next page', 0)).toEqual({ drop: 'no filter keyword in its text' });
    expect(plan('Contact', 2)).toEqual({ drop: 'past the last filter layer' });
    expect(['下一页', 'Next »', 'next', '>'].map(isNextPage)).toEqual([true, true, true, true]);
    expect(isNextPage('Next steps for your telescope')).toBe(false);
  });

  it('extracts on the last layer, and on an earlier one when no link leads deeper', () => {
    expect(isFinalPage(2, 2, [])).toBe(true);
    expect(isFinalPage(1, 2, [1])).toBe(true);
    expect(isFinalPage(1, 2, [2])).toBe(false);
    expect(isFinalPage(0, 2, [])).toBe(false);
  });
});

describe('a GBK company page that names its charset only in <meta> (design E.7)', () => {
  it('decodes, and its Chinese labels give the fields', () => {
    // 联系电话：010-8888 6666 / 邮箱：sales@gbk.test, in GBK bytes.
    const gbk = (s: string) => {
      const d = new TextDecoder('gbk');
      const out: number[] = [];
      for (const ch of s) {
        if (ch.charCodeAt(0) < 0x80) out.push(ch.charCodeAt(0));
        else
          outer: for (let hi = 0x81; hi <= 0xfe; hi++) for (let lo = 0x40; lo <= 0xfe; lo++) if (d.decode(new Uint8Array([hi, lo])) === ch) { out.push(hi, lo); break outer; }
      }
      return new Uint8Array(out);
    };
    const bytes = gbk('<html><head><meta charset="gbk"><title>望远镜商店</title></head><body><p>联系电话：010-8888 6666</p><p>邮箱：sales@gbk.test</p></body></html>');
    const { text, charset } = decodeHtml(bytes, 'text/html');
    expect(charset).toMatch(/^(gbk|gb18030)$/); // the WHATWG decoder reads GBK as its superset
    expect(extractFields(text, fieldSpecs({ email: ['邮箱'], phone: ['联系电话'] }))).toEqual({ email: 'sales@gbk.test', phone: '010-8888 6666' });
  });
});

describe('the adaptive recrawl interval (design E.6, beyond the source)', () => {
  const day = 86_400_000;
  it('doubles for a page found unchanged up to 8 periods, halves for a changed one down to a quarter', () => {
    expect(nextInterval(day, false, day)).toBe(2 * day);
    expect(nextInterval(8 * day, false, day)).toBe(8 * day);
    expect(nextInterval(day, true, day)).toBe(day / 2);
    expect(nextInterval(day / 4, true, day)).toBe(day / 4);
  });
  it('is due when the most pressing record is, never sooner than a quarter period', () => {
    expect(nextRecrawlAt([], day, 0)).toBe(day);
    expect(nextRecrawlAt([{ lastChecked: 0, intervalMs: 4 * day }, { lastChecked: 0, intervalMs: 2 * day }], day, 0)).toBe(2 * day);
    expect(nextRecrawlAt([{ lastChecked: 0, intervalMs: day / 8 }], day, 0)).toBe(day / 4);
  });
});

describe('the template field of the New crawl form', () => {
  it('turns the typed template into a template crawl, and an imported config back into the field', async () => {
    const { configToForm, defaultFormValues, formToConfig } = await import('../../lib/ui/config-form');
    const text = JSON.stringify(companyTemplate(), null, 2);
    const config = parseConfig(formToConfig({ ...defaultFormValues(), template: text }));
    expect(config.strategy.name).toBe('template');
    expect(config.template?.filters[0]).toContain('联系我们');
    const back = configToForm(JSON.parse(JSON.stringify(config)), defaultFormValues());
    expect(JSON.parse(back.template)).toEqual(config.template);
    expect(back.strategy).toBe(defaultFormValues().strategy); // "template" is no choice of the strategy list
  });

  it('refuses a template that is not JSON, or a bad one, beside the template field', async () => {
    const { formErrorOf, templateJsonProblem } = await import('../../lib/ui/form-problems');
    expect(templateJsonProblem('{"search": ')).toMatch(/^template is not JSON: /);
    expect(templateJsonProblem('')).toBeNull();
    expect(formErrorOf('template.search.url must contain {query} where the keywords go')).toEqual({
      field: 'template', message: 'Template: template.search.url must contain {query} where the keywords go.',
    });
  });
});

describe('records as files', () => {
  it('writes one CSV column per field in the template order, formulas quoted away, and changes by kind', async () => {
    const { changesJsonl, recordsCsv, recordsJsonl } = await import('../../lib/export/records');
    const base = { crawlName: 'x', site: 'a.test', hash: 'h', firstSeen: 0, lastChanged: 0, lastChecked: 0, lastCrawlId: 1, intervalMs: 1 };
    const records: FieldRecord[] = [
      { ...base, url: 'http://a.test/contact', fields: { phone: '+44 20 7946 1000', email: 'a@a.test' } },
      { ...base, url: 'http://b.test/contact', site: 'b.test', fields: { email: '=cmd()@b.test', fax: '+HYPERLINK("http://evil.test")' } },
    ];
    const csv = recordsCsv(records, ['email', 'phone']).split('\r\n');
    expect(csv[0]).toBe('url,site,email,phone,fax,firstSeen,lastChanged');
    expect(csv[1]).toBe('http://a.test/contact,a.test,a@a.test,+44 20 7946 1000,,1970-01-01T00:00:00.000Z,1970-01-01T00:00:00.000Z');
    expect(csv[2]).toContain(`"'=cmd()@b.test"`);
    expect(csv[2]).toContain(`"'+HYPERLINK(""http://evil.test"")"`); // a phone number keeps its +, a formula does not
    expect(recordsJsonl(records).trim().split('\n').map((l) => JSON.parse(l).fields.email)).toEqual(['a@a.test', '=cmd()@b.test']);
    const changes = changesJsonl([
      { crawlId: 1, url: 'http://z.test/', change: 'deleted', at: 0 },
      { crawlId: 1, url: 'http://b.test/', change: 'unchanged', at: 0 },
      { crawlId: 1, url: 'http://c.test/', change: 'new', at: 0 },
    ]);
    expect(changes.trim().split('\n').map((l) => JSON.parse(l).change)).toEqual(['new', 'unchanged', 'deleted']);
  });
});
