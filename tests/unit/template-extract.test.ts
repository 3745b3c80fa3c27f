// Template crawling (design E.1, E.5): tolerant keyword patterns, and fields found near their keywords with the
// surrounding tags weighed and each value checked by its kind's validator.
import { describe, expect, it } from 'vitest';
import { extractFields, fieldKind, fieldSpecs, validate } from '../../lib/strategies/template/extract';
import { keywordMatcher } from '../../lib/strategies/template/keywords';

describe('tolerant keyword patterns', () => {
  it('find a keyword through case, width, dashes and spaces, and Chinese with spaces between characters', () => {
    const m = keywordMatcher(['contact us', 'e-mail', '联系我们']);
    for (const t of ['Contact-Us', 'CONTACT  us', 'contactus', 'Email', 'E mail', 'E-MAIL:', '联系 我们', 'Ｃｏｎｔａｃｔ Us']) expect(m.test(t), t).toBe(true);
    for (const t of ['contact the team about us', 'mailbox', 'contacts']) expect(m.test(t), t).toBe(false);
  });

  it('match Latin keywords as whole words only', () => {
    const tel = keywordMatcher(['tel']);
    expect(tel.test('Hotel Nebula')).toBe(false);
    expect(tel.test('Tel: 0161 496 0000')).toBe(true);
    expect(keywordMatcher(['邮箱']).test('电子邮箱：a@b.cn')).toBe(true);
  });
});

describe('field validators', () => {
  it('take the typed value out of a candidate, or refuse it', () => {
    expect(fieldKind('email')).toBe('email');
    expect(fieldKind('hotline')).toBe('phone');
    expect(fieldKind('postcode')).toBe('postcode');
    expect(fieldKind('homepage')).toBe('url');
    expect(fieldKind('address')).toBe('text');
    expect(validate('phone', 'Call me maybe')).toBeNull();
    expect(validate('phone', 'opened 2024-01-05')).toBeNull();
    expect(validate('phone', 'room 12')).toBeNull();
    expect(validate('phone', ' +44 20 7946 0958 (office)')).toBe('+44 20 7946 0958');
    expect(validate('email', 'write to info [at] orbit.test.')).toBe('info@orbit.test');
    expect(validate('email', 'no address here')).toBeNull();
    expect(validate('postcode', 'London SW1A 1AA, UK')).toBe('SW1A 1AA');
    expect(validate('postcode', '北京 100871')).toBe('100871');
    expect(validate('url', 'see www.lens.test/shop.')).toBe('www.lens.test/shop');
  });
});

describe('field extraction', () => {
  const specs = fieldSpecs({ email: ['e-mail', 'mail', '邮箱'], phone: ['phone', 'tel', 'hotline', '联系电话'], postcode: ['postcode', 'zip', '邮编'] });

  it('reads table cells, definition lists, labels and text after a colon', () => {
    expect(extractFields('<table><tr><th>Phone</th><td>+44 20 7946 0958</td></tr><tr><th>E-mail</th><td>shop@stars.test</td></tr><tr><th>Postcode</th><td>SW1A 1AA</td></tr></table>', specs))
      .toEqual({ email: 'shop@stars.test', phone: '+44 20 7946 0958', postcode: 'SW1A 1AA' });
    // Header row above a value row.
    expect(extractFields('<table><tr><th>Name</th><th>Tel</th></tr><tr><td>Orion Optics</td><td>0161 496 0000</td></tr></table>', specs))
      .toEqual({ phone: '0161 496 0000' });
    expect(extractFields('<dl><dt>Tel</dt><dd>(555) 010-2233</dd><dt>Mail</dt><dd>info [at] orbit.test</dd></dl>', specs))
      .toEqual({ email: 'info@orbit.test', phone: '(555) 010-2233' });
    expect(extractFields('<div><strong>联系电话：</strong>010-6275 1234</div><div>邮箱：contact@lens.test</div><div>邮编：100871</div>', specs))
      .toEqual({ email: 'contact@lens.test', phone: '010-6275 1234', postcode: '100871' });
  });

  it('prefers a labelled value to a number in running text, and finds mailto links', () => {
    const html = `<p>Call me maybe! Our hotline is open 9-5 and takes 1000000 calls.</p>
      <p>Write to us: <a href="mailto:hello@lens.test">our team</a>.</p><table><tr><td>Phone</td><td>0161 496 0000</td></tr></table>`;
    expect(extractFields(html, specs)).toEqual({ email: 'hello@lens.test', phone: '0161 496 0000' });
  });

  it('finds nothing rather than something wrong', () => {
    expect(extractFields('<p>Phone: call me maybe</p><p>Opened 2024-01-05. Mail us anytime!</p>', specs)).toEqual({});
  });
});
