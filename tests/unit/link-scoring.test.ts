// The link classifier's scoring options (config `classifier`): base-rate smoothing for small topics, the
// parent-page feature (topical locality), the anchor's shape and ranking a URL by every link found to it; and online learning from
// links to pages already judged (`learning.linksToJudged`). Design A's classifier stays available as `DESIGN_A_SCORING`.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { LinkClassifier, urlLogOdds } from '../../lib/learning/link-classifier';
import { DEFAULT_SCORING, DESIGN_A_SCORING, type LinkScoring } from '../../lib/records/classifier-config';
import { PARENT_OFF_FEATURE, PARENT_ON_FEATURE, anchorShape, anchorShapeByRegex, hubBucket, hubBuckets, linkFeatures, makeDictionary } from '../../lib/learning/link-features';
import { NaiveBayes } from '../../lib/learning/naive-bayes';
import { parseConfig } from '../../lib/app/parse-config';
import { CrawlService } from '../../lib/app/service';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import type { CrawlRecord } from '../../lib/records/rows';
import { planUpserts } from '../../lib/run/commit-plan';
import type { Candidate } from '../../lib/ports';
import type { FrontierEntry } from '../../lib/records/types';
import { realClock } from '../../lib/net/fetcher';

const BASE_RATE: LinkScoring = { smoothing: 'base-rate', parentPage: false, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false };
const PARENT: LinkScoring = { smoothing: 'laplace', parentPage: true, everyLink: false, contextDamping: 1, parentHub: false, targetAuthority: false, anchorShape: false };

/** A crawl service on a fresh in-memory store whose fetches are answered from `site` (path -> HTML; others 404). */
function serviceOn(site: Record<string, string>) {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({
    store, clock: realClock,
    fetch: async (url: string) => {
      const html = site[new URL(url).pathname];
      return html === undefined ? new Response('no', { status: 404 }) : new Response(html, { status: 200, headers: { 'content-type': 'text/html' } });
    },
  });
  return { store, service };
}

/** A small topic: 20 positive links among 1,000; "common" is on 10 negatives and no positive. */
function smallTopic(): NaiveBayes {
  const nb = new NaiveBayes();
  for (let i = 0; i < 20; i++) nb.learn(['a:painting', `a:p${i}`], 1);
  for (let i = 0; i < 980; i++) nb.learn(i < 10 ? ['a:common', `a:n${i}`] : [`a:n${i}`], 0);
  return nb;
}

describe('base-rate smoothing (NaiveBayes.logOddsShrunk)', () => {
  it('does not let a word seen only among negatives favour a small positive class, where Laplace does', () => {
    const nb = smallTopic();
    const prior = nb.logOdds([]);
    // Laplace: P(common|+) = 1/22, P(common|-) = 11/982: the word raises the odds of the positive class.
    expect(nb.logOdds(['a:common'])).toBeGreaterThan(prior);
    expect(nb.logOddsShrunk(['a:common'], 4)).toBeLessThan(nb.logOddsShrunk([], 4));
  });

  it('still counts a word of many positives as strong evidence, and skips unseen words', () => {
    const nb = smallTopic();
    const prior = nb.logOddsShrunk([], 4);
    expect(prior).toBeCloseTo(Math.log(21 / 981), 12);
    expect(nb.logOddsShrunk(['a:painting'], 4) - prior).toBeGreaterThan(Math.log(20));
    expect(nb.logOddsShrunk(['a:never-seen'], 4)).toBe(prior);
    // One example of each class: barely more than the prior, either way.
    expect(Math.abs(nb.logOddsShrunk(['a:p3'], 4) - prior)).toBeLessThan(nb.logOddsShrunk(['a:painting'], 4) - prior);
  });

  it('ranks a link of the small topic above a link of common words in the classifier', () => {
    const c = new LinkClassifier(['art']);
    for (let i = 0; i < 15; i++) c.learn({ anchor: `Portrait painting ${i}`, context: 'oil on canvas' }, 1);
    for (let i = 0; i < 600; i++) c.learn({ anchor: i % 3 ? `Town ${i}` : 'United Kingdom', context: 'the country and its people' }, 0);
    const art = { anchor: 'Painting', context: 'canvas' };
    const common = { anchor: 'United Kingdom', context: 'people' };
    expect(c.score(art, BASE_RATE)).toBeGreaterThan(c.score(common, BASE_RATE));
    expect(c.score(common, BASE_RATE)).toBeLessThan(c.score({ anchor: 'zzz', context: 'yyy' }, BASE_RATE));
  });
});

