import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS } from '../../lib/records/config';
import { parseConfig } from '../../lib/app/parse-config';
import { blockOfReason, describeBlock, makeSafetyGuard, type SafetyBlock } from '../../lib/policy/safety';
import { DEFAULT_SAFETY_RULES } from '../../lib/records/safety-rules';
import { normalizeUrl } from '../../lib/records/url';

const guard = makeSafetyGuard(DEFAULTS.safety);
/** The guard sees URLs as the crawler hands them over: normalized. */
const check = (url: string, anchor = '', rel: string[] = []) => guard.check(normalizeUrl(url) ?? url, { anchor, rel });

// [url, anchor, rule, match]: links real sites have that act as the user on a plain GET.
const blocked: [string, string, string, string][] = [
  ['https://news.ycombinator.com/vote?id=4211&how=up&auth=8d1f0a&goto=news', '', 'action verb', 'vote'],
  ['https://en.wikipedia.org/w/index.php?title=Solar_cell&action=rollback&from=Bob&token=abc%2B%5C', '', 'action verb', 'rollback'],
  ['https://a.test/account/deleteAccount', 'Account', 'action verb', 'delete account'],
  ['https://a.test/messages/deleteAllMessagesForThisUser', '', 'action verb', 'delete'],
  ['https://a.test/logoutUser', '', 'action verb', 'logout'],
  ['https://a.test/Account/LogOff', '', 'action verb', 'log off'],
  ['https://a.test/w/index.php?title=Special:UserLogout&returnto=Main_Page', '', 'action verb', 'logout'],
  ['https://a.test/wp-login.php?action=logout&_wpnonce=1a2b', '', 'action verb', 'logout'],
  ['https://a.test/account/logout', 'Account', 'action verb', 'logout'],
  ['https://a.test/x?action=delete&id=3', 'x', 'action verb', 'delete'],
  ['https://a.test/posts/91/like', '', 'action verb', 'like'],
  ['https://a.test/users/jo/follow', '', 'action verb', 'follow'],
  ['https://a.test/newsletter/subscribe?list=7', '', 'action verb', 'subscribe'],
  ['https://a.test/mail/unsubscribe?list=7&u=9', '', 'action verb', 'unsubscribe'],
  ['https://shop.test/cart', '', 'action verb', 'cart'],
  ['https://shop.test/cart/add?id=44', '', 'action verb', 'add'],
  ['https://shop.test/product/44?add-to-cart=44', '', 'action verb', 'add to cart'],
  ['https://shop.test/checkout', '', 'action verb', 'checkout'],
  ['https://a.test/email/confirm/Zx81kq', '', 'action verb', 'confirm'],
  ['https://a.test/team/invite/x7Kq2', '', 'action verb', 'invite'],
  ['https://a.test/comments/55/report', '', 'action verb', 'report'],
  ['https://a.test/users/jo/block', '', 'action verb', 'block'],
  ['https://a.test/notifications/mark_all_read', '', 'action verb', 'mark all read'],
  ['https://forum.test/forumdisplay.php?do=markread&f=3', '', 'action verb', 'markread'],
  ['https://a.test/trash/empty', '', 'action verb', 'empty'],
  ['https://a.test/users/password/reset', '', 'action verb', 'reset'],
  ['https://a.test/reset-password?email=jo%40a.test', '', 'action verb', 'reset password'],
  ['https://a.test/%6cogout?q=%E0%A4%A', '', 'action verb', 'logout'],
  ['https://a.test/vote/123', '', 'action verb', 'vote'],
  // A server script's extension, known or not, is the end of a route: Microsoft's `logout.srf`, Domino's `.nsf`.
  ['https://login.live.test/logout.srf', '', 'action verb', 'logout'],
  ['https://a.test/shop.nsf/cart.nsf', '', 'action verb', 'cart'],
  ['https://a.test/delete.xyz', '', 'action verb', 'delete'],
  ['https://a.test/api/v1/items', '', 'api path', 'api'],
  ['https://a.test/wp-admin/admin-ajax.php?p=2', '', 'api path', 'admin-ajax.php'],
  ['https://a.test/graphql?query=%7Bme%7D', '', 'api path', 'graphql'],
  ['https://a.test/rpc/items', '', 'api path', 'rpc'],
  ['https://a.test/item?id=3&csrf=9f', '', 'state query key', 'csrf'],
  ['https://a.test/item?id=3&authenticity_token=9f', '', 'state query key', 'authenticity_token'],
  ['https://a.test/item?id=3&sig=9f', '', 'state query key', 'sig'],
  ['https://a.test/item?id=3&nonce=9f', '', 'state query key', 'nonce'],
  ['https://a.test/item?id=3&auth=9f', '', 'state query key', 'auth'],
  ['https://a.test/item?id=3&token=9f', '', 'state query key', 'token'],
  ['https://a.test/doku.php?id=start&do=admin', '', 'state query key', 'do=admin'],
  ['https://a.test/item?cmd=frob', '', 'state query key', 'cmd=frob'],
  ['https://a.test/w/index.php?title=Solar_cell&action=protect', '', 'state query key', 'action=protect'],
  ['https://a.test/some/page', 'Log out', 'anchor text', 'log out'],
  ['https://a.test/session/end', 'Sign out', 'anchor text', 'sign out'],
  ['https://a.test/some/page', 'Delete', 'anchor text', 'delete'],
  ['https://a.test/some/page', 'Unsubscribe', 'anchor text', 'unsubscribe'],
  ['https://a.test/some/page', 'Like', 'anchor text', 'like'],
  ['https://a.test/some/page', 'Mark all as read', 'anchor text', 'mark all as read'],
  ['https://a.test/some/%zzpage', '', 'undecodable URL', '%zzpage'],
  ['https://a.test/wiki/Caf%E9', '', 'undecodable URL', 'Caf%E9'],
];

