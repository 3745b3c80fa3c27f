import { afterEach, describe, expect, it } from 'vitest';
import { NaiveBayes } from '../../lib/learning/naive-bayes';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { answerLearning, type AnswerPolicy } from '../../lib/learning/answer-evidence';

const shipped: AnswerPolicy = answerLearning.policy;
afterEach(() => {
  answerLearning.policy = shipped;
});

describe('NaiveBayes extra counts', () => {
  it('scores extra counts as learned examples, and does not save them', () => {
    const learned = new NaiveBayes();
    const extra = new NaiveBayes();
    for (const nb of [learned, extra]) {
      nb.learn(['war', 'battle'], 0);
      nb.learn(['baron', 'duke'], 1);
    }
    learned.learn(['war', 'century'], 0);
    learned.learn(['war', 'century'], 0);
    extra.setExtra('war', 0, 2);
    extra.setExtra('century', 0, 2);
    extra.setExtraClasses(0, 2);
    for (const f of [['war'], ['century', 'duke'], ['baron'], []]) expect(extra.logOdds(f)).toBeCloseTo(learned.logOdds(f), 12);
    expect(extra.examples).toEqual({ pos: 1, neg: 1 });
    expect(extra.totals).toEqual({ pos: 1, neg: 3 });
    // What is saved is the examples only: the features seen only as extra counts are not in it.
    expect(extra.toJSON().features.map(([f]) => f).sort()).toEqual(['baron', 'battle', 'duke', 'war']);
    extra.setExtra('century', 0, 0);
    expect(extra.vocabularySize).toBe(4);
  });
});

describe('LinkClassifier answers', () => {
  it('keeps answers apart from learned labels through JSON, with identical scores', () => {
    for (const policy of [{ kind: 'full' }, { kind: 'full', wordsOnly: true }] as AnswerPolicy[]) {
      answerLearning.policy = policy;
      const c = new LinkClassifier(['peerage']);
      c.learn({ anchor: 'Duke of Wellington', context: 'peer soldier' }, 1);
      c.learn({ anchor: 'Battle of Waterloo', context: 'war 1815' }, 0);
      c.learnAnswer({ anchor: 'Battle of Hastings', context: 'war 1066' }, 0);
      c.learnAnswer({ anchor: 'Earl of Derby', context: 'peer politician' }, 1);
      const copy = LinkClassifier.fromJSON(JSON.parse(JSON.stringify(c)));
      for (const link of [{ anchor: 'Battle', context: 'peer' }, { anchor: 'Earl Grey', context: 'war' }]) expect(copy.score(link)).toBe(c.score(link));
      expect(copy.examples).toEqual({ pos: 2, neg: 2 });
      expect(copy.toJSON()).toEqual(c.toJSON());
    }
  });

  it('refuses saved answers whose counts exceed their totals', () => {
    const c = new LinkClassifier(['peerage']);
    c.learnAnswer({ anchor: 'Battle of Hastings', context: 'war' }, 0);
    const j = c.toJSON();
    expect(() => LinkClassifier.fromJSON({ ...j, answers: { ...j.answers!, features: [['a:battle', 0, 2]] } })).toThrow(TypeError);
    expect(() => LinkClassifier.fromJSON({ ...j, answers: 3 })).toThrow(TypeError);
  });
});

describe('answer policies (the labels benchmark\'s --answer-policy)', () => {
  // A topic's peers ("1st Baron ...") are on topic and its centuries are not; the user's answers are about links the
  // model expects off topic, each sharing one word with the peers' links.
  const train = () => {
    const c = new LinkClassifier(['peerage']);
    for (const n of ['Wellington', 'Marlborough', 'Norfolk', 'Devonshire', 'Bedford', 'Portland', 'Somerset', 'Argyll']) {
      c.learn({ anchor: `1st Baron ${n}`, context: 'peer politician born' }, 1);
      c.learn({ anchor: `1st Earl of ${n}`, context: 'peer soldier born' }, 1);
    }
    for (let i = 2; i < 30; i++) c.learn({ anchor: `${i}th century`, context: 'era history events' }, 0);
    return c;
  };
  const peer = { anchor: '1st Duke of Albemarle', context: 'peer general born' };
  const answers = ['Rome', 'Judea', 'Han', 'Egypt', 'Gaul', 'Parthia'].map((place) => ({ anchor: `1st century ${place}`, context: 'era history events' }));

  it('full: answers the model expected drag the word they share with the topic\'s links', () => {
    answerLearning.policy = { kind: 'full' };
    const c = train();
    const before = c.rank(peer).logOdds;
    for (const a of answers) c.learnAnswer(a, 0);
    expect(before - c.rank(peer).logOdds).toBeGreaterThan(1);
    // What the learner re-scores after them: the links that share a word the answers moved.
    expect(c.answerMoves(0.0025).features).toContain('a:1st');
  });

  it('ignore: answers move nothing the model scores', () => {
    answerLearning.policy = { kind: 'ignore' };
    const c = train();
    const before = c.rank(peer).logOdds;
    for (const a of answers) c.learnAnswer(a, 0);
    expect(c.rank(peer).logOdds).toBe(before);
    expect(c.examples).toEqual({ pos: 16, neg: 28 + answers.length });
  });
});