describe('damping the context by its size (classifier.contextDamping)', () => {
  /** Anchors that are names never seen before; contexts of words seen mostly around links to people. */
  function people(): LinkClassifier {
    const c = new LinkClassifier(['biography']);
    for (let i = 0; i < 60; i++) c.learn({ anchor: `Name${i}`, context: 'born died poet painter composer wrote' }, 1);
    for (let i = 0; i < 240; i++) c.learn({ anchor: i % 2 ? 'Film' : `Place${i}`, context: i % 6 ? 'river town film released' : 'born in' }, 0);
    return c;
  }
  const scoring = (contextDamping: number): LinkScoring => ({ smoothing: 'laplace', parentPage: false, everyLink: false, contextDamping, parentHub: false, targetAuthority: false, anchorShape: false });

  it('divides the context\'s evidence by its number of features to the given power', () => {
    const c = people();
    const link = { anchor: 'Newname', context: 'born died poet painter' };
    const alone = c.rank({ anchor: 'Newname', context: '' }, scoring(1)).logOdds;
    const n = c.features(link).filter((f) => f.startsWith('c:')).length;
    expect(n).toBe(4);
    const lift = (d: number) => c.rank(link, scoring(d)).logOdds - alone;
    expect(lift(1)).toBeGreaterThan(0);
    expect(lift(0.5) / lift(1)).toBeCloseTo(Math.sqrt(n), 9);
    expect(lift(0) / lift(1)).toBeCloseTo(n, 9);
  });

  it('lets six words of a people context count for more than one, where their mean counts the same', () => {
    const c = people();
    const six = { anchor: 'Newname', context: 'born died poet painter composer wrote' };
    const one = { anchor: 'Othername', context: 'wrote' };
    expect(c.score(six, scoring(1))).toBeLessThan(c.score(one, scoring(1)));
    expect(c.score(six, scoring(0.5))).toBeGreaterThan(c.score(one, scoring(0.5)));
  });

  it('is a crawl config setting between 0 and 1', () => {
    const base = { seeds: ['https://example.org/'], topic: { keywords: ['art'] } };
    expect(parseConfig({ ...base, classifier: { contextDamping: 0.5 } }).classifier.contextDamping).toBe(0.5);
    expect(parseConfig(base).classifier.contextDamping).toBe(0.75);
    expect(() => parseConfig({ ...base, classifier: { contextDamping: 2 } })).toThrow(/classifier.contextDamping/);
  });
});

describe('the parent-page feature (topical locality)', () => {
  it('is P:on or P:off when the parent page is known, absent otherwise', () => {
    const d = makeDictionary(['art']);
    expect(linkFeatures({ anchor: 'x', context: '', parentOnTopic: true }, d)).toContain(PARENT_ON_FEATURE);
    expect(linkFeatures({ anchor: 'x', context: '', parentOnTopic: false }, d)).toContain(PARENT_OFF_FEATURE);
    expect(linkFeatures({ anchor: 'x', context: '' }, d).some((f) => f.startsWith('P:'))).toBe(false);
  });

  it('lifts links found on on-topic pages only when the scoring counts it', () => {
    const c = new LinkClassifier(['art']);
    // On-topic pages link to on-topic pages 6 times in 10, off-topic pages once in 10, under the same anchors.
    for (let i = 0; i < 100; i++) c.learn({ anchor: `Page ${i}`, context: 'see also', parentOnTopic: true }, i % 10 < 6 ? 1 : 0);
    for (let i = 0; i < 100; i++) c.learn({ anchor: `Page ${i}`, context: 'see also', parentOnTopic: false }, i % 10 < 1 ? 1 : 0);
    const link = { anchor: 'Page 7', context: 'see also' };
    const onPage = c.score({ ...link, parentOnTopic: true }, PARENT);
    const offPage = c.score({ ...link, parentOnTopic: false }, PARENT);
    expect(onPage).toBeGreaterThan(offPage + 0.2);
    expect(c.score({ ...link, parentOnTopic: true }, DESIGN_A_SCORING)).toBe(c.score({ ...link, parentOnTopic: false }, DESIGN_A_SCORING));
  });
});

