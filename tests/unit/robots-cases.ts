// What robots.txt must decide, as a table: the expectations of Google's robots.txt test suite (google/robotstxt,
// robots_test.cc), rewritten as cases of our own, plus probes of our own. Each case is asked as the crawl asks:
// `agent` names the crawler whose place we take (`asUs`: on user-agent lines its name, also inside a longer word such
// as FooBot-Images, becomes our token), and `url` is given as the request gate gives it (`asGateGives`).
//
// `from` says where a case comes from: 'rfc' for the suite's checks of RFC 9309 behaviour, 'google' for its
// checks of Google's own extensions (its GoogleOnly tests, and the missing-colon check), 'probe' for ours.
// `allowed` is what we assert. Where it is not what Google's suite expects, `disputed` (RFC 9309 says otherwise)
// or `differs` (a Google extension we do not follow) says why.
//
// Left out: the suite's checks with an empty URL or an empty user agent, and the one asked as "Foo Bar" (the crawl
// always asks with a full URL and a one-word token); its parser-statistics tests (line counting, byte order
// marks, sitemaps), whose behaviour the probes below check through decisions instead.

import { requestUrl } from '../../lib/records/url';
import { ROBOTS_AGENT } from '../../lib/net/robots';

export interface RobotsCase {
  from: 'rfc' | 'google' | 'probe';
  /** What the case checks, for the test's name. */
  about: string;
  robots: string;
  agent: string;
  url: string;
  allowed: boolean;
  disputed?: string;
  differs?: string;
}

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');

type Check = [url: string, allowed: boolean, agent?: string];

/** Cases for one robots.txt: `agent` unless a check names another. */
function group(from: RobotsCase['from'], about: string, robots: string, agent: string, checks: Check[]): RobotsCase[] {
  return checks.map(([url, allowed, other]) => ({ from, about, robots, agent: other ?? agent, url, allowed }));
}

const one = (c: RobotsCase): RobotsCase[] => [c];

const groups = lines(
  'allow: /foo/bar/', '', 'user-agent: FooBot', 'disallow: /', 'allow: /x/', 'user-agent: BarBot', 'disallow: /',
  'allow: /y/', '', '', 'allow: /w/', 'user-agent: BazBot', '', 'user-agent: FooBot', 'allow: /z/', 'disallow: /',
);

const repNames = (ua: string, allow: string, disallow: string) => lines(`${ua}: FooBot`, `${allow}: /x/`, `${disallow}: /`);
const agentValue = (value: string) => lines(`User-Agent: ${value}`, 'Allow: /x/', 'Disallow: /');
const longest = (...rules: string[]) => lines('user-agent: FooBot', ...rules);
const encoded = (allow: string) => lines('User-agent: FooBot', 'Disallow: /', `Allow: ${allow}`);
const docs = (allow: string) => lines('user-agent: FooBot', 'disallow: /', `allow: ${allow}`);

// Google cuts lines after 2083 * 8 bytes: a rule that long with "/qux" after it is cut before "/qux".
const MAX_LINE = 2083 * 8;
const padded = (fill: string, directive: string) => '/x/'.padEnd(MAX_LINE - directive.length + 1, fill);
const longDisallow = padded('a', 'disallow: ');
const longAllowA = padded('a', 'allow: ');
const longAllowB = padded('b', 'allow: ');
const LINE_CUT = 'Google stops reading a line after 16,664 bytes; RFC 9309 sets no line limit (only 500 KiB a file, 2.5), so the whole rule counts';

const RAW_URL = 'the URL as written has a raw ツ, but the crawl requests it percent-encoded (/foo/bar/%E3%83%84), which RFC 9309 2.2.2 says matches the rule';

