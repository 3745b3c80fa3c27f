import { describe, expect, it } from 'vitest';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { DEFAULT_SCORING } from '../../lib/records/classifier-config';
import { linkFeatures, makeDictionary } from '../../lib/learning/link-features';

describe('linkFeatures (design A.3)', () => {
  const dictionary = makeDictionary(['Stock Market', '金融']);

  it('builds the dictionary from the words of the keywords', () => {
    expect([...dictionary].sort()).toEqual(['market', 'markets', 'stock', 'stocks', '金融'].sort());
    expect([...makeDictionary(['galaxy', 'telescope', 'index', 'sky'])].sort()).toEqual(
      ['galaxies', 'galaxy', 'galaxys', 'index', 'indexes', 'indexs', 'sky', 'skies', 'skys', 'telescope', 'telescopes'].sort(),
    );
  });

  it('group 1 uses anchor words only', () => {
    expect(linkFeatures({ anchor: 'Stock news', context: 'market today' }, dictionary, 1).sort()).toEqual(
      ['a:news', 'a:stock'],
    );
  });

  it('group 2 keeps anchor and context words apart and adds the dictionary flags and the anchor\'s shape', () => {
    const f = linkFeatures({ anchor: 'Stock news stock', context: 'stock market today' }, dictionary);
    expect(f.sort()).toEqual(['A:dict', 'C:dict', 'S:Aa a a', 'a:news', 'a:stock', 'c:market', 'c:stock', 'c:today'].sort());
    expect(linkFeatures({ anchor: 'weather', context: 'rain' }, dictionary).sort()).toEqual(['S:a', 'a:weather', 'c:rain']);
  });
});

