// The session-safety guard's signs besides its word lists (lib/policy/safety-signals.ts, safety-url.ts), one row a
// sign, in both directions: what acts is kept from requesting with the rule that saw it, what reads goes through.
import { describe, expect, it } from 'vitest';
import { makeSafetyGuard } from '../../lib/policy/safety';
import { LEXICON } from '../../lib/policy/safety-lexicon';
import { CONFIRM_ATTRIBUTES, METHOD_ATTRIBUTES, SCRIPTED_ATTRIBUTES, WRITING_ATTRIBUTES } from '../../lib/policy/safety-signals';
import { fold, wordsOf } from '../../lib/policy/safety-words';
import { DEFAULTS } from '../../lib/records/config';
import { LINK_MARKUP_ATTRIBUTES, type LinkMarkup } from '../../lib/records/types';
import { normalizeUrl } from '../../lib/records/url';

const guard = makeSafetyGuard(DEFAULTS.safety);
const check = (url: string, anchor = '', markup?: LinkMarkup) => guard.check(normalizeUrl(url) ?? url, { anchor, ...(markup ? { markup } : {}) });
const A = 'https://app.test';

// [what it shows, url, link text, markup, rule, match]
const acts: [string, string, string, LinkMarkup | undefined, string, string][] = [
  // Anti-forgery tokens, however an application names them.
  ['WordPress nonce', `${A}/wp-admin/post.php?post=4&_wpnonce=8a1f`, '', undefined, 'state query key', '_wpnonce'],
  ['Moodle sesskey', `${A}/course/view.php?id=5&sesskey=Xy7K&marker=2`, '', undefined, 'state query key', 'sesskey'],
  ['Laravel and Roundcube _token', `${A}/?_task=mail&_uid=3&_token=Qh7R`, '', undefined, 'state query key', '_token'],
  ['Nextcloud requesttoken', `${A}/index.php/apps/x?requesttoken=Zm9v`, '', undefined, 'state query key', 'requesttoken'],
  ['Atlassian atl_token', `${A}/labels/x.action?entityId=8&atl_token=7c1f`, '', undefined, 'state query key', 'atl_token'],
  ['Keycloak stateChecker', `${A}/realms/r/account/totp?stateChecker=Q2V4`, '', undefined, 'state query key', 'stateChecker'],
  ['OTRS ChallengeToken, pairs split on ;', `${A}/otrs/index.pl?TicketID=5;ChallengeToken=a1B2`, '', undefined, 'state query key', 'ChallengeToken'],
  ['MyBB my_post_key', `${A}/misc.php?fid=3&my_post_key=8a1f`, '', undefined, 'state query key', 'my_post_key'],
  ['a key ending in token', `${A}/bug_monitor.php?bug_id=5&bug_monitor_add_token=2024a1`, '', undefined, 'state query key', 'bug_monitor_add_token'],
  ['Joomla: the token is the key', `${A}/index.php?option=com_x&8c2f1e9a0b3d4c5e6f7a8b9c0d1e2f3a=1`, '', undefined, 'state query key', '8c2f1e9a0b3d4c5e6f7a8b9c0d1e2f3a'],
  ['Magento form_key in the path', `${A}/wishlist/index/set/product/18/form_key/Xk3p/`, '', undefined, 'state query key', 'form_key'],
  ['a token as a path parameter', `${A}/admin/pages/x/admin-nonce:4f2e`, '', undefined, 'state query key', 'admin-nonce'],
  ['a statement that writes', `${A}/index.php?route=/sql&db=shop&sql_query=DROP+TABLE+orders`, '', undefined, 'state query key', 'sql_query=DROP TABLE'],
  ['an action with no view the guard knows', `${A}/index.php?action=frob`, '', undefined, 'state query key', 'action=frob'],
  // An operation's value, in whatever shape an application writes it.
  ['Joomla task', `${A}/administrator/index.php?option=com_content&task=articles.publish`, '', undefined, 'action verb', 'publish'],
  ['OTRS Action, camelCase', `${A}/otrs/index.pl?Action=AgentTicketLock`, '', undefined, 'action verb', 'lock'],
  ['pfSense mode, fused', `${A}/status_services.php?mode=restartservice&service=unbound`, '', undefined, 'action verb', 'restart'],
  ['MediaWiki action, fused', `${A}/index.php?title=X&action=markpatrolled&rcid=5`, '', undefined, 'action verb', 'mark'],
  ['vBulletin do, add + object', `${A}/subscription.php?do=addsubscription&t=5`, '', undefined, 'action verb', 'add'],
  ['an abbreviation', `${A}/firewall_rules.php?if=wan&act=del&id=3`, '', undefined, 'action verb', 'del'],
  ['Roundcube _action', `${A}/?_task=mail&_action=delete&_uid=8`, '', undefined, 'action verb', 'delete'],
  // A query key that is a verb; one that also names pages only with a value that is no count.
  ['phpBB watch', `${A}/viewtopic.php?t=57&watch=topic&start=0`, '', undefined, 'action verb', 'watch'],
  ['phpBB mark', `${A}/index.php?mark=forums&mark_time=1716200000`, '', undefined, 'action verb', 'mark'],
  ['a router Del', `${A}/userRpm/WlanMacFilterRpm.htm?Del=2&Page=1`, '', undefined, 'action verb', 'del'],
  // Where a route puts its verb.
  ['a verb that names pages, after what it acts on', `${A}/energy/model/-/environments/2/stop`, '', undefined, 'action verb', 'stop'],
  ['Jenkins build, after the job', `${A}/job/solar-yield/build?delay=0sec`, '', undefined, 'action verb', 'build'],
  ['archive after an id', `${A}/issues/7/archive`, '', undefined, 'action verb', 'archive'],
  ['watch after its collection', `${A}/redmine/watchers/watch?object_id=5`, '', undefined, 'action verb', 'watch'],
  ['a snake_case route led by a verb', `${A}/energy/model/-/issues/7/toggle_subscription`, '', undefined, 'action verb', 'toggle'],
  ['a camelCase route led by a verb', `${A}/computer/agent-1/toggleOffline`, '', undefined, 'action verb', 'toggle'],
  ['a route ended by a strong verb', `${A}/cgi-bin/luci/admin/network/iface_reconnect/wan`, '', undefined, 'action verb', 'reconnect'],
  ['a verb fused with its object', `${A}/pages/removepage.action?pageId=8`, '', undefined, 'action verb', 'remove'],
  ['a weak verb fused with its object', `${A}/forum/addfavourite.php?t=8`, '', undefined, 'action verb', 'add'],
  ['reboot', `${A}/cgi-bin/luci/admin/system/reboot`, '', undefined, 'action verb', 'reboot'],
  ['a command endpoint', `${A}/nagios/cgi-bin/cmd.cgi?cmd_typ=6&host=web1`, '', undefined, 'action verb', 'cmd'],
  ['MediaWiki sign-out in a path', 'https://en.wikipedia.org/wiki/Special:UserLogout', '', undefined, 'action verb', 'logout'],
  ['a namespace is no page name', 'https://de.wikipedia.org/wiki/Spezial:Abmelden', '', undefined, 'action verb', 'abmelden'],
  ['code under a collection is no page name', `${A}/blog/deleteAllPosts`, '', undefined, 'action verb', 'delete'],
  ['a parameter under a collection', `${A}/admin/pages/blog/task:delete`, '', undefined, 'action verb', 'delete'],
  ['an action and nothing more under a collection', `${A}/posts/delete-all`, '', undefined, 'action verb', 'delete'],
  ['a verb after a content page', `${A}/t/solar-panels-in-snow/421/unsubscribe`, '', undefined, 'action verb', 'unsubscribe'],
  // The link's markup.
  ['Rails data-method', `${A}/panels/12`, 'Destroy', { attrs: { 'data-method': 'delete' } }, 'link markup', 'data-method=delete'],
  ['Turbo', `${A}/notifications/all`, 'All', { attrs: { 'data-turbo-method': 'patch' } }, 'link markup', 'data-turbo-method=patch'],
  ['htmx', `${A}/rows/3`, '', { attrs: { 'hx-delete': '/rows/3' } }, 'link markup', 'hx-delete'],
  ['a confirmation', `${A}/job/x/doDel`, '', { attrs: { 'data-confirm': 'Sure?' } }, 'link markup', 'data-confirm'],
  ['an inline confirm', `${A}/index.php?topic=5`, 'Elimina', { attrs: { onclick: "return confirm('Eliminare?');" } }, 'link markup', 'onclick confirm'],
  ['two signs: an icon in a form', `${A}/rows/3`, '', { icon: 'fa fa-trash', inForm: true }, 'link markup', 'icon trash + in a form'],
  // The link's text, title and accessible names.
  ['a verb that ends the text', `${A}/job/x/y`, 'Projekt löschen', undefined, 'anchor text', 'löschen'],
  ['an icon button\'s title', `${A}/rules/3`, '', { attrs: { title: 'Delete this rule' } }, 'anchor text', 'delete'],
  ['an aria-label', `${A}/cart/x`, '×', { attrs: { 'aria-label': 'Remove this item' } }, 'anchor text', 'remove'],
  ['the label of an icon inside', `${A}/x/y`, '', { iconLabel: 'Sign out' }, 'anchor text', 'sign out'],
  ['a verb that names pages, with a hash beside it', `${A}/viewtopic.php?t=57&hash=9a8b`, 'Watch', undefined, 'anchor text', '"watch" + hash'],
];

