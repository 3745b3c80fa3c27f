// Label files, bundles and label requests written to break a topic: `__proto__` and `constructor` as labels
// and as words, labels that are not 0 or 1, huge anchors, addresses that are not http(s), formula anchors.
// Each bad row is skipped and reported by its line; the good rows are kept; the topic still scores and
// retrains afterwards.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { NaiveBayes } from '../../lib/learning/naive-bayes';
import { PageJudge } from '../../lib/learning/page-judge';
import { CrawlService } from '../../lib/app/service';
import { labelsToCsv, parseLabels } from '../../lib/export/labels';
import { MAX_ANCHOR_CHARS, MAX_CONTEXT_CHARS, MAX_IMPORT_CHARS, MAX_IMPORT_ROWS, MAX_SCORE_BATCH } from '../../lib/export/label-input';
import { extractLinks } from '../../lib/parse/link-context';
import { parseHtml } from '../../lib/parse/html';
import { CrawlStore } from '../../lib/store/crawl-store';
import { CrawlerDB } from '../../lib/store/db';
import { realClock } from '../../lib/net/fetcher';

function fresh() {
  const store = new CrawlStore(new CrawlerDB(`t${Math.random()}`, { indexedDB: new IDBFactory(), IDBKeyRange }));
  const service = new CrawlService({ store, fetch: () => Promise.reject(new Error('no network in this test')), clock: realClock });
  return { store, h: service.handlers };
}

const probe = [
  { url: 'http://a.test/p1', anchor: 'photovoltaic roof panels', context: '' },
  { url: 'http://a.test/p2', anchor: 'bread recipes', context: '' },
];

/** The topic still works: it scores links (with numbers in [0, 1]), retrains, and the labels taught it. */
async function stillWorks(h: ReturnType<typeof fresh>['h'], topicId: number, expected: { pos: number; neg: number }) {
  const { scores } = await h.scoreLinks({ topicId, links: probe });
  for (const s of scores) expect(s).toBeGreaterThanOrEqual(0), expect(s).toBeLessThanOrEqual(1);
  const report = await h.retrain({ topicId });
  expect(report.examples).toEqual(expected);
  const after = (await h.scoreLinks({ topicId, links: probe })).scores;
  expect(after[0]).toBeGreaterThan(after[1]!); // the on-topic solar labels outweigh the bread one
}

const HUGE = 'stars '.repeat(MAX_ANCHOR_CHARS / 5);