describe('LinkClassifier', () => {
  const keywords = ['stock market', 'finance'];

  it('with keywords only, ranks a keyword link above the others (independent evidence, design A.1)', () => {
    const c = new LinkClassifier(keywords, { evidence: 'independent' });
    const anchorAndContext = c.score({ anchor: 'Stock prices fall', context: 'finance news' });
    const anchorOnly = c.score({ anchor: 'Stock prices fall', context: 'sports weather' });
    const contextOnly = c.score({ anchor: 'Read more', context: 'finance news' });
    const other = c.score({ anchor: 'Football results', context: 'sports weather' });
    // Each keyword feature has likelihood ratio (1+1)/(1+2) : (0+1)/(1+2) = 2 (see the constructor's comment).
    // anchor: a:stock, A:dict -> odds 4 -> 0.8; plus context c:finance, C:dict -> odds 16 -> 16/17
    expect(anchorOnly).toBeCloseTo(0.8, 12);
    expect(contextOnly).toBeCloseTo(0.8, 12);
    expect(anchorAndContext).toBeCloseTo(16 / 17, 12);
    // no keyword word: only unseen features, balanced pseudo-prior -> 0.5
    expect(other).toBe(0.5);
    expect(c.examples).toEqual({ pos: 0, neg: 0 });
  });

  it('with context-mean evidence and a damping of 1, counts the anchor in full and averages the context', () => {
    const c = new LinkClassifier(keywords);
    expect(c.evidence).toBe('context-mean');
    // The anchor's shape would be one more context feature (unseen, so it would only add to the count averaged over).
    const mean = { ...DEFAULT_SCORING, contextDamping: 1, anchorShape: false };
    // anchor a:stock + A:dict: log-odds log 4 in full; context c:sports, c:weather unseen: 0 -> P = 0.8
    expect(c.score({ anchor: 'Stock prices fall', context: 'sports weather' }, mean)).toBeCloseTo(0.8, 12);
    // context c:finance, C:dict (log 2 each) and c:news (unseen) average to log(4)/3 -> odds 4^(1/3)
    const third = 4 ** (1 / 3);
    expect(c.score({ anchor: 'Read more', context: 'finance news' }, mean)).toBeCloseTo(third / (1 + third), 12);
    // both: odds 4 * 4^(1/3)
    expect(c.score({ anchor: 'Stock prices fall', context: 'finance news' }, mean)).toBeCloseTo((4 * third) / (1 + 4 * third), 12);
    expect(c.score({ anchor: 'Football results', context: 'sports weather' }, mean)).toBe(0.5);
    const r = c.rank({ anchor: 'Stock prices fall', context: 'finance news' }, mean);
    expect(r.logOdds).toBeCloseTo(Math.log(4 * third), 12);
    // The default damping (0.75): the same three context features weigh log(4) / 3^0.75.
    expect(c.rank({ anchor: 'Read more', context: 'finance news' }, { ...mean, contextDamping: DEFAULT_SCORING.contextDamping }).logOdds)
      .toBeCloseTo(Math.log(4) / 3 ** DEFAULT_SCORING.contextDamping, 12);
    // With the shape (`S:Aa a`, never seen: the keywords' pseudo-example has none), four features share the damping.
    expect(c.features({ anchor: 'Read more', context: 'finance news' })).toContain('S:Aa a');
    expect(c.topFeatures(1, 100).map((f) => f.feature).filter((f) => f.startsWith('S:'))).toEqual([]);
    expect(c.rank({ anchor: 'Read more', context: 'finance news' }).logOdds).toBeCloseTo(Math.log(4) / 4 ** DEFAULT_SCORING.contextDamping, 12);
  });

  it('with no keywords and no labels, scores every link 0.5', () => {
    const c = new LinkClassifier([]);
    expect(c.score({ anchor: 'anything', context: 'at all' })).toBe(0.5);
  });

  it('after learning labeled links, ranks a link like the positives above one like the negatives', () => {
    const c = new LinkClassifier(keywords);
    const positives = [
      { anchor: 'Central bank raises interest rates', context: 'economy bonds' },
      { anchor: 'Bond yields climb', context: 'interest rates economy' },
      { anchor: 'Quarterly earnings beat forecasts', context: 'shares economy' },
    ];
    const negatives = [
      { anchor: 'Celebrity wedding photos', context: 'entertainment gossip' },
      { anchor: 'Premier league results', context: 'football sports' },
      { anchor: 'Best pasta recipes', context: 'food cooking' },
    ];
    for (const link of positives) c.learn(link, 1);
    for (const link of negatives) c.learn(link, 0);
    expect(c.examples).toEqual({ pos: 3, neg: 3 });
    const likePositive = c.score({ anchor: 'Interest rates outlook', context: 'economy bonds' });
    const likeNegative = c.score({ anchor: 'Premier league photos', context: 'entertainment sports' });
    expect(likePositive).toBeGreaterThan(0.8);
    expect(likeNegative).toBeLessThan(0.2);
  });

  it('real labels outweigh the keyword pseudo-examples', () => {
    const c = new LinkClassifier(['apple']);
    const fruitlessLink = { anchor: 'Apple iPhone launch', context: 'gadgets phones' };
    expect(c.score(fruitlessLink)).toBeGreaterThan(0.5);
    for (let i = 0; i < 5; i++) c.learn({ anchor: `Apple iPhone ${i}`, context: 'gadgets phones' }, 0);
    for (let i = 0; i < 5; i++) c.learn({ anchor: `Apple orchard ${i}`, context: 'fruit farming' }, 1);
    expect(c.score(fruitlessLink)).toBeLessThan(0.2);
  });

  it('works on Chinese anchors', () => {
    const c = new LinkClassifier(['金融']);
    c.learn({ anchor: '股票市场今日大涨', context: '证券 银行' }, 1);
    c.learn({ anchor: '银行利率调整', context: '股票 证券' }, 1);
    c.learn({ anchor: '基金投资指南', context: '理财 股票' }, 1);
    c.learn({ anchor: '足球比赛结果', context: '体育 新闻' }, 0);
    c.learn({ anchor: '电影明星婚礼', context: '娱乐 新闻' }, 0);
    c.learn({ anchor: '篮球联赛开幕', context: '体育 赛事' }, 0);
    const finance = c.score({ anchor: '股票价格下跌', context: '证券 银行' });
    const sports = c.score({ anchor: '足球明星转会', context: '体育 娱乐' });
    expect(finance).toBeGreaterThan(0.5);
    expect(sports).toBeLessThan(0.5);
    expect(finance).toBeGreaterThan(sports);
  });

  it('unlearn undoes learn', () => {
    const c = new LinkClassifier(keywords);
    const before = JSON.stringify(c);
    c.learn({ anchor: 'Market update', context: 'stocks' }, 1);
    c.unlearn({ anchor: 'Market update', context: 'stocks' }, 1);
    expect(JSON.stringify(c)).toBe(before);
  });

  it('round-trips through JSON with identical scores', () => {
    const c = new LinkClassifier(keywords, { group: 2, alpha: 0.5 });
    c.learn({ anchor: 'Stock exchange news', context: 'finance markets' }, 1);
    c.learn({ anchor: 'Movie reviews', context: 'cinema' }, 0);
    const copy = LinkClassifier.fromJSON(JSON.parse(JSON.stringify(c)));
    const links = [
      { anchor: 'Stock exchange', context: 'cinema' },
      { anchor: 'Movie', context: 'finance' },
      { anchor: 'unrelated', context: 'words' },
    ];
    for (const link of links) expect(copy.score(link)).toBe(c.score(link));
    expect(copy.examples).toEqual(c.examples);
    expect(copy.toJSON()).toEqual(c.toJSON());
    expect(() => LinkClassifier.fromJSON({ ...c.toJSON(), group: 3 })).toThrow(TypeError);
  });

  it('group 1 ignores the context', () => {
    const c = new LinkClassifier(keywords, { group: 1 });
    expect(c.score({ anchor: 'Read more', context: 'stock market finance' })).toBe(0.5);
    expect(c.score({ anchor: 'Stock report', context: '' })).toBeGreaterThan(0.5);
  });
});

