import { afterEach, describe, expect, it } from 'vitest';
import { NaiveBayes } from '../../lib/classifier/naive-bayes';
import { LinkClassifier } from '../../lib/classifier/link-classifier';
import { answerLearning, type AnswerPolicy } from '../../lib/classifier/answer-evidence';

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
    for (const policy of [{ kind: 'full' }, { kind: 'surprise' }, { kind: 'one-class', w: 0.25 }] as AnswerPolicy[]) {
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