// Topic pages that name an action without being one.
const allowed: [string, string][] = [
  ['https://en.wikipedia.org/wiki/Delete_(SQL)', 'Delete (SQL)'],
  ['https://a.test/how-to-remove-rust-from-tools', 'How to remove rust'],
  ['https://a.test/wiki/Deletion_(genetics)', 'Deletion'],
  ['https://a.test/blog/removed-species', 'Removed species'],
  ['https://en.wikipedia.org/wiki/Flag_of_France', 'Flag of France'],
  ['https://en.wikipedia.org/wiki/Block_cipher', 'Block cipher'],
  ['https://en.wikipedia.org/wiki/Popular_vote', 'Popular vote'],
  ['https://www.ipcc.ch/report/ar6/wg1/', 'Annual report'],
  ['https://en.wikipedia.org/w/index.php?title=Solar_cell&action=history', 'View history'],
  ['https://en.wikipedia.org/w/index.php?title=Solar_cell&action=view', ''],
  ['https://developer.mozilla.org/en-US/docs/Web/API/fetch', 'fetch()'],
  ['https://nodejs.org/api/fs.html', 'File system'],
  ['https://en.wikipedia.org/wiki/API', 'API'],
  ['https://a.test/search?q=how+to+delete+files', 'Search'],
  ['https://a.test/list?sort=date&order=asc', 'Oldest first'],
  ['https://a.test/watch?v=dQw4w9WgXcQ', 'Solar roof install'],
  ['https://a.test/posts?author=7', 'More by Jo'],
  ['https://a.test/blog/archive', 'Archive'],
  ['https://a.test/wiki/Caf%C3%A9', 'Café'],
  ['https://a.test/wiki/100%25_cotton', '100% cotton'],
  ['https://a.test/social/like-a-rolling-stone-review-of-the-album', 'Like a Rolling Stone: a review'],
  ['https://a.test/ebook/remove-before-flight.pdf', 'Remove Before Flight (PDF)'],
  ['https://github.com/solar/inverter/blob/main/src/remove.ts', 'remove.ts'],
  ['https://a.test/files/delete-me.txt', 'delete-me.txt'],
  ['https://a.test/img/logout-icon.png', ''],
];