describe('hostile label files', () => {
  it('skips CSV rows whose label is __proto__, constructor, 7 or empty, or whose URL is not http(s), and keeps the rest', async () => {
    const { h, store } = fresh();
    const topic = await h.createTopic({ name: 'Solar', keywords: [] });
    const csv = [
      'url,anchor,context,label,pageUrl', //                                       line 1
      'http://a.test/1,photovoltaic panels,solar roof,on,', //                       2 kept
      'http://a.test/2,bread recipes,kitchen,off,', //                               3 kept
      'http://a.test/3,solar __proto__,x,__proto__,', //                             4
      'http://a.test/4,solar constructor,x,constructor,', //                         5
      'http://a.test/5,solar seven,x,7,', //                                         6
      'http://a.test/6,photovoltaic roof,x,1 ,', //                                  7 kept: spaces around a 1
      'http://a.test/7,photovoltaic cells,x,true,', //                               8 kept: a documented word
      'http://a.test/8,solar nothing,x,,', //                                        9
      `http://a.test/9,${HUGE},x,on,`, //                                           10
      'javascript:alert(1),solar script,x,on,', //                                  11
      'http://a.test/10,solar page,x,on,javascript:alert(1)', //                    12
      `http://a.test/11,"=cmd|' /C calc'!A0",photovoltaic,on,`, //                  13 kept, as text
    ].join('\n');
    const r = await h.importLabels({ topicId: topic.id!, format: 'csv', text: csv });
    expect(r.rejected.map((x) => x.line)).toEqual([4, 5, 6, 9, 10, 11, 12]);
    expect(r.rejectedCount).toBe(7);
    expect(r.rejected[0]!.error).toMatch(/label must be on\/off.*"__proto__"/);
    expect(r.rejected[1]!.error).toMatch(/"constructor"/);
    expect(r.rejected[4]!.error).toMatch(/anchor is longer than 1,000 characters/);
    expect(r.rejected[5]!.error).toMatch(/url is not an http\(s\) URL/);
    expect(r.rejected[6]!.error).toMatch(/pageUrl is not an http\(s\) URL/);
    expect(r.added).toBe(5);
    const rows = await store.topics.allLabels(topic.id!);
    expect(rows.map((l) => [l.url, l.label])).toEqual([
      ['http://a.test/1', 1], ['http://a.test/2', 0], ['http://a.test/6', 1], ['http://a.test/7', 1], ['http://a.test/11', 1],
    ]);
    // The formula is only text to learn from; written out again it cannot run in a spreadsheet.
    const formula = rows.find((l) => l.url === 'http://a.test/11')!;
    expect(formula.anchor).toBe("=cmd|' /C calc'!A0");
    expect(labelsToCsv([formula])).toContain(`"'=cmd|' /C calc'!A0"`);
    await stillWorks(h, topic.id!, { pos: 4, neg: 1 });
  });

  it('skips JSON Lines labels that are not 0/1 or a label word, objects and prototype keys included', async () => {
    const { h } = fresh();
    const topic = await h.createTopic({ name: 'Solar', keywords: [] });
    const line = (label: string, anchor = 'solar cells', url = 'http://a.test/x') => `{"url":${JSON.stringify(url)},"anchor":${JSON.stringify(anchor)},"label":${label}}`;
    const jsonl = [
      line('1', 'photovoltaic panels', 'http://a.test/1'),
      line('"__proto__"'),
      line('"constructor"'),
      line('7'),
      line('{}'),
      line('null'),
      '{"url":"http://a.test/y","anchor":"solar","__proto__":{"label":1}}', // a label only on the prototype
      line('"1 "', 'photovoltaic roof', 'http://a.test/2'),
      line('true', 'photovoltaic cells', 'http://a.test/3'),
      line('0', 'bread recipes', 'http://a.test/4'),
      line('1', HUGE),
      line('1', 'solar', 'file:///etc/passwd'),
    ].join('\n');
    const r = await h.importLabels({ topicId: topic.id!, format: 'jsonl', text: jsonl });
    expect(r.rejected.map((x) => x.line)).toEqual([2, 3, 4, 5, 6, 7, 11, 12]);
    expect(r.added).toBe(4);
    await stillWorks(h, topic.id!, { pos: 3, neg: 1 });
  });

  it('refuses a file too large to be a label file, with a sentence saying so', () => {
    expect(() => parseLabels('csv', 'x'.repeat(MAX_IMPORT_CHARS + 1), 0)).toThrow(/at most 50 million/);
    const rows = 'url,label\n' + 'http://a.test/,1\n'.repeat(MAX_IMPORT_ROWS + 1);
    expect(() => parseLabels('csv', rows, 0)).toThrow(/more than 1,000,000 rows/);
    expect(() => parseLabels('jsonl', '{}\n'.repeat(MAX_IMPORT_ROWS + 1), 0)).toThrow(/more than 1,000,000 rows/);
    expect(parseLabels('jsonl', '{"url":"http://a.test/","anchor":"a","label":1}\n'.repeat(1000), 0).labels).toHaveLength(1000);
  });

  it('imports a tampered model bundle without its bad labels, and the topic scores and retrains', async () => {
    const { h, store } = fresh();
    const topic = await h.createTopic({ name: 'Solar', keywords: ['solar'] });
    await h.labelLink({ topicId: topic.id!, url: 'http://a.test/1', anchor: 'photovoltaic panels', context: '', label: 1 });
    await h.labelLink({ topicId: topic.id!, url: 'http://a.test/2', anchor: 'bread recipes', context: '', label: 0 });
    const bundle = JSON.parse(JSON.stringify(await h.exportModel({ topicId: topic.id! }))) as { labels: Record<string, unknown>[] };
    const good = bundle.labels[0]!;
    bundle.labels.push(
      { ...good, label: '__proto__' }, //           3
      { ...good, label: 'constructor' }, //         4
      { ...good, label: 7 }, //                     5
      { ...good, label: '1' }, //                   6: a bundle is written by Focus, with 0 or 1
      { ...good, url: 'javascript:alert(1)' }, //   7
      { ...good, source: '__proto__' }, //          8
      { ...good, anchor: HUGE }, //                 9
      { ...good, pageUrl: 'data:text/html,x' }, //  10
      { ...good, url: 'http://a.test/3', anchor: 'photovoltaic cells' }, // 11 kept
    );
    const r = await h.importModel({ bundle });
    expect(r.rejected.map((x) => x.line)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.rejected[0]!.error).toMatch(/label must be 0 or 1/);
    expect(r.added).toBe(3);
    expect((await store.topics.allLabels(r.topic.id!)).map((l) => [l.url, l.label, l.source])).toEqual([
      ['http://a.test/1', 1, 'user'], ['http://a.test/2', 0, 'user'], ['http://a.test/3', 1, 'user'],
    ]);
    await stillWorks(h, r.topic.id!, { pos: 2, neg: 1 });
    // What makes the whole file unusable still refuses it, with why.
    await expect(h.importModel({ bundle: { ...bundle, labels: { length: 3 } } })).rejects.toThrow(/"labels" is not a list/);
    await expect(h.importModel({ bundle: { ...bundle, topic: { name: 'x', keywords: [{}] } } })).rejects.toThrow(/keyword/);
  });
});

