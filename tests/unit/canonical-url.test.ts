// One page, one URL: every spelling of a page that the crawler would otherwise request again collapses to
// the canonical form, and nothing that could name another page does.
import { describe, expect, it } from 'vitest';
import { seedCandidates } from '../../lib/learning/children';
import { parseConfig } from '../../lib/app/parse-config';
import { normalizeUrl } from '../../lib/records/url';

const BASE = 'http://club.test/';

// [what a page links to, canonical form]; relative links resolve against BASE.
const CASES: [string, string][] = [
  // the three spellings of one page
  ['/notes?topic=orbit&year=2024&utm_source=x', 'http://club.test/notes?topic=orbit&year=2024'],
  ['/notes?year=2024&topic=orbit#top', 'http://club.test/notes?topic=orbit&year=2024'],
  ['http://CLUB.test:80/notes?topic=orbit&year=2024&fbclid=y', 'http://club.test/notes?topic=orbit&year=2024'],
  // scheme, host, ports, credentials
  ['HTTPS://Club.TEST:443/a', 'https://club.test/a'],
  ['https://club.test:80/a', 'https://club.test:80/a'],
  ['http://club.test:8080/a', 'http://club.test:8080/a'],
  ['http://user:secret@club.test/a', 'http://club.test/a'],
  ['http://club.test', 'http://club.test/'],
  // IDN and IP literals
  ['http://Bücher.example/Straße', 'http://xn--bcher-kva.example/Stra%C3%9Fe'],
  ['http://xn--bcher-kva.example/', 'http://xn--bcher-kva.example/'],
  ['http://0x7f.1/', 'http://127.0.0.1/'],
  ['http://2130706433/', 'http://127.0.0.1/'],
  ['http://[0:0:0:0:0:0:0:1]:80/', 'http://[::1]/'],
  // path: dot segments, case and trailing slashes kept
  ['/a/./b/../c', 'http://club.test/a/c'],
  ['/Notes/', 'http://club.test/Notes/'],
  ['/notes/index.html', 'http://club.test/notes/index.html'],
  // percent-encoding: unreserved decoded, the rest uppercased, reserved never decoded
  ['/%7Euser/%41%62%2d%5F%2E1', 'http://club.test/~user/Ab-_.1'],
  ['/%7euser', 'http://club.test/~user'],
  ['/a%2fb%3fc', 'http://club.test/a%2Fb%3Fc'],
  ['/caf%c3%a9', 'http://club.test/caf%C3%A9'],
  ['/café', 'http://club.test/caf%C3%A9'],
  ['/a b', 'http://club.test/a%20b'],
  ['/100%', 'http://club.test/100%'],
  ['/%zz', 'http://club.test/%zz'],
  ['/s?q=a%26b&eq=%3d&t=%7e', 'http://club.test/s?eq=%3D&q=a%26b&t=~'],
  ['/s?q=a+b', 'http://club.test/s?q=a+b'],
  ['/s?q=a%20b', 'http://club.test/s?q=a%20b'],
  ['/s?path=/x/y', 'http://club.test/s?path=/x/y'],
  ['/s?%61=1&b=2', 'http://club.test/s?a=1&b=2'],
  // repeated keys keep their order; sorting is by name only
  ['/s?tag=b&page=2&tag=a', 'http://club.test/s?page=2&tag=b&tag=a'],
  ['/s?b=1&a=2&a=1', 'http://club.test/s?a=2&a=1&b=1'],
  ['/s?flag&a=1', 'http://club.test/s?a=1&flag'],
  // empty query and empty parameters
  ['/a?', 'http://club.test/a'],
  ['/a?&&', 'http://club.test/a'],
  ['/a?x=1&&y=2&', 'http://club.test/a?x=1&y=2'],
  ['/a?x=', 'http://club.test/a?x='],
  // fragments
  ['/a#section-2', 'http://club.test/a'],
  ['/a?b=1#x?y=2', 'http://club.test/a?b=1'],
  ['#top', 'http://club.test/'],
  // tracking parameters, any case
  ['/a?utm_medium=mail&UTM_Campaign=spring&id=4', 'http://club.test/a?id=4'],
  ['/a?gclid=1&dclid=2&msclkid=3&mc_cid=4&mc_eid=5&_ga=6&yclid=7&igshid=8&ref_src=9', 'http://club.test/a'],
  ['/a?ref=home&source=feed', 'http://club.test/a?ref=home&source=feed'],
  // session ids: path parameters and the unambiguous query keys; `sid` can name content, so it stays
  ['/cart;jsessionid=0A1B2C?item=4', 'http://club.test/cart?item=4'],
  ['/cart;JSESSIONID=0A1B2C/list', 'http://club.test/cart/list'],
  ['/a;v=2', 'http://club.test/a;v=2'],
  ['/forum?t=7&PHPSESSID=9f8e', 'http://club.test/forum?t=7'],
  ['/forum?sessionid=1&jsessionid=2&t=7', 'http://club.test/forum?t=7'],
  ['/article.pl?sid=06/01/01/1234', 'http://club.test/article.pl?sid=06/01/01/1234'],
];

describe('normalizeUrl: the canonical URL', () => {
  it.each(CASES)('%s -> %s', (input, canonical) => {
    expect(normalizeUrl(input, BASE)).toBe(canonical);
  });

  it('is a fixed point: the canonical form of a canonical URL is itself', () => {
    for (const [, canonical] of CASES) expect(normalizeUrl(canonical)).toBe(canonical);
  });

  it('collapses the three spellings of one page to one request', () => {
    const spellings = [
      '/notes?topic=orbit&year=2024&utm_source=x',
      '/notes?year=2024&topic=orbit#top',
      'http://CLUB.test:80/notes?topic=orbit&year=2024&fbclid=y',
    ];
    expect(new Set(spellings.map((s) => normalizeUrl(s, BASE))).size).toBe(1);
  });

  it('keeps the query order as written with sortQuery: false, still dropping tracking and session keys', () => {
    const keep = { sortQuery: false };
    expect(normalizeUrl('/notes?year=2024&topic=orbit&utm_source=x', BASE, keep)).toBe('http://club.test/notes?year=2024&topic=orbit');
    expect(normalizeUrl('/s?b=1&PHPSESSID=x&a=2#f', BASE, keep)).toBe('http://club.test/s?b=1&a=2');
    expect(normalizeUrl('/s?q=%7e&r=%2f', BASE, keep)).toBe('http://club.test/s?q=~&r=%2F');
  });

  it.each(['mailto:x@y.z', 'javascript:void(0)', 'ftp://club.test/a', 'data:text/html,hi', 'not a url', '/relative', ''])(
    'is null for %j, which is not an absolute http(s) URL',
    (input) => expect(normalizeUrl(input)).toBeNull(),
  );
});

describe('canonical.sortQuery in a crawl config', () => {
  const topic = { keywords: ['orbit'] };
  it('defaults to sorting, and a config can turn it off for a site that reads its query in order', () => {
    const seed = 'http://club.test/s?year=2024&topic=orbit&utm_source=x';
    expect(seedCandidates(parseConfig({ seeds: [seed], topic }))[0]?.url).toBe('http://club.test/s?topic=orbit&year=2024');
    const inOrder = parseConfig({ seeds: [seed], topic, canonical: { sortQuery: false } });
    expect(seedCandidates(inOrder)[0]?.url).toBe('http://club.test/s?year=2024&topic=orbit');
    expect(() => parseConfig({ seeds: [seed], topic, canonical: { sortQuery: 'no' } })).toThrow(/canonical.sortQuery/);
  });
});