export const ROBOTS_CASES: RobotsCase[] = [
  // RFC 9309 2.1: a line is a name, a colon and a value.
  ...group('rfc', 'lines are name: value', lines('user-agent: FooBot', 'disallow: /'), 'FooBot', [['http://foo.bar/x/y', false]]),
  ...group('rfc', 'unknown names are no rules', lines('foo: FooBot', 'bar: /'), 'FooBot', [['http://foo.bar/x/y', true]]),
  ...group('google', 'a missing colon is read as if it were there', lines('user-agent FooBot', 'disallow /'), 'FooBot', [['http://foo.bar/x/y', false]]),

  // RFC 9309 2.1: a group is its user-agent lines and the rules after them; rules before any group count for none.
  ...group('rfc', 'groups', groups, 'FooBot', [
    ['http://foo.bar/x/b', true], ['http://foo.bar/z/d', true], ['http://foo.bar/y/c', false],
    ['http://foo.bar/y/c', true, 'BarBot'], ['http://foo.bar/w/a', true, 'BarBot'], ['http://foo.bar/z/d', false, 'BarBot'],
    ['http://foo.bar/z/d', true, 'BazBot'],
    ['http://foo.bar/foo/bar/', false], ['http://foo.bar/foo/bar/', false, 'BarBot'], ['http://foo.bar/foo/bar/', false, 'BazBot'],
  ]),
  // RFC 9309 2.2.4: other records do not end a group.
  ...group('rfc', 'a sitemap line does not end a group', lines('User-agent: BarBot', 'Sitemap: https://foo.bar/sitemap', 'User-agent: *', 'Disallow: /'), 'FooBot', [
    ['http://foo.bar/', false], ['http://foo.bar/', false, 'BarBot'],
  ]),
  ...group('rfc', 'an unknown line does not end a group', lines('User-agent: FooBot', 'Invalid-Unknown-Line: unknown', 'User-agent: *', 'Disallow: /'), 'FooBot', [
    ['http://foo.bar/', false], ['http://foo.bar/', false, 'BarBot'],
  ]),

  // RFC 9309 2.1: names are case-insensitive.
  ...[repNames('USER-AGENT', 'ALLOW', 'DISALLOW'), repNames('user-agent', 'allow', 'disallow'), repNames('uSeR-aGeNt', 'AlLoW', 'dIsAlLoW')].flatMap((r) =>
    group('rfc', 'names are case-insensitive', r, 'FooBot', [['http://foo.bar/x/y', true], ['http://foo.bar/a/b', false]])),

  // RFC 9309 2.2.1: the product token is matched case-insensitively. The suite asks as "Foo" and as "foo" against
  // "FOO BAR": for us both are the same question, our token's first word on a line with a second word after it.
  ...['Foo', 'foo'].flatMap((agent) => [agentValue('FOO BAR'), agentValue('foo bar'), agentValue('FoO bAr')].flatMap((r) =>
    group('rfc', 'the product token is case-insensitive and read up to a space', r, agent, [['http://foo.bar/x/y', true], ['http://foo.bar/a/b', false]]))),
  ...group('google', 'a user-agent value is read up to its first space',
    lines('User-Agent: *', 'Disallow: /', 'User-Agent: Foo Bar', 'Allow: /x/', 'Disallow: /'), 'Foo', [['http://foo.bar/x/y', true]]),

  // RFC 9309 2.2.1: no matching group: the first "*" group; none either: no rules.
  ...group('rfc', 'no group at all', '', 'FooBot', [['http://foo.bar/x/y', true]]),
  ...group('rfc', 'our group before "*"', lines('user-agent: *', 'allow: /', 'user-agent: FooBot', 'disallow: /'), 'FooBot', [
    ['http://foo.bar/x/y', false], ['http://foo.bar/x/y', true, 'BarBot'],
  ]),
  ...group('rfc', 'no group for us and no "*"', lines('user-agent: FooBot', 'allow: /', 'user-agent: BarBot', 'disallow: /', 'user-agent: BazBot', 'disallow: /'), 'QuxBot', [
    ['http://foo.bar/x/y', true],
  ]),

  // RFC 9309 2.2.2: paths are case-sensitive.
  ...group('rfc', 'paths are case-sensitive', lines('user-agent: FooBot', 'disallow: /x/'), 'FooBot', [['http://foo.bar/x/y', false]]),
  ...group('rfc', 'paths are case-sensitive', lines('user-agent: FooBot', 'disallow: /X/'), 'FooBot', [['http://foo.bar/x/y', true]]),

  // RFC 9309 2.2.2: the longest match wins; allow wins a tie.
  ...group('rfc', 'longest match', longest('disallow: /x/page.html', 'allow: /x/'), 'FooBot', [['http://foo.bar/x/page.html', false]]),
  ...group('rfc', 'longest match', longest('allow: /x/page.html', 'disallow: /x/'), 'FooBot', [
    ['http://foo.bar/x/page.html', true], ['http://foo.bar/x/', false],
  ]),
  ...group('rfc', 'empty rules tie: allow', longest('disallow: ', 'allow: '), 'FooBot', [['http://foo.bar/x/page.html', true]]),
  ...group('rfc', 'equal rules: allow', longest('disallow: /', 'allow: /'), 'FooBot', [['http://foo.bar/x/page.html', true]]),
  ...group('rfc', 'longest match', longest('disallow: /x', 'allow: /x/'), 'FooBot', [['http://foo.bar/x', false], ['http://foo.bar/x/', true]]),
  ...group('rfc', 'equal rules: allow', longest('disallow: /x/page.html', 'allow: /x/page.html'), 'FooBot', [['http://foo.bar/x/page.html', true]]),
  ...group('rfc', 'longest match with a wildcard', longest('allow: /page', 'disallow: /*.html'), 'FooBot', [
    ['http://foo.bar/page.html', false], ['http://foo.bar/page', true],
  ]),
  ...group('rfc', 'longest match with a wildcard', longest('allow: /x/page.', 'disallow: /*.html'), 'FooBot', [
    ['http://foo.bar/x/page.html', true], ['http://foo.bar/x/y.html', false],
  ]),
  ...group('rfc', 'only our group counts, not "*" as well', lines('User-agent: *', 'Disallow: /x/', 'User-agent: FooBot', 'Disallow: /y/'), 'FooBot', [
    ['http://foo.bar/x/page', true], ['http://foo.bar/y/page', false],
  ]),

  // RFC 9309 2.2.2: rules and URLs are compared percent-encoded, unreserved characters decoded.
  ...group('rfc', 'reserved characters in a query stay as written', encoded('/foo/bar?qux=taz&baz=http://foo.bar?tar&par'), 'FooBot', [
    ['http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par', true],
  ]),
  ...group('rfc', 'a UTF-8 rule matches its percent-encoding', encoded('/foo/bar/ツ'), 'FooBot', [['http://foo.bar/foo/bar/%E3%83%84', true]]),
  ...one({ from: 'rfc', about: 'a UTF-8 rule matches the URL as requested', robots: encoded('/foo/bar/ツ'), agent: 'FooBot', url: 'http://foo.bar/foo/bar/ツ', allowed: true, disputed: RAW_URL }),
  ...group('rfc', 'an encoded rule matches its encoding', encoded('/foo/bar/%E3%83%84'), 'FooBot', [['http://foo.bar/foo/bar/%E3%83%84', true]]),
  ...one({ from: 'rfc', about: 'an encoded rule matches the URL as requested', robots: encoded('/foo/bar/%E3%83%84'), agent: 'FooBot', url: 'http://foo.bar/foo/bar/ツ', allowed: true, disputed: RAW_URL }),
  ...one({
    from: 'rfc', about: 'encoded unreserved characters match their decoded form', robots: encoded('/foo/bar/%62%61%7A'), agent: 'FooBot', url: 'http://foo.bar/foo/bar/baz', allowed: true,
    disputed: 'RFC 9309 2.2.2 (its table): /foo/bar/%62%61%7A is matched as /foo/bar/baz; Google compares the escapes as written',
  }),
  ...group('rfc', 'encoded unreserved characters match as written too', encoded('/foo/bar/%62%61%7A'), 'FooBot', [['http://foo.bar/foo/bar/%62%61%7A', true]]),

  // RFC 9309 2.2.3: "*" matches any characters, "$" ends the pattern, "#" starts a comment.
  ...group('rfc', 'wildcard', lines('User-agent: FooBot', 'Disallow: /foo/bar/quz', 'Allow: /foo/*/qux'), 'FooBot', [
    ['http://foo.bar/foo/bar/quz', false], ['http://foo.bar/foo/quz', true], ['http://foo.bar/foo//quz', true], ['http://foo.bar/foo/bax/quz', true],
  ]),
  ...group('rfc', 'end of pattern', lines('User-agent: FooBot', 'Disallow: /foo/bar$', 'Allow: /foo/bar/qux'), 'FooBot', [
    ['http://foo.bar/foo/bar', false], ['http://foo.bar/foo/bar/qux', true], ['http://foo.bar/foo/bar/', true], ['http://foo.bar/foo/bar/baz', true],
  ]),
  ...group('rfc', 'comments', lines('User-agent: FooBot', '# Disallow: /', 'Disallow: /foo/quz#qux', 'Allow: /'), 'FooBot', [
    ['http://foo.bar/foo/bar', true], ['http://foo.bar/foo/quz', false],
  ]),

  // Google's own extensions and examples.
  ...group('google', 'no robots.txt content: no rules', '', 'FooBot', [['http://foo.bar/', true]]),
  ...group('google', '"index.html" at the end of a rule', lines('User-Agent: *', 'Allow: /allowed-slash/index.html', 'Disallow: /'), 'foobot', [
    ['http://foo.com/allowed-slash/index.htm', false], ['http://foo.com/allowed-slash/index.html', true], ['http://foo.com/anyother-url', false],
  ]),
  ...one({
    from: 'google', about: '"index.html" at the end of a rule also means the directory', robots: lines('User-Agent: *', 'Allow: /allowed-slash/index.html', 'Disallow: /'),
    agent: 'foobot', url: 'http://foo.com/allowed-slash/', allowed: false, differs: 'Google reads "index.html" at the end of a rule as "/" too; RFC 9309 matches the rule as written',
  }),
  ...group('google', 'very long lines', lines('user-agent: FooBot', `disallow: ${longDisallow}/qux`), 'FooBot', [['http://foo.bar/fux', true]]),
  ...one({ from: 'google', about: 'very long lines', robots: lines('user-agent: FooBot', `disallow: ${longDisallow}/qux`), agent: 'FooBot', url: `http://foo.bar${longDisallow}/fux`, allowed: true, differs: LINE_CUT }),
  ...group('google', 'very long lines', lines('user-agent: FooBot', 'disallow: /', `allow: ${longAllowA}/qux`, `allow: ${longAllowB}/qux`), 'FooBot', [
    ['http://foo.bar/', false], [`http://foo.bar${longAllowA}/qux`, true],
  ]),
  ...one({
    from: 'google', about: 'very long lines', robots: lines('user-agent: FooBot', 'disallow: /', `allow: ${longAllowA}/qux`, `allow: ${longAllowB}/qux`),
    agent: 'FooBot', url: `http://foo.bar${longAllowB}/fux`, allowed: false, differs: LINE_CUT,
  }),
  ...group('google', 'documentation: /fish', docs('/fish'), 'FooBot', [
    ['http://foo.bar/bar', false], ['http://foo.bar/fish', true], ['http://foo.bar/fish.html', true], ['http://foo.bar/fish/salmon.html', true],
    ['http://foo.bar/fishheads', true], ['http://foo.bar/fishheads/yummy.html', true], ['http://foo.bar/fish.html?id=anything', true],
    ['http://foo.bar/Fish.asp', false], ['http://foo.bar/catfish', false], ['http://foo.bar/?id=fish', false],
  ]),
  ...group('google', 'documentation: /fish*', docs('/fish*'), 'FooBot', [
    ['http://foo.bar/bar', false], ['http://foo.bar/fish', true], ['http://foo.bar/fish.html', true], ['http://foo.bar/fish/salmon.html', true],
    ['http://foo.bar/fishheads', true], ['http://foo.bar/fishheads/yummy.html', true], ['http://foo.bar/fish.html?id=anything', true],
    ['http://foo.bar/Fish.bar', false], ['http://foo.bar/catfish', false], ['http://foo.bar/?id=fish', false],
  ]),
  ...group('google', 'documentation: /fish/', docs('/fish/'), 'FooBot', [
    ['http://foo.bar/bar', false], ['http://foo.bar/fish/', true], ['http://foo.bar/fish/salmon', true], ['http://foo.bar/fish/?salmon', true],
    ['http://foo.bar/fish/salmon.html', true], ['http://foo.bar/fish/?id=anything', true],
    ['http://foo.bar/fish', false], ['http://foo.bar/fish.html', false], ['http://foo.bar/Fish/Salmon.html', false],
  ]),
  ...group('google', 'documentation: /*.php', docs('/*.php'), 'FooBot', [
    ['http://foo.bar/bar', false], ['http://foo.bar/filename.php', true], ['http://foo.bar/folder/filename.php', true],
    ['http://foo.bar/folder/filename.php?parameters', true], ['http://foo.bar//folder/any.php.file.html', true], ['http://foo.bar/filename.php/', true],
    ['http://foo.bar/index?f=filename.php/', true], ['http://foo.bar/php/', false], ['http://foo.bar/index?php', false], ['http://foo.bar/windows.PHP', false],
  ]),
  ...group('google', 'documentation: /*.php$', docs('/*.php$'), 'FooBot', [
    ['http://foo.bar/bar', false], ['http://foo.bar/filename.php', true], ['http://foo.bar/folder/filename.php', true],
    ['http://foo.bar/filename.php?parameters', false], ['http://foo.bar/filename.php/', false], ['http://foo.bar/filename.php5', false],
    ['http://foo.bar/php/', false], ['http://foo.bar/filename?php', false], ['http://foo.bar/aaaphpaaa', false], ['http://foo.bar//windows.PHP', false],
  ]),
  ...group('google', 'documentation: /fish*.php', docs('/fish*.php'), 'FooBot', [
    ['http://foo.bar/bar', false], ['http://foo.bar/fish.php', true], ['http://foo.bar/fishheads/catfish.php?parameters', true], ['http://foo.bar/Fish.PHP', false],
  ]),
  ...group('google', 'documentation: precedence', lines('user-agent: FooBot', 'allow: /p', 'disallow: /'), 'FooBot', [['http://example.com/page', true]]),
  ...group('google', 'documentation: precedence', lines('user-agent: FooBot', 'allow: /folder', 'disallow: /folder'), 'FooBot', [['http://example.com/folder/page', true]]),
  ...group('google', 'documentation: precedence', lines('user-agent: FooBot', 'allow: /page', 'disallow: /*.htm'), 'FooBot', [['http://example.com/page.htm', false]]),
  ...group('google', 'documentation: precedence', lines('user-agent: FooBot', 'allow: /$', 'disallow: /'), 'FooBot', [
    ['http://example.com/', true], ['http://example.com/page.html', false],
  ]),

  // Our probes: what the crawl met, and what RFC 9309 says of it.
  ...group('probe', 'a sitemap line between user-agent lines keeps one group (2.2.4)',
    lines('User-agent: FooBot', 'Sitemap: https://foo.bar/sitemap.xml', 'User-agent: BarBot', 'Disallow: /'), 'FooBot', [['http://foo.bar/a', false]]),
  ...group('probe', 'a sitemap line inside a group keeps its rules (2.2.4)',
    lines('User-agent: FooBot', 'Disallow: /a', 'Sitemap: https://foo.bar/sitemap.xml', 'Disallow: /b'), 'FooBot', [['http://foo.bar/b', false]]),
  ...group('probe', 'an encoded rule stops the plain URL (2.2.2)', lines('User-agent: FooBot', 'Disallow: /foo/bar/%62%61%7A'), 'FooBot', [['http://foo.bar/foo/bar/baz', false]]),
  ...group('probe', 'an encoded reserved character is not a slash (2.2.2)', lines('User-agent: FooBot', 'Disallow: /a%2Fb'), 'FooBot', [
    ['http://foo.bar/a/b', true], ['http://foo.bar/a%2fb', false],
  ]),
  ...group('probe', 'a UTF-8 rule stops the URL as requested (2.2.2)', lines('User-agent: FooBot', 'Disallow: /café'), 'FooBot', [['http://foo.bar/café', false]]),
  ...group('probe', 'lowercase escapes in a rule (2.2.2)', lines('User-agent: FooBot', 'Disallow: /caf%c3%a9'), 'FooBot', [['http://foo.bar/café', false]]),
  ...group('probe', 'a space in a rule (2.2.2)', lines('User-agent: FooBot', 'Disallow: /a b'), 'FooBot', [['http://foo.bar/a%20b', false]]),
  ...group('probe', 'the query is matched as given, not re-sorted', lines('User-agent: FooBot', 'Disallow: /search?q=x&page='), 'FooBot', [
    ['http://foo.bar/search?q=x&page=2', false], ['http://foo.bar/search?page=2&q=x', true],
  ]),
  ...group('probe', 'a version and comment after the product token (2.2.1)', lines('User-agent: FooBot/1.0 (extra)', 'Disallow: /'), 'FooBot', [['http://foo.bar/', false]]),
  ...group('probe', 'a longer token is another crawler (2.2.1)', lines('User-agent: FooBot-Images', 'Disallow: /'), 'FooBot', [['http://foo.bar/', true]]),
  ...group('probe', 'an empty disallow in our group beats "*"', lines('User-agent: *', 'Disallow: /', 'User-agent: FooBot', 'Disallow:'), 'FooBot', [['http://foo.bar/', true]]),
  ...group('probe', 'a byte order mark', '\uFEFFUser-agent: FooBot\nDisallow: /\n', 'FooBot', [['http://foo.bar/', false]]),
  ...group('probe', 'old Mac line ends', 'User-agent: FooBot\rDisallow: /x\r', 'FooBot', [['http://foo.bar/x', false], ['http://foo.bar/y', true]]),
];

/** The case's robots.txt with our product token where it names `agent`, in the same letter case. */
export function asUs(c: RobotsCase): string {
  const name = new RegExp(`(?<![A-Za-z_-])${c.agent}`, 'gi');
  const token = (m: string) => (m === m.toUpperCase() ? ROBOTS_AGENT.toUpperCase() : m === m.toLowerCase() ? ROBOTS_AGENT.toLowerCase() : ROBOTS_AGENT);
  return c.robots.replace(/^(\s*user-agent\b)(.*)$/gim, (_, key: string, rest: string) => key + rest.replace(name, token));
}

/** A URL as the request gate passes it to robots: the crawl's own request form (url.ts `requestUrl`). */
export function asGateGives(url: string): string {
  const spelled = requestUrl(url);
  if (spelled === null) throw new Error(`${url} is no URL the crawl requests`);
  return spelled;
}