// [what it shows, url, link text, markup]
const reads: [string, string, string, LinkMarkup | undefined][] = [
  ['a video page', 'https://video.test/watch?v=dQw4w9WgXcQ', 'Solar roof install', undefined],
  ['a verb that names a page, after a collection', `${A}/blog/archive`, 'Archive', undefined],
  ['the same in documentation', `${A}/docs/build`, 'Build', undefined],
  ['a sitemap file so named', `${A}/sitemaps/archive.xml`, '', undefined],
  ['a page file so named', `${A}/help/move.html`, 'Moving house', undefined],
  ['the same after a language', `${A}/de/start`, 'Start', undefined],
  ['the same alone', `${A}/start`, 'Start', undefined],
  ['a page of a pager', `${A}/viewtopic.php?t=57&start=20`, '2', undefined],
  ['a date', `${A}/calendar?start=2024-05-01&end=2024-05-31`, 'May', undefined],
  ['a refresh rate', `${A}/d/b7f3e2/solar?orgId=1&refresh=30s`, 'Solar', undefined],
  ['a product named with an action', `${A}/products/sign-out-sheet-clipboard`, 'Sign-out sheet clipboard, A4', undefined],
  ['a product named with a verb', `${A}/products/trash-bags`, 'Remove the old bags', undefined],
  ['a reference page', `${A}/docs/delete-api-reference`, 'Delete API reference', undefined],
  ['an API reference page', 'https://docs.test/api/observations/delete', 'DELETE /observations', undefined],
  ['a post of a year', `${A}/2024/05/ueberall-abmelden-so-gehts/`, 'Überall abmelden', undefined],
  ['a how-to slug', `${A}/index.php?option=com_content&view=article&id=5:comment-se-deconnecter`, 'Comment se déconnecter', undefined],
  ['a topic about deleting', `${A}/t/how-to-delete-an-account/42`, 'How to delete an account', undefined],
  ['a source file', `${A}/energy/model/-/blob/main/app/services/users/destroy_service.rb`, 'destroy_service.rb', undefined],
  ['a view of Zabbix', `${A}/zabbix.php?action=dashboard.view`, 'Dashboards', undefined],
  ['a view of OTRS', `${A}/otrs/index.pl?Action=AgentTicketZoom;TicketID=58`, 'Inverter error', undefined],
  ['a profile by mode', `${A}/memberlist.php?mode=viewprofile&u=2`, 'jo', undefined],
  ['a loose operation key naming a view', `${A}/?_task=addressbook`, 'Contacts', undefined],
  ['a preferences view', `${A}/?_task=settings&_action=preferences`, 'Preferences', undefined],
  ['WordPress\'s list of posts', `${A}/wp-admin/edit.php?post_type=page`, 'All Pages', undefined],
  ['a page named in camelCase by a verb that names pages', `${A}/job/solar-yield/buildTimeTrend`, 'Trend', undefined],
  ['a page named by a noun that a verb ends', `${A}/job/solar-yield/57/testReport/`, 'Test Result', undefined],
  ['a portal\'s order with its access token', `${A}/my/orders/77?access_token=0f9e`, 'Order S00077', undefined],
  ['a hash alone', `${A}/files?hash=4f2e9a`, 'Build log', undefined],
  ['an icon alone', `${A}/?_task=mail&_mbox=Trash`, 'Trash', { icon: 'fa fa-trash' }],
  ['a verb that names pages, alone as a text', `${A}/courses/solar`, 'Start', undefined],
  ['a search', `${A}/?_task=mail&_q=darse+de+baja`, 'Results', undefined],
  ['Drupal\'s search', `${A}/search/node?keys=supprimer`, 'Results', undefined],
  ['a help page in a namespace', `${A}/wiki/Help:Logging_out`, 'Logging out', undefined],
  ['a GET method named in markup', `${A}/panels/12`, 'Show', { attrs: { 'data-method': 'get' } }],
];

