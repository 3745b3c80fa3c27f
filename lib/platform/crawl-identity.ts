// The crawl's User-Agent in the browser. Chromium does not let a fetch set User-Agent, so
// one declarativeNetRequest session rule sets it on the extension's own requests: those its background makes
// (initiator: the extension's origin, no tab), and no others: the user's tabs and other extensions are not
// matched. The same rule works in Firefox, whose DNR also matches an extension's own background requests.
// Session rules last until the browser closes, not beyond: the service applies its plan again at every start.
import { browser } from 'wxt/browser';
import { productToken, type IdentityPlan, type IdentityPort } from '../app/identity';

/** The extension's only session rule. */
const IDENTITY_RULE_ID = 1;

/** The value sent: the browser's own User-Agent, then the crawl's product token. */
export function crawlUserAgent(): string {
  const manifest = browser.runtime.getManifest();
  return `${navigator.userAgent} ${productToken(manifest.version, manifest.homepage_url)}`;
}

export function makeCrawlIdentity(): IdentityPort {
  const value = crawlUserAgent();
  const ownHost = new URL(browser.runtime.getURL('/')).hostname;
  const dnr = browser.declarativeNetRequest;
  return {
    async apply(plan: IdentityPlan) {
      try {
        await dnr.updateSessionRules({
          removeRuleIds: [IDENTITY_RULE_ID],
          addRules: plan.identify
            ? [{
              id: IDENTITY_RULE_ID,
              priority: 1,
              action: { type: 'modifyHeaders', requestHeaders: [{ header: 'user-agent', operation: 'set', value }] },
              condition: {
                initiatorDomains: [ownHost],
                tabIds: [-1],
                // A fetch from the worker is "xmlhttprequest"; "other" covers browsers that file it so.
                resourceTypes: ['xmlhttprequest', 'other'],
                ...(plan.exceptDomains.length ? { excludedRequestDomains: plan.exceptDomains } : {}),
              },
            }]
            : [],
        });
      } catch (err) {
        // A plan the browser refuses must not leave the previous rule naming a crawl that opted out.
        await dnr.updateSessionRules({ removeRuleIds: [IDENTITY_RULE_ID] }).catch(() => undefined);
        throw err;
      }
    },
  };
}