describe('the parent-hub feature (the parent page\'s links to labeled pages)', () => {
  const HUB: LinkScoring = { ...PARENT, parentHub: true };

  it('buckets the share of links to labeled pages that lead on topic against the base share', () => {
    expect(hubBucket(0, 5, 0.1)).toBe(0);
    expect(hubBucket(3, 0, 0.1)).toBeUndefined();
    // Base share 0.1: 1 in 40 is a quarter of it, 1 in 10 exactly it, 2 in 10 twice, 5 in 10 five times.
    expect([hubBucket(1, 40, 0.1), hubBucket(1, 15, 0.1), hubBucket(1, 10, 0.1), hubBucket(2, 10, 0.1), hubBucket(3, 10, 0.1), hubBucket(5, 10, 0.1)])
      .toEqual([1, 2, 3, 4, 4, 5]);
    // Twice the base share is one bucket on a topic of 5% of pages and on one of 40%.
    expect(hubBucket(1, 10, 0.05)).toBe(hubBucket(8, 10, 0.4));
  });

  it('leaves each link\'s own target out of its page\'s share, and counts a target linked twice once', () => {
    const u = (p: string) => `http://w.test/${p}`;
    const buckets = hubBuckets([
      { url: u('a'), label: 1 }, { url: u('b'), label: 0 }, { url: u('c'), label: undefined }, { url: u('a'), label: 1 }, { url: u('d'), label: 0 },
    ], 0.5);
    // a: b and d, none on topic; b: a and d, half (the base); c: a, b and d, a third; d as b.
    expect(buckets).toEqual([0, 3, 2, 0, 3]);
    // A page whose one labeled link is its own target's has no share; the others see all (twice the base).
    expect(hubBuckets([{ url: u('a'), label: 1 }, { url: u('c'), label: undefined }], 0.5)).toEqual([undefined, 4]);
  });

  it('is one feature with the parent page\'s, next to P:on / P:off, and absent when the page links to no labeled page', () => {
    const d = makeDictionary(['art']);
    expect(linkFeatures({ anchor: 'x', context: '', parentOnTopic: true, parentHub: 3 }, d)).toEqual(expect.arrayContaining([PARENT_ON_FEATURE, 'H:on3']));
    expect(linkFeatures({ anchor: 'x', context: '', parentOnTopic: false, parentHub: 0 }, d)).toEqual(expect.arrayContaining([PARENT_OFF_FEATURE, 'H:off0']));
    expect(linkFeatures({ anchor: 'x', context: '', parentHub: 5 }, d)).toContain('H:5');
    expect(linkFeatures({ anchor: 'x', context: '', parentOnTopic: true }, d).some((f) => f.startsWith('H:'))).toBe(false);
  });

  it('tells apart links on on-topic pages by how often their page\'s labeled links lead on topic, only when the scoring counts it', () => {
    const c = new LinkClassifier(['art']);
    // Two kinds of on-topic page: hubs whose labeled links lead on topic (bucket 5) link on topic 8 times in 10,
    // others (bucket 0) once in 10.
    for (let i = 0; i < 100; i++) c.learn({ anchor: `Page ${i}`, context: 'see also', parentOnTopic: true, parentHub: 5 }, i % 10 < 8 ? 1 : 0);
    for (let i = 0; i < 100; i++) c.learn({ anchor: `Page ${i}`, context: 'see also', parentOnTopic: true, parentHub: 0 }, i % 10 < 1 ? 1 : 0);
    const link = { anchor: 'Page 7', context: 'see also', parentOnTopic: true };
    expect(c.score({ ...link, parentHub: 5 }, HUB)).toBeGreaterThan(c.score({ ...link, parentHub: 0 }, HUB) + 0.4);
    // Without it the two are ranked by the page alone (P:on, learned from both) ...
    expect(c.score({ ...link, parentHub: 5 }, PARENT)).toBe(c.score({ ...link, parentHub: 0 }, PARENT));
    expect(c.score({ ...link, parentHub: 5 }, PARENT)).toBe(c.score(link, HUB));
    // ... and with neither page feature, by the words alone.
    expect(c.score({ ...link, parentHub: 5 }, DESIGN_A_SCORING)).toBe(c.score({ anchor: 'Page 7', context: 'see also' }, DESIGN_A_SCORING));
  });

});

