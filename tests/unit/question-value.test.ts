// The labeling queue's questions ranked by their effect on the crawl (lib/learning/question-value.ts), on a
// small hand-made frontier where the right question is known.
import { describe, expect, it } from 'vitest';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { rankQuestions, type LinkQuestionCandidate } from '../../lib/learning/question-value';

const scorer = new LinkClassifier(['history']);
const link = (url: string, anchor: string, score: number, rank: number): LinkQuestionCandidate => ({ url, anchor, context: '', score, rank });
const urlOf = (q: ReturnType<typeof rankQuestions>[number]) => (q.kind === 'link' ? q.link.url : q.page.url);

describe('rankQuestions', () => {
  it('asks about the link about to be fetched that is likeliest off topic, not the one the model is least sure of', () => {
    // "Bread" is next to fetch and the model gives it 0.3: "off topic" saves that fetch. "Cheese", 0.5, is far
    // down the queue behind links of 0.6: an answer either way leaves what is fetched next as it is.
    const links = [
      link('http://h.test/bread', 'Bread', 0.3, 0),
      link('http://h.test/a', 'Alfred', 0.6, 1),
      link('http://h.test/b', 'Boudica', 0.6, 2),
      link('http://h.test/cheese', 'Cheese', 0.5, 3),
    ];
    const q = rankQuestions(links, [], scorer, { horizon: 3, reachWeight: 0 });
    expect(urlOf(q[0]!)).toBe('http://h.test/bread');
    expect(urlOf(q.at(-1)!)).toBe('http://h.test/cheese');
  });

  it('asks about a name many queued links share before a name one link has', () => {
    const tudors = Array.from({ length: 12 }, (_, i) => link(`http://h.test/tudor-${i}`, `Tudor ${['Henry', 'Mary', 'Edward'][i % 3]} ${i}`, 0.5, 10 + i));
    const links = [link('http://h.test/lone', 'Caratacus', 0.5, 5), ...tudors];
    const q = rankQuestions(links, [], scorer, { horizon: 3 });
    expect(urlOf(q[0]!)).toMatch(/tudor/);
    expect(q[0]!.reach).toBe(11);
    expect(q.findIndex((x) => urlOf(x) === 'http://h.test/lone')).toBe(q.length - 1);
  });

  it('asks about a hub page whose answer settles its queued links, and says it is a page question', () => {
    const links = [link('http://h.test/x', 'Xerxes', 0.5, 0)];
    const pages = [
      { url: 'http://h.test/hub', relevance: 0.5, children: 80 },
      { url: 'http://h.test/sure', relevance: 0.99, children: 80 },
      { url: 'http://h.test/leaf', relevance: 0.5, children: 1 },
    ];
    const q = rankQuestions(links, pages, scorer, { horizon: 10 });
    expect(q[0]).toMatchObject({ kind: 'page', page: { url: 'http://h.test/hub' } });
    // A page the judge is sure of settles little: the next fetch, even odds, is asked first.
    expect(q.map(urlOf)).toEqual(['http://h.test/hub', 'http://h.test/x', 'http://h.test/sure', 'http://h.test/leaf']);
  });

  it('never asks again about a URL already answered', () => {
    const links = [link('http://h.test/a', 'A', 0.2, 0), link('http://h.test/b', 'B', 0.5, 0)];
    const q = rankQuestions(links, [{ url: 'http://h.test/a', relevance: 0.5, children: 9 }], scorer, { answered: new Set(['http://h.test/a']) });
    expect(q.map(urlOf)).toEqual(['http://h.test/b']);
  });
});
