// Crawl scope: which URLs a crawl may request at all. The crawler sends the user's cookies, so scope decides
// which sites see the user's session: by default only the hosts the user named as seeds.
import { siteOf, siteOfHostOrUrl, urlOfHostOrUrl } from '../records/url';
import type { CrawlConfig } from '../records/config';
import { isPrivateHost } from '../net/private-host';
import { engineUrl } from '../records/template-config';

/**
 * A host as scope compares it: lowercased, without a trailing dot, and with one leading `www.` dropped.
 * `www.x` and `x` count as one host because sites serve one from the other (and redirect between them) far
 * more often than they are different sites; a seed on either would otherwise find its own links out of scope.
 * Ports do not count: cookies ignore them too.
 */
export function hostKey(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

const hostnameOf = (url: string): string | null => {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
};

/** A few names for a sentence: "a.test, b.test" or "a.test, b.test, c.test and 4 more". */
function listed(names: Iterable<string>): string {
  const all = [...new Set(names)];
  return all.length <= 3 ? all.join(', ') : `${all.slice(0, 3).join(', ')} and ${all.length - 3} more`;
}

/**
 * Why `url` is out of the crawl's scope, as one sentence, or null when it may be requested. In every mode,
 * "anywhere" included, loopback, private, link-local and CGNAT addresses and `localhost` are out unless a
 * seed (or, for "listed-sites", a listed site) names that very host.
 */
export type ScopeReason = (url: string, read?: ReadHost) => string | null;

/** The hostname and site of the URL scope is asked about, when the caller has read them already (url.ts linkTarget). */
export interface ReadHost {
  hostname: string;
  site: string;
}

export function scopeReason(config: CrawlConfig): ScopeReason {
  const { mode, sites } = config.scope;
  // Design E.2: a template's search engine is named by the user as surely as a seed is.
  const seedUrls = config.template ? [...config.seeds, engineUrl(config.template)] : config.seeds;
  const seedHosts = seedUrls.map(hostnameOf).filter((h): h is string => h !== null);
  const listedHosts = mode === 'listed-sites' ? sites.map((s) => hostnameOf(urlOfHostOrUrl(s))).filter((h): h is string => h !== null) : [];
  const namedPrivate = new Set([...seedHosts, ...listedHosts].map(hostKey));
  const privateReason =
    mode === 'listed-sites'
      ? 'a private or loopback address that no seed or listed site names'
      : 'a private or loopback address that no seed names';

  let inMode: (url: string, hostname: string, read?: ReadHost) => boolean;
  let outside: string;
  if (mode === 'anywhere') {
    inMode = () => true;
    outside = '';
  } else if (mode === 'seed-hosts') {
    const hosts = new Set(seedHosts.map(hostKey));
    inMode = (_, hostname) => hosts.has(hostKey(hostname));
    outside = `outside the crawl's scope (the seeds' hosts: ${listed(hosts)})`;
  } else {
    const allowed = new Set(mode === 'seed-sites' ? seedUrls.map(siteOf) : sites.map(siteOfHostOrUrl));
    inMode = (url, _, read) => allowed.has(read?.site ?? siteOf(url));
    outside = `outside the crawl's scope (${mode === 'seed-sites' ? "the seeds' sites" : 'the listed sites'}: ${listed(allowed)})`;
  }

  return (url, read) => {
    const hostname = read ? read.hostname : hostnameOf(url);
    if (hostname === null) return 'not a URL';
    if (isPrivateHost(hostname) && !namedPrivate.has(hostKey(hostname))) return privateReason;
    return inMode(url, hostname, read) ? null : outside;
  };
}

export function makeScope(config: CrawlConfig): (url: string) => boolean {
  const reason = scopeReason(config);
  return (url) => reason(url) === null;
}