describe('the classifier setting of a crawl config', () => {
  it('defaults, takes design A explicitly, and refuses an unknown smoothing', () => {
    const base = { seeds: ['https://example.org/'], topic: { keywords: ['art'] } };
    expect(parseConfig({ ...base, classifier: DESIGN_A_SCORING }).classifier).toEqual(DESIGN_A_SCORING);
    expect(parseConfig(base).classifier).toEqual(expect.objectContaining({ smoothing: expect.any(String), parentPage: expect.any(Boolean) }));
    expect(() => parseConfig({ ...base, classifier: { smoothing: 'good-turing' } })).toThrow(/classifier.smoothing/);
  });

  it.each(['parentHub', 'targetAuthority', 'anchorShape'] as const)('has %s on by default, turns it off alone, and refuses a non-boolean', (option) => {
    const base = { seeds: ['https://example.org/'], topic: { keywords: ['art'] } };
    expect(parseConfig(base).classifier[option]).toBe(true);
    expect(parseConfig({ ...base, classifier: { [option]: false } }).classifier).toEqual({ ...DEFAULT_SCORING, [option]: false });
    expect(() => parseConfig({ ...base, classifier: { [option]: 'yes' } })).toThrow(new RegExp(`classifier.${option}`));
  });
});

describe('the anchor-shape feature (what kind of thing a link names)', () => {
  it('writes each word of the anchor as its case, up to four words', () => {
    expect(anchorShape('Nelson Mandela')).toBe('S:Aa Aa');
    expect(anchorShape('Treaty of Versailles')).toBe('S:Aa a Aa');
    expect(anchorShape('mercantilism')).toBe('S:a');
    expect(anchorShape('NATO')).toBe('S:A');
    expect(anchorShape('1848 revolutions')).toBe('S:0 a');
    expect(anchorShape('  Juan  Sebastián Elcano ')).toBe('S:Aa Aa Aa');
    expect(anchorShape('Ægir and Ólafr')).toBe('S:Aa a Aa');
    expect(anchorShape('Great Wall of China and more')).toBe('S:Aa Aa a Aa +');
    expect(anchorShape('(see below)')).toBe('S:a a');
    // Scripts without case say nothing of a name; neither does an anchor without words.
    expect(anchorShape('北京')).toBeUndefined();
    expect(anchorShape('Beijing 北京')).toBeUndefined();
    expect(anchorShape(' -> ')).toBeUndefined();
    expect(linkFeatures({ anchor: 'Nelson Mandela', context: 'president' }, new Set())).toContain('S:Aa Aa');
  });

  /** Training links whose anchors are new names (on topic for `namesOn`) or lowercase common nouns, in the same context. */
  function trained(namesOn: boolean): LinkClassifier {
    const c = new LinkClassifier([]);
    for (let i = 0; i < 60; i++) {
      c.learn({ anchor: `Firstname${i} Lastname${i}`, context: 'see also' }, namesOn ? 1 : 0);
      c.learn({ anchor: `noun${i}`, context: 'see also' }, namesOn ? 0 : 1);
    }
    return c;
  }
  const SHAPE: LinkScoring = { ...DESIGN_A_SCORING, anchorShape: true };
  const name = { anchor: 'Zyxwv Qwerty', context: 'see also' };

  it('ranks a name never seen by what names were in training: high for a topic of people, low for one of things', () => {
    expect(trained(true).score(name, SHAPE)).toBeGreaterThan(0.8);
    expect(trained(false).score(name, SHAPE)).toBeLessThan(0.2);
    // Without it the name's words are unknown and the link sits at the prior.
    expect(trained(true).score(name, DESIGN_A_SCORING)).toBeCloseTo(0.5, 9);
    expect(trained(false).score(name, DESIGN_A_SCORING)).toBeCloseTo(0.5, 9);
  });

  it('counts with the context, damped by its size, not in full like an anchor word', () => {
    const c = trained(true);
    const scoring = { ...DEFAULT_SCORING, parentPage: false, parentHub: false, targetAuthority: false };
    const lift = (context: string) => c.rank({ anchor: 'Zyxwv Qwerty', context }, scoring).logOdds - c.rank({ anchor: 'Zyxwv Qwerty', context }, { ...scoring, anchorShape: false }).logOdds;
    // Alone it counts in full; beside one context word seen as often in both classes ("also" is a stop word), the
    // two share the context's damping: the shape's evidence over 2^0.75.
    expect(lift('')).toBeGreaterThan(3);
    expect(lift('see also')).toBeCloseTo(lift('') / 2 ** DEFAULT_SCORING.contextDamping, 9);
  });
});

