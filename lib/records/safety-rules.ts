// The session-safety rules by name: what the config validates and the form lists. The guard that applies them
// is lib/policy/safety.ts.

/** The default rules with the one line the dashboard shows for each, in the order they are checked. */
export const SAFETY_RULE_HELP = {
  'action verb': 'Links whose path or query names an action, in 20 languages: log out, delete, close account, unsubscribe, like, vote, add to cart, checkout, confirm, mark read, …',
  'state query key': 'Links carrying a token, csrf, nonce, sig, auth or hash key, or an action, do or cmd other than a view',
  'api path': 'Links into api, ajax, rpc or graphql endpoints',
  nofollow: 'Links the page marks rel="nofollow" (some sites mark every outside link so)',
  'anchor text': 'Links whose short text names an action: “Log out”, “Abmelden”, “退出”, “Delete”, “Unsubscribe”',
  'undecodable URL': 'Links with a broken %-escape, which cannot be read to check them',
} as const;

export type SafetyRule = keyof typeof SAFETY_RULE_HELP;

/** The names of the default rules, which can be turned off one by one. */
export const DEFAULT_SAFETY_RULES: readonly string[] = Object.keys(SAFETY_RULE_HELP);

/** The rule name of the user's own words (config.safety.avoid): not a default, never turned off by name. */
export const YOUR_LIST = 'your list';
