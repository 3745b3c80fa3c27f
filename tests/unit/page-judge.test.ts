import { describe, expect, it } from 'vitest';
import { PageJudge } from '../../lib/learning/page-judge';
import { logistic } from '../../lib/learning/naive-bayes';
import { tokenize } from '../../lib/parse/tokenize';

const filler = 'people walked along the river and talked about the weather and their plans for summer holidays';

describe('PageJudge: keyword judge (fewer than 3 labeled pages per class)', () => {
  const judge = new PageJudge(['stock market', 'finance']);

  it('judges a page clearly about the keywords relevant', () => {
    const v = judge.judge({
      title: 'Stock market falls as finance ministers meet',
      text: 'The stock market fell on Monday. Finance ministers discussed markets and the stock exchange. ' + filler,
    });
    expect(v.by).toBe('keywords');
    expect(v.relevance).toBeGreaterThanOrEqual(0.5);
    expect(v.relevant).toBe(true);
  });

  it('judges a page whose body is dense with keywords relevant even without a title hit', () => {
    const text = Array.from({ length: 10 }, () => 'stock prices and market news on finance today').join(' ');
    expect(judge.judge({ title: 'Daily report', text }).relevance).toBeGreaterThanOrEqual(0.5);
  });

  it('judges a page that never mentions the keywords irrelevant', () => {
    const v = judge.judge({ title: 'Summer holidays', text: filler.repeat(5) });
    expect(v.relevance).toBeLessThan(0.2);
    expect(v.relevant).toBe(false);
  });

  it('gives a single passing mention in a long page little weight', () => {
    const v = judge.judge({ title: 'Travel diary', text: `${filler.repeat(30)} the stock was low` });
    expect(v.relevance).toBeLessThan(0.2);
  });

  it('matches Chinese keywords inside unsegmented Chinese text', () => {
    const zh = new PageJudge(['股票', '金融']);
    const v = zh.judge({ title: '今日股票行情', text: '金融市场的股票价格今天上涨，投资者关注银行板块。' });
    expect(v.relevant).toBe(true);
    expect(zh.judge({ title: '足球比赛', text: '昨天的足球比赛非常精彩，球迷们很高兴。' }).relevance).toBeLessThan(0.2);
  });

  it('respects the threshold', () => {
    const strict = new PageJudge(['finance'], 0.99);
    expect(strict.judge({ title: 'Finance news', text: filler }).relevant).toBe(false);
  });
});

describe('PageJudge: multinomial model (3+ labeled pages per class)', () => {
  function trained(): PageJudge {
    const j = new PageJudge(['finance']);
    j.learn({ title: 'Bond yields rise', text: 'investors sold bonds as yields and interest rates rose' }, 1);
    j.learn({ title: 'Central bank decision', text: 'the central bank kept interest rates unchanged, investors said' }, 1);
    j.learn({ title: 'Shares rally', text: 'shares rallied and investors bought equities and bonds' }, 1);
    j.learn({ title: 'Cup final', text: 'the team won the cup final with a late goal' }, 0);
    j.learn({ title: 'New album', text: 'the band released a new album and announced a tour' }, 0);
    return j;
  }

  it('keeps using keywords until it has 3 examples of each class', () => {
    const j = trained();
    expect(j.examples).toEqual({ pos: 3, neg: 2 });
    expect(j.judge({ title: 'x', text: 'interest rates' }).by).toBe('keywords');
    j.learn({ title: 'Recipe', text: 'bake the bread for forty minutes' }, 0);
    expect(j.judge({ title: 'x', text: 'interest rates' }).by).toBe('model');
  });

  it('separates pages like the positives from pages like the negatives, without the keywords', () => {
    const j = trained();
    j.learn({ title: 'Recipe', text: 'bake the bread for forty minutes' }, 0);
    const onTopic = j.judge({ title: 'Rates', text: 'investors expect interest rates and bond yields to rise' });
    const offTopic = j.judge({ title: 'Tour dates', text: 'the band will play the cup final concert with the team' });
    expect(onTopic.by).toBe('model');
    expect(onTopic.relevant).toBe(true);
    expect(offTopic.relevant).toBe(false);
    expect(onTopic.relevance).toBeGreaterThan(offTopic.relevance);
  });

  it('saturates on long pages without overflow', () => {
    const j = trained();
    j.learn({ title: 'Recipe', text: 'bake the bread for forty minutes' }, 0);
    const v = j.judge({ title: 'Rates', text: 'investors bonds yields interest rates '.repeat(5000) });
    expect(v.relevance).toBe(1);
    const w = j.judge({ title: 'Cup', text: 'band album tour cup goal team '.repeat(5000) });
    expect(w.relevance).toBe(0);
  });

  it('round-trips through JSON with identical verdicts, and unlearn undoes learn', () => {
    const j = trained();
    j.learn({ title: 'Recipe', text: 'bake the bread for forty minutes' }, 0);
    const copy = PageJudge.fromJSON(JSON.parse(JSON.stringify(j)));
    const page = { title: 'Rates and cups', text: 'interest rates, a cup final and bonds' };
    expect(copy.judge(page)).toEqual(j.judge(page));
    expect(copy.toJSON()).toEqual(j.toJSON());

    const before = JSON.stringify(j);
    j.learn({ title: 'Extra', text: 'more words about bonds' }, 1);
    j.unlearn({ title: 'Extra', text: 'more words about bonds' }, 1);
    expect(JSON.stringify(j)).toBe(before);
    expect(() => j.unlearn({ title: 'Never', text: 'seen page' }, 1)).toThrow(RangeError);
    expect(() => PageJudge.fromJSON({ ...j.toJSON(), posWords: 1 })).toThrow(TypeError);
  });
});