describe('a crawl records where each link was found', () => {
  const page = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
  const more = (href: string) => `<p>Read <a href="${href}">more</a> here.</p>`;
  const SITE: Record<string, string> = {
    '/star/source': page('Stars and planets', '<p>Astronomy of the stars, planets and the night sky.</p><p><a href="/star/a">Comet</a> and <a href="/town/b">Bus timetable</a></p>'),
    '/town/source': page('Town council', '<p>Bins, buses and parking.</p><p><a href="/town/c">Parking</a> and <a href="/star/d">Telescope</a></p>'),
    '/': page('Welcome', '<p><a href="/on">Stars</a> <a href="/off">Buses</a></p>'),
    '/on': page('Stars, planets and galaxies', `<p>A star, a planet, a galaxy, a telescope: astronomy.</p>${more('/x/1')}`),
    '/off': page('Bus timetable', `<p>Buses leave the depot at nine.</p>${more('/x/2')}`),
    '/long': page('Night sky', '<p>The astronomy club watches stars, planets and galaxies through a telescope at the <a href="/x/3">Observatory</a> each week.</p>'),
  };

  it('training links take their source page\'s label; crawl links the judge\'s verdict on their page', async () => {
    const o = 'http://club.test';
    const { store, service } = serviceOn(SITE);
    const { crawlId } = await service.handlers.start({
      name: 'stars', seeds: [`${o}/`], topic: { keywords: ['astronomy', 'star', 'planet', 'galaxy', 'telescope'] },
      training: { linkSources: [`${o}/star/source`, `${o}/town/source`], positive: [`${o}/star/*`], negative: [`${o}/town/*`] },
      budget: { maxPages: 4 }, politeness: { delayMs: 0, concurrency: 1, robots: false }, classifier: PARENT,
    });
    await service.settled(crawlId);
    const crawl = (await store.getCrawl(crawlId))!;
    const labels = await store.topics.labelsAfter(crawl.topicId, 0);
    const parentOf = (path: string) => labels.find((l) => l.url === `${o}${path}`)?.parentOnTopic;
    expect([parentOf('/star/a'), parentOf('/town/b'), parentOf('/town/c'), parentOf('/star/d')]).toEqual([true, true, false, false]);
    const entry = (path: string) => store.frontier.getEntry(crawlId, `${o}${path}`);
    const [x1, x2] = [(await entry('/x/1'))!, (await entry('/x/2'))!];
    expect([x1.parentOnTopic, x2.parentOnTopic]).toEqual([true, false]);
    // The same link text on an on-topic page and on an off-topic one: only the page tells them apart.
    expect(x1.anchor).toBe(x2.anchor);
    expect(x1.score).toBeGreaterThan(x2.score);
  });

  it('gives training links and crawl links their page\'s hub bucket from the labeled pages it links to', async () => {
    const o = 'http://club.test';
    const { store, service } = serviceOn({
      ...SITE,
      '/hub': page('Sky guide', '<p><a href="/star/e">Nebula</a> <a href="/star/f">Quasar</a> <a href="/town/g">Car park</a> <a href="/x/4">Moon</a></p>'),
    });
    const { crawlId } = await service.handlers.start({
      name: 'stars', seeds: [`${o}/hub`], topic: { keywords: ['astronomy', 'star', 'planet', 'galaxy', 'telescope'] },
      training: { linkSources: [`${o}/star/source`], positive: [`${o}/star/*`], negative: [`${o}/town/*`] },
      budget: { maxPages: 1 }, politeness: { delayMs: 0, concurrency: 1, robots: false },
    });
    await service.settled(crawlId);
    // One positive and one negative pattern: the base share is 1/2.
    const labels = await store.topics.labelsAfter((await store.getCrawl(crawlId))!.topicId, 0);
    const hubOf = (path: string) => labels.find((l) => l.url === `${o}${path}`)?.parentHub;
    // On the training page, /star/a's one other labeled link is off topic (0); /town/b's is on topic (twice the base: 4).
    expect([hubOf('/star/a'), hubOf('/town/b')]).toEqual([0, 4]);
    const entry = async (path: string) => (await store.frontier.getEntry(crawlId, `${o}${path}`))!.parentHub;
    // On the crawled page: two of three labeled links on topic for /x/4 (4/3 of the base: 3); each labeled link without itself.
    expect([await entry('/x/4'), await entry('/star/e'), await entry('/town/g')]).toEqual([3, 3, 4]);
  });

  it('scores a link with the crawl config\'s context damping', async () => {
    const o = 'http://club.test';
    const scoreWith = async (contextDamping: number) => {
      const { store, service } = serviceOn(SITE);
      const { crawlId } = await service.handlers.start({
        name: 'stars', seeds: [`${o}/long`], topic: { keywords: ['astronomy', 'star', 'planet', 'galaxy', 'telescope'] },
        budget: { maxPages: 1 }, politeness: { delayMs: 0, concurrency: 1, robots: false }, classifier: { contextDamping },
      });
      await service.settled(crawlId);
      return (await store.frontier.getEntry(crawlId, `${o}/x/3`))!.score;
    };
    // The context holds five keyword words: summed (0) they lift the link most, averaged (1) least.
    const [sum, damped, mean] = [await scoreWith(0), await scoreWith(0.75), await scoreWith(1)];
    expect(sum).toBeGreaterThan(damped);
    expect(damped).toBeGreaterThan(mean);
    expect(mean).toBeGreaterThan(0.5);
  });
});