describe('hostile label requests', () => {
  it('takes labels 0, 1 and null only, in labelLink, relabel and labelPage', async () => {
    const { h, store } = fresh();
    const topic = await h.createTopic({ name: 'Solar', keywords: [] });
    const link = { topicId: topic.id!, url: 'http://a.test/1', anchor: 'photovoltaic panels', context: '' };
    for (const label of [7, '1', true, '__proto__', {}]) {
      await expect(h.labelLink({ ...link, label: label as 1 })).rejects.toThrow(/a label is 1 \(on topic\) or 0 \(off topic\)/);
    }
    await h.labelLink({ ...link, label: 1 });
    const [row] = await store.topics.allLabels(topic.id!);
    await expect(h.relabel({ ids: [row!.id!], label: 'constructor' as unknown as 0 })).rejects.toThrow(/a label is/);
    await expect(h.relabel({ ids: [row!.id!], label: null as unknown as 0 })).rejects.toThrow(/a label is/);
    await expect(h.labelPage({ crawlId: 1, seq: 1, label: 2 as 1 })).rejects.toThrow(/a label is/);
    expect((await store.topics.allLabels(topic.id!)).map((l) => l.label)).toEqual([1]);
    await h.labelLink({ topicId: topic.id!, url: 'http://a.test/2', anchor: 'bread recipes', context: '', label: 0 });
    await stillWorks(h, topic.id!, { pos: 1, neg: 1 });
  });

  it('refuses a 5 MB anchor, an over-long context and too many links to score', async () => {
    const { h, store } = fresh();
    const topic = await h.createTopic({ name: 'Solar', keywords: [] });
    const link = { url: 'http://a.test/1', anchor: 'photovoltaic', context: '' };
    await expect(h.labelLink({ topicId: topic.id!, ...link, anchor: 'a'.repeat(5_000_000), label: 1 })).rejects.toThrow(/anchor is longer than 1,000 characters/);
    await expect(h.labelLink({ topicId: topic.id!, ...link, context: 'c'.repeat(MAX_CONTEXT_CHARS + 1), label: 1 })).rejects.toThrow(/context is longer/);
    await expect(h.labelLink({ topicId: topic.id!, ...link, url: 'javascript:alert(1)', label: 1 })).rejects.toThrow(/not an http\(s\) URL/);
    expect(await store.topics.allLabels(topic.id!)).toEqual([]);
    // At the caps exactly, a link is taken: the extractor cuts there.
    await h.labelLink({ topicId: topic.id!, ...link, anchor: 'a'.repeat(MAX_ANCHOR_CHARS), context: 'c'.repeat(MAX_CONTEXT_CHARS), label: 1 });
    expect(await store.topics.allLabels(topic.id!)).toHaveLength(1);

    await expect(h.scoreLinks({ topicId: topic.id, links: [{ ...link, anchor: 'a'.repeat(MAX_ANCHOR_CHARS + 1) }] })).rejects.toThrow(/anchor is longer/);
    await expect(h.scoreLinks({ topicId: topic.id, links: Array.from({ length: MAX_SCORE_BATCH + 1 }, () => link) })).rejects.toThrow(/at most 2000 links/);
    expect((await h.scoreLinks({ topicId: topic.id, links: Array.from({ length: MAX_SCORE_BATCH }, () => link) })).scores).toHaveLength(MAX_SCORE_BATCH);
  });

  it('learns and scores pages whose words are __proto__, constructor and toString like any other words', async () => {
    const { h } = fresh();
    const topic = await h.createTopic({ name: 'JS internals', keywords: ['prototype'] });
    const words = '__proto__ constructor tostring hasownproperty valueof';
    const alike = { url: 'http://a.test/9', anchor: `object ${words}`, context: words };
    const before = (await h.scoreLinks({ topicId: topic.id, links: [alike] })).scores[0]!;
    await h.labelLink({ topicId: topic.id!, url: 'http://a.test/1', anchor: words, context: words, label: 1 });
    await h.labelLink({ topicId: topic.id!, url: 'http://a.test/2', anchor: 'bread recipes', context: 'kitchen', label: 0 });
    const after = (await h.scoreLinks({ topicId: topic.id, links: [alike] })).scores[0]!;
    expect(after).toBeGreaterThan(before);
    expect((await h.retrain({ topicId: topic.id! })).examples).toEqual({ pos: 1, neg: 1 });
    const copy = await h.importModel({ bundle: JSON.parse(JSON.stringify(await h.exportModel({ topicId: topic.id! }))) });
    expect((await h.scoreLinks({ topicId: copy.topic.id, links: [alike] })).scores[0]).toBeCloseTo(after, 12);

    // The classifiers themselves, with the raw words (the link classifier prefixes its features; these do not).
    const nb = new NaiveBayes();
    nb.learn(['__proto__', 'constructor'], 1);
    nb.learn(['constructor', 'bread'], 0);
    expect(NaiveBayes.fromJSON(JSON.parse(JSON.stringify(nb.toJSON()))).posterior(['__proto__'])).toBeCloseTo(nb.posterior(['__proto__']), 12);
    expect(nb.posterior(['__proto__'])).toBeGreaterThan(0.5);
    const judge = new PageJudge(['prototype']);
    for (let i = 0; i < 3; i++) judge.learn({ title: '__proto__ constructor', text: 'constructor __proto__ tostring' }, 1), judge.learn({ title: 'bread', text: 'flour water salt' }, 0);
    const restored = PageJudge.fromJSON(JSON.parse(JSON.stringify(judge.toJSON())));
    expect(restored.judge({ title: 'constructor', text: '__proto__' }).relevant).toBe(true);
    expect(restored.judge({ title: 'bread', text: 'flour' }).relevant).toBe(false);
  });
});

describe('the extractor caps what it hands the labeler', () => {
  it('cuts a huge anchor and a huge context window to the sizes the worker takes', () => {
    const html = `<p>before <a href="/x">${'word '.repeat(100_000)}</a> after</p>`;
    const [link] = parseHtml(html, 'http://a.test/').links;
    expect(link!.anchor.length).toBeLessThanOrEqual(MAX_ANCHOR_CHARS);
    expect(link!.anchor.length).toBeGreaterThan(MAX_ANCHOR_CHARS - 30);
    const doc = parseHtml(`<p>${'left '.repeat(10_000)}<a href="/y">y</a>${' right'.repeat(10_000)}</p>`, 'http://a.test/');
    expect(doc.links[0]!.context.length).toBeLessThan(200); // the usual window
    const wide = extractLinks(parseHTML(`<html><body><p>${'left '.repeat(10_000)}<a href="/y">y</a>${' right'.repeat(10_000)}</p></body></html>`).document, 'http://a.test/', { windowChars: 50_000 });
    expect(wide[0]!.context.length).toBeLessThanOrEqual(MAX_CONTEXT_CHARS);
  });
});