describe('the keyword judge reads prose, not menus', () => {
  const judge = new PageJudge(['astronomy', 'star', 'planet', 'nebula', 'galaxy']);
  it('does not call a page relevant for links to the topic', () => {
    // A recipe whose menu and "see also" links name the topic: every keyword is in an anchor.
    const links = [{ anchor: 'Sky and Space: star charts' }, { anchor: 'Planet of the month' }, { anchor: 'Astronomy club' }];
    const text = `Mooncakes. Mix the flour, syrup and oil, fill with lotus paste and bake. ${links.map((l) => l.anchor).join(' ')}`;
    expect(judge.judge({ title: 'Mooncakes', text, links }).relevant).toBe(false);
    // The same words in its prose make it relevant.
    expect(judge.judge({ title: 'Mooncakes', text: `${text} We baked them for the astronomy night: each star and planet was a cake.`, links }).relevant).toBe(true);
  });
  it('matches English plurals of a keyword', () => {
    expect(judge.judge({ title: 'How stars are born', text: 'Stars form in clouds of gas called nebulae; galaxies hold billions of them.' }).relevance).toBeGreaterThan(0.9);
  });
});

describe('PageJudge: smoothing when the topic is a few percent of the labeled pages', () => {
  // 4 short pages of a small topic among 80 long pages of everything else, as on a small Wikispeedia topic.
  const judge = new PageJudge([]);
  const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');
  for (let i = 0; i < 4; i++) judge.learn({ title: 'Sonata', text: `a fugue for organ and choir, a sonata in ${words(`key${i}x`, 5)}` }, 1);
  for (let i = 0; i < 80; i++) judge.learn({ title: `Town ${i}`, text: `${words(`place${i}x`, 60)} the river and the council of the region` }, 0);
  const small = { title: 'Requiem', text: 'a requiem for choir and organ, with a fugue, sung in the region of the river and the council' };
  const other = { title: 'Harbour', text: 'the harbour of the region, its council and the river' };

  it('recognises a page of the small topic, where Laplace smoothing does not', () => {
    expect(judge.judge(small).relevant).toBe(true);
    expect(judge.judge(small, 1).relevant).toBe(false);
  });

  it('still calls a page of the common words off topic, and refuses a smoothing of 0', () => {
    expect(judge.judge(other).relevant).toBe(false);
    expect(judge.judge(other, 1).relevant).toBe(false);
    expect(() => judge.judge(small, 0)).toThrow(RangeError);
  });

  it('is the crawl config\'s judge.smoothing, 0.1 unless set', async () => {
    const { parseConfig } = await import('../../lib/app/parse-config');
    const base = { seeds: ['https://example.org/'], topic: { keywords: ['music'] } };
    expect(parseConfig(base).judge).toEqual({ threshold: 0.5, smoothing: 0.1 });
    expect(parseConfig({ ...base, judge: { smoothing: 1 } }).judge.smoothing).toBe(1);
    expect(() => parseConfig({ ...base, judge: { smoothing: 0 } })).toThrow(/judge.smoothing/);
  });
});