describe('ranking a URL by every link found to it (classifier.everyLink)', () => {
  const crawl = () => ({ id: 1, nextOrder: 10 }) as CrawlRecord;
  const link = (logOdds: number, anchor: string): Candidate => ({
    url: 'http://w.test/target', host: 'w.test', score: 1 / (1 + Math.exp(-logOdds)), priority: logOdds, depth: 2,
    parentUrl: `http://w.test/${anchor}`, anchor, context: '', logOdds,
  });
  const identity = (_e: FrontierEntry, lo: number) => lo;
  /** The target as queued by its first link, with every-link ranking on. */
  const queued = (first: Candidate): FrontierEntry => {
    const puts: FrontierEntry[] = [];
    planUpserts(crawl(), [first], [undefined], 0, puts, identity);
    return puts[0]!;
  };

  it('is the link\'s own log-odds for one link, and between the best and the mean for several', () => {
    expect(urlLogOdds({ n: 1, sum: 1.5, best: 1.5 })).toBe(1.5);
    expect(urlLogOdds({ n: 4, sum: -2, best: 2 })).toBe((2 + -0.5) / 2);
  });

  it('lowers a URL that one hopeful link found and several poor ones found again; design A keeps its best link', () => {
    const first = queued(link(3, 'hub'));
    expect(first.inlinks).toEqual({ n: 1, sum: 3, best: 3 });
    expect(first.priority).toBe(3);
    let entry = first;
    for (const [i, lo] of [-3, -3, -3].entries()) {
      const puts: FrontierEntry[] = [];
      planUpserts(crawl(), [link(lo, `menu${i}`)], [entry], 1, puts, identity);
      entry = puts[0]!;
    }
    expect(entry.inlinks).toEqual({ n: 4, sum: -6, best: 3 });
    expect(entry.priority).toBeCloseTo((3 + -6 / 4) / 2, 12);
    // The best link's text stays the one the entry learns from and is re-scored by.
    expect(entry.anchor).toBe('hub');
    const specA: FrontierEntry[] = [];
    planUpserts(crawl(), [link(-3, 'menu')], [first], 1, specA);
    expect(specA).toEqual([]);
  });

  it('takes a better link\'s text and raises the URL', () => {
    const first = queued(link(-1, 'menu'));
    const puts: FrontierEntry[] = [];
    planUpserts(crawl(), [{ ...link(2, 'article'), depth: 1 }], [first], 1, puts, identity);
    const entry = puts[0]!;
    expect([entry.anchor, entry.parentUrl, entry.depth]).toEqual(['article', 'http://w.test/article', 1]);
    expect(entry.inlinks).toEqual({ n: 2, sum: 1, best: 2 });
    expect(entry.priority).toBeCloseTo((2 + 0.5) / 2, 12);
    expect(entry.priority).toBeGreaterThan(first.priority);
  });

  it('is on by default and off in design A', () => {
    const base = { seeds: ['https://example.org/'], topic: { keywords: ['art'] } };
    expect(parseConfig(base).classifier.everyLink).toBe(true);
    expect(parseConfig({ ...base, classifier: { everyLink: false } }).classifier.everyLink).toBe(false);
    expect(() => parseConfig({ ...base, classifier: { everyLink: 'yes' } })).toThrow(/classifier.everyLink/);
  });
});

