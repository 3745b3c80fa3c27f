import { describe, expect, it } from 'vitest';
import { LinkClassifier } from '../../lib/learning/link-classifier';
import { labelingQueue, type FrontierLink, type LinkScorer } from '../../lib/learning/uncertainty';

/**
 * A stand-in model whose scores and features are written in the anchor, "name score f1 f2 ...", so each
 * case below can be checked by hand.
 */
const handModel: LinkScorer = {
  score: (link) => Number(link.anchor.split(' ')[1]),
  features: (link) => link.anchor.split(' ').slice(2),
};
const link = (url: string, anchor: string, context = ''): FrontierLink => ({ url, anchor, context });
const urlsOf = (items: { link: FrontierLink }[]) => items.map((i) => i.link.url);

describe('labelingQueue', () => {
  it('orders by closeness of P(+|F) to 0.5 in buckets of 0.05', () => {
    const queue = labelingQueue(
      [
        link('/b', 'b 0.9 fb'), // |0.4| -> bucket 8
        link('/d', 'd 0.6 fd'), // |0.1| -> bucket 2 (an exact edge)
        link('/a', 'a 0.52 fa'), // bucket 0
        link('/c', 'c 0.44 fc'), // |0.06| -> bucket 1
        link('/e', 'e 0.01 fe'), // |0.49| -> bucket 9
      ],
      handModel,
    );
    expect(urlsOf(queue)).toEqual(['/a', '/c', '/d', '/b', '/e']);
    expect(queue.map((i) => i.bucket)).toEqual([0, 1, 2, 8, 9]);
    expect(queue[0]!.score).toBe(0.52);
  });

  it('within a bucket, puts first the link whose features many candidates share', () => {
    const queue = labelingQueue(
      [
        link('/rare', 'rare 0.51 x'), // alone with x: density 1
        link('/common', 'common 0.54 f1'), // f1 is shared with the three sure links: density 1 + 3 = 4
        link('/s1', 's1 0.97 f1'),
        link('/s2', 's2 0.98 f1'),
        link('/s3', 's3 0.99 f1'),
      ],
      handModel,
    );
    expect(urlsOf(queue).slice(0, 2)).toEqual(['/common', '/rare']);
    expect(queue[0]!.density).toBeCloseTo(4, 12);
    expect(queue[1]!.density).toBeCloseTo(1, 12);
  });

  it('measures likeness by cosine, so a long feature list alone does not win', () => {
    // /long shares nothing: density 1 (itself). /short shares its one feature with /other: 1 + 1 = 2.
    // A plain count of shared features would give /long 4 and /short 2.
    const queue = labelingQueue(
      [link('/long', 'long 0.5 p q r s'), link('/short', 'short 0.5 t'), link('/other', 'other 0.9 t')],
      handModel,
    );
    expect(urlsOf(queue).slice(0, 2)).toEqual(['/short', '/long']);
    expect(queue[1]!.density).toBeCloseTo(1, 12);
    // /other: cos with /short = 1 (same single feature), plus itself.
    expect(queue[2]!.density).toBeCloseTo(2, 12);
  });

  it('leaves out labeled URLs and collapses identical anchor and context into one item with a count', () => {
    const nav = (url: string) => link(url, 'nav 0.5 home', 'menu');
    const queue = labelingQueue(
      [nav('/home'), nav('/home'), nav('/index'), nav('/labeled'), link('/labeled', 'x 0.5 y'), link('/z', 'z 0.5 w')],
      handModel,
      { labeled: new Set(['/labeled']) },
    );
    expect(queue).toHaveLength(2);
    expect(queue[0]).toMatchObject({ count: 3, urls: ['/home', '/index'], link: { url: '/home' } });
    // Its three copies are three candidates alike: density 3; /z has 1.
    expect(queue[0]!.density).toBeCloseTo(3, 12);
    expect(queue[1]!.link.url).toBe('/z');
    // The same text with another context is another item.
    expect(labelingQueue([nav('/a'), link('/a', 'nav 0.5 home', 'footer')], handModel)).toHaveLength(2);
  });

  it('returns at most `limit` items, and breaks full ties by count, then URL', () => {
    const candidates = [link('/c', 'c 0.5 k'), link('/b', 'b 0.5 k'), link('/a', 'a 0.5 k')];
    expect(urlsOf(labelingQueue(candidates, handModel, { limit: 2 }))).toEqual(['/a', '/b']);
    expect(labelingQueue(candidates, handModel, { limit: 0 })).toEqual([]);
  });

  it('with a real classifier, asks first about the link it cannot place', () => {
    const c = new LinkClassifier(['stock']);
    for (let i = 0; i < 5; i++) {
      c.learn({ anchor: `Stock market report ${i}`, context: 'shares bonds' }, 1);
      c.learn({ anchor: `Football results ${i}`, context: 'league cup' }, 0);
    }
    const queue = labelingQueue(
      [
        { url: '/sure-on', anchor: 'Stock market today', context: 'shares bonds' },
        { url: '/sure-off', anchor: 'Football results today', context: 'league cup' },
        { url: '/unsure', anchor: 'Football club shares', context: 'stock league' },
        { url: '/unknown', anchor: 'Weather', context: 'forecast' },
      ],
      c,
    );
    expect(queue.map((i) => i.link.url).slice(0, 2)).toEqual(['/unknown', '/unsure']);
    expect(queue[0]!.score).toBeCloseTo(0.5, 12);
    expect(queue.at(-1)!.bucket).toBeGreaterThanOrEqual(8);
  });
});