describe('PageJudge: the model verdict is the formula over the saved counts, to the last bit', () => {
  // The multinomial formula (modelRelevance's comment) as first written: a Map of the page's word counts, title words
  // counted TITLE_WEIGHT (3) times, summed in order of first appearance, every log taken afresh from the saved counts.
  const reference = (judge: PageJudge, page: { title: string; text: string }, a: number): number => {
    const j = judge.toJSON();
    const counts = new Map(j.words.map(([w, pos, neg]) => [w, { pos, neg }]));
    const frequencies = new Map<string, number>();
    for (const w of tokenize(page.title)) frequencies.set(w, (frequencies.get(w) ?? 0) + 3);
    for (const w of tokenize(page.text.slice(0, 20_000))) frequencies.set(w, (frequencies.get(w) ?? 0) + 1);
    const logPosTotal = Math.log(j.posWords + a * counts.size);
    const logNegTotal = Math.log(j.negWords + a * counts.size);
    let logOdds = Math.log(j.pos + 1) - Math.log(j.neg + 1);
    for (const [w, n] of frequencies) {
      const c = counts.get(w);
      if (c) logOdds += n * (Math.log(c.pos + a) - logPosTotal - Math.log(c.neg + a) + logNegTotal);
    }
    return logistic(logOdds);
  };
  const vocabulary = ['orbit', 'planet', 'star', 'comet', 'telescope', 'recipe', 'flour', 'oven', 'butter', 'sugar', 'the', 'of',
    'Orbit', 'STAR', 'café', '金融', 'x', 'moon', 'river', 'bank', 'rates', 'summer', 'léa', '3.5', 'u.s'];
  let seed = 2024;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const text = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
  const page = () => ({ title: text(1 + Math.floor(random() * 5)), text: text(Math.floor(random() * 300)) });

  it('on random pages, as the judge learns, unlearns and changes its smoothing', () => {
    const judge = new PageJudge(['astronomy']);
    const learned: { page: { title: string; text: string }; label: 0 | 1 }[] = [];
    for (let step = 0; step < 400; step++) {
      const r = random();
      if (r < 0.3 || learned.length < 8) {
        const example = { page: page(), label: (random() < 0.4 ? 1 : 0) as 0 | 1 };
        judge.learn(example.page, example.label);
        learned.push(example);
      } else if (r < 0.4) {
        const [example] = learned.splice(Math.floor(random() * learned.length), 1);
        judge.unlearn(example.page, example.label);
      }
      if (judge.judge(page()).by !== 'model') continue;
      for (const a of [0.1, 1, 0.1, 0.37]) {
        const p = page();
        expect(judge.judge(p, a).relevance, JSON.stringify({ p, a })).toBe(reference(judge, p, a));
      }
    }
  });

  it('on a page longer than the judge reads, and on one without any known word', () => {
    const judge = new PageJudge([]);
    for (let i = 0; i < 4; i++) judge.learn({ title: 'planet orbit', text: 'star comet telescope moon' }, 1);
    for (let i = 0; i < 4; i++) judge.learn({ title: 'recipe', text: 'flour oven butter sugar' }, 0);
    const long = { title: 'Planet', text: 'orbit flour '.repeat(3000) + 'star '.repeat(500) };
    expect(judge.judge(long).relevance).toBe(reference(judge, long, 0.1));
    const unknown = { title: 'zebra', text: 'quartz jungle' };
    expect(judge.judge(unknown).relevance).toBe(reference(judge, unknown, 0.1));
  });
});
