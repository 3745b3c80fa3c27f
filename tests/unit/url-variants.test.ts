// What a host's URLs spell that does not change its pages (lib/learning/url-variants.ts, variant-learner.ts): a rule
// is learned from pairs of pages one rule apart that came out the same content, on two values at least; a parameter
// that changes content (a page number, an item id) is never learned away, whatever order the pages come in.
import { describe, expect, it } from 'vitest';
import { contentSketch, type ContentSketch } from '../../lib/parse/content-sketch';
import { sameContent } from '../../lib/learning/content-index';
import { candidates, isLearned, learnedRules, pagingParams, reduce } from '../../lib/learning/url-variants';
import { VariantLearner } from '../../lib/learning/variant-learner';

const H = 'http://s.test';
/** A page of content `id`: its own words (and heading), enough to be compared. */
const content = (id: string): ContentSketch => contentSketch([`Listing ${id}`, `${Array.from({ length: 40 }, (_, i) => `${id}w${i}`).join(' ')}`], `Page ${id}`);
const learner = () => new VariantLearner(undefined, (a, b) => sameContent(a, b));

describe('candidates and reduce', () => {
  it('names every way a URL is one rule from another', () => {
    const rules = candidates(`${H}/c/scopes/?sort=price&view=grid`).map((c) => `${c.rule} ${c.reduced}`);
    expect(rules).toEqual([
      `?sort ${H}/c/scopes/?view=grid`, `?sort=price ${H}/c/scopes/?view=grid`,
      `?view ${H}/c/scopes/?sort=price`, `?view=grid ${H}/c/scopes/?sort=price`, `/ ${H}/c/scopes?sort=price&view=grid`,
    ]);
    expect(candidates(`${H}/Products/Orion-XT8/print`).map((c) => c.rule)).toEqual(['/print', 'Aa']);
    expect(candidates(`${H}/blog/post/index.html`).map((c) => `${c.rule} ${c.reduced}`)).toEqual([`index ${H}/blog/post/`]);
    // A segment with digits is a name, not a suffix.
    expect(candidates(`${H}/p/123`).map((c) => c.rule)).toEqual([]);
  });

  it('applies the learned rules, and says which changed the URL', () => {
    const learned = new Set(['?sort', '?variant=default', '/print', '/', 'Aa']);
    expect(reduce(`${H}/Products/X/print/?id=3&sort=name&variant=default`, learned)).toEqual({ key: `${H}/products/x?id=3`, applied: ['Aa', '/', '/print', '?sort', '?variant=default'] });
    expect(reduce(`${H}/products/x?variant=red`, learned)).toEqual({ key: `${H}/products/x?variant=red`, applied: [] });
  });

  it('finds the parameters a pager varies', () => {
    expect(pagingParams(`${H}/c/x/?sort=price`, [`${H}/c/x/?sort=price&page=2`, `${H}/c/x/?page=3&sort=price`, 'http://other.test/?p=2'])).toEqual(['page']);
  });
});

