// The session-safety rules by name: what the config validates and the form lists. The guard that applies them
// is lib/policy/safety.ts.

/** The default rules with the one line the dashboard shows for each, in the order they are checked. */
export const SAFETY_RULE_HELP = {
  'action verb': 'Links whose path or query names an action, in 20 languages: log out, delete, unsubscribe, reboot, start a build, watch, join, like, vote, add to cart, mark read, …',
  'state query key': 'Links carrying an anti-forgery token (nonce, sesskey, _token, csrf, …), an action, do or cmd other than a view, or a statement that writes',
  'api path': 'Links into api, ajax, rpc or graphql endpoints',
  nofollow: 'Links the page marks rel="nofollow" (some sites mark every outside link so)',
  'anchor text': 'Links whose short text, title or icon label names an action: “Log out”, “Projekt löschen”, “退出”, “Delete”, “Unsubscribe”',
  'link markup': 'Links the page marks as actions: data-method="delete", data-confirm, onclick confirm(…), an htmx or Livewire write',
  'undecodable URL': 'Links with a broken %-escape, which cannot be read to check them',
} as const;

export type SafetyRule = keyof typeof SAFETY_RULE_HELP;

/** The names of the default rules, which can be turned off one by one. */
export const DEFAULT_SAFETY_RULES: readonly string[] = Object.keys(SAFETY_RULE_HELP);

/** The rule name of the user's own words (config.safety.avoid): not a default, never turned off by name. */
export const YOUR_LIST = 'your list';