describe('the guard\'s signs besides words', () => {
  it.each(acts)('keeps %s from being requested (%s)', (_, url, anchor, markup, rule, match) => {
    expect(check(url, anchor, markup)).toEqual({ rule, match });
  });

  it.each(reads)('reads %s (%s)', (_, url, anchor, markup) => {
    expect(check(url, anchor, markup)).toBeNull();
  });

  it('lets the user turn the markup rule off by name', () => {
    const g = makeSafetyGuard({ avoid: [], disabledRules: ['link markup'] });
    expect(g.check(`${A}/panels/12`, { anchor: 'Show', markup: { attrs: { 'data-method': 'delete' } } })).toBeNull();
  });
});

describe('the tables', () => {
  it('name only attributes the parser keeps', () => {
    for (const name of [...METHOD_ATTRIBUTES, ...WRITING_ATTRIBUTES, ...CONFIRM_ATTRIBUTES, ...SCRIPTED_ATTRIBUTES]) expect(LINK_MARKUP_ATTRIBUTES).toContain(name);
  });

  it('have no verb both a page name and strong or weak, in any language', () => {
    const key = (entry: string) => wordsOf(fold(entry)).join(' ');
    const acting = new Set(Object.values(LEXICON).flatMap((l) => [...l.strong, ...l.weak].map(key)));
    expect(Object.values(LEXICON).flatMap((l) => (l.names ?? []).map(key)).filter((w) => acting.has(w))).toEqual([]);
  });
});