describe('learning a host\'s variants', () => {
  it('learns `sort` and `view` from listings that came out the same, and then knows a URL for a page held', () => {
    const l = learner();
    for (const c of ['a', 'b', 'c']) l.observe(`${H}/c/${c}/`, content(c));
    expect(l.observe(`${H}/c/a/?sort=price`, content('a'))?.rules['?sort']).toMatchObject({ same: 1, changed: 0 });
    expect(l.sameAs(`${H}/c/c/?sort=newest`)).toBeNull(); // one pair: not learned yet
    l.observe(`${H}/c/b/?sort=name`, content('b'));
    l.observe(`${H}/c/a/?view=grid`, content('a'));
    l.observe(`${H}/c/b/?view=list`, content('b'));
    expect(learnedRules(l.host('s.test'))).toEqual(new Set(['?sort', '?view']));
    expect(l.sameAs(`${H}/c/c/?sort=newest&view=grid`)).toEqual({ url: `${H}/c/c/`, host: 's.test', rules: ['?sort', '?view'] });
    // A listing never held is requested: the rules say which URLs are one, not that a page exists.
    expect(l.sameAs(`${H}/c/d/?sort=price`)).toBeNull();
  });

  it('never learns a page number away: second pages differ, whatever the first pages said', () => {
    const l = learner();
    for (const c of ['a', 'b', 'c', 'd']) {
      l.observe(`${H}/c/${c}/`, content(c));
      l.observe(`${H}/c/${c}/?page=1`, content(c)); // the first page under its number: the same
    }
    // Learned for `page=1` alone (that value is the first page), never for `page` whatever its value.
    expect(l.sameAs(`${H}/c/a/?page=2`)).toBeNull();
    l.observe(`${H}/c/a/?page=2`, content('a2'));
    l.observe(`${H}/c/b/?page=2`, content('b2'));
    expect(isLearned('?page', l.host('s.test')!.rules['?page'])).toBe(false);
    expect(l.sameAs(`${H}/c/c/?page=2`)).toBeNull();
    expect(l.sameAs(`${H}/c/c/?page=1`)).toEqual({ url: `${H}/c/c/`, host: 's.test', rules: ['?page=1'] });
    // A pager's parameter is never learned, even when every pair so far came out the same.
    const p = learner();
    p.observe(`${H}/c/a/`, content('a'), [`${H}/c/a/?pg=2`]);
    for (const c of ['b', 'c']) p.observe(`${H}/c/${c}/`, content(c));
    for (const c of ['a', 'b', 'c']) p.observe(`${H}/c/${c}/?pg=0${c}`, content(c));
    expect(p.host('s.test')!.rules['?pg']).toMatchObject({ same: 3, changed: 0 });
    expect(p.host('s.test')!.rules['?pg']).toMatchObject({ paging: true });
    expect(isLearned('?pg', p.host('s.test')!.rules['?pg'])).toBe(false);
  });

  it('never learns an item id away, even when some ids show the same "not available" page', () => {
    const l = learner();
    const soft404 = content('gone');
    for (let i = 1; i <= 12; i++) l.observe(`${H}/item?id=${i}`, i % 3 === 0 ? soft404 : content(`item${i}`));
    expect(l.host('s.test')!.rules['?id']!.changed).toBeGreaterThan(l.host('s.test')!.rules['?id']!.same);
    expect(learnedRules(l.host('s.test'))).toEqual(new Set());
    for (let i = 13; i <= 20; i++) expect(l.sameAs(`${H}/item?id=${i}`)).toBeNull();
  });

  it('learns a suffix, a trailing slash and letter case only while none of their pairs changed', () => {
    const l = learner();
    for (const c of ['x', 'y', 'z']) {
      l.observe(`${H}/p/${c}`, content(c));
      l.observe(`${H}/p/${c}/print`, content(c));
    }
    l.observe(`${H}/p/w`, content('w'));
    expect(l.sameAs(`${H}/p/w/print`)).toEqual({ url: `${H}/p/w`, host: 's.test', rules: ['/print'] });
    l.observe(`${H}/p/x/reviews`, content('xr'));
    l.observe(`${H}/p/y/reviews`, content('yr'));
    expect(l.sameAs(`${H}/p/w/reviews`)).toBeNull();
    // One pair that changed unlearns it.
    l.observe(`${H}/p/v`, content('v'));
    l.observe(`${H}/p/v/print`, content('v-print-differs'));
    expect(l.sameAs(`${H}/p/w/print`)).toBeNull();
  });

  it('counts a canonical link that names the other spelling as a same-content pair, without fetching it', () => {
    const l = learner();
    l.declare(`${H}/p/a?ref=home`, `${H}/p/a`);
    l.declare(`${H}/p/b?ref=nav`, `${H}/p/b`);
    expect(l.host('s.test')!.rules['?ref']).toMatchObject({ same: 2, changed: 0, values: ['home', 'nav'] });
  });

  it('picks up where it was: the book from the crawl row, the pages remembered without counting them again', () => {
    const first = learner();
    for (const c of ['a', 'b']) {
      first.observe(`${H}/c/${c}/`, content(c));
      first.observe(`${H}/c/${c}/?sort=${c === 'a' ? 'name' : 'price'}`, content(c));
    }
    const book = { 's.test': first.host('s.test')! };
    const again = new VariantLearner(book, (a, b) => sameContent(a, b));
    for (const c of ['a', 'b']) {
      again.restore(`${H}/c/${c}/`, content(c));
      again.restore(`${H}/c/${c}/?sort=${c === 'a' ? 'name' : 'price'}`, content(c));
    }
    again.restore(`${H}/c/q/`, content('q'));
    expect(again.host('s.test')!.rules['?sort']!.same).toBe(2);
    expect(again.sameAs(`${H}/c/q/?sort=newest`)).toMatchObject({ url: `${H}/c/q/` });
    // Restoring counted nothing: the same pairs observed again would count twice.
    expect(again.host('s.test')!.rules['?sort']!.same).toBe(2);
  });
});