describe('learning from links to pages already judged (learning.linksToJudged)', () => {
  const page = (title: string, body: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
  const star = (n: number) => page(`Star ${n}`, `<p>Astronomy: a star, a planet, a galaxy seen by telescope.</p><p><a href="/star/x${n}">Nebula</a> <a href="/town/y${n}">Bus stop</a></p>`);
  const town = (n: number) => page(`Town ${n}`, `<p>Bins, buses, parking and the council.</p><p><a href="/town/z${n}">Parking</a></p>`);
  const SITE: Record<string, string> = {
    '/star/s1': star(1), '/star/s2': star(2), '/star/s3': star(3),
    '/town/t1': town(1), '/town/t2': town(2), '/town/t3': town(3),
    '/on': page('Galaxies', '<p>A galaxy of stars and planets, seen by telescope: astronomy.</p>'),
    '/off': page('Parking', '<p>Parking permits from the council, bins on Tuesday, buses.</p>'),
    '/hub': page('Links', '<p><a href="/on">Spiral arms</a> and <a href="/off">Permits</a></p>'),
  };
  const o = 'http://club.test';

  /** A crawl of `site` from /on, /off and the hubs, in that order, trained on the star and town pages. */
  async function startStars(site: Record<string, string>, hubs: string[], maxPages: number, learning: Record<string, unknown> = {}) {
    const { store, service } = serviceOn(site);
    const { crawlId } = await service.handlers.start({
      name: 'stars', seeds: [`${o}/on`, `${o}/off`, ...hubs.map((h) => `${o}${h}`)], topic: { keywords: ['astronomy', 'star', 'planet', 'galaxy', 'telescope'] },
      training: { linkSources: ['s1', 's2', 's3', 't1', 't2', 't3'].map((p) => `${o}/${p[0] === 's' ? 'star' : 'town'}/${p}`), positive: [`${o}/star/*`], negative: [`${o}/town/*`] },
      budget: { maxPages }, politeness: { delayMs: 0, concurrency: 1, robots: false }, learning,
    });
    await service.settled(crawlId);
    return { store, service, crawlId };
  }

  async function crawlWith(linksToJudged: boolean) {
    const { store, crawlId } = await startStars(SITE, ['/hub'], 3, { linksToJudged });
    const crawl = (await store.getCrawl(crawlId))!;
    const labels = await store.topics.labelsAfter(crawl.topicId, 0);
    return { labels, crawl, store, crawlId };
  }

  it('labels a link found to a judged page with that page\'s verdict, and counts it', async () => {
    const { labels, crawl, store, crawlId } = await crawlWith(true);
    // The seeds are fetched in order: /on and /off are judged before /hub links to them.
    expect((await store.frontier.getEntry(crawlId, `${o}/on`))?.verdict).toBe(1);
    expect((await store.frontier.getEntry(crawlId, `${o}/off`))?.verdict).toBe(0);
    const fromHub = labels.filter((l) => l.pageUrl === `${o}/hub`).map((l) => [l.anchor, l.label, l.source]);
    expect(fromHub).toEqual(expect.arrayContaining([['Spiral arms', 1, 'verdict'], ['Permits', 0, 'verdict']]));
    expect(crawl.stats.labels).toBe(labels.filter((l) => l.crawlId === crawlId).length);
  });

  it('learns nothing from them when off', async () => {
    const { labels } = await crawlWith(false);
    expect(labels.some((l) => l.anchor === 'Spiral arms' || l.anchor === 'Permits')).toBe(false);
  });

  it('stops learning from links to a judged page once they have taught learning.linksPerJudgedPage labels of it', async () => {
    // Six hubs link /on and /off, as a site's navigation links its pages from every page.
    const hubs = Array.from({ length: 6 }, (_, i) => `/hub${i}`);
    const site = { ...SITE, ...Object.fromEntries(hubs.map((h) => [h, SITE['/hub']!])) };
    const taught = async (learning: Record<string, unknown>) => {
      const { store, crawlId } = await startStars(site, hubs, 8, learning);
      const crawl = (await store.getCrawl(crawlId))!;
      const labels = (await store.topics.labelsAfter(crawl.topicId, 0)).filter((l) => l.pageUrl?.includes('/hub'));
      expect(crawl.stats.labels).toBe((await store.topics.labelsAfter(crawl.topicId, 0)).filter((l) => l.crawlId === crawlId).length);
      return [`${o}/on`, `${o}/off`].map((u) => labels.filter((l) => l.url === u).length);
    };
    expect(await taught({ linksPerJudgedPage: 2 })).toEqual([2, 2]);
    expect(await taught({ linksPerJudgedPage: 100 })).toEqual([6, 6]);

    // A crawl stored before the setting existed learns with its default when resumed.
    const { store, service, crawlId } = await startStars(site, hubs, 4);
    const stored = (await store.getCrawl(crawlId))!;
    const { linksPerJudgedPage: _, ...before } = stored.config.learning;
    await store.updateCrawl(crawlId, { config: { ...stored.config, learning: before as typeof stored.config.learning } });
    await service.handlers.resume({ crawlId });
    await service.settled(crawlId);
    const fromHubs = (await store.topics.labelsAfter(stored.topicId, 0)).filter((l) => l.pageUrl?.includes('/hub'));
    expect([`${o}/on`, `${o}/off`].map((u) => fromHubs.filter((l) => l.url === u).length)).toEqual([6, 6]);
    expect(parseConfig({ seeds: ['https://example.org/'], topic: { keywords: ['art'] } }).learning.linksPerJudgedPage).toBe(8);
    expect(() => parseConfig({ seeds: ['https://example.org/'], topic: { keywords: ['art'] }, learning: { linksPerJudgedPage: 0 } })).toThrow(/linksPerJudgedPage/);
  });
});

describe('anchorShape on ASCII anchors', () => {
  it('reads by char code exactly what the regex reading gives, on random and odd anchors', () => {
    const odd = ['', ' ', 'NATO', 'N', 'A B', 'iPhone', 'eBay Inc.', '1848', '3M', 'x1', '"Quoted" Name', '(The) Beatles', 'a b c d e', 'A b C d E f',
      'U.S. Army', 'US-led', '--', '- x -', 'Ab\tCd\nEf\u000bGh\fIj\rKl', 'MIXed', 'mIXED', 'A1', '1A', '_a', '__', 'o\'Neil', 'O\'NEIL'];
    for (const a of odd) expect(anchorShape(a), JSON.stringify(a)).toBe(anchorShapeByRegex(a));
    const alphabet = 'aAzZmM09_ .,-\'"()\t\n\u000b\f\r';
    let seed = 5;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 20_000; i++) {
      let a = '';
      for (let k = 0, n = Math.floor(random() * 30); k < n; k++) a += alphabet[Math.floor(random() * alphabet.length)];
      expect(anchorShape(a), JSON.stringify(a)).toBe(anchorShapeByRegex(a));
    }
    // Not ASCII: the regex reading itself.
    expect(anchorShape('Émile Zola')).toBe('S:Aa Aa');
    expect(anchorShape('金融 Market')).toBeUndefined();
  });
});
