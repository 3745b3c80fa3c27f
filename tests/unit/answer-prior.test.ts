// No case gets worse than with no answers: the labeling queue asks about the links it expects off topic,
// so its answers are no sample of how common the topic is. Under the `wordsOnly` answer policy (the labels
// benchmark's `/words`) they leave the class totals, and so every link they share no word with, alone.
import { afterEach, describe, expect, it } from 'vitest';
import { answerLearning } from '../../lib/learning/answer-evidence';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { learnLabel } from '../../lib/learning/link-model';
import type { LabeledLink } from '../../lib/records/types';

const labeled = (anchor: string, context: string, label: 0 | 1, source: LabeledLink['source']): LabeledLink => ({
  topicId: 1, crawlId: source === 'user' ? null : 1, url: `https://people.test/${encodeURIComponent(anchor)}`, anchor, context, label, source, createdAt: 0,
});

const shipped = answerLearning.policy;
afterEach(() => {
  answerLearning.policy = shipped;
});

describe("the user's answers and the class totals", () => {
  it('full (what ships) moves every link through the class totals', () => {
    answerLearning.policy = { kind: 'full' };
    const c = new LinkClassifier(['people']);
    for (let i = 0; i < 30; i++) learnLabel(c, labeled(`Battle ${i}`, 'war army fought', 0, 'verdict'));
    learnLabel(c, labeled('Robert Peel', 'prime minister', 1, 'verdict'));
    const queued = { anchor: 'Henry Addington', context: 'prime minister born' };
    const before = c.rank(queued).logOdds;
    for (let i = 0; i < 20; i++) learnLabel(c, labeled(`Office ${i}`, `cabinet department ${i}`, 0, 'user'));
    expect(c.rank(queued).logOdds).not.toBe(before);
    expect(c.answerMoves(0.0025).drift).toBeGreaterThan(0.01);
  });

  it('wordsOnly: 20 "off topic" answers leave the links that share none of their words where they were', () => {
    answerLearning.policy = { kind: 'full', wordsOnly: true };
    const c = new LinkClassifier(['people']);
    // A People crawl's own verdicts: prime ministers on topic, offices and battles off.
    for (const n of ['Robert Peel', 'William Pitt', 'Spencer Perceval', 'George Canning', 'Earl Grey', 'Benjamin Disraeli']) {
      learnLabel(c, labeled(n, 'preceded by succeeded by prime minister', 1, 'verdict'));
    }
    for (let i = 0; i < 30; i++) learnLabel(c, labeled(`Battle ${i}`, 'war army fought', 0, 'verdict'));
    const queued = [
      { anchor: 'Henry Addington', context: 'prime minister born' },
      { anchor: 'Lord North', context: 'statesman' },
      { anchor: 'Treaty of Paris', context: 'war army' },
    ];
    const before = queued.map((l) => c.rank(l).logOdds);
    const office = { anchor: 'Office of Works', context: 'cabinet department' };
    const officeBefore = c.rank(office).logOdds;
    // The queue's 20 answers: links about to be fetched that the model thought likeliest off topic, and were.
    for (let i = 0; i < 20; i++) learnLabel(c, labeled(`Office ${i}`, `cabinet department ${i}`, 0, 'user'));
    expect(queued.map((l) => c.rank(l).logOdds)).toEqual(before);
    // So they do not make a crawl re-score its whole frontier: nothing they did not reach has moved.
    expect(c.answerMoves(0.0025).drift).toBe(0);
    // Their words are learned: a link that shares one is moved, and the dashboard counts them as labels.
    expect(c.rank(office).logOdds).toBeLessThan(officeBefore - 1);
    expect(c.examples).toEqual({ pos: 6, neg: 50 });
  });
});