describe('the default safety rules', () => {
  it.each(blocked)('blocks %s (anchor %j) by %s %j', (url, anchor, rule, match) => {
    expect(check(url, anchor)).toEqual({ rule, match });
  });

  it.each(allowed)('lets %s (anchor %j) through', (url, anchor) => {
    expect(check(url, anchor)).toBeNull();
  });

  it('blocks a link the page marks nofollow, and only that one', () => {
    expect(check('https://a.test/page', 'Solar power', ['nofollow', 'ugc'])).toEqual({ rule: 'nofollow', match: 'nofollow' });
    expect(check('https://a.test/page', 'Solar power', ['noopener'])).toBeNull();
  });

  it('lets anchor text block only when short: a button, not a title', () => {
    expect(check('https://a.test/p/1', 'Remove rust')).toEqual({ rule: 'anchor text', match: 'remove' });
    expect(check('https://a.test/p/1', 'Delete this post now')).toEqual({ rule: 'anchor text', match: 'delete' });
    expect(check('https://a.test/p/1', 'Delete this post right now')).toBeNull();
    expect(check('https://a.test/p/1', 'How to remove rust')).toBeNull();
    // A weak verb is a button only on its own: "Report" is one, "Report on solar farms" an article.
    expect(check('https://a.test/p/1', 'Report')).toEqual({ rule: 'anchor text', match: 'report' });
    expect(check('https://a.test/p/1', 'Report on solar farms')).toBeNull();
    // A count in parentheses is part of a button, not a title.
    expect(check('https://a.test/p/1', 'Like (42)')).toEqual({ rule: 'anchor text', match: 'like' });
  });

  it('refuses a URL it cannot decode even when every other rule is off', () => {
    const onlyDecoding = makeSafetyGuard({ avoid: [], disabledRules: DEFAULT_SAFETY_RULES.filter((r) => r !== 'undecodable URL') });
    expect(onlyDecoding.check('https://a.test/%6cogout?q=%E0%A4%A')).toEqual({ rule: 'undecodable URL', match: '%E0%A4%A' });
    expect(onlyDecoding.check('https://a.test/logout')).toBeNull();
  });

  it('says why in a reason that starts with "unsafe link" and can be read back', () => {
    const b: SafetyBlock = { rule: 'action verb', match: 'logout' };
    expect(describeBlock(b)).toBe('unsafe link (action verb "logout"): never requested, it could change or end your session');
    for (const [url, anchor] of blocked) {
      const block = check(url, anchor)!;
      expect(describeBlock(block)).toMatch(/^unsafe link \(/);
      expect(blockOfReason(describeBlock(block))).toEqual(block);
    }
    expect(blockOfReason('unsafe link ("logout"): never requested, it could change or end your session')).toEqual({ rule: 'word list', match: 'logout' });
    expect(blockOfReason('disallowed by robots.txt')).toBeNull();
  });
});

describe('the user\'s safety settings', () => {
  it('adds the user\'s words to the defaults, on word boundaries in the URL and in short anchors', () => {
    const g = makeSafetyGuard(parseConfig({ seeds: ['https://a.test/'], topic: { keywords: ['k'] }, safety: { avoid: ['Rota', 'swap shift'] } }).safety);
    expect(g.check('https://a.test/staff/rota?week=3')).toEqual({ rule: 'your list', match: 'rota' });
    expect(g.check('https://a.test/p/1', { anchor: 'Swap shift' })).toEqual({ rule: 'your list', match: 'swap shift' });
    expect(g.check('https://a.test/p/1', { anchor: 'When to swap shift with a colleague' })).toBeNull();
    expect(g.check('https://a.test/rotation')).toBeNull();
    expect(g.check('https://a.test/logout')).toEqual({ rule: 'action verb', match: 'logout' });
  });

  it('does not weaken the defaults when an imported config says "avoid": []', () => {
    const config = parseConfig({ seeds: ['https://a.test/'], topic: { keywords: ['k'] }, safety: { avoid: [] } });
    expect(config.safety).toEqual({ avoid: [], disabledRules: [] });
    const g = makeSafetyGuard(config.safety);
    expect(g.check('https://news.ycombinator.com/vote?id=1&how=up&auth=x')).not.toBeNull();
    expect(g.check('https://a.test/account/deleteAccount')).not.toBeNull();
  });

  it('turns one default rule off by name and keeps the others', () => {
    const config = parseConfig({ seeds: ['https://a.test/'], topic: { keywords: ['k'] }, safety: { disabledRules: ['nofollow'] } });
    const g = makeSafetyGuard(config.safety);
    expect(g.check('https://en.wikipedia.org/wiki/Solar_cell', { anchor: 'Solar cell', rel: ['nofollow'] })).toBeNull();
    expect(g.check('https://a.test/logout', { rel: ['nofollow'] })).toEqual({ rule: 'action verb', match: 'logout' });
  });

  it('refuses an unknown rule name in one sentence that names it', () => {
    const bad = () => parseConfig({ seeds: ['https://a.test/'], topic: { keywords: ['k'] }, safety: { disabledRules: ['nofolow'] } });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/safety\.disabledRules: "nofolow" is not a safety rule/);
  });

  it('still reads a config saved with the first guard\'s word list, as extra words', () => {
    const firstList = [
      'logout', 'log-out', 'log_out', 'signout', 'sign-out', 'sign_out', 'logoff', 'log off', 'log out', 'sign out',
      'delete', 'remove', 'unsubscribe', 'deactivate', 'destroy', 'revoke', 'cancel-subscription', 'disconnect',
    ];
    const config = parseConfig({ seeds: ['https://a.test/'], topic: { keywords: ['k'] }, safety: { avoid: firstList } });
    expect(config.safety).toEqual({ avoid: firstList, disabledRules: [] });
    expect(makeSafetyGuard(config.safety).check('https://a.test/session/destroy')).not.toBeNull();
  });

  it('guards a crawl stored before rules had names (no disabledRules) with every default rule', () => {
    const g = makeSafetyGuard({ avoid: ['delete'] } as never);
    expect(g.check('https://a.test/posts/91/like')).toEqual({ rule: 'action verb', match: 'like' });
  });
});