describe('LinkClassifier.rank: read from the link words, the same number as from its feature list', () => {
  const vocabulary = ['stock', 'stocks', 'market', 'the', 'of', 'Nelson', 'Mandela', 'NATO', '1848', 'treaty', '金融', '市场', 'café',
    'shares', 'price', 'price', 'x', 'u.s', "don't", 'Ｆｉｎａｎｃｅ', 'index', 'indexes', 'news', 'home', 'contact', 'sky', 'skies'];
  let seed = 31;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const words = (n: number) => Array.from({ length: n }, () => pick(vocabulary)).join(pick([' ', ' ', ', ', ' - ']));
  const link = () => ({
    anchor: words(Math.floor(random() * 5)),
    context: words(Math.floor(random() * 25)),
    ...(random() < 0.8 ? { parentOnTopic: random() < 0.5 } : {}),
    ...(random() < 0.4 ? { parentHub: Math.floor(random() * 6) } : {}),
  });
  const scorings = [
    DEFAULT_SCORING,
    { ...DEFAULT_SCORING, parentHub: false },
    { ...DEFAULT_SCORING, parentPage: false },
    { ...DEFAULT_SCORING, anchorShape: false, contextDamping: 1 },
    { ...DEFAULT_SCORING, contextDamping: 0 },
  ];

  it('on random links, while the classifier learns, unlearns, takes answers and is saved and restored', () => {
    for (const keywords of [['stock market', '金融'], []]) {
      let classifier = new LinkClassifier(keywords);
      const learned: { l: ReturnType<typeof link>; label: 0 | 1 }[] = [];
      for (let step = 0; step < 600; step++) {
        const r = random();
        if (r < 0.3) {
          const example = { l: link(), label: (random() < 0.3 ? 1 : 0) as 0 | 1 };
          classifier.learn(example.l, example.label);
          learned.push(example);
        } else if (r < 0.37 && learned.length) {
          const [example] = learned.splice(Math.floor(random() * learned.length), 1);
          classifier.unlearn(example.l, example.label);
        } else if (r < 0.42) {
          classifier.learnAnswer(link(), random() < 0.5 ? 1 : 0);
        } else if (r < 0.44) {
          classifier = LinkClassifier.fromJSON(JSON.parse(JSON.stringify(classifier.toJSON())));
        }
        const l = link();
        const scoring = pick(scorings);
        expect(classifier.rank(l, scoring), JSON.stringify({ l, scoring })).toEqual(classifier.rankByFeatures(l, scoring));
      }
    }
  });

  it('takes the feature-list path for the other scorings, with the same results as before', () => {
    const classifier = new LinkClassifier(['stock market']);
    classifier.learn({ anchor: 'stock prices', context: 'markets fell' }, 1);
    classifier.learn({ anchor: 'contact us', context: 'home about' }, 0);
    const l = { anchor: 'stock news', context: 'the market today', parentOnTopic: true };
    const baseRate = { ...DEFAULT_SCORING, smoothing: 'base-rate' as const };
    expect(classifier.rank(l, baseRate)).toEqual(classifier.rankByFeatures(l, baseRate));
    expect(classifier.rank(l).logOdds).not.toBe(classifier.rank(l, baseRate).logOdds);
  });
});
